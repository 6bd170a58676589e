/**
 * The rewards forms' validation: the form's values are made into the API's body (`logic.ts`) and
 * checked by the API's own schema (`src/shared/schemas/rewards.ts`), each message put on the
 * body's field it names (`countries.3` → `countries`), as the API's 400 `fields` name them. Loaded
 * with zod on a form's first validation (`lazyZodResolver`), never with the page.
 */
import { rewardCreateSchema, rewardSettingsSchema } from '../../../shared/schemas/rewards.ts';
import { z } from '../../../shared/zod.ts';
import { rewardBody, settingsBody, type RewardFormValues, type SettingsFormValues } from './logic.ts';

/** A schema of the form's values: `body(values)` checked by `schema`, one message per top-level field. */
function checkedAs<V>(body: (values: V) => unknown, schema: z.ZodType) {
  return z
    .custom<V>(() => true)
    .superRefine((values, ctx) => {
      const result = schema.safeParse(body(values));
      if (result.success) return;
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const field = issue.path.length > 0 ? String(issue.path[0]) : 'root';
        if (seen.has(field)) continue;
        seen.add(field);
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    });
}

export const rewardFormSchema = checkedAs<RewardFormValues>(rewardBody, rewardCreateSchema);
export const settingsFormSchema = checkedAs<SettingsFormValues>(settingsBody, rewardSettingsSchema);
