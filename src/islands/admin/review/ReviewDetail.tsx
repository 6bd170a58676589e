/**
 * One submission under review (`GET /api/admin/submissions/{id}`): who and when, the decision
 * panel, for a resubmission the comparison with the earlier version, the answers with their photos
 * (lightbox), the entry's history, probes, internal notes and the participant's other entries.
 * Decisions go through `onDecided` (the workspace confirms and moves on); the keyboard reaches the
 * panel's actions through `actionsRef` (null until the entry is loaded).
 */
import { useCallback, useId, useImperativeHandle, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import type { AdminMission } from '../../../shared/missions.ts';
import type { ProbeView, ReviewDecision, ReviewNoteView, ReviewSubmission } from '../../../shared/review.ts';
import { ApiError, apiGet, apiSend } from '../../../platform/api.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { ArrowLeftIcon } from '../../../components/icons.tsx';
import { Detail, EntryStatusBadge, formatDay, Moment } from '../projects/kit.tsx';
import { AnswerLanguageBadge, staffContent } from '../content-language.tsx';
import { OtherEntries, EntryVersionAnswers, usePhotoLightbox } from './EntryVersionView.tsx';
import { DecisionPanel, type ReasonKind } from './DecisionPanel.tsx';
import { NotesPanel, ProbesPanel } from './NotesAndProbes.tsx';
import { Kbd } from './ShortcutsHelp.tsx';
import { keyOf } from './shortcuts.ts';
import type { ReasonTemplates } from './templates.ts';
import { VersionComparison, VersionHistory } from './VersionComparison.tsx';

/** What the keyboard can ask of the open submission. */
export interface DetailActions {
  approve: () => void;
  requestChanges: () => void;
  reject: () => void;
  note: () => void;
}

export interface ReviewDetailProps {
  submissionId: number;
  /** The queue's mission; null in the review inbox (any mission: the entry's own; its points unknown until the inbox has its row). */
  mission: Pick<AdminMission, 'id' | 'points' | 'title'> | null;
  templates: ReasonTemplates;
  /** "3 of 10 on this page", when the entry is a row of the queue's page. */
  position: string | null;
  onPrevious: () => void;
  onNext: () => void;
  /** Back to the queue (phones, where the entry is shown instead of it). */
  onBack: () => void;
  /** Opens another entry (the participant's other entries). */
  onOpen: (id: number) => void;
  /** A decision was taken: the entry as it is now. */
  onDecided: (submission: ReviewSubmission, decision: ReviewDecision) => void;
  /** The entry changed in a way the queue shows (its status, probes waiting). */
  onChanged: (submission: ReviewSubmission) => void;
  actionsRef: Ref<DetailActions | null>;
}

/** A titled part of the entry. */
function Part({ title, count, children, id }: { title: string; count?: ReactNode; children: ReactNode; id?: string }) {
  const headingId = useId();
  return (
    <section id={id} aria-labelledby={headingId} className="flex scroll-mt-20 flex-col gap-3 border-t border-border pt-4">
      <h4 id={headingId} className="flex items-center gap-2 text-base font-semibold">
        {title}
        {count}
      </h4>
      {children}
    </section>
  );
}

/** What the screen says when a decision meets an entry that changed after it was loaded (409 `changed`). */
export const changedTitle = (): string => m.review_detail_changed_title();

export function ReviewDetail(props: ReviewDetailProps) {
  const { load, reload, replace } = useResource<ReviewSubmission>(`/api/admin/submissions/${props.submissionId}`);

  if (load.status === 'loading') {
    return (
      <Loading label={m.review_detail_loading()} className="flex flex-col gap-4">
        <BackButton onBack={props.onBack} />
        <Bone className="h-8 w-56" />
        <Bone className="h-32 w-full" />
        <Bone className="h-64 w-full" />
      </Loading>
    );
  }
  if (load.status === 'missing') {
    return (
      <div className="flex flex-col items-start gap-3">
        <BackButton onBack={props.onBack} />
        <h3 className="text-lg font-semibold">{m.review_detail_missing_title()}</h3>
        <p className="text-sm text-muted-foreground">{m.review_detail_missing_text()}</p>
      </div>
    );
  }
  if (load.status === 'error') {
    return (
      <div className="flex flex-col items-start gap-3">
        <BackButton onBack={props.onBack} />
        <Failed title={m.review_detail_failed()} message={load.message} onRetry={reload} />
      </div>
    );
  }
  if (props.mission !== null && load.data.missionId !== props.mission.id) {
    // An address with the id of another mission's entry: say where it is.
    const { projectId, missionId, missionTitle } = load.data;
    return (
      <div className="flex flex-col items-start gap-3">
        <BackButton onBack={props.onBack} />
        <h3 className="text-lg font-semibold">{m.review_detail_other_mission()}</h3>
        <a href={`/admin/projects/${projectId}/missions/${missionId}?submission=${load.data.id}`} className="text-sm text-primary underline underline-offset-4">
          {missionTitle ? m.review_detail_open_in_mission({ title: missionTitle }) : m.review_detail_open_in_its_mission()}
        </a>
      </div>
    );
  }
  return <Loaded {...props} submission={load.data} replace={replace} reload={reload} />;
}

function BackButton({ onBack }: { onBack: () => void }) {
  return (
    <Button variant="ghost" size="sm" className="-ms-2 self-start xl:hidden" onClick={onBack}>
      <ArrowLeftIcon className="rtl:-scale-x-100" />
      {m.review_detail_back()}
    </Button>
  );
}

function Loaded({
  submission,
  replace,
  mission,
  templates,
  position,
  onPrevious,
  onNext,
  onBack,
  onOpen,
  onDecided,
  onChanged,
  actionsRef,
  reload,
}: ReviewDetailProps & { submission: ReviewSubmission; replace: (data: ReviewSubmission) => void; reload: () => void }) {
  const who = fullNameOf(submission.user) || submission.user.email;
  const [mode, setMode] = useState<ReasonKind | null>(null);
  const [reasonFocus, setReasonFocus] = useState(0);
  const [noteFocus, setNoteFocus] = useState(0);
  const [busy, setBusy] = useState<ReviewDecision | null>(null);
  const busyRef = useRef(false);
  const { open: openPhotos, lightbox } = usePhotoLightbox(who);
  // The lightbox shows photos; videos play where they are (with their state: `EntryVersionAnswers`).
  const photos = submission.media.filter((media) => media.kind === 'photo').map((media) => media.id);
  const videos = submission.media.filter((media) => media.kind === 'video');
  const versions = submission.history;
  const compare = versions.length >= 2;
  const today = submission.localDate ?? undefined;
  // The questions in the reviewer's language when the version offers it, else its source language.
  const content = useMemo(() => staffContent(submission.definition), [submission.definition]);
  const headingId = useId();
  const notesId = useId();

  const decide = useCallback(
    async (decision: ReviewDecision, reason?: string) => {
      if (busyRef.current) return;
      busyRef.current = true;
      setBusy(decision);
      try {
        // The status this screen shows: if the entry changed since (another moderator, the
        // participant resubmitting), the server refuses with 409 `changed` instead of deciding blind.
        const body = { decision, expectedStatus: submission.status, ...(reason === undefined ? {} : { reason }) };
        const updated = await apiSend<ReviewSubmission>('POST', `/api/admin/submissions/${submission.id}/review`, body);
        replace(updated);
        setMode(null);
        onDecided(updated, decision);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409 && error.code === 'changed') {
          // Show the entry as it is now; a reason being typed stays in its form, to send again or not.
          toast({ title: changedTitle(), description: m.review_detail_changed_description(), variant: 'destructive' });
          try {
            const fresh = await apiGet<ReviewSubmission>(`/api/admin/submissions/${submission.id}`);
            replace(fresh);
            onChanged(fresh);
          } catch {
            reload();
          }
          throw error;
        }
        // The reason form shows its own errors; an approval's failure is a toast.
        if (decision === 'approve' && !handleSessionLost(error))
          toast({ title: m.review_detail_approve_failed(), description: errorMessage(error), variant: 'destructive' });
        throw error;
      } finally {
        busyRef.current = false;
        setBusy(null);
      }
    },
    [submission.id, submission.status, replace, reload, onDecided, onChanged],
  );

  const openReason = useCallback((kind: ReasonKind) => {
    setMode(kind);
    setReasonFocus((n) => n + 1);
  }, []);

  useImperativeHandle(
    actionsRef,
    () => ({
      approve: () => {
        if (submission.status === 'draft') toast({ title: m.review_detail_draft_title(), description: m.review_detail_draft_description() });
        else if (submission.status === 'approved')
          toast({ title: m.review_detail_already_approved(), description: m.review_detail_already_approved_description({ name: who }) });
        else void decide('approve').catch(() => undefined);
      },
      requestChanges: () => (submission.status === 'draft' ? toast({ title: m.review_detail_draft_title() }) : openReason('request_changes')),
      reject: () => (submission.status === 'draft' ? toast({ title: m.review_detail_draft_title() }) : openReason('reject')),
      note: () => {
        document.getElementById(notesId)?.scrollIntoView({ block: 'nearest' });
        setNoteFocus((n) => n + 1);
      },
    }),
    [submission.status, who, decide, openReason, notesId],
  );

  function withSubmission(update: (current: ReviewSubmission) => ReviewSubmission) {
    const next = update(submission);
    replace(next);
    onChanged(next);
  }

  const waiting = submission.probes.filter((probe) => probe.answer === null).length;
  const latest = versions[versions.length - 1];
  const answersView = (
    <div {...content.attributes}>
      <EntryVersionAnswers
        definition={content.definition}
        answers={submission.answers}
        photos={photos}
        videos={videos}
        today={today}
        onOpenPhotos={openPhotos}
      />
    </div>
  );

  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-5">
      <div className="flex flex-col gap-3">
        <BackButton onBack={onBack} />
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="flex min-w-0 flex-col gap-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={headingId} className="text-xl font-semibold tracking-tight break-words">
                {who}
              </h3>
              <EntryStatusBadge status={submission.status} />
              {submission.resubmission && <Badge variant="outline">{m.review_resubmission()}</Badge>}
              <AnswerLanguageBadge language={submission.language} label={m.review_answered_in()} />
            </div>
            <p className="text-sm break-all text-muted-foreground">{submission.user.email}</p>
          </div>
          <nav aria-label={m.review_detail_move_nav()} className="flex shrink-0 flex-wrap items-center gap-2">
            {position && <span className="text-sm text-muted-foreground tabular-nums">{position}</span>}
            <Button variant="outline" size="sm" onClick={onPrevious} aria-keyshortcuts={keyOf('previous')}>
              {m.review_detail_previous()} <Kbd>{keyOf('previous')}</Kbd>
            </Button>
            <Button variant="outline" size="sm" onClick={onNext} aria-keyshortcuts={keyOf('next')}>
              {m.review_detail_next()} <Kbd>{keyOf('next')}</Kbd>
            </Button>
          </nav>
        </div>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Detail term={m.review_detail_submitted()}>
            <Moment value={submission.submittedAt} empty={m.review_detail_not_yet()} />
          </Detail>
          <Detail term={m.review_detail_day()}>
            {submission.localDate ? formatDay(submission.localDate) : '–'}
            {/* The participant changed time zone since their entry before: the day is taken in another zone (issue 28 §8). */}
            {submission.timeZoneChangedFrom && (
              <span className="block text-xs text-muted-foreground" data-time-zone-change>
                {m.review_detail_time_zone_changed({ zone: submission.timeZone, earlier: submission.timeZoneChangedFrom })}
              </span>
            )}
          </Detail>
          <Detail term={m.review_detail_started()}>
            <time dateTime={submission.createdAt}>{formatDateTime(submission.createdAt)}</time>
          </Detail>
          <Detail term={m.review_detail_version()}>
            {latest ? m.review_detail_version_of({ version: formatCount(latest.version), total: formatCount(versions.length) }) : '–'}
          </Detail>
        </dl>
      </div>

      <DecisionPanel
        submission={submission}
        points={mission?.points ?? null}
        mode={mode}
        onModeChange={(next) => {
          setMode(next);
          if (next) setReasonFocus((n) => n + 1);
        }}
        focusRequest={reasonFocus}
        busy={busy}
        onDecide={decide}
        templates={templates}
      />

      <Part
        title={compare ? m.review_detail_answers_changed() : m.review_detail_answers()}
        count={
          <span className="text-sm font-normal text-muted-foreground">{m.review_detail_form_version({ version: formatCount(submission.formVersion) })}</span>
        }
      >
        {submission.status === 'changes_requested' && <p className="rounded-md bg-muted px-3 py-2 text-sm">{m.review_detail_may_be_editing()}</p>}
        {compare ? (
          <Tabs defaultValue="compare" className="flex flex-col gap-3">
            <TabsList className="self-start">
              <TabsTrigger value="compare">{m.review_detail_compare_with({ version: formatCount(versions[versions.length - 2]?.version ?? 0) })}</TabsTrigger>
              <TabsTrigger value="answers">{m.review_detail_all_answers()}</TabsTrigger>
            </TabsList>
            <TabsContent value="compare">
              <div {...content.attributes}>
                <VersionComparison definition={content.definition} versions={versions} today={today} onOpenPhotos={openPhotos} />
              </div>
            </TabsContent>
            <TabsContent value="answers">{answersView}</TabsContent>
          </Tabs>
        ) : (
          answersView
        )}
      </Part>

      <Part
        title={m.review_detail_history()}
        count={<span className="text-sm font-normal text-muted-foreground">{m.review_detail_versions_count({ count: versions.length })}</span>}
      >
        <VersionHistory versions={versions} status={submission.status} />
      </Part>

      <Part
        title={m.review_detail_probes()}
        count={waiting > 0 ? <Badge variant="outline">{m.review_detail_probes_waiting({ count: waiting })}</Badge> : undefined}
      >
        <ProbesPanel
          entryId={submission.id}
          probes={submission.probes}
          canAsk={submission.status !== 'draft'}
          onAsked={(probe: ProbeView) => withSubmission((current) => ({ ...current, probes: [...current.probes, probe] }))}
        />
      </Part>

      <Part id={notesId} title={m.review_detail_notes()}>
        <NotesPanel
          entryId={submission.id}
          notes={submission.notes}
          focusRequest={noteFocus}
          onAdded={(note: ReviewNoteView) => withSubmission((current) => ({ ...current, notes: [...current.notes, note] }))}
        />
      </Part>

      <Part title={m.review_detail_other_entries({ name: who })}>
        <OtherEntries entries={submission.otherEntries} who={who} onOpen={onOpen} />
      </Part>

      {lightbox}
    </article>
  );
}
