/**
 * `/missions/{id}`: a participant's mission. Instructions, points and closing date, then the
 * entries: a one-entry mission shows its form at once (the draft entry is created when the person
 * starts answering); multi-entry missions and diaries show entries done and needed, the list of
 * entries (continue or delete a draft, read a submitted one) and "Add today's entry" (or, when
 * today's entry is only a draft, "You have a draft for today — continue and submit it" with a
 * button that opens it: a draft is not an entry made). Drafts
 * autosave (kept on the device while offline); photos upload with progress through the media API.
 * An entry sent back with changes requested is edited and submitted again here, with the
 * reviewer's reason beside it; `?entry={id}` (the mission history's "Edit and resubmit") opens
 * that entry at once.
 * Data: `GET /api/missions/{id}` → ParticipantMission; the reviewers' reasons from
 * `GET /api/account/mission-history/{id}` when an entry was sent back.
 */
import { RoutePage } from '../../components/states/RoutePage.tsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import type { AnswersSaved } from '../../shared/answers.ts';
import type { ParticipantEntry } from '../../shared/mission-entries.ts';
import type { ParticipantMission } from '../../shared/missions.ts';
import type { MissionHistory } from '../../shared/review.ts';
import { ApiError, apiSend } from '../../platform/api.ts';
import { local } from '../../platform/storage.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { useResource } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { toast } from '../../stores/toasts.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { AnswersView } from '../../components/forms/AnswersView.tsx';
import { Instructions } from '../../components/Instructions.tsx';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { AnswersForm } from './answers-form.tsx';
import { answeredIn } from './content-language.tsx';
import type { Language } from '../../shared/languages.ts';
import { EntryHeading, entryTitleId } from '../../components/EntryHeading.tsx';
import { clearLocalDraft, localDraftKey, type AnswersPayload } from './autosave.ts';
import { closedLabel, countsAsDone, dateLabel, ENTRY_STATUS_LABELS, entriesProgressLabel, localDateLabel, opensLabel, pointsLabel } from '../../lib/labels.ts';
import { diaryTodayLabel } from './diary-labels.ts';
import { thumbnailUrl } from '../../shared/media.ts';
import { ACTIVITY_COLUMN, ActivityHeader, ActivityMeta, ActivitySkeleton, ArrowLeftIcon, Bone, FormSkeleton, ProgressBar, useOwner } from './parts.tsx';
import { entryGoal, entryParam, isDiary } from '../../shared/mission-entries.ts';
import { formatCount, m } from '../../shared/i18n.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';

/** The browser's IANA time zone: the diary's calendar day is the participant's. */
function timeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Entries whose answers may still change: drafts, and entries sent back for changes. */
export function isEditable(entry: Pick<ParticipantEntry, 'status'>): boolean {
  return entry.status === 'draft' || entry.status === 'changes_requested';
}

/** The form an entry is answered on: its own pinned version when it is not the mission's current one. */
function definitionOf(mission: ParticipantMission, entry: ParticipantEntry | null): FormDefinition {
  return entry?.form?.definition ?? mission.form.definition;
}

/** An entry's answers, the questions in the language they were answered in. */
function EntryAnswers({ mission, entry, className }: { mission: ParticipantMission; entry: ParticipantEntry; className?: string }) {
  const shown = answeredIn(definitionOf(mission, entry), entry.language);
  return (
    <div {...shown.attrs} className={className}>
      <AnswersView definition={shown.definition} answers={entry.answers} photos={{ thumbnailUrl }} />
    </div>
  );
}

/** Entries oldest first, numbered from 1 (the API lists them newest first). */
export function numberEntries(entries: readonly ParticipantEntry[]): { entry: ParticipantEntry; number: number }[] {
  return [...entries].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id).map((entry, index) => ({ entry, number: index + 1 }));
}

/** `POST /api/missions/{id}/entries`: a new draft entry. */
function createEntry(missionId: number): Promise<{ id: number; status: string }> {
  const zone = timeZone();
  return apiSend<{ id: number; status: string }>('POST', `/api/missions/${missionId}/entries`, zone ? { timeZone: zone } : {});
}

