/**
 * The integrations forms' validation: the form's values are made into the API's body (`logic.ts`)
 * and checked by the API's own schema (`shared/webhooks.ts`, `shared/schemas/api-tokens.ts`), each
 * message put on the form's field for the body's field it names (`projectId` → `project`), as the
 * API's 400 `fields` name them. Loaded with zod on a form's first validation (`lazyZodResolver`),
 * never with the page.
 */
import { apiTokenCreateSchema } from '../../../shared/schemas/api-tokens.ts';
import { webhookCreateSchema } from '../../../shared/webhooks.ts';
import { z } from '../../../shared/zod.ts';
import { tokenBody, webhookBody, type TokenFormValues, type WebhookFormValues } from './logic.ts';

/** The form's field for a body's field. */
const FORM_FIELD: Readonly<Record<string, string>> = { projectId: 'project' };

/** A schema of the form's values: `body(values)` checked by `schema`, one message per top-level field. */
function checkedAs<V>(body: (values: V) => unknown, schema: z.ZodType) {
  return z
    .custom<V>(() => true)
    .superRefine((values, ctx) => {
      const result = schema.safeParse(body(values));
      if (result.success) return;
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const key = issue.path.length > 0 ? String(issue.path[0]) : 'root';
        const field = FORM_FIELD[key] ?? key;
        if (seen.has(field)) continue;
        seen.add(field);
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    });
}

export const webhookFormSchema = checkedAs<WebhookFormValues>(webhookBody, webhookCreateSchema);
export const tokenFormSchema = checkedAs<TokenFormValues>(tokenBody, apiTokenCreateSchema);
