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
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { AnswersView } from '../../../components/forms/AnswersView.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { EntryStatusBadge, Moment } from '../projects/kit.tsx';
import type { OpenPhotos } from './EntryVersionView.tsx';
import { thumbnailUrl } from '../../../shared/media.ts';
import { compareVersions, photoIds, type ChangeKind } from './logic.ts';

const CHANGE_LABELS: Record<ChangeKind, string> = { same: 'Unchanged', changed: 'Changed', added: 'Added', removed: 'Removed' };

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
  if (value === undefined) return <p className="text-sm text-muted-foreground">Not answered</p>;
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
  const before = `Version ${earlier.version}`;
  const now = `Version ${latest.version} (now)`;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <p className="text-sm" role="note">
          <span className="font-semibold tabular-nums">{comparison.changed}</span> of <span className="tabular-nums">{comparison.rows.length}</span>{' '}
          {comparison.rows.length === 1 ? 'answer' : 'answers'} changed since version {earlier.version}.
        </p>
        {earlierVersions.length > 1 && (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={`${id}-with`} className="text-sm font-medium">
              Compare with
            </label>
            <Select value={String(earlier.version)} onValueChange={(value) => setChosen(Number(value))}>
              <SelectTrigger id={`${id}-with`} className="w-44">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {earlierVersions.map((version) => (
                  <SelectItem key={version.version} value={String(version.version)}>
                    Version {version.version}
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
            {earlier.decision === 'rejected' ? 'Rejected' : 'Changes asked'} on version {earlier.version}
            {earlier.decidedBy ? ` by ${fullNameOf(earlier.decidedBy) || earlier.decidedBy.email}` : ''}
          </p>
          <p className="whitespace-pre-wrap">{earlier.reason}</p>
        </div>
      )}
      <ol className="flex flex-col gap-2" aria-label={`Answers of version ${earlier.version} beside version ${latest.version}`}>
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
                  ? 'border-l-4 border-[color-mix(in_oklab,var(--primary)_60%,transparent)] border-l-primary bg-[color-mix(in_oklab,var(--primary)_7%,var(--card))]'
                  : 'border-border',
              )}
            >
              <div className="flex flex-wrap items-start justify-between gap-2">
                <h5 id={titleId} className="min-w-0 text-sm font-medium break-words">
                  {row.element.title}
                </h5>
                <Badge variant={differs ? 'default' : 'outline'} className={differs ? '' : 'text-muted-foreground'}>
                  {CHANGE_LABELS[row.change]}
                </Badge>
              </div>
              <div className="grid gap-3 sm:grid-cols-2">
                <div className="flex min-w-0 flex-col gap-1">
                  <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{before}</p>
                  <AnswerCell definition={definition} element={row.element} value={row.before} onOpenPhotos={onOpenPhotos} />
                </div>
                <div className={cn('flex min-w-0 flex-col gap-1', differs && 'sm:border-l sm:border-border sm:pl-3')}>
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

const DECISION_WORDS = { approved: 'Approved', changes_requested: 'Changes asked', rejected: 'Rejected' } as const;

/** Every submission of the entry, oldest first, with every decision taken on it (a changed decision shows both). */
export function VersionHistory({ versions, status }: { versions: readonly SubmissionVersion[]; status: string }) {
  if (versions.length === 0) return <p className="text-sm text-muted-foreground">Not submitted yet.</p>;
  return (
    <ol className="flex flex-col gap-0 border-l-2 border-border pl-4">
      {versions.map((version, index) => {
        const current = index === versions.length - 1;
        return (
          <li key={version.version} className="relative flex flex-col gap-1 pb-4 text-sm last:pb-0">
            <span
              aria-hidden="true"
              className={cn('absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full border-2 border-card', current ? 'bg-primary' : 'bg-muted-foreground')}
            />
            <p className="font-medium">
              Version {version.version}
              {current ? ' (current)' : ''} · submitted <Moment value={version.submittedAt} />
            </p>
            {version.decisions.length > 0 ? (
              <ol className="flex flex-col gap-1.5" aria-label={`Decisions on version ${version.version}`}>
                {version.decisions.map((decision, at) => (
                  <li key={`${decision.decidedAt}-${at}`} className="flex flex-col gap-1">
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-muted-foreground">
                      <EntryStatusBadge status={decision.decision} />
                      <span>
                        {DECISION_WORDS[decision.decision]}
                        {decision.decidedBy ? ` by ${fullNameOf(decision.decidedBy) || decision.decidedBy.email}` : ' automatically'} on{' '}
                        <Moment value={decision.decidedAt} />
                        {at < version.decisions.length - 1 ? ' (later changed)' : ''}
                      </span>
                    </p>
                    {decision.reason && <p className="rounded-md bg-muted px-2.5 py-1.5 whitespace-pre-wrap">{decision.reason}</p>}
                  </li>
                ))}
              </ol>
            ) : (
              <p className="text-muted-foreground">{current && status === 'submitted' ? 'Waiting for review' : 'No decision on this version'}</p>
            )}
          </li>
        );
      })}
    </ol>
  );
}