/** Entries a reviewer sent back (changes requested) or did not accept: their reason is worth showing. */
function sentBack(entry: Pick<ParticipantEntry, 'status'>): boolean {
  return entry.status === 'changes_requested' || entry.status === 'rejected';
}

/** The reviewers' reasons of the entries sent back, by entry id (empty until loaded; a failure leaves it empty). */
type Reasons = ReadonlyMap<number, string>;

/**
 * The reviewers' reasons for the mission's entries that were sent back, read from the participant's
 * mission history (the mission page's answer does not carry them); nothing is asked when no entry
 * was sent back.
 */
function useReviewReasons(mission: ParticipantMission): Reasons {
  const wanted = mission.myEntries.some(sentBack);
  // A failure leaves the reasons out: the entries still show as sent back.
  const { load } = useResource<MissionHistory>(wanted ? `/api/account/mission-history/${mission.id}` : null);
  return useMemo(() => {
    const found = new Map<number, string>();
    if (load.status === 'ready') for (const entry of load.data.entries) if (entry.reviewReason) found.set(entry.id, entry.reviewReason);
    return found;
  }, [load]);
}

/** What the parts of the mission screen below its header work with. */
interface MissionParts {
  mission: ParticipantMission;
  owner: string;
  reload: () => void;
  reasons: Reasons;
}

/** The reviewer's reason for an entry sent back, beside it. */
function ReviewReason({ entry, reasons, title }: { entry: Pick<ParticipantEntry, 'id' | 'status'>; reasons: Reasons; title?: string }) {
  const reason = reasons.get(entry.id);
  const changes = entry.status === 'changes_requested';
  return (
    <Alert variant="info" role="note" title={title ?? (changes ? m.participant_mission_changes_requested() : m.participant_mission_not_accepted())}>
      {reason && (
        <p className="whitespace-pre-wrap break-words" data-review-reason>
          <span className="font-medium">{m.participant_mission_reviewer_wrote()}</span> <span dir="auto">{reason}</span>
        </p>
      )}
      {changes && <p className={reason ? 'mt-1' : undefined}>{m.participant_mission_change_and_resubmit()}</p>}
    </Alert>
  );
}

/** The island of `/missions/{id}`. */
export default function MissionScreen() {
  return (
    <RoutePage<ParticipantMission>
      pattern="/missions/:id"
      path={(ids) => `/api/missions/${ids.id}`}
      heading={m.participant_mission_heading()}
      skeleton={<MissionSkeleton />}
    >
      {(mission, { refresh }) => <MissionView key={mission.id} mission={mission} refresh={refresh} />}
    </RoutePage>
  );
}

const MissionSkeleton = () => (
  <ActivitySkeleton label={m.participant_mission_loading()}>
    <Card variant="flat" aria-hidden="true" className="flex flex-col gap-3 p-4 sm:p-6">
      <Bone className="h-6 w-40" />
      <Bone className="h-4 w-full" />
      <Bone className="h-4 w-11/12" />
      <Bone className="h-4 w-2/3" />
    </Card>
    <FormSkeleton fields={1} />
  </ActivitySkeleton>
);

function MissionView({ mission, refresh }: { mission: ParticipantMission; refresh: () => Promise<void> }) {
  const owner = useOwner();
  const reload = () => {
    refresh().catch((error: unknown) => toast({ title: m.participant_mission_reload_failed(), description: errorMessage(error), variant: 'destructive' }));
  };
  const single = mission.entries.max <= 1;
  const finished = single && mission.myEntries.some((entry) => !isEditable(entry));
  const reasons = useReviewReasons(mission);
  return (
    <div className={ACTIVITY_COLUMN}>
      <ActivityHeader projectName={mission.projectName} title={mission.title}>
        <ActivityMeta points={mission.points} perEntry={!single} closesAt={mission.availability === 'open' && !finished ? mission.closesAt : null} />
        {mission.review === 'manual' && <p className="text-sm text-muted-foreground">{m.participant_mission_manual_review()}</p>}
      </ActivityHeader>
      {mission.availability === 'upcoming' ? (
        <>
          <Instructions text={mission.instructions} />
          <Alert variant="info" title={opensLabel(mission.opensAt)}>
            {m.participant_mission_upcoming()}
          </Alert>
        </>
      ) : single ? (
        <SingleEntry mission={mission} owner={owner} reload={reload} reasons={reasons} />
      ) : (
        <Entries mission={mission} owner={owner} reload={reload} reasons={reasons} />
      )}
    </div>
  );
}

