/**
 * A resubmission beside the version before it: each question with the earlier answer and the new
 * one side by side (stacked on phones), the ones that differ marked "Changed" (also "Added",
 * "Removed") and highlighted, with the reason the earlier version was sent back. With three or
 * more versions, any earlier one can be chosen. And the entry's history: every version, oldest
 * first, with its decision.
 */
import { useId, useMemo, useState } from 'react';
import type { AnswerValue, FormDefinition, FormElement } from '../../../shared/forms/definition.ts';
import type { SubmissionVersion } from '../../../shared/review.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { cn } from '../../../lib/utils.ts';
import { AnswersView } from '../../../components/forms/AnswersView.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { EntryStatusBadge, Moment } from '../projects/kit.tsx';
import type { OpenPhotos } from './EntryVersionView.tsx';
import { thumbnailUrl } from '../../../shared/media.ts';
import { compareVersions, photoIds, type ChangeKind } from './logic.ts';

const CHANGE_LABELS: Record<ChangeKind, () => string> = {
  same: m.review_compare_unchanged,
  changed: m.review_compare_changed,
  added: m.review_compare_added,
  removed: m.review_compare_removed,
};

/** One answer on its own (the question's title is the row's). */
function AnswerCell({
  definition,
  element,
  value,
  onOpenPhotos,
}: {
  definition: FormDefinition;
  element: FormElement;
  value: AnswerValue | undefined;
  onOpenPhotos: OpenPhotos;
}) {
  if (value === undefined) return <p className="text-sm text-muted-foreground">{m.review_compare_not_answered()}</p>;
  // A one-question form shows this answer in words with the renderer every screen uses; its
  // condition was already applied by the comparison.
  const single: FormDefinition = { ...definition, pages: [{ id: 'answer', title: '', elements: [{ ...element, visibleIf: null }] }] };
  const photos = photoIds(value);
  return (
    <AnswersView
      className="[&_dt]:sr-only"
      definition={single}
      answers={{ [element.id]: value }}
      photos={{ thumbnailUrl }}
      onOpenPhoto={(mediaId) => onOpenPhotos(photos, mediaId)}
    />
  );
}

