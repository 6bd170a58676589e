/**
 * Publishing: the builder's own publish check first (`checkForPublish`, the server's check): when
 * the draft has problems they are listed at once, each a button that selects its question or page,
 * and nothing is sent. Otherwise it saves the draft, lists the changes since the last version
 * (GET …/changes) and publishes; problems the server still finds (400 `validation_failed`) are
 * listed the same way. When a breaking change meets answers already given, the button becomes
 * "Publish and accept these changes" and sends `confirmBreaking: true`. When an offered language
 * misses translations (the changes call's `missingTranslations`, or a 409 `missing_translations`)
 * it lists them per language, and publishing needs the choice "Show the source language where a
 * translation is missing", sent as `fallback: "source"`.
 */
import { useEffect, useId, useState } from 'react';
import type { FormChange } from '../../../shared/forms/changes.ts';
import type { BreakingChangesError, FormDraftChanges, FormPublished, MissingTranslationsError } from '../../../shared/schemas/forms.ts';
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from '../../../shared/languages.ts';
import { ApiError, apiGet, apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { languageName } from './language-names.ts';

export interface PublishDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  formId: number;
  /** Saves the draft now; true when the server has it. */
  flush: () => Promise<boolean>;
  revision: () => number;
  /** The problems the builder sees (checkForPublish on the draft). */
  problems: Readonly<Record<string, string[]>>;
  /** The latest published version as the builder knows it (null before the first). */
  latestVersion: number | null;
  /** The draft's source language (the fallback shows it where a translation is missing); English when not given. */
  sourceLanguage?: Language;
  /** Where a problem's key points: the element or page title. */
  describeKey: (key: string) => string;
  /** A problem was chosen: select its element or page. */
  onSelectProblem: (key: string) => void;
  onPublished: (published: FormPublished) => void;
}

type Step =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  /** The builder's check found problems: listed without asking the server. */
  | { kind: 'problems'; problems: Record<string, string[]> }
  | { kind: 'ready'; data: FormDraftChanges; problems: Record<string, string[]> };

const hasProblems = (problems: Readonly<Record<string, string[]>>) => Object.values(problems).some((messages) => messages.length > 0);

function problemsOf(local: Readonly<Record<string, string[]>>, server: Record<string, string[]> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const source of [local, server ?? {}]) {
    for (const [key, messages] of Object.entries(source)) out[key] = [...new Set([...(out[key] ?? []), ...messages])];
  }
  return out;
}