function ClosedNote({ mission, hadDraft }: { mission: ParticipantMission; hadDraft: boolean }) {
  return (
    <Alert variant="info" title={m.participant_mission_closed_title({ closed: closedLabel(mission.closesAt) })}>
      {hadDraft ? m.participant_mission_closed_draft() : m.participant_mission_closed_body()}
    </Alert>
  );
}

// ---------------------------------------------------------------------------------------------
// One entry: the form at once

function SingleEntry({ mission, owner, reload, reasons }: MissionParts) {
  const [sent, setSent] = useState<{ answers: Answers; language: Language } | null>(null);
  const entry = mission.myEntries.find((each) => !isEditable(each)) ?? mission.myEntries[0] ?? null;
  if (entry && !isEditable(entry)) return <SubmittedEntry mission={mission} entry={entry} focus={sent !== null} reasons={reasons} />;
  if (sent) {
    const shown: ParticipantEntry = {
      ...(entry ?? { id: 0, localDate: null, createdAt: '', seed: '', revision: 0 }),
      status: 'submitted',
      answers: sent.answers,
      language: sent.language,
      submittedAt: new Date().toISOString(),
    };
    return <SubmittedEntry mission={mission} entry={shown} focus reasons={reasons} />;
  }
  if (mission.availability === 'closed') {
    return (
      <>
        <Instructions text={mission.instructions} />
        <ClosedNote mission={mission} hadDraft={entry !== null} />
      </>
    );
  }
  if (!entry && !mission.canAddEntry) {
    return (
      <>
        <Instructions text={mission.instructions} />
        <Alert variant="info" title={mission.lockedReason ? m.participant_mission_locked() : m.participant_mission_cannot_start()}>
          {mission.lockedReason || mission.addEntryBlockedReason || m.participant_mission_try_later()}
        </Alert>
      </>
    );
  }
  return (
    <>
      <Instructions text={mission.instructions} />
      {entry?.status === 'changes_requested' && <ReviewReason entry={entry} reasons={reasons} />}
      {/* A new key once the entry exists elsewhere (made on another device): the form opens it. */}
      <EntryForm
        key={entry?.id ?? 'new'}
        mission={mission}
        entry={entry}
        owner={owner}
        reload={reload}
        onSubmitted={(answers, language) => setSent({ answers, language })}
        single
      />
    </>
  );
}

