/**
 * Reading a file chosen for "Import JSON" (./ImportExport.tsx) as a draft: loaded when a file is
 * chosen, with the publish check and zod.
 */
import { formDraftSchema, type FormDraft } from '../../../shared/forms/definition.ts';
import { checkForPublish } from '../../../shared/forms/publish.ts';
import { m } from '../../../shared/i18n.ts';

/** The outcome of reading a file: a draft (with its publish problems) or why it is refused. */
export type ImportResult = { ok: true; draft: FormDraft; problems: string[] } | { ok: false; problems: string[] };

/**
 * What the import says of a file that is not JSON at all (never the parser's own words), in
 * English: the message `forms_import_not_json` (readImport says it in the page's language).
 */
export const NOT_JSON_MESSAGE = 'This file is not a JSON file. Choose a form saved with “Export JSON” (a .json file).';
/** … of an empty file (`forms_import_empty`). */
export const EMPTY_FILE_MESSAGE = 'This file is empty.';

/**
 * Reads a file's text as a draft; see the module comment. Whatever is wrong is said in the publish
 * check's words (`checkForPublish`), the same as the builder and the server use.
 */
export function readImport(text: string): ImportResult {
  if (text.trim() === '') return { ok: false, problems: [m.forms_import_empty()] };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, problems: [m.forms_import_not_json()] };
  }
  const problems = Object.values(checkForPublish(value).problems).flat();
  const parsed = formDraftSchema.safeParse(value);
  // A draft that is not well-formed always has publish problems (the publish shape is stricter); the fallback is never expected.
  if (!parsed.success) return { ok: false, problems: problems.length > 0 ? problems : [m.forms_import_not_a_form()] };
  return { ok: true, draft: parsed.data, problems };
}
