/**
 * Export the draft as a JSON file (pretty-printed, named after the form's title) and import one:
 * a file that is not JSON is refused in our words (never the parser's); JSON that is not a
 * well-formed draft (`formDraftSchema`) is refused with every problem listed in the publish
 * check's words, and the draft untouched; a well-formed one may still have publish problems
 * (listed), and replaces the draft once confirmed (undoable).
 */
import { useRef, useState } from 'react';
import { formDraftSchema, type FormDraft } from '../../../shared/forms/definition.ts';
import { checkForPublish } from '../../../shared/forms/publish.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { m } from '../../../shared/i18n.ts';

/** A file name from a title: "Pet survey 2026!" → "pet-survey-2026.json". */
export function exportFileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${slug || 'form'}.json`;
}

/** Downloads the draft as pretty-printed JSON. */
export function exportDraft(draft: FormDraft): void {
  const blob = new Blob([`${JSON.stringify(draft, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(draft.title);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

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

type Pending = { name: string; result: ImportResult } | null;

/** "Import JSON": a button, the file picker, and the dialogs that follow. */
export function ImportButton({ onImport, className }: { onImport: (draft: FormDraft) => void; className?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending>(null);

  async function read(file: File) {
    const text = await file.text().catch(() => null);
    setPending({ name: file.name, result: text === null ? { ok: false, problems: [m.forms_import_unreadable()] } : readImport(text) });
  }

  const result = pending?.result;
  const draft = result?.ok ? result.draft : null;
  const count = draft ? draft.pages.reduce((sum, page) => sum + page.elements.length, 0) : 0;

  return (
    <>
      <Button variant="outline" size="sm" className={className} onClick={() => input.current?.click()}>
        {m.forms_import_button()}
      </Button>
      <HiddenFileInput
        ref={input}
        accept="application/json,.json"
        onFile={(file) => {
          if (file) void read(file);
        }}
      />
      <Dialog open={pending !== null} onOpenChange={(open) => !open && setPending(null)}>
        <DialogContent className="sm:max-w-xl">
          {result && !result.ok && (
            <>
              <DialogHeader>
                <DialogTitle>{m.forms_import_refused_title()}</DialogTitle>
                <DialogDescription>{m.forms_import_refused_description({ name: pending?.name ?? '' })}</DialogDescription>
              </DialogHeader>
              <ul className="flex max-h-72 list-disc flex-col gap-1 overflow-y-auto ps-5 text-sm">
                {result.problems.map((problem, index) => (
                  <li key={index}>{problem}</li>
                ))}
              </ul>
              <DialogFooter>
                <Button onClick={() => setPending(null)}>{m.forms_import_close()}</Button>
              </DialogFooter>
            </>
          )}
          {result?.ok && draft && (
            <>
              <DialogHeader>
                <DialogTitle>{m.forms_import_confirm_title()}</DialogTitle>
                <DialogDescription>
                  {m.forms_import_confirm_description({
                    name: draft.title || pending?.name || '',
                    pages: m.forms_count_pages({ count: draft.pages.length }),
                    questions: m.forms_count_questions({ count }),
                  })}
                </DialogDescription>
              </DialogHeader>
              {result.problems.length > 0 && (
                <Alert variant="info" title={m.forms_import_problems({ count: result.problems.length })}>
                  <ul className="flex max-h-56 flex-col gap-1 overflow-y-auto">
                    {result.problems.map((problem, index) => (
                      <li key={index}>{problem}</li>
                    ))}
                  </ul>
                </Alert>
              )}
              <DialogFooter>
                <Button variant="outline" onClick={() => setPending(null)}>
                  {m.forms_cancel()}
                </Button>
                <Button
                  onClick={() => {
                    onImport(draft);
                    setPending(null);
                  }}
                >
                  {m.forms_import_replace()}
                </Button>
              </DialogFooter>
            </>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
