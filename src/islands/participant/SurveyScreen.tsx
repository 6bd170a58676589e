/**
 * `/surveys/{id}`: a participant's survey. Native: the form renderer, resumed where the person
 * stopped (on any device), autosaved as they go (kept on the device while offline), each page a
 * history entry (`?page={pageId}` after the first: the browser's Back and Forward move between
 * pages, a reload stays on the page), submitted once; then a thank-you with their answers. External (Alchemer): what to expect and "Start the
 * survey", then the outcome of the return. Upcoming, closed and not-found states.
 * Data: `GET /api/surveys/{id}` → ParticipantSurvey.
 */
import { RoutePage } from '../../components/states/RoutePage.tsx';
import { lazy, useState } from 'react';
import type { Answers } from '../../shared/forms/definition.ts';
import type { Language } from '../../shared/languages.ts';
import type { AnswersSaved } from '../../shared/answers.ts';
import type { ParticipantSurvey } from '../../shared/surveys.ts';
import { deviceDate } from '../../shared/calendar-day.ts';
import { apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { toast } from '../../stores/toasts.ts';
import { Later } from '../../components/states/Later.tsx';
import { m } from '../../shared/i18n.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { AnswersForm } from './answers-form.tsx';
import { localDraftKey, type AnswersPayload } from './autosave.ts';
import { Description } from './description.tsx';
import { ACTIVITY_COLUMN, ActivityHeader, ActivityMeta, ActivitySkeleton, FormSkeleton, useOwner } from './parts.tsx';

/** The island of `/surveys/{id}`. */
export default function SurveyScreen() {
  return (
    <RoutePage<ParticipantSurvey>
      pattern="/surveys/:id"
      path={(ids) => `/api/surveys/${ids.id}`}
      heading={m.participant_survey_heading()}
      skeleton={<SurveySkeleton />}
    >
      {(survey, { refresh }) => <SurveyView key={survey.id} survey={survey} refresh={refresh} />}
    </RoutePage>
  );
}

const SurveySkeleton = () => (
  <ActivitySkeleton label={m.participant_survey_loading()}>
    <FormSkeleton fields={2} progress />
  </ActivitySkeleton>
);

function SurveyView({ survey, refresh }: { survey: ParticipantSurvey; refresh: () => Promise<void> }) {
  const owner = useOwner();
  const reload = () => {
    refresh().catch((error: unknown) => toast({ title: m.participant_survey_reload_failed(), description: errorMessage(error), variant: 'destructive' }));
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
  const [sent, setSent] = useState<{ answers: Answers; at: string; language: Language } | null>(null);
  // An upcoming survey comes without its form.
  if (survey.state === 'upcoming' || (survey.state === 'closed' && !sent)) return <NotOpen survey={survey} />;
  if (!survey.form) {
    return (
      <Alert variant="destructive" title={m.participant_survey_missing_title()}>
        {m.participant_survey_missing_body()}
      </Alert>
    );
  }
  if (survey.state === 'submitted') {
    return <SubmittedSurvey survey={survey} definition={survey.form.definition} focus={sent !== null} />;
  }
  if (sent) {
    const response = {
      answers: sent.answers,
      pageId: null,
      status: 'submitted' as const,
      submittedAt: sent.at,
      revision: survey.response?.revision ?? 0,
      language: sent.language,
    };
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
        onSubmitted={(answers, language) => {
          setSent({ answers, at: new Date().toISOString(), language });
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
  onSubmitted: (answers: Answers, language: Language) => void;
}) {
  const key = localDraftKey(owner, 'survey', survey.id);
  return (
    <AnswersForm<SurveyPayload>
      definition={definition}
      activityTitle={survey.title}
      seed={survey.seed}
      storageKey={() => key}
      // Each page is a history entry (`?page=`): the browser's Back goes to the previous page, not out of the survey.
      pageInAddress
      server={{ answers: survey.response?.answers ?? {}, pageId: survey.response?.pageId ?? null }}
      revision={survey.response?.revision ?? 0}
      recordedLanguage={survey.response?.language}
      payload={(answers, pageId) => ({ answers, pageId })}
      save={(payload, { revision, keepalive }) =>
        apiSend<AnswersSaved>(
          'PUT',
          `/api/surveys/${survey.id}/response`,
          { answers: payload.answers, pageId: payload.pageId, revision, language: payload.language },
          { keepalive },
        )
      }
      submit={(answers, revision, language) =>
        apiSend('POST', `/api/surveys/${survey.id}/response/submit`, { answers, today: deviceDate(), revision, language })
      }
      notSent={m.participant_form_not_sent()}
      reload={reload}
      formKey={`survey-${survey.id}`}
      queued={(language) => ({ title: survey.title, path: `/api/surveys/${survey.id}/response/submit`, extra: { today: deviceDate(), language } })}
      onSubmitted={onSubmitted}
    />
  );
}
