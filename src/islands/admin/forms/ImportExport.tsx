/**
 * Export the draft as a JSON file (pretty-printed, named after the form's title) and import one:
 * a file that is not JSON is refused in our words (never the parser's); JSON that is not a
 * well-formed draft (`formDraftSchema`) is refused with every problem listed in the publish
 * check's words, and the draft untouched; a well-formed one may still have publish problems
 * (listed), and replaces the draft once confirmed (undoable). The reading itself: ./import-check.ts.
 */
import { useRef, useState } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import { fileNameSlug } from '../../../shared/file-name.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { m } from '../../../shared/i18n.ts';
import type { ImportResult } from './import-check.ts';

/** A file name from a title: "Pet survey 2026!" → "pet-survey-2026.json". */
export function exportFileName(title: string): string {
  return `${fileNameSlug(title, 'form')}.json`;
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

type Pending = { name: string; result: ImportResult } | null;

/** "Import JSON": a button, the file picker, and the dialogs that follow. */
export function ImportButton({ onImport, className }: { onImport: (draft: FormDraft) => void; className?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending>(null);

  async function read(file: File) {
    const text = await file.text().catch(() => null);
    if (text === null) {
      setPending({ name: file.name, result: { ok: false, problems: [m.forms_import_unreadable()] } });
      return;
    }
    // The check (zod) loads when a file is chosen, not with the builder (the page's JavaScript budget).
    const { readImport } = await import('./import-check.ts');
    setPending({ name: file.name, result: readImport(text) });
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
