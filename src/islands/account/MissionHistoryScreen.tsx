/**
 * `/account/mission-history/{missionId}`: one mission as the participant has taken part in it.
 * The mission's title and instructions, then each of their entries, newest first: its state, the
 * reviewer's reason beside it when changes were asked or it was not accepted ("Edit and resubmit"
 * leads to the mission page, opened on that entry), its points and their state, the moderators'
 * questions (a form for each one waiting for an answer; answered ones with the answer), and the
 * answers with photos as thumbnails that open in the lightbox.
 * Data: `GET /api/account/mission-history/{missionId}` (404: not theirs, not visible).
 */
import { RoutePage } from '../../components/states/RoutePage.tsx';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { HistoryEntry, MissionHistory, ProbeView } from '../../shared/review.ts';
import { formatDateTime } from '../../lib/format.ts';
import { cn } from '../../lib/utils.ts';
import { AnswersView } from '../../components/forms/AnswersView.tsx';
import { EntryHeading, entryTitleId } from '../../components/EntryHeading.tsx';
import { Instructions } from '../../components/Instructions.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { AlertCircleIcon, CheckCircleIcon } from '../../components/icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import type { LightboxItem } from '../../components/ui/lightbox.tsx';
import { pointsLabel } from '../../lib/labels.ts';
import { thumbnailUrl } from '../../shared/media.ts';
import { BackLink } from '../../components/BackLink.tsx';
import { StarIcon } from '../../components/icons.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { QuestionIcon } from '../../components/icons.tsx';
import { formatCount, m } from '../../shared/i18n.ts';
import { editEntryHref, entryPhotoIds, historyStatusLabel, numberEntries } from './mission-history.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';
import { signedPoints, spokenPoints } from './points.ts';

/** A stored photo at display size (the lightbox). */
const photoUrl = (id: string): string => `/api/media/${encodeURIComponent(id)}`;

/** The island of `/account/mission-history/{missionId}`. */
// Loaded when needed (the page's JavaScript budget): the answer form when a question waits, the
// lightbox when a photo is opened.
const ProbeAnswerForm = lazy(() => import('./ProbeAnswerForm.tsx'));
const Lightbox = lazy(() => import('../../components/ui/lightbox.tsx').then((loaded) => ({ default: loaded.Lightbox })));

export default function MissionHistoryScreen() {
  return (
    <RoutePage<MissionHistory>
      pattern="/account/mission-history/:missionId"
      path={(ids) => `/api/account/mission-history/${ids.missionId}`}
      heading={m.account_history_heading()}
      skeleton={<HistorySkeleton />}
    >
      {(history) => <HistoryView key={history.missionId} history={history} />}
    </RoutePage>
  );
}

function HistorySkeleton() {
  return (
    <Loading label={m.account_history_loading()} className="mx-auto flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col gap-2">
        <div className="-mt-5 flex h-11 items-center sm:-mt-6">
          <Bone className="h-4 w-28" />
        </div>
        <Bone className="h-5 w-40" />
        <Bone className="h-9 w-3/4 max-w-md" />
        <Bone className="h-5 w-56" />
      </div>
      <Bone className="h-12 w-full rounded-xl" />
      <Card variant="flat" aria-hidden="true" className="flex flex-col gap-4 p-4 sm:p-6">
        <div className="flex items-center justify-between">
          <Bone className="h-6 w-32" />
          <Bone className="h-6 w-28 rounded-full" />
        </div>
        <Bone className="h-5 w-40" />
        <Bone className="h-20 w-full" />
      </Card>
    </Loading>
  );
}