export function VersionComparison({
  definition,
  versions,
  today,
  onOpenPhotos,
}: {
  definition: FormDefinition;
  /** Every version, oldest first (at least two). */
  versions: readonly SubmissionVersion[];
  today?: string | undefined;
  onOpenPhotos: OpenPhotos;
}) {
  const id = useId();
  const latest = versions[versions.length - 1];
  const earlierVersions = versions.slice(0, -1);
  const [chosen, setChosen] = useState<number>(earlierVersions[earlierVersions.length - 1]?.version ?? 1);
  const earlier = earlierVersions.find((version) => version.version === chosen) ?? earlierVersions[earlierVersions.length - 1];
  const comparison = useMemo(
    () => (earlier && latest ? compareVersions(definition, earlier.answers, latest.answers, { today }) : null),
    [definition, earlier, latest, today],
  );
  if (!earlier || !latest || !comparison) return null;
  const before = m.review_compare_version({ version: formatCount(earlier.version) });
  const now = m.review_compare_version_now({ version: formatCount(latest.version) });
  const by = earlier.decidedBy ? fullNameOf(earlier.decidedBy) || earlier.decidedBy.email : null;
  const reasonParams = { version: formatCount(earlier.version), name: by ?? '' };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <p className="text-sm" role="note">
          {withNodes(
            (marks) =>
              m.review_compare_summary({ count: comparison.rows.length, changed: marks.changed, total: marks.total, version: formatCount(earlier.version) }),
            {
              changed: <span className="font-semibold tabular-nums">{formatCount(comparison.changed)}</span>,
              total: <span className="tabular-nums">{formatCount(comparison.rows.length)}</span>,
            },
          )}
        </p>
        {earlierVersions.length > 1 && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-with`} className="text-sm font-medium">
              {m.review_compare_with()}
            </label>
            <Select value={String(earlier.version)} onValueChange={(value) => setChosen(Number(value))}>
              <SelectTrigger id={`${id}-with`} className="w-44">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {earlierVersions.map((version) => (
                  <SelectItem key={version.version} value={String(version.version)}>
                    {m.review_compare_version({ version: formatCount(version.version) })}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        )}
      </div>
      {earlier.reason && (
        <div className="rounded-md border border-border bg-muted/50 px-3 py-2 text-sm">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {earlier.decision === 'rejected'
              ? by === null
                ? m.review_compare_reason_rejected(reasonParams)
                : m.review_compare_reason_rejected_by(reasonParams)
              : by === null
                ? m.review_compare_reason_changes(reasonParams)
                : m.review_compare_reason_changes_by(reasonParams)}
          </p>
          <p className="whitespace-pre-wrap">{earlier.reason}</p>
        </div>
      )}
      <ol
        className="flex flex-col gap-2"
        aria-label={m.review_compare_rows_label({ before: formatCount(earlier.version), after: formatCount(latest.version) })}
      >
        {comparison.rows.map((row) => {
          const differs = row.change !== 'same';
          const titleId = `${id}-${row.element.id}`;
          return (
            <li
              key={row.element.id}
              aria-labelledby={titleId}
              data-change={row.change}
              className={cn(
                'flex flex-col gap-2 rounded-lg border p-3',
                differs
                  ? 'border-s-4 border-[color-mix(in_oklab,var(--primary)_60%,transparent)] border-s-primary bg-[color-mix(in_oklab,var(--primary)_7%,var(--card))]'
                  : 'border-border',
              )}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h5 id={titleId} className="min-w-0 text-sm font-medium break-words">
                  {row.element.title}
                </h5>
                <Badge variant={differs ? 'default' : 'outline'} className={differs ? '' : 'text-muted-foreground'}>
                  {CHANGE_LABELS[row.change]()}
                </Badge>
              </div>
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{before}</p>
                  <AnswerCell definition={definition} element={row.element} value={row.before} onOpenPhotos={onOpenPhotos} />
                </div>
                <div className={cn('flex min-w-0 flex-col gap-1', differs && 'sm:border-s sm:border-border sm:ps-3')}>
                  <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{now}</p>
                  <AnswerCell definition={definition} element={row.element} value={row.after} onOpenPhotos={onOpenPhotos} />
                </div>
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

const DECISION_WORDS = { approved: m.review_history_approved, changes_requested: m.review_history_changes_asked, rejected: m.review_history_rejected } as const;

/** Every submission of the entry, oldest first, with every decision taken on it (a changed decision shows both). */
export function VersionHistory({ versions, status }: { versions: readonly SubmissionVersion[]; status: string }) {
  if (versions.length === 0) return <p className="text-sm text-muted-foreground">{m.review_history_not_submitted()}</p>;
  return (
    <ol className="flex flex-col gap-0 border-s-2 border-border ps-4">
      {versions.map((version, index) => {
        const current = index === versions.length - 1;
        return (
          <li key={version.version} className="relative flex flex-col gap-1 pb-4 text-sm last:pb-0">
            <span
              aria-hidden="true"
              className={cn('absolute top-1.5 -start-[1.4rem] size-2.5 rounded-full border-2 border-card', current ? 'bg-primary' : 'bg-muted-foreground')}
            />
            <p className="font-medium">
              {withNodes(
                (marks) => (current ? m.review_history_version_current : m.review_history_version)({ version: formatCount(version.version), time: marks.time }),
                { time: <Moment value={version.submittedAt} /> },
              )}
            </p>
            {version.decisions.length > 0 ? (
              <ol className="flex flex-col gap-1.5" aria-label={m.review_history_decisions_label({ version: formatCount(version.version) })}>
                {version.decisions.map((decision, at) => (
                  <li key={`${decision.decidedAt}-${at}`} className="flex flex-col gap-1">
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted-foreground">
                      <EntryStatusBadge status={decision.decision} />
                      <span>
                        {withNodes(
                          (marks) => {
                            const params = {
                              decision: DECISION_WORDS[decision.decision](),
                              name: decision.decidedBy ? fullNameOf(decision.decidedBy) || decision.decidedBy.email : '',
                              time: marks.time,
                            };
                            const changed = at < version.decisions.length - 1;
                            if (decision.decidedBy) return changed ? m.review_history_decided_by_changed(params) : m.review_history_decided_by(params);
                            return changed ? m.review_history_decided_auto_changed(params) : m.review_history_decided_auto(params);
                          },
                          { time: <Moment value={decision.decidedAt} /> },
                        )}
                      </span>
                    </p>
                    {decision.reason && <p className="rounded-md bg-muted px-2.5 py-1.5 whitespace-pre-wrap">{decision.reason}</p>}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-muted-foreground">{current && status === 'submitted' ? m.review_history_waiting() : m.review_history_no_decision()}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
