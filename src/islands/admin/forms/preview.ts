/**
 * The definition the builder's preview renders: the draft with every element that fails
 * `formElementSchema` left out (and said so), page conditions that are not well-formed dropped,
 * and repeated ids kept once, so a draft in progress can always be tried.
 */
import { conditionSchema, formElementSchema, type FormDefinition, type FormDraft, type FormElement, type FormPage } from '../../../shared/forms/definition.ts';
import { FORM_SCHEMA_ID } from '../../../shared/forms/constants.ts';
import { m } from '../../../shared/i18n.ts';

/** An element the preview leaves out, and why. */
export interface LeftOut {
  id: string;
  title: string;
  reason: string;
}

export interface PreviewDefinition {
  definition: FormDefinition;
  leftOut: LeftOut[];
}

/** See the module comment. */
export function previewDefinition(draft: FormDraft): PreviewDefinition {
  const leftOut: LeftOut[] = [];
  const seen = new Set<string>();
  const pages: FormPage[] = [];
  for (const page of draft.pages) {
    if (seen.has(page.id)) continue;
    seen.add(page.id);
    const elements: FormElement[] = [];
    for (const raw of page.elements) {
      const title = typeof raw.title === 'string' ? raw.title : '';
      if (seen.has(raw.id)) {
        leftOut.push({ id: raw.id, title, reason: m.forms_preview_same_id() });
        continue;
      }
      const parsed = formElementSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
        leftOut.push({ id: raw.id, title, reason: `${where}${issue?.message ?? m.forms_preview_not_valid()}` });
        continue;
      }
      seen.add(raw.id);
      elements.push(parsed.data);
    }
    const out: FormPage = { id: page.id, elements };
    if (typeof page.title === 'string') out.title = page.title;
    if (typeof page.description === 'string') out.description = page.description;
    if (page.visibleIf !== undefined && page.visibleIf !== null) {
      const condition = conditionSchema.safeParse(page.visibleIf);
      if (condition.success) out.visibleIf = condition.data;
    }
    pages.push(out);
  }
  const definition: FormDefinition = { schema: FORM_SCHEMA_ID, title: draft.title, pages };
  if (typeof draft.description === 'string') definition.description = draft.description;
  return { definition, leftOut };
}
