/**
 * `/surveys/{id}`: a participant's survey. Native: the form renderer, resumed where the person
 * stopped (on any device), autosaved as they go (kept on the device while offline), submitted
 * once; then a thank-you with their answers. External (Alchemer): what to expect and "Start the
 * survey", then the outcome of the return. Upcoming, closed and not-found states.
 * Data: `GET /api/surveys/{id}` → ParticipantSurvey.
 */
import { RoutePage } from '../../components/states/RoutePage.tsx';
import { lazy, useEffect, useMemo, useRef, useState } from 'react';
import type { Answers } from '../../shared/forms/definition.ts';
import type { AnswersSaved } from '../../shared/answers.ts';
import type { ParticipantSurvey } from '../../shared/surveys.ts';
import { deviceDate } from '../../shared/calendar-day.ts';
import { apiSend } from '../../platform/api.ts';
import { local } from '../../platform/storage.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { toast } from '../../stores/toasts.ts';
import { FormRenderer, type FormRendererHandle, type SubmitErrors } from '../../components/forms/FormRenderer.tsx';
import { Later } from '../../components/states/Later.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import {
  CHECK_AND_SUBMIT_AGAIN,
  changedOnPage,
  clearLocalDraft,
  localDraftKey,
  MERGED_NOTE,
  readLocalDraft,
  resumeFrom,
  type AnswersPayload,
} from './autosave.ts';
import { Description } from './description.tsx';
import { ACTIVITY_COLUMN, ActivityHeader, ActivityMeta, Bone, HeaderSkeleton, SaveLine, useOwner, useTransientNote } from './parts.tsx';
import { photoAdapter } from './photos.ts';
import { submitFailure } from './send.ts';
import { useAnswersAutosave } from './use-autosave.ts';

/** The island of `/surveys/{id}`. */
export default function SurveyScreen() {
  return (
    <RoutePage<ParticipantSurvey> pattern="/surveys/:id" path={(ids) => `/api/surveys/${ids.id}`} heading="Survey" skeleton={<SurveySkeleton />}>
      {(survey, { refresh }) => <SurveyView key={survey.id} survey={survey} refresh={refresh} />}
    </RoutePage>
  );
}

function SurveySkeleton() {
  return (
    <Loading label="Loading the survey…" className={ACTIVITY_COLUMN}>
      <HeaderSkeleton />
      <Card variant="flat" aria-hidden="true" className="flex flex-col gap-6 p-4 sm:p-6">
        <Bone className="h-1.5 w-full" />
        <Bone className="h-7 w-2/3" />
        <Bone className="h-24 w-full" />
        <Bone className="h-24 w-full" />
        <Bone className="h-11 w-full sm:w-32 sm:self-end" />
      </Card>
    </Loading>
  );
}

function SurveyView({ survey, refresh }: { survey: ParticipantSurvey; refresh: () => Promise<void> }) {
  const owner = useOwner();
  const reload = () => {
    refresh().catch((error: unknown) => toast({ title: 'We could not reload the survey', description: errorMessage(error), variant: 'destructive' }));
  };
  const done = survey.state === 'submitted' || survey.state === 'closed';
  return (
    <div className={ACTIVITY_COLUMN}>
      <ActivityHeader projectName={survey.projectName} title={survey.title}>
        <ActivityMeta points={survey.points} estimatedMinutes={done ? null : survey.estimatedMinutes} closesAt={done ? null : survey.closesAt} />
      </ActivityHeader>
      <Later fallback={<StateFallback />}>
        {survey.kind === 'external' ? <ExternalSurvey survey={survey} /> : <NativeSurvey survey={survey} owner={owner} reload={reload} />}
      </Later>
    </div>
  );
}

// The states other than answering a native survey are loaded when needed: a participant filling a
// survey in loads the renderer and the autosave only.
const states = () => import('./survey-states.tsx');
const NotOpen = lazy(() => states().then((module) => ({ default: module.NotOpen })));
const ExternalSurvey = lazy(() => states().then((module) => ({ default: module.ExternalSurvey })));
const SubmittedSurvey = lazy(() => states().then((module) => ({ default: module.SubmittedSurvey })));

/** A block the size of a short message, while a state's code loads. */
const StateFallback = () => <div aria-hidden="true" className="h-40" />;

// ---------------------------------------------------------------------------------------------
// Native (the form renderer)

