/**
 * Two conversations about an entry. Internal notes: moderators and admins only, never shown to the
 * participant (the section says so). Probes: follow-up questions the participant is told about and
 * answers from their mission history; each shows its answer or that it is still waiting.
 */
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { REVIEW_LIMITS, type ProbeView, type ReviewNoteView } from '../../../shared/review.ts';
import { apiSend } from '../../../platform/api.ts';
import { applyApiError } from '../../../lib/form-errors.ts';
import { lazyZodResolver } from '../../../lib/lazy-resolver.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { Moment } from '../projects/kit.tsx';
import { Kbd } from './ShortcutsHelp.tsx';
import { keyOf } from './shortcuts.ts';

const nameOf = (user: { firstName: string; lastName: string; email: string } | null | undefined): string =>
  user ? fullNameOf(user) || user.email : 'Someone no longer here';

/** The internal notes of an entry, oldest first, and the form to add one (`n` puts the cursor in it). */
export function NotesPanel({
  entryId,
  notes,
  focusRequest,
  onAdded,
}: {
  entryId: number;
  notes: readonly ReviewNoteView[];
  focusRequest: number;
  onAdded: (note: ReviewNoteView) => void;
}) {
  const id = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ body: string }>({
    resolver: lazyZodResolver<{ body: string }>(() => import('../../../shared/schemas/review.ts').then((m) => m.reviewNoteSchema)),
    defaultValues: { body: '' },
  });

  useEffect(() => {
    if (focusRequest > 0) setFocus('body');
  }, [focusRequest, setFocus]);

  const submit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const note = await apiSend<ReviewNoteView>('POST', `/api/admin/submissions/${entryId}/notes`, { body: values.body });
      onAdded(note);
      reset({ body: '' });
      toast({ title: 'Note added', description: 'Only moderators and admins see it.' });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, ['body']));
    }
  });

  return (
    <div className="flex flex-col gap-3">
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <Badge variant="outline">Internal</Badge>
        <span>Only moderators and admins see these notes. The participant never does.</span>
      </p>
      {notes.length === 0 ? (
        <p className="text-sm text-muted-foreground">No notes yet.</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {notes.map((note) => (
            <li key={note.id} className="flex flex-col gap-1 rounded-md border border-border bg-card px-3 py-2 text-sm">
              <p className="text-xs text-muted-foreground">
                {nameOf(note.author)} · <Moment value={note.createdAt} />
              </p>
              <p className="whitespace-pre-wrap">{note.body}</p>
            </li>
          ))}
        </ol>
      )}
      <form noValidate aria-label="Add an internal note" onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
        {alert && <Alert variant="destructive">{alert}</Alert>}
        <FormField id={`${id}-note`} label="Internal note" error={errors.body?.message}>
          {(control) => <Textarea {...control} {...register('body')} rows={2} maxLength={REVIEW_LIMITS.noteMax} aria-keyshortcuts={keyOf('note')} />}
        </FormField>
        <div>
          <Button type="submit" variant="secondary" size="sm" loading={isSubmitting}>
            Add note <Kbd>{keyOf('note')}</Kbd>
          </Button>
        </div>
      </form>
    </div>
  );
}

/** The probes on an entry, oldest first, with their answers, and the form to ask one. */
export function ProbesPanel({
  entryId,
  probes,
  canAsk,
  onAsked,
}: {
  entryId: number;
  probes: readonly ProbeView[];
  canAsk: boolean;
  onAsked: (probe: ProbeView) => void;
}) {
  const id = useId();
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ question: string }>({
    resolver: lazyZodResolver<{ question: string }>(() => import('../../../shared/schemas/review.ts').then((m) => m.probeCreateSchema)),
    defaultValues: { question: '' },
  });

  const submit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const probe = await apiSend<ProbeView>('POST', `/api/admin/submissions/${entryId}/probes`, { question: values.question });
      onAsked(probe);
      reset({ question: '' });
      toast({ title: 'Question sent', description: 'The participant is told and answers it from their mission history.' });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, ['question']));
    }
  });

  return (
    <div className="flex flex-col gap-3">
      {probes.length === 0 ? (
        <p className="text-sm text-muted-foreground">No follow-up questions yet.</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {probes.map((probe) => (
            <li key={probe.id} className="flex flex-col gap-1.5 rounded-md border border-border bg-card px-3 py-2 text-sm">
              <p className="text-xs text-muted-foreground">
                {probe.askedBy !== undefined ? `${nameOf(probe.askedBy)} · ` : ''}
                <Moment value={probe.askedAt} />
              </p>
              <p className="font-medium whitespace-pre-wrap">{probe.question}</p>
              {probe.answer !== null ? (
                <div className="rounded-md bg-muted px-2.5 py-1.5">
                  <p className="text-xs text-muted-foreground">
                    Answer
                    {probe.answeredAt ? (
                      <>
                        {' '}
                        · <Moment value={probe.answeredAt} />
                      </>
                    ) : null}
                  </p>
                  <p className="whitespace-pre-wrap">{probe.answer}</p>
                </div>
              ) : (
                <p>
                  <Badge variant="outline">Waiting for an answer</Badge>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {canAsk ? (
        <form noValidate aria-label="Ask a follow-up question" onSubmit={(event) => void submit(event)} className="flex flex-col gap-2">
          {alert && <Alert variant="destructive">{alert}</Alert>}
          <FormField
            id={`${id}-question`}
            label="Follow-up question"
            description="The participant is told and answers it from their mission history."
            error={errors.question?.message}
          >
            {(control) => <Textarea {...control} {...register('question')} rows={2} maxLength={REVIEW_LIMITS.questionMax} />}
          </FormField>
          <div>
            <Button type="submit" variant="secondary" size="sm" loading={isSubmitting}>
              Ask the participant
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">Questions can be asked once the entry is submitted.</p>
      )}
    </div>
  );
}