/** A problem under its question's name: without the quoted key it starts with, capitalised. */
function aboutIt(key: string, message: string): string {
  const prefix = `${JSON.stringify(key)}: `;
  const text = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function bodyError<T>(error: unknown): T | null {
  if (!(error instanceof ApiError) || !error.body) return null;
  try {
    return ((JSON.parse(error.body) as { error?: T }).error ?? null) as T | null;
  } catch {
    return null;
  }
}

export function PublishDialog({
  open,
  onOpenChange,
  formId,
  flush,
  revision,
  problems,
  latestVersion,
  sourceLanguage = SOURCE_LANGUAGE,
  describeKey,
  onSelectProblem,
  onPublished,
}: PublishDialogProps) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [forcedBreaking, setForcedBreaking] = useState<FormChange[] | null>(null);
  /** Missing translations the server answered with a 409 (they replace the changes call's). */
  const [forcedMissing, setForcedMissing] = useState<MissingTranslationsError['missing'] | null>(null);
  const [fallback, setFallback] = useState(false);
  const fallbackId = useId();

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setAlert(null);
    setForcedBreaking(null);
    setForcedMissing(null);
    setFallback(false);
    // The same check as the server's: a draft with problems is not sent at all.
    if (hasProblems(problems)) {
      setStep({ kind: 'problems', problems: problemsOf(problems, undefined) });
      return;
    }
    setStep({ kind: 'loading' });
    void (async () => {
      const saved = await flush();
      if (cancelled) return;
      if (!saved) {
        setStep({ kind: 'failed', message: m.forms_publish_not_saved() });
        return;
      }
      try {
        const data = await apiGet<FormDraftChanges>(`/api/admin/forms/${formId}/changes`);
        if (!cancelled) setStep({ kind: 'ready', data, problems: problemsOf(problems, data.problems) });
      } catch (error) {
        if (cancelled || handleSessionLost(error)) return;
        setStep({ kind: 'failed', message: errorMessage(error) });
      }
    })();
    return () => {
      cancelled = true;
    };
    // The problems are read once per opening; the draft cannot change while the dialog is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- save and compare once per opening (or retry); flush and problems are read at that moment
  }, [open, attempt, formId]);

  async function publish(confirmBreaking: boolean) {
    setBusy(true);
    setAlert(null);
    try {
      const published = await apiSend<FormPublished>('POST', `/api/admin/forms/${formId}/publish`, {
        revision: revision(),
        ...(confirmBreaking ? { confirmBreaking: true } : {}),
        ...(fallback ? { fallback: 'source' } : {}),
      });
      onPublished(published);
      onOpenChange(false);
    } catch (error) {
      if (handleSessionLost(error)) return;
      if (error instanceof ApiError && error.code === 'breaking_changes') {
        setForcedBreaking(bodyError<BreakingChangesError>(error)?.changes ?? []);
      } else if (error instanceof ApiError && error.code === 'missing_translations') {
        setForcedMissing(bodyError<MissingTranslationsError>(error)?.missing ?? {});
        setFallback(false);
      } else if (error instanceof ApiError && error.code === 'validation_failed' && step.kind === 'ready') {
        setStep({ ...step, problems: problemsOf(step.problems, error.fields as Record<string, string[]>) });
      } else {
        setAlert(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  }

  const next = step.kind === 'ready' ? (step.data.latestVersion ?? 0) + 1 : step.kind === 'problems' ? (latestVersion ?? 0) + 1 : null;
  const blocking = step.kind === 'ready' || step.kind === 'problems' ? Object.entries(step.problems).filter(([, messages]) => messages.length > 0) : [];
  const problemCount = blocking.reduce((sum, [, messages]) => sum + messages.length, 0);
  const needsConfirm = step.kind === 'ready' && ((step.data.breaking && step.data.hasAnswers) || forcedBreaking !== null);
  const missingMap = forcedMissing ?? (step.kind === 'ready' ? (step.data.missingTranslations ?? {}) : {});
  const missing = LANGUAGES.flatMap((language) => {
    const count = missingMap[language];
    return typeof count === 'number' && count > 0 ? [{ language, count }] : [];
  });
  const needsFallback = step.kind === 'ready' && blocking.length === 0 && missing.length > 0;

  return (
    <Dialog open={open} onOpenChange={(value) => !busy && onOpenChange(value)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{next === null ? m.forms_toolbar_publish() : m.forms_publish_version({ version: formatCount(next) })}</DialogTitle>
          <DialogDescription>{m.forms_publish_description()}</DialogDescription>
        </DialogHeader>

        {step.kind === 'loading' && <Loading label={m.forms_publish_loading()} />}

        {step.kind === 'failed' && <Failed title={m.forms_publish_failed()} message={step.message} onRetry={() => setAttempt((n) => n + 1)} />}

        {(step.kind === 'ready' || step.kind === 'problems') && (
          <div className="flex flex-col gap-4">
            {blocking.length > 0 ? (
              <section aria-labelledby="publish-problems" className="flex flex-col gap-2">
                <h3 id="publish-problems" className="font-semibold">
                  {m.forms_publish_problems_title({ count: problemCount })}
                </h3>
                <p className="text-sm text-muted-foreground">{m.forms_publish_problems_intro()}</p>
                <ul className="flex flex-col gap-1.5">
                  {blocking.map(([key, messages]) => (
                    <li key={key}>
                      <button
                        type="button"
                        className="w-full rounded-md border border-[color-mix(in_oklab,var(--destructive)_40%,transparent)] px-3 py-2 text-start text-sm break-words hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                        onClick={() => {
                          onOpenChange(false);
                          onSelectProblem(key);
                        }}
                      >
                        <span className="block font-medium">{describeKey(key)}</span>
                        {messages.map((message) => (
                          <span key={message} className="block text-destructive">
                            {aboutIt(key, message)}
                          </span>
                        ))}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            ) : step.kind === 'ready' ? (
              <section aria-labelledby="publish-changes" className="flex flex-col gap-2">
                <h3 id="publish-changes" className="font-semibold">
                  {step.data.latestVersion === null
                    ? m.forms_publish_first_version()
                    : m.forms_publish_changes_since({ version: formatCount(step.data.latestVersion) })}
                </h3>
                {step.data.latestVersion === null ? (
                  <p className="text-sm text-muted-foreground">{m.forms_publish_first_version_body()}</p>
                ) : step.data.changes.length === 0 ? (
                  <p className="text-sm text-muted-foreground">{m.forms_publish_no_changes({ version: formatCount(step.data.latestVersion) })}</p>
                ) : (
                  <ul className="flex max-h-72 flex-col gap-1.5 overflow-y-auto text-sm">
                    {step.data.changes.map((change, index) => (
                      <li key={index} className="flex flex-wrap items-start gap-2 rounded-md border border-border px-3 py-2">
                        <span className="min-w-0 flex-1 break-words">{change.message}</span>
                        {change.breaking && (
                          <Badge variant="outline" className="border-destructive text-destructive">
                            {m.forms_publish_affects_answers()}
                          </Badge>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
                {needsConfirm && (
                  <Alert variant="destructive" title={m.forms_publish_breaking_title()}>
                    <p>{m.forms_publish_breaking_body()}</p>
                    {forcedBreaking && forcedBreaking.length > 0 && (
                      <ul className="mt-1 list-disc ps-5">
                        {forcedBreaking.map((change, index) => (
                          <li key={index}>{change.message}</li>
                        ))}
                      </ul>
                    )}
                  </Alert>
                )}
              </section>
            ) : null}
            {needsFallback && (
              <section aria-labelledby={`${fallbackId}-title`} className="flex flex-col gap-2 rounded-md border border-border p-3">
                <h3 id={`${fallbackId}-title`} className="font-semibold">
                  {m.forms_publish_missing_title()}
                </h3>
                <ul className="list-disc ps-5 text-sm">
                  {missing.map(({ language, count }) => (
                    <li key={language}>{m.forms_publish_missing_item({ language: languageName(language), count: formatCount(count) })}</li>
                  ))}
                </ul>
                <p className="text-sm text-muted-foreground">{m.forms_publish_missing_body()}</p>
                <CheckboxField
                  id={fallbackId}
                  label={m.forms_publish_missing_fallback({ language: languageName(sourceLanguage) })}
                  checked={fallback}
                  onCheckedChange={(checked) => setFallback(checked === true)}
                  description={fallback ? undefined : m.forms_publish_missing_choose()}
                />
              </section>
            )}
            {alert && <Alert variant="destructive">{alert}</Alert>}
          </div>
        )}

        <DialogFooter>
          <Button variant="outline" disabled={busy} onClick={() => onOpenChange(false)}>
            {m.forms_cancel()}
          </Button>
          {(step.kind === 'ready' || step.kind === 'problems') && (
            <Button
              variant={needsConfirm ? 'destructive' : 'default'}
              loading={busy}
              disabled={blocking.length > 0 || (needsFallback && !fallback)}
              onClick={() => void publish(needsConfirm)}
            >
              {needsConfirm ? m.forms_publish_confirm() : m.forms_publish_version({ version: formatCount(next ?? 1) })}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