function NativeSurvey({ survey, owner, reload }: { survey: ParticipantSurvey; owner: string; reload: () => void }) {
  // Answers just submitted: the thank-you shows at once, before the reload brings the server's view.
  const [sent, setSent] = useState<{ answers: Answers; at: string } | null>(null);
  // An upcoming survey comes without its form.
  if (survey.state === 'upcoming' || (survey.state === 'closed' && !sent)) return <NotOpen survey={survey} />;
  if (!survey.form) {
    return (
      <Alert variant="destructive" title="This survey cannot be shown">
        Its questions are missing. Please try again later.
      </Alert>
    );
  }
  if (survey.state === 'submitted') {
    return <SubmittedSurvey survey={survey} definition={survey.form.definition} focus={sent !== null} />;
  }
  if (sent) {
    const response = { answers: sent.answers, pageId: null, status: 'submitted' as const, submittedAt: sent.at, revision: survey.response?.revision ?? 0 };
    return <SubmittedSurvey survey={{ ...survey, state: 'submitted', response }} definition={survey.form.definition} focus />;
  }
  return (
    <>
      <Description text={survey.description} />
      <SurveyForm
        survey={survey}
        definition={survey.form.definition}
        owner={owner}
        reload={reload}
        onSubmitted={(answers) => {
          setSent({ answers, at: new Date().toISOString() });
          reload();
        }}
      />
    </>
  );
}

type SurveyPayload = AnswersPayload & { pageId: string | null };

function SurveyForm({
  survey,
  definition,
  owner,
  reload,
  onSubmitted,
}: {
  survey: ParticipantSurvey;
  definition: NonNullable<ParticipantSurvey['form']>['definition'];
  owner: string;
  reload: () => void;
  onSubmitted: (answers: Answers) => void;
}) {
  const key = localDraftKey(owner, 'survey', survey.id);
  const server: SurveyPayload = { answers: survey.response?.answers ?? {}, pageId: survey.response?.pageId ?? null };
  // Answers typed on this device and never sent win over the server's, element by element.
  const start = useMemo(() => {
    const kept = readLocalDraft<SurveyPayload>(local(), key);
    const resumed = resumeFrom(kept, server);
    if (kept && !resumed.restored) clearLocalDraft(local(), key);
    return resumed;
    // Read once, when the form opens.
  }, []);
  const [touched, setTouched] = useState(start.restored);
  const form = useRef<FormRendererHandle>(null);
  /** The page on screen (for the merge note). */
  const page = useRef(start.payload.pageId ?? null);
  /** Set when a merge changed the answers: a submit under way stops and asks to check them. */
  const merged = useRef(false);
  const [note, showNote] = useTransientNote();

  const { status, error, autosave } = useAnswersAutosave<SurveyPayload>({
    save: (payload, { revision, keepalive }) =>
      apiSend<AnswersSaved>('PUT', `/api/surveys/${survey.id}/response`, { answers: payload.answers, pageId: payload.pageId, revision }, { keepalive }),
    storageKey: () => key,
    server,
    revision: survey.response?.revision ?? 0,
    onMerged: (next, mine) => {
      merged.current = true;
      form.current?.replaceAnswers(next.answers);
      if (changedOnPage(definition, page.current, mine.answers, next.answers)) showNote(MERGED_NOTE);
    },
    onRejected: (failure) => {
      if (handleSessionLost(failure)) return;
      toast({ title: 'Your answers were not saved', description: errorMessage(failure), variant: 'destructive' });
      reload();
    },
  });

  useEffect(() => {
    // Answers restored from this device go to the server at once; a note when the other device changed some on screen meanwhile.
    if (start.restored) autosave.change(start.payload);
    if (start.seen && changedOnPage(definition, page.current, start.seen, start.payload.answers)) showNote(MERGED_NOTE);
  }, [autosave, start]);

  const onSubmit = async (answers: Answers): Promise<void | SubmitErrors> => {
    // What is on its way lands first (a late autosave would find the response submitted).
    merged.current = false;
    await autosave.flush();
    if (autosave.status() === 'error') return;
    // Answers from the other device arrived meanwhile: the person checks them first.
    if (merged.current) throw new Error(CHECK_AND_SUBMIT_AGAIN);
    try {
      await apiSend('POST', `/api/surveys/${survey.id}/response/submit`, { answers, today: deviceDate(), revision: autosave.revision() });
    } catch (failure) {
      // Changed on the other device since: merged like a save, never submitted unseen.
      if (autosave.handleConflict(failure)) throw new Error(CHECK_AND_SUBMIT_AGAIN);
      return submitFailure(failure, 'Your answers were not sent', reload);
    }
    autosave.discard();
    autosave.dispose();
    onSubmitted(answers);
  };

  return (
    <div className="flex flex-col gap-4">
      <SaveLine status={status} error={error} idle={!touched} note={note} />
      <Card className="p-4 sm:p-6">
        <FormRenderer
          ref={form}
          definition={definition}
          seed={survey.seed}
          initialAnswers={start.payload.answers}
          initialPageId={start.payload.pageId ?? null}
          photos={photoAdapter}
          onChange={(answers, pageId) => {
            setTouched(true);
            page.current = pageId;
            autosave.change({ answers, pageId });
          }}
          onPageChange={(pageId, answers) => {
            setTouched(true);
            page.current = pageId;
            autosave.change({ answers, pageId });
            void autosave.flush();
          }}
          onSubmit={onSubmit}
          submitLabel="Submit"
        />
      </Card>
    </div>
  );
}