function HistoryView({ history }: { history: MissionHistory }) {
  const [entries, setEntries] = useState(history.entries);
  useEffect(() => {
    document.title = m.account_history_document_title({ title: history.title });
  }, [history.title]);
  const numbered = numberEntries(entries);
  const needChanges = numbered.filter(({ entry }) => entry.status === 'changes_requested');
  const questions = numbered.filter(({ entry }) => entry.probes.some((probe) => probe.answer === null));

  const updateProbe = (entryId: number, probe: ProbeView) =>
    setEntries((current) =>
      current.map((entry) =>
        entry.id === entryId ? { ...entry, probes: entry.probes.map((each) => (each.id === probe.id ? { ...each, ...probe } : each)) } : entry,
      ),
    );

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <BackLink href="/account#mission-history">{m.account_missions_title()}</BackLink>
        <p className="text-sm font-medium text-primary">{history.projectName}</p>
        <h1 className="text-2xl leading-tight font-semibold tracking-tight break-words sm:text-3xl">{history.title}</h1>
        <ul className="flex flex-wrap items-center gap-x-5 gap-y-1.5 text-sm text-muted-foreground">
          <li className="inline-flex items-center gap-1.5 font-medium text-foreground">
            <StarIcon className="size-4 text-primary" />
            {pointsLabel(history.points, history.pointsPerEntry)}
          </li>
          <li>{history.review === 'manual' ? m.account_history_review_manual() : m.account_history_review_auto()}</li>
          <li>
            <a href={`/missions/${history.missionId}`} className="font-medium text-primary underline-offset-4 hover:underline">
              {m.account_history_go_to_mission()}
            </a>
          </li>
        </ul>
      </header>

      {(needChanges.length > 0 || questions.length > 0) && (
        <Alert variant="info" title={m.account_history_waiting_for_you()}>
          <ul className="flex flex-col gap-1">
            {needChanges.map(({ entry, number }) => (
              <li key={`changes-${entry.id}`}>
                {withNodes((marks) => m.account_history_waiting_changes({ entry: marks.entry }), {
                  entry: <a href={`#entry-${entry.id}`}>{m.account_history_entry_number({ number: formatCount(number) })}</a>,
                })}
              </li>
            ))}
            {questions.map(({ entry, number }) => (
              <li key={`probe-${entry.id}`}>
                {withNodes((marks) => m.account_history_waiting_question({ entry: marks.entry }), {
                  entry: <a href={`#entry-${entry.id}`}>{m.account_history_entry_number({ number: formatCount(number) })}</a>,
                })}
              </li>
            ))}
          </ul>
        </Alert>
      )}

      <Instructions text={history.instructions} collapsible />

      <section aria-labelledby="history-entries" className="flex flex-col gap-4">
        <h2 id="history-entries" className="text-xl font-semibold tracking-tight">
          {m.account_history_your_entries()}
        </h2>
        {numbered.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.account_history_no_entries()}</p>
        ) : (
          <ol className="flex flex-col gap-4">
            {numbered.map(({ entry, number }) => (
              <EntryCard key={entry.id} missionId={history.missionId} entry={entry} number={number} onProbeAnswered={(probe) => updateProbe(entry.id, probe)} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** The status badge of an entry, in a colour that says whether it needs the participant. */
export function StatusBadge({ status }: { status: HistoryEntry['status'] }) {
  const tone =
    status === 'approved'
      ? 'border-transparent bg-[color-mix(in_oklab,var(--success)_16%,var(--card))] text-foreground'
      : status === 'changes_requested'
        ? 'border-transparent bg-[color-mix(in_oklab,var(--destructive)_14%,var(--card))] text-foreground'
        : status === 'rejected'
          ? 'border-border text-muted-foreground'
          : status === 'draft'
            ? 'border-dashed border-border text-muted-foreground'
            : '';
  return (
    <Badge variant={status === 'submitted' ? 'secondary' : 'outline'} className={tone} data-status={status}>
      {historyStatusLabel(status)}
    </Badge>
  );
}

/** What an entry's points line says of their state. */
const ENTRY_POINTS_STATE: Readonly<Record<NonNullable<HistoryEntry['points']>['state'], () => string>> = {
  pending: m.account_history_points_pending,
  available: m.account_history_points_available,
  voided: m.account_history_points_voided,
};

function EntryCard({
  missionId,
  entry,
  number,
  onProbeAnswered,
}: {
  missionId: number;
  entry: HistoryEntry;
  number: number;
  onProbeAnswered: (probe: ProbeView) => void;
}) {
  const [photo, setPhoto] = useState<number | null>(null);
  const photoIds = useMemo(() => entryPhotoIds(entry.definition, entry.answers), [entry.definition, entry.answers]);
  const items: LightboxItem[] = photoIds.map((id, index) => ({
    src: photoUrl(id),
    alt: m.account_history_photo_alt({ photo: formatCount(index + 1), photos: formatCount(photoIds.length), number: formatCount(number) }),
    title: m.account_history_photo_title({ photo: formatCount(index + 1), photos: formatCount(photoIds.length), number: formatCount(number) }),
  }));
  const titleId = entryTitleId(entry);
  const sentBack = entry.status === 'changes_requested' || entry.status === 'rejected';

  return (
    <li id={`entry-${entry.id}`} className="scroll-mt-6">
      <Card asChild className="flex flex-col gap-5 p-4 sm:p-6">
        <article aria-labelledby={titleId}>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <EntryHeading entry={entry} number={number} className="text-lg" />
            <div className="flex flex-wrap items-center gap-1.5">
              {entry.resubmission && <Badge variant="outline">{m.account_history_sent_again()}</Badge>}
              <StatusBadge status={entry.status} />
            </div>
          </div>

          {entry.points && (
            <p className="flex items-start gap-2 text-sm">
              <StarIcon className="mt-0.5 size-4 shrink-0 text-primary" />
              <span>
                <span className={cn('font-semibold tabular-nums', entry.points.state === 'voided' && 'text-muted-foreground line-through')}>
                  <span aria-hidden="true">{signedPoints(entry.points.points)}</span>
                  <span className="sr-only">{spokenPoints(entry.points.points)}</span>
                </span>{' '}
                <span className="text-muted-foreground">{ENTRY_POINTS_STATE[entry.points.state]()}</span>
              </span>
            </p>
          )}

          {sentBack && (
            <div
              className={cn(
                'flex flex-col gap-3 rounded-lg border px-4 py-3',
                entry.status === 'changes_requested'
                  ? 'border-[color-mix(in_oklab,var(--destructive)_45%,transparent)] bg-[color-mix(in_oklab,var(--destructive)_6%,var(--card))]'
                  : 'border-border bg-muted',
              )}
            >
              <div className="flex items-start gap-3">
                <AlertCircleIcon
                  className={cn('mt-0.5 size-5 shrink-0', entry.status === 'changes_requested' ? 'text-destructive' : 'text-muted-foreground')}
                />
                <div className="flex min-w-0 flex-col gap-1 text-sm">
                  <p className="font-semibold">
                    {entry.status === 'changes_requested' ? m.account_history_reviewer_asks() : m.account_history_why_not_accepted()}
                  </p>
                  <p className="whitespace-pre-wrap break-words" data-review-reason>
                    {entry.reviewReason || m.account_history_no_reason()}
                  </p>
                  {entry.reviewedAt && (
                    <p className="text-xs text-muted-foreground">
                      <time dateTime={entry.reviewedAt}>{formatDateTime(entry.reviewedAt)}</time>
                    </p>
                  )}
                </div>
              </div>
              {entry.status === 'changes_requested' && (
                <div>
                  <Button asChild size="lg" className="w-full sm:w-auto">
                    <a href={editEntryHref(missionId, entry.id)} aria-describedby={titleId}>
                      {m.account_history_edit_resubmit()}
                    </a>
                  </Button>
                </div>
              )}
            </div>
          )}

          {entry.status === 'draft' && (
            <p className="text-sm text-muted-foreground">
              {m.account_history_draft()}{' '}
              <a href={editEntryHref(missionId, entry.id)} className="font-medium text-primary underline underline-offset-4">
                {m.account_history_continue_draft()}
              </a>
            </p>
          )}

          {entry.probes.length > 0 && (
            <section aria-labelledby={`entry-${entry.id}-probes`} className="flex flex-col gap-3">
              <h4 id={`entry-${entry.id}-probes`} className="text-base font-semibold">
                {m.account_history_questions()}
              </h4>
              <ul className="flex flex-col gap-3">
                {entry.probes.map((probe) => (
                  <ProbeItem key={probe.id} probe={probe} onAnswered={onProbeAnswered} />
                ))}
              </ul>
            </section>
          )}

          <section aria-labelledby={`entry-${entry.id}-answers`} className="flex flex-col gap-3">
            <h4 id={`entry-${entry.id}-answers`} className="text-base font-semibold">
              {m.account_history_your_answers()}
            </h4>
            <AnswersView
              definition={entry.definition}
              answers={entry.answers}
              photos={{ thumbnailUrl }}
              onOpenPhoto={(mediaId) => {
                const index = photoIds.indexOf(mediaId);
                if (index >= 0) setPhoto(index);
              }}
            />
          </section>
          {items.length > 0 && photo !== null && (
            <Suspense fallback={null}>
              <Lightbox items={items} open onOpenChange={(open) => !open && setPhoto(null)} index={photo} onIndexChange={setPhoto} />
            </Suspense>
          )}
        </article>
      </Card>
    </li>
  );
}

function ProbeItem({ probe, onAnswered }: { probe: ProbeView; onAnswered: (probe: ProbeView) => void }) {
  const waiting = probe.answer === null;
  return (
    <li className={cn('flex flex-col gap-3 rounded-lg border p-4', waiting ? 'border-primary/50 bg-primary/5' : 'border-border')} data-probe={probe.id}>
      <div className="flex items-start gap-2.5">
        <QuestionIcon className="mt-0.5 size-5 shrink-0 text-primary" />
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="text-sm font-medium whitespace-pre-wrap break-words">{probe.question}</p>
          <p className="text-xs text-muted-foreground">
            {withNodes((marks) => m.account_history_asked({ when: marks.when }), {
              when: <time dateTime={probe.askedAt}>{formatDateTime(probe.askedAt)}</time>,
            })}
          </p>
        </div>
      </div>
      {waiting ? (
        <Suspense fallback={<Loading label={m.account_history_loading()} />}>
          <ProbeAnswerForm probe={probe} onAnswered={onAnswered} />
        </Suspense>
      ) : (
        <div className="flex items-start gap-2.5 border-t border-border pt-3">
          <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-success" />
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="text-xs font-medium text-muted-foreground">{m.account_history_your_answer()}</p>
            <p className="text-sm whitespace-pre-wrap break-words">{probe.answer}</p>
            {probe.answeredAt && (
              <p className="text-xs text-muted-foreground">
                {withNodes((marks) => m.account_history_answered({ when: marks.when }), {
                  when: <time dateTime={probe.answeredAt}>{formatDateTime(probe.answeredAt)}</time>,
                })}
              </p>
            )}
          </div>
        </div>
      )}
    </li>
  );
}
