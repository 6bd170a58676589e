/**
 * The builder's live preview: the one FormRenderer on the current draft, at phone width (390 px)
 * or desktop width (a wide window), to fill in and try the logic. Elements that are not valid yet
 * are left out, with a note. Submitting sends nothing: it shows the answers it would send.
 * The answers carry over between the two widths; "Restart preview" starts again. A form offered
 * in several languages can be previewed in each (`localizeDefinition`: a missing translation shows
 * the source text, as participants see it).
 */
import { useDeferredValue, useMemo, useState } from 'react';
import type { Answers, FormDraft } from '../../../shared/forms/definition.ts';
import { FormRenderer } from '../../../components/forms/FormRenderer.tsx';
import { usePreviewMedia } from '../../../components/forms/preview-store.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { previewDefinition } from './preview.ts';
import { m } from '../../../shared/i18n.ts';
import { contentLanguageFor, localizeDefinition, offeredLanguages } from '../../../shared/forms/translations.ts';
import { directionOf, type Language } from '../../../shared/languages.ts';
import { languageName } from './language-names.ts';

export const PHONE_WIDTH_PX = 390;

export function PreviewPanel({ draft, headingId }: { draft: FormDraft; headingId: string }) {
  const deferred = useDeferredValue(draft);
  const [wanted, setWanted] = useState<Language | null>(null);
  const offered = offeredLanguages(deferred);
  const language = contentLanguageFor(deferred, wanted);
  const { definition, leftOut } = useMemo(() => previewDefinition(localizeDefinition(deferred, language)), [deferred, language]);
  const [wide, setWide] = useState(false);
  const [run, setRun] = useState(0);
  const [answers, setAnswers] = useState<Answers>({});
  const [pageId, setPageId] = useState<string | null>(null);
  const [sent, setSent] = useState<Answers | null>(null);
  const media = usePreviewMedia();

  const restart = () => {
    setRun((n) => n + 1);
    setAnswers({});
    setPageId(null);
    setSent(null);
  };

  const renderer = (where: 'phone' | 'desktop') => (
    <div className="flex flex-col gap-4">
      {sent && (
        <Alert variant="success" title={m.forms_preview_sent_title()}>
          <p>{m.forms_preview_sent_body()}</p>
          <pre
            aria-label={m.forms_preview_sent_label()}
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable to scroll with the keyboard (axe: scrollable-region-focusable)
            tabIndex={0}
            className="mt-2 max-h-48 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap"
          >
            {JSON.stringify(sent, null, 2)}
          </pre>
        </Alert>
      )}
      <div lang={language} dir={directionOf(language)}>
        <FormRenderer
          key={`${run}-${where}`}
          definition={definition}
          seed="preview"
          media={media}
          idPrefix={`preview-${where}`}
          headingLevel={3}
          initialAnswers={answers}
          initialPageId={pageId}
          onChange={(next, page) => {
            setAnswers(next);
            setPageId(page);
          }}
          onPageChange={(page) => setPageId(page)}
          onSubmit={async (cleaned) => {
            setSent(cleaned);
          }}
        />
      </div>
    </div>
  );

  const toolbar = (
    <div className="flex flex-wrap items-center gap-2">
      <div role="group" aria-label={m.forms_preview_width()} className="inline-flex rounded-md border border-input p-0.5">
        <Button variant={wide ? 'ghost' : 'secondary'} size="sm" className="h-8" aria-pressed={!wide} onClick={() => setWide(false)}>
          {m.forms_preview_phone()}
        </Button>
        <Button variant={wide ? 'secondary' : 'ghost'} size="sm" className="h-8" aria-pressed={wide} onClick={() => setWide(true)}>
          {m.forms_preview_desktop()}
        </Button>
      </div>
      {offered.length > 1 && (
        <div role="group" aria-label={m.forms_preview_language()} className="inline-flex flex-wrap rounded-md border border-input p-0.5">
          {offered.map((each) => (
            <Button
              key={each}
              variant={each === language ? 'secondary' : 'ghost'}
              size="sm"
              className="h-8"
              aria-pressed={each === language}
              onClick={() => setWanted(each)}
            >
              {languageName(each)}
            </Button>
          ))}
        </div>
      )}
      <Button variant="outline" size="sm" className="h-9" onClick={restart}>
        {m.forms_preview_restart()}
      </Button>
    </div>
  );

  const notes =
    leftOut.length > 0 ? (
      <Alert variant="info" title={m.forms_preview_left_out({ count: leftOut.length })}>
        <ul className="flex flex-col gap-0.5">
          {leftOut.map((item) => (
            <li key={`${item.id}-${item.reason}`}>
              {m.forms_preview_left_out_item({ title: item.title.trim() || item.id, id: item.id, reason: item.reason })}
            </li>
          ))}
        </ul>
      </Alert>
    ) : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {m.forms_preview_heading()}
        </h2>
        <p className="text-sm text-muted-foreground">{m.forms_preview_intro()}</p>
      </div>
      {toolbar}
      {notes}
      {!wide && (
        // On large screens a phone-sized frame; on a phone the screen is the frame.
        <div
          role="region"
          aria-label={m.forms_preview_at_phone()}
          className="mx-auto w-full lg:rounded-[1.75rem] lg:border-[6px] lg:border-foreground/80 lg:bg-background lg:px-4 lg:py-5 lg:shadow-sm"
          style={{ maxWidth: PHONE_WIDTH_PX + 12 }}
        >
          {renderer('phone')}
        </div>
      )}
      {wide && <p className="text-sm text-muted-foreground">{m.forms_preview_wide_open()}</p>}
      <Dialog open={wide} onOpenChange={setWide}>
        <DialogContent variant="wide" className="gap-5">
          <DialogHeader>
            <DialogTitle>{m.forms_preview_at_desktop()}</DialogTitle>
            <DialogDescription>{m.forms_preview_intro()}</DialogDescription>
          </DialogHeader>
          {toolbar}
          {notes}
          <div role="region" aria-label={m.forms_preview_at_desktop()} className="mx-auto w-full max-w-3xl rounded-lg border border-border bg-background p-6">
            {renderer('desktop')}
          </div>
        </DialogContent>
      </Dialog>
    </div>
  );
}
