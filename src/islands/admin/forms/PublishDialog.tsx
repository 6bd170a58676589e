/**
 * Publishing: the builder's own publish check first (`checkForPublish`, the server's check): when
 * the draft has problems they are listed at once, each a button that selects its question or page,
 * and nothing is sent. Otherwise it saves the draft, lists the changes since the last version
 * (GET …/changes) and publishes; problems the server still finds (400 `validation_failed`) are
 * listed the same way. When a breaking change meets answers already given, the button becomes
 * "Publish and accept these changes" and sends `confirmBreaking: true`.
 */
import { useEffect, useState } from 'react';
import type { FormChange } from '../../../shared/forms/changes.ts';
import type { BreakingChangesError, FormDraftChanges, FormPublished } from '../../../shared/schemas/forms.ts';
import { ApiError, apiGet, apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';

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
  describeKey,
  onSelectProblem,
  onPublished,
}: PublishDialogProps) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [forcedBreaking, setForcedBreaking] = useState<FormChange[] | null>(null);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setAlert(null);
    setForcedBreaking(null);
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
        setStep({ kind: 'failed', message: 'Your latest changes are not saved yet, so they cannot be published. Check the save status, then try again.' });
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
      });
      onPublished(published);
      onOpenChange(false);
    } catch (error) {
      if (handleSessionLost(error)) return;
      if (error instanceof ApiError && error.code === 'breaking_changes') {
        setForcedBreaking(bodyError<BreakingChangesError>(error)?.changes ?? []);
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

  return (
    <Dialog open={open} onOpenChange={(value) => !busy && onOpenChange(value)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{next === null ? 'Publish' : `Publish version ${next}`}</DialogTitle>
          <DialogDescription>Surveys and missions use published versions; the draft stays yours to change.</DialogDescription>
        </DialogHeader>

        {step.kind === 'loading' && <Loading label="Saving the draft and comparing it with the last version…" />}

        {step.kind === 'failed' && <Failed title="Publishing is not possible right now" message={step.message} onRetry={() => setAttempt((n) => n + 1)} />}

        {(step.kind === 'ready' || step.kind === 'problems') && (
          <div className="flex flex-col gap-4">
            {blocking.length > 0 ? (
              <section aria-labelledby="publish-problems" className="flex flex-col gap-2">
                <h3 id="publish-problems" className="font-semibold">
                  {problemCount === 1 ? 'Fix this problem before publishing' : `Fix these ${problemCount} problems before publishing`}
                </h3>
                <p className="text-sm text-muted-foreground">Nothing was published. Choose a question to go to it.</p>
                <ul className="flex flex-col gap-1.5">
                  {blocking.map(([key, messages]) => (
                    <li key={key}>
                      <button
                        type="button"
                        className="w-full rounded-md border border-[color-mix(in_oklab,var(--destructive)_40%,transparent)] px-3 py-2 text-left text-sm break-words hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
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
                  {step.data.latestVersion === null ? 'The first version' : `Changes since version ${step.data.latestVersion}`}
                </h3>
                {step.data.latestVersion === null ? (
                  <p className="text-sm text-muted-foreground">Nothing has been published yet: this version holds the whole form.</p>
                ) : step.data.changes.length === 0 ? (
                  <p className="text-sm text-muted-foreground">Nothing changed since version {step.data.latestVersion}.</p>
                ) : (
                  <ul className="flex max-h-72 flex-col gap-1.5 overflow-y-auto text-sm">
                    {step.data.changes.map((change, index) => (
                      <li key={index} className="flex flex-wrap items-start gap-2 rounded-md border border-border px-3 py-2">
                        <span className="min-w-0 flex-1 break-words">{change.message}</span>
                        {change.breaking && (
                          <Badge variant="outline" className="border-destructive text-destructive">
                            Affects answers
                          </Badge>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
                {needsConfirm && (
                  <Alert variant="destructive" title="Some changes affect answers already given">
                    <p>
                      Earlier versions have answers that these changes no longer fit (removed questions or options, a new type, a new range). Those answers stay
                      with their version.
                    </p>
                    {forcedBreaking && forcedBreaking.length > 0 && (
                      <ul className="mt-1 list-disc pl-5">
                        {forcedBreaking.map((change, index) => (
                          <li key={index}>{change.message}</li>
                        ))}
                      </ul>
                    )}
                  </Alert>
                )}
              </section>
            ) : null}
            {alert && <Alert variant="destructive">{alert}</Alert>}
          </div>
        )}

        <DialogFooter>
          <Button variant="outline" disabled={busy} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          {(step.kind === 'ready' || step.kind === 'problems') && (
            <Button variant={needsConfirm ? 'destructive' : 'default'} loading={busy} disabled={blocking.length > 0} onClick={() => void publish(needsConfirm)}>
              {needsConfirm ? 'Publish and accept these changes' : `Publish version ${next}`}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
