/**
 * Two conversations about an entry. Internal notes: moderators and admins only, never shown to the
 * participant (the section says so). Probes: follow-up questions the participant is told about and
 * answers from their mission history; each shows its answer or that it is still waiting.
 */
import { useEffect, useId, type ReactNode } from 'react';
import { REVIEW_LIMITS, type ProbeView, type ReviewNoteView } from '../../../shared/review.ts';
import { apiSend } from '../../../platform/api.ts';
import { m } from '../../../shared/i18n.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useApiForm, type ApiFormOptions } from '../../../lib/use-api-form.ts';
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
  user ? fullNameOf(user) || user.email : m.review_someone_gone();

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
  return (
    <div className="flex flex-col gap-3">
      <p className="flex items-start gap-2 text-sm text-muted-foreground">
        <Badge variant="outline">{m.review_notes_internal()}</Badge>
        <span>{m.review_notes_only_staff()}</span>
      </p>
      {notes.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.review_notes_none()}</p>
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
      <PostForm
        name="body"
        schema={() => import('../../../shared/schemas/review.ts').then((schemas) => schemas.reviewNoteSchema)}
        post={async (body) => onAdded(await apiSend<ReviewNoteView>('POST', `/api/admin/submissions/${entryId}/notes`, { body }))}
        posted={{ title: m.review_notes_added_title(), description: m.review_notes_added_description() }}
        formLabel={m.review_notes_form_label()}
        fieldId="note"
        label={m.review_notes_field()}
        maxLength={REVIEW_LIMITS.noteMax}
        keyShortcut={keyOf('note')}
        focusRequest={focusRequest}
      >
        {m.review_notes_submit()} <Kbd>{keyOf('note')}</Kbd>
      </PostForm>
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
  return (
    <div className="flex flex-col gap-3">
      {probes.length === 0 ? (
        <p className="text-sm text-muted-foreground">{m.review_probes_none()}</p>
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
                    {m.review_probes_answer()}
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
                  <Badge variant="outline">{m.review_probes_waiting()}</Badge>
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
      {canAsk ? (
        <PostForm
          name="question"
          schema={() => import('../../../shared/schemas/review.ts').then((schemas) => schemas.probeCreateSchema)}
          post={async (question) => onAsked(await apiSend<ProbeView>('POST', `/api/admin/submissions/${entryId}/probes`, { question }))}
          posted={{ title: m.review_probes_sent_title(), description: m.review_probes_told() }}
          formLabel={m.review_probes_form_label()}
          fieldId="question"
          label={m.review_probes_field()}
          description={m.review_probes_told()}
          maxLength={REVIEW_LIMITS.questionMax}
        >
          {m.review_probes_submit()}
        </PostForm>
      ) : (
        <p className="text-sm text-muted-foreground">{m.review_probes_not_yet()}</p>
      )}
    </div>
  );
}

type PostValues = Partial<Record<'body' | 'question', string>>;

/**
 * The form under notes and probes: one text, sent by `post`, then emptied with a toast (`posted`);
 * `focusRequest` (when bumped) puts the cursor in it.
 */
function PostForm({
  name,
  schema,
  post,
  posted,
  formLabel,
  fieldId,
  label,
  description,
  maxLength,
  keyShortcut,
  focusRequest = 0,
  children,
}: {
  name: keyof PostValues;
  schema: ApiFormOptions<PostValues>['schema'];
  post: (text: string) => Promise<void>;
  posted: { title: string; description: string };
  formLabel: string;
  fieldId: string;
  label: string;
  description?: string;
  maxLength: number;
  keyShortcut?: string;
  focusRequest?: number;
  /** The submit button's content. */
  children: ReactNode;
}) {
  const id = useId();
  const {
    register,
    onSubmit,
    alert,
    setFocus,
    reset,
    formState: { errors, isSubmitting },
  } = useApiForm<PostValues>({
    schema,
    defaultValues: { [name]: '' },
    fields: [name],
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      await post(values[name] ?? '');
      reset({ [name]: '' });
      toast(posted);
    },
  });

  useEffect(() => {
    if (focusRequest > 0) setFocus(name);
  }, [focusRequest, name, setFocus]);

  return (
    <form noValidate aria-label={formLabel} onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-2">
      {alert && <Alert variant="destructive">{alert}</Alert>}
      <FormField id={`${id}-${fieldId}`} label={label} description={description} error={errors[name]?.message}>
        {(control) => <Textarea {...control} {...register(name)} rows={2} maxLength={maxLength} aria-keyshortcuts={keyShortcut} />}
      </FormField>
      <div>
        <Button type="submit" variant="secondary" size="sm" loading={isSubmitting}>
          {children}
        </Button>
      </div>
    </form>
  );
}
