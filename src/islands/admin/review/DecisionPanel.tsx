/**
 * The decision on one submission: where it stands (waiting, or decided: by whom, when, the reason
 * the participant was given), "Approve", "Ask for changes" and "Reject". The last two open a reason
 * form (a reason is required: the participant reads it) with the project's templates to pick from
 * and "Save as a template". A decision taken earlier can be changed; the panel says that the
 * participant is told and their points follow.
 */
import { useEffect, useId, useState } from 'react';
import { REVIEW_LIMITS, type ReasonTemplateKind, type ReviewDecision, type ReviewSubmission } from '../../../shared/review.ts';
import type { ReviewDecisionInput } from '../../../shared/schemas/review.ts';
import { m } from '../../../shared/i18n.ts';
import { applyApiError, errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { EntryStatusBadge, Moment } from '../projects/kit.tsx';
import { Kbd } from './ShortcutsHelp.tsx';
import { keyOf } from './shortcuts.ts';
import type { ReasonTemplates } from './templates.ts';

/** The two decisions that need a reason. */
export type ReasonKind = ReasonTemplateKind;

/** In the order of their buttons. */
const REASON_KINDS: readonly ReasonKind[] = ['request_changes', 'reject'];

const KIND_WORDS: Record<ReasonKind, { title: () => string; submit: () => string; help: () => string; templates: () => string }> = {
  request_changes: {
    title: m.review_decision_changes_title,
    submit: m.review_decision_changes_submit,
    help: m.review_decision_changes_help,
    templates: m.review_decision_changes_templates,
  },
  reject: {
    title: m.review_decision_reject_title,
    submit: m.review_decision_reject_submit,
    help: m.review_decision_reject_help,
    templates: m.review_decision_reject_templates,
  },
};

export interface DecisionPanelProps {
  submission: ReviewSubmission;
  /** The mission's points, for what a change of decision does (null: not known here). */
  points: number | null;
  /** The open reason form, if any. */
  mode: ReasonKind | null;
  onModeChange: (mode: ReasonKind | null) => void;
  /** Bumped to put the cursor in the reason (the `c` and `r` keys). */
  focusRequest: number;
  /** The decision being sent, if one is. */
  busy: ReviewDecision | null;
  /** Sends a decision; rejects with the API's error. */
  onDecide: (decision: ReviewDecision, reason?: string) => Promise<void>;
  templates: ReasonTemplates;
}

/** What the current status means, in a sentence. */
function standing(submission: ReviewSubmission): string {
  switch (submission.status) {
    case 'draft':
      return m.review_standing_draft();
    case 'submitted':
      return submission.resubmission ? m.review_standing_resubmitted() : m.review_standing_submitted();
    case 'approved':
      return m.review_standing_approved();
    case 'changes_requested':
      return m.review_standing_changes_requested();
    case 'rejected':
      return m.review_standing_rejected();
  }
}

export function DecisionPanel({ submission, points, mode, onModeChange, focusRequest, busy, onDecide, templates }: DecisionPanelProps) {
  const id = useId();
  const decided = submission.status === 'approved' || submission.status === 'changes_requested' || submission.status === 'rejected';
  const draft = submission.status === 'draft';
  const formId = `${id}-reason-form`;

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-3 rounded-lg border border-border bg-muted/40 p-4">
      <h4 id={`${id}-heading`} className="text-base font-semibold">
        {m.review_decision_heading()}
      </h4>
      <div className="flex flex-col gap-1.5 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <EntryStatusBadge status={submission.status} />
          <span>{standing(submission)}</span>
        </p>
        {decided && (submission.reviewedBy || submission.reviewedAt) && (
          <p className="text-muted-foreground">
            {withNodes(
              (marks) => {
                const name = submission.reviewedBy ? fullNameOf(submission.reviewedBy) || submission.reviewedBy.email : null;
                if (!submission.reviewedAt) return name === null ? m.review_decision_decided() : m.review_decision_by({ name });
                return name === null ? m.review_decision_decided_on({ time: marks.time }) : m.review_decision_by_on({ name, time: marks.time });
              },
              { time: <Moment value={submission.reviewedAt} /> },
            )}
          </p>
        )}
        {submission.reviewReason && (submission.status === 'changes_requested' || submission.status === 'rejected') && (
          <div className="rounded-md border border-border bg-card px-3 py-2">
            <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{m.review_decision_reason_given()}</p>
            <p className="whitespace-pre-wrap">{submission.reviewReason}</p>
          </div>
        )}
        {decided && (
          <p className="text-muted-foreground">{points === null ? m.review_decision_can_change() : m.review_decision_can_change_points({ count: points })}</p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => void onDecide('approve').catch(() => undefined)}
          disabled={draft || submission.status === 'approved' || busy !== null}
          loading={busy === 'approve'}
          aria-keyshortcuts={keyOf('approve')}
        >
          {m.review_decision_approve()} <Kbd>{keyOf('approve')}</Kbd>
        </Button>
        {REASON_KINDS.map((kind) => (
          <Button
            key={kind}
            variant={mode === kind ? 'secondary' : 'outline'}
            disabled={draft || busy !== null}
            aria-expanded={mode === kind}
            aria-controls={mode === kind ? formId : undefined}
            aria-keyshortcuts={keyOf(kind)}
            onClick={() => onModeChange(mode === kind ? null : kind)}
          >
            {KIND_WORDS[kind].title()} <Kbd>{keyOf(kind)}</Kbd>
          </Button>
        ))}
      </div>
      {mode && !draft && (
        <ReasonForm
          id={formId}
          kind={mode}
          initialReason={submission.status === (mode === 'reject' ? 'rejected' : 'changes_requested') ? (submission.reviewReason ?? '') : ''}
          focusRequest={focusRequest}
          busy={busy === mode}
          onCancel={() => onModeChange(null)}
          onSubmit={(reason) => onDecide(mode, reason)}
          templates={templates}
        />
      )}
    </section>
  );
}

interface ReasonValues {
  decision: ReviewDecisionInput['decision'];
  reason: string;
}

/** The reason to ask for changes or reject, with the project's templates. */
function ReasonForm({
  id,
  kind,
  initialReason,
  focusRequest,
  busy,
  onCancel,
  onSubmit,
  templates,
}: {
  id: string;
  kind: ReasonKind;
  initialReason: string;
  focusRequest: number;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (reason: string) => Promise<void>;
  templates: ReasonTemplates;
}) {
  const words = KIND_WORDS[kind];
  const [saving, setSaving] = useState(false);
  const {
    onSubmit: submit,
    alert,
    setAlert,
    register,
    setError,
    clearErrors,
    setValue,
    setFocus,
    getValues,
    watch,
    formState: { errors, isSubmitted },
  } = useApiForm<ReasonValues>({
    schema: () => import('../../../shared/schemas/review.ts').then((schemas) => schemas.reviewDecisionSchema),
    defaultValues: { decision: kind, reason: initialReason },
    fields: ['reason'],
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: (values) => onSubmit(values.reason.trim()),
  });

  // The same form serves both decisions: switching keeps what was typed.
  useEffect(() => {
    setValue('decision', kind);
    setAlert(null);
  }, [kind, setValue, setAlert]);
  useEffect(() => {
    setFocus('reason');
  }, [focusRequest, kind, setFocus]);

  const reason = watch('reason');
  const mine = (templates.items ?? []).filter((template) => template.kind === kind);
  const alreadySaved = mine.some((template) => template.text === reason.trim());

  async function saveTemplate() {
    const text = getValues('reason').trim();
    if (!text) {
      setError('reason', { type: 'manual', message: m.validation_required() }, { shouldFocus: true });
      return;
    }
    setSaving(true);
    setAlert(null);
    try {
      await templates.add(kind, text);
      toast({ title: m.review_template_saved(), description: m.review_template_saved_description() });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, ['reason']));
    } finally {
      setSaving(false);
    }
  }

  async function removeTemplate(templateId: number) {
    try {
      await templates.remove(templateId);
      toast({ title: m.review_template_deleted() });
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.review_template_delete_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <form id={id} noValidate aria-label={words.title()} onSubmit={(event) => void submit(event)} className="flex flex-col gap-3 border-t border-border pt-3">
      {alert && <Alert variant="destructive">{alert}</Alert>}
      <FormField id={`${id}-reason`} label={m.review_decision_reason()} description={words.help()} error={errors.reason?.message}>
        {(control) => (
          <Textarea
            {...control}
            {...register('reason', { onChange: () => isSubmitted || clearErrors('reason') })}
            rows={4}
            maxLength={REVIEW_LIMITS.reasonMax}
            onKeyDown={(event) => {
              // Ctrl/⌘+Enter sends, as in most review tools.
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void submit();
              }
            }}
          />
        )}
      </FormField>

      <div className="flex flex-col gap-2">
        <h5 className="text-sm font-medium" id={`${id}-templates`}>
          {words.templates()}
        </h5>
        {templates.items === null ? (
          <p className="text-sm text-muted-foreground">{m.review_templates_loading()}</p>
        ) : templates.error ? (
          <p className="text-sm text-muted-foreground">
            {m.review_templates_failed({ error: templates.error })}{' '}
            <Button variant="link" onClick={templates.reload}>
              {m.shell_common_try_again()}
            </Button>
          </p>
        ) : mine.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.review_templates_none()}</p>
        ) : (
          <ul aria-labelledby={`${id}-templates`} className="flex max-h-56 flex-col gap-1.5 overflow-y-auto">
            {mine.map((template) => (
              <li key={template.id} className="flex items-start gap-1 rounded-md border border-border bg-card">
                <button
                  type="button"
                  className="min-w-0 flex-1 rounded-md px-3 py-2 text-start text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
                  onClick={() => {
                    setValue('reason', template.text, { shouldValidate: isSubmitted });
                    setFocus('reason');
                  }}
                >
                  <span className="sr-only">{m.review_templates_use()} </span>
                  <span className="line-clamp-3 whitespace-pre-wrap">{template.text}</span>
                </button>
                <button
                  type="button"
                  aria-label={m.review_templates_delete({ text: template.text.length > 60 ? `${template.text.slice(0, 60)}…` : template.text })}
                  className="inline-flex size-9 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                  onClick={() => void removeTemplate(template.id)}
                >
                  <svg viewBox="0 0 16 16" className="size-4" aria-hidden="true" focusable="false">
                    <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
                  </svg>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant={kind === 'reject' ? 'destructive' : 'default'} loading={busy}>
          {words.submit()}
        </Button>
        <Button variant="outline" onClick={() => void saveTemplate()} loading={saving} disabled={alreadySaved || busy}>
          {alreadySaved ? m.review_templates_saved_as() : m.review_templates_save_as()}
        </Button>
        <Button variant="ghost" onClick={onCancel} disabled={busy}>
          {m.shell_common_cancel()}
        </Button>
      </div>
    </form>
  );
}