function SubmittedEntry({ mission, entry, focus, reasons }: { mission: ParticipantMission; entry: ParticipantEntry; focus: boolean; reasons: Reasons }) {
  const waiting = entry.status === 'submitted' && mission.review === 'manual';
  const title =
    entry.status === 'changes_requested'
      ? m.participant_mission_changes_requested()
      : entry.status === 'rejected'
        ? m.participant_mission_not_accepted()
        : m.participant_mission_thanks_title();
  const submittedOn = entry.submittedAt ? dateLabel(entry.submittedAt) : null;
  const worth = (points: string): string =>
    submittedOn
      ? waiting
        ? m.participant_mission_submitted_on_worth_review({ date: submittedOn, points })
        : m.participant_mission_submitted_on_worth({ date: submittedOn, points })
      : waiting
        ? m.participant_mission_submitted_worth_review({ points })
        : m.participant_mission_submitted_worth({ points });
  return (
    <div className="flex flex-col gap-8">
      <Outcome
        tone={entry.status === 'rejected' || entry.status === 'changes_requested' ? 'info' : 'success'}
        title={title}
        focus={focus}
        action={
          <Button asChild variant="outline" size="lg">
            <a href="/">{m.participant_back_home()}</a>
          </Button>
        }
      >
        <p>
          {withNodes((marks) => worth(marks.points), {
            points: <strong className="font-semibold text-foreground">{pointsLabel(mission.points)}</strong>,
          })}
        </p>
      </Outcome>
      {entry.status === 'rejected' && reasons.has(entry.id) && (
        <ReviewReason entry={entry} reasons={reasons} title={m.participant_mission_why_not_accepted()} />
      )}
      <Card asChild className="flex flex-col gap-4 p-4 sm:p-6">
        <section aria-labelledby="entry-answers">
          <h2 id="entry-answers" className="text-lg font-semibold">
            {m.participant_your_answers()}
          </h2>
          <EntryAnswers mission={mission} entry={entry} />
        </section>
      </Card>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Several entries and diaries

/** The entry `?entry={id}` asks to open, when it is one of the participant's editable entries and the mission is open. */
function requestedEntry(mission: ParticipantMission): number | null {
  if (typeof location === 'undefined' || mission.availability !== 'open') return null;
  const id = entryParam(location.search);
  return id !== null && mission.myEntries.some((entry) => entry.id === id && isEditable(entry)) ? id : null;
}

/** Takes `?entry=` off the address (the list is shown again), keeping the rest. */
function forgetRequestedEntry(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has('entry')) return;
  url.searchParams.delete('entry');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

function Entries(shared: MissionParts) {
  const { mission, reload } = shared;
  const [openId, setOpenId] = useState<number | null>(() => requestedEntry(mission));
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const focusList = useRef(false);

  useEffect(() => {
    if (openId === null && focusList.current) {
      focusList.current = false;
      listHeading.current?.focus();
    }
  }, [openId]);

  const open = mission.availability === 'open';
  const diary = isDiary(mission.entries);
  const done = mission.myEntries.filter((entry) => countsAsDone(entry.status)).length;
  const needed = Math.max(1, mission.entries.min);
  // The count is said against the same goal on every screen: a diary's maximum, else the minimum.
  const goal = entryGoal(mission.entries);
  const numbered = numberEntries(mission.myEntries);
  const opened = openId === null ? null : (numbered.find(({ entry }) => entry.id === openId) ?? null);

  const closeEditor = (message: string | null) => {
    forgetRequestedEntry();
    setNotice(message);
    focusList.current = true;
    setOpenId(null);
    reload();
  };

  const add = async () => {
    setAdding(true);
    setNotice(null);
    try {
      const created = await createEntry(mission.id);
      setOpenId(created.id);
      reload();
    } catch (error) {
      if (handleSessionLost(error)) return;
      toast({ title: m.participant_mission_add_failed(), description: errorMessage(error), variant: 'destructive' });
      if (error instanceof ApiError && error.status === 409) reload();
    } finally {
      setAdding(false);
    }
  };

  if (openId !== null) {
    // Just created: the reload that lists it may still be on its way.
    const entry: ParticipantEntry = opened?.entry ?? {
      id: openId,
      status: 'draft',
      answers: {},
      localDate: null,
      createdAt: new Date().toISOString(),
      submittedAt: null,
      seed: `entry-${openId}`,
      revision: 0,
    };
    const number = opened?.number ?? mission.myEntries.length + 1;
    return (
      <EntryEditor
        key={entry.id}
        {...shared}
        entry={entry}
        number={number}
        onBack={() => closeEditor(null)}
        onSubmitted={() => closeEditor(m.participant_mission_entry_submitted({ number: formatCount(number) }))}
      />
    );
  }

  const addLabel = diary ? diaryTodayLabel({ today: 'add', next: 0, max: 0 }) : m.participant_mission_add_entry();
  const room = mission.myEntries.length < mission.entries.max;
  const perDay = mission.entries.perDay;
  // A limit reached with a draft (a submit that failed offline) is not an entry made: it is continued.
  const draft = open && !mission.canAddEntry ? (numbered.find(({ entry }) => entry.id === mission.draftEntryId && entry.status === 'draft') ?? null) : null;
  const tomorrow = !draft && diary && open && !mission.canAddEntry && !mission.lockedReason && room && mission.nextEntryAt;
  const zone = mission.zoneChange;
  const made = zone
    ? m.participant_mission_zone_changed({ date: localDateLabel(zone.entryDay), zone: zone.timeZone })
    : perDay === 1
      ? m.participant_mission_made_today_one()
      : m.participant_mission_made_today_many();
  const blocked =
    !open || mission.canAddEntry
      ? null
      : tomorrow
        ? `${made} ${diaryTodayLabel({ today: 'tomorrow', next: mission.myEntries.length + 1, max: mission.entries.max })}.`
        : blockedText(mission);
  const rule = [
    perDay === 1 ? m.participant_mission_rule_one_a_day() : perDay ? m.participant_mission_rule_per_day({ count: perDay }) : null,
    // A diary's count already says its maximum; its minimum, when more than one, is said here.
    diary
      ? needed > 1
        ? m.participant_mission_rule_at_least({ count: formatCount(needed) })
        : null
      : mission.entries.max > needed
        ? m.participant_mission_rule_up_to({ count: formatCount(mission.entries.max) })
        : null,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <>
      <Instructions text={mission.instructions} />
      {notice && (
        <Alert variant="success" title={notice}>
          {diary
            ? done >= goal
              ? m.participant_mission_diary_complete()
              : mission.canAddEntry
                ? m.participant_mission_diary_another()
                : m.participant_mission_diary_tomorrow()
            : done >= needed
              ? m.participant_mission_all_entries()
              : m.participant_mission_more_to_go({ count: needed - done })}
        </Alert>
      )}
      {!open && <ClosedNote mission={mission} hadDraft={mission.myEntries.some(isEditable)} />}
      <Card asChild className="flex flex-col gap-5 p-4 sm:p-6">
        <section aria-labelledby="entries-heading">
          <div className="flex flex-col gap-2">
            <h2 ref={listHeading} id="entries-heading" tabIndex={-1} className="text-lg font-semibold">
              {m.participant_mission_your_entries()}
            </h2>
            {/* Not a paragraph: a big count reads as a heading to axe (p-as-heading); the list's heading is "Your entries". */}
            <div className="text-2xl font-semibold tabular-nums" data-entry-count>
              {entriesProgressLabel(done, goal)}
            </div>
            <ProgressBar value={(Math.min(done, goal) / goal) * 100} label={m.participant_mission_entries_done()} />
            {rule && <p className="text-sm text-muted-foreground">{rule}</p>}
          </div>
          {open && (
            <div className="flex flex-col gap-2">
              {draft ? (
                <Button size="lg" className="w-full sm:w-auto sm:self-start" aria-describedby="add-entry-blocked" onClick={() => setOpenId(draft.entry.id)}>
                  {mission.nextEntryAt ? m.participant_mission_continue_today_draft() : m.participant_mission_continue_draft()}
                </Button>
              ) : (
                <Button
                  size="lg"
                  className="w-full sm:w-auto sm:self-start"
                  disabled={blocked !== null}
                  loading={adding}
                  aria-describedby={blocked ? 'add-entry-blocked' : undefined}
                  onClick={() => void add()}
                >
                  {addLabel}
                </Button>
              )}
              {blocked && (
                <p id="add-entry-blocked" className="text-sm text-muted-foreground">
                  {blocked}
                </p>
              )}
            </div>
          )}
          {numbered.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {open ? m.participant_mission_no_entries_start({ action: addLabel }) : m.participant_mission_no_entries()}
            </p>
          ) : (
            <ol className="flex flex-col divide-y divide-border border-t border-border">
              {[...numbered].reverse().map(({ entry, number }) => (
                <EntryRow key={entry.id} {...shared} entry={entry} number={number} editable={open} onOpen={() => setOpenId(entry.id)} />
              ))}
            </ol>
          )}
        </section>
      </Card>
    </>
  );
}

/** Why no entry can be added now (the API's words: locked, limits, today's entry made or a draft of today to continue). */
function blockedText(mission: ParticipantMission): string {
  return mission.lockedReason || mission.addEntryBlockedReason || m.participant_mission_cannot_add();
}

function EntryRow({
  mission,
  entry,
  number,
  owner,
  editable,
  onOpen,
  reload,
  reasons,
}: MissionParts & {
  entry: ParticipantEntry;
  number: number;
  editable: boolean;
  onOpen: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const titleId = entryTitleId(entry);

  const remove = async () => {
    setDeleting(true);
    try {
      await apiSend('DELETE', `/api/missions/${mission.id}/entries/${entry.id}`);
      clearLocalDraft(local(), localDraftKey(owner, 'entry', entry.id));
      toast({ title: m.participant_mission_entry_deleted({ number: formatCount(number) }) });
      reload();
    } catch (error) {
      if (handleSessionLost(error)) return;
      toast({ title: m.participant_mission_delete_failed(), description: errorMessage(error), variant: 'destructive' });
      setDeleting(false);
      setConfirming(false);
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) reload();
    }
  };

  return (
    <li aria-labelledby={titleId} className="flex flex-col gap-3 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <EntryHeading entry={entry} number={number} />
        <Badge variant={entry.status === 'draft' ? 'outline' : 'secondary'}>{ENTRY_STATUS_LABELS[entry.status]}</Badge>
      </div>
      {sentBack(entry) && reasons.has(entry.id) && (
        <p className="text-sm whitespace-pre-wrap break-words" data-review-reason>
          <span className="font-medium">{m.participant_mission_reviewer_wrote()}</span> <span dir="auto">{reasons.get(entry.id)}</span>
        </p>
      )}
      {isEditable(entry) ? (
        editable &&
        (confirming ? (
          <div
            role="group"
            aria-label={m.participant_mission_delete_confirm_label({ number: formatCount(number) })}
            className="flex flex-col gap-2 rounded-lg bg-muted p-3"
          >
            <p className="text-sm font-medium">{m.participant_mission_delete_confirm()}</p>
            <div className="flex flex-wrap gap-2">
              <Button variant="destructive" size="lg" loading={deleting} onClick={() => void remove()}>
                {m.participant_mission_delete_draft()}
              </Button>
              <Button variant="outline" size="lg" disabled={deleting} onClick={() => setConfirming(false)}>
                {m.participant_mission_keep_draft()}
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            {entry.status === 'changes_requested' ? (
              <Button size="lg" onClick={onOpen} aria-label={m.participant_mission_resubmit_label({ number: formatCount(number) })}>
                {m.participant_mission_resubmit()}
              </Button>
            ) : (
              <Button size="lg" onClick={onOpen} aria-label={m.participant_mission_continue_label({ number: formatCount(number) })}>
                {m.participant_group_action_continue()}
              </Button>
            )}
            {entry.status === 'draft' && (
              <Button
                variant="outline"
                size="lg"
                onClick={() => setConfirming(true)}
                aria-label={m.participant_mission_delete_label({ number: formatCount(number) })}
              >
                {m.participant_mission_delete()}
              </Button>
            )}
          </div>
        ))
      ) : (
        <details className="group">
          <summary className="inline-flex min-h-11 cursor-pointer list-none items-center gap-1.5 rounded-md text-sm font-medium text-primary [&::-webkit-details-marker]:hidden">
            <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
            <span className="group-open:hidden">{m.participant_mission_show_answers()}</span>
            <span className="hidden group-open:inline">{m.participant_mission_hide_answers()}</span>
          </summary>
          <EntryAnswers mission={mission} entry={entry} className="pt-2" />
        </details>
      )}
    </li>
  );
}

function EntryEditor({
  mission,
  entry,
  number,
  owner,
  reload,
  reasons,
  onBack,
  onSubmitted,
}: MissionParts & {
  entry: ParticipantEntry;
  number: number;
  onBack: () => void;
  onSubmitted: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const date = entry.localDate ? localDateLabel(entry.localDate) : null;
  return (
    <>
      <Button variant="outline" size="lg" className="self-start" onClick={onBack}>
        <ArrowLeftIcon className="size-4 rtl:-scale-x-100" />
        {m.participant_mission_your_entries()}
      </Button>
      <Instructions text={mission.instructions} collapsible />
      <h2 ref={heading} tabIndex={-1} className="text-xl font-semibold tracking-tight">
        {m.participant_mission_entry_title({ number: formatCount(number) })}
        {date && <span className="ms-2 text-base font-normal text-muted-foreground">{date}</span>}
      </h2>
      {entry.status === 'changes_requested' && <ReviewReason entry={entry} reasons={reasons} />}
      <EntryForm mission={mission} entry={entry} owner={owner} reload={reload} onSubmitted={onSubmitted} headingLevel={3} />
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The form of one entry

function EntryForm({
  mission,
  entry,
  owner,
  reload,
  onSubmitted,
  headingLevel = 2,
  single = false,
}: {
  mission: ParticipantMission;
  /** Null: no entry yet; it is created when the person starts answering. */
  entry: ParticipantEntry | null;
  owner: string;
  reload: () => void;
  onSubmitted: (answers: Answers, language: Language) => void;
  headingLevel?: 2 | 3;
  /** A one-entry mission: answers typed before the entry existed (kept as `new-entry`) belong to it. */
  single?: boolean;
}) {
  const entryId = useRef<number | null>(entry?.id ?? null);
  const creating = useRef<Promise<number> | null>(null);
  /** Making the entry was refused (another device made it first, in a one-entry mission). */
  const createRefused = useRef(false);
  const newKey = localDraftKey(owner, 'new-entry', mission.id);
  // The seed is fixed for this visit (an entry created now gets its own from the next visit on).
  const [seed] = useState(() => entry?.seed ?? `entry-new-${mission.id}`);
  // The entry's files in the outbox (an entry made during this visit keeps the key it opened with).
  const [formKey] = useState(() => `mission-${mission.id}-entry-${entry?.id ?? 'new'}`);

  const ensureEntry = (): Promise<number> => {
    if (entryId.current !== null) return Promise.resolve(entryId.current);
    creating.current ??= createEntry(mission.id).then(
      (created) => {
        entryId.current = created.id;
        return created.id;
      },
      (error: unknown) => {
        creating.current = null;
        createRefused.current = error instanceof ApiError && error.status === 409;
        throw error;
      },
    );
    return creating.current;
  };

  return (
    <AnswersForm<AnswersPayload>
      definition={definitionOf(mission, entry)}
      activityTitle={mission.title}
      seed={seed}
      headingLevel={headingLevel}
      storageKey={() => (entryId.current !== null ? localDraftKey(owner, 'entry', entryId.current) : newKey)}
      // A one-entry mission's entry made on another device while this one typed: those answers are this entry's.
      adoptKey={single && entry !== null && isEditable(entry) ? newKey : null}
      server={{ answers: entry?.answers ?? {} }}
      revision={entry?.revision ?? 0}
      recordedLanguage={entry?.language}
      payload={(answers) => ({ answers })}
      save={async (payload, { revision, keepalive }) => {
        const id = await ensureEntry();
        return apiSend<AnswersSaved>(
          'PUT',
          `/api/missions/${mission.id}/entries/${id}`,
          { answers: payload.answers, revision, language: payload.language },
          { keepalive },
        );
      }}
      // The other device made this one-entry mission's entry first: the reload opens it, with these answers.
      quietRejection={() => single && createRefused.current}
      submit={async (answers, revision, language) => {
        const id = await ensureEntry();
        await apiSend('POST', `/api/missions/${mission.id}/entries/${id}/submit`, { answers, revision, language });
      }}
      formKey={formKey}
      queued={(language) =>
        entryId.current !== null
          ? { title: mission.title, path: `/api/missions/${mission.id}/entries/${entryId.current}/submit`, extra: { language } }
          : {
              title: mission.title,
              createPath: `/api/missions/${mission.id}/entries`,
              createBody: timeZone() ? { timeZone: timeZone() } : {},
              path: `/api/missions/${mission.id}/entries/{id}/submit`,
              extra: { language },
            }
      }
      notSent={m.participant_mission_not_submitted()}
      reload={reload}
      onSubmitted={onSubmitted}
    />
  );
}
