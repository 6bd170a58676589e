/**
 * The states of `/surveys/{id}` other than answering a native survey, loaded when needed: not
 * open yet or closed, an external survey (what to expect, "Start the survey", the outcome of the
 * return), and a submitted survey's thank-you with the answers read-only.
 */
import { useState } from 'react';
import type { ExternalOutcome, ParticipantSurvey } from '../../shared/surveys.ts';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import type { Language } from '../../shared/languages.ts';
import { answeredIn } from './content-language.tsx';
import { Outcome } from '../../components/Outcome.tsx';
import { AnswersView } from '../../components/forms/AnswersView.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { closedLabel, dateLabel, minutesLabel, opensLabel, pointsLabel } from '../../lib/labels.ts';
import { ExternalIcon } from './parts.tsx';
import { thumbnailUrl } from '../../shared/media.ts';
import { Description } from './description.tsx';
import { currentLanguage, m } from '../../shared/i18n.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';

/** `?returned=1&outcome=…` on the way back from an external survey. */
function returnedFromExternal(): { returned: boolean; outcome: ExternalOutcome | null } {
  const params = new URLSearchParams(location.search);
  const value = params.get('outcome') ?? params.get('status');
  const outcome = value === 'complete' || value === 'screened_out' || value === 'over_quota' ? value : null;
  return { returned: params.get('returned') === '1' || outcome !== null, outcome };
}

/** Not open yet ("Opens on …") or closed. */
export function NotOpen({ survey }: { survey: ParticipantSurvey }) {
  if (survey.state === 'upcoming') {
    return (
      <>
        <Description text={survey.description} />
        <Alert variant="info" title={opensLabel(survey.opensAt)}>
          {m.participant_survey_upcoming()}
        </Alert>
      </>
    );
  }
  return (
    <Alert variant="info" title={m.participant_survey_closed_title({ closed: closedLabel(survey.closesAt) })}>
      {m.participant_survey_closed_body()}
    </Alert>
  );
}

// ---------------------------------------------------------------------------------------------
// External (Alchemer)

/** An external survey: what to expect and "Start the survey", or the outcome once returned. */
export function ExternalSurvey({ survey }: { survey: ParticipantSurvey }) {
  const [returned] = useState(returnedFromExternal);
  if (survey.state === 'submitted') {
    const outcome = survey.outcome ?? returned.outcome ?? 'complete';
    return <ExternalOutcomeView outcome={outcome} points={survey.points} focus={returned.returned} />;
  }
  if (survey.state === 'upcoming' || survey.state === 'closed') return <NotOpen survey={survey} />;
  const minutes = minutesLabel(survey.estimatedMinutes);
  const started = survey.state === 'in_progress';
  return (
    <Card asChild className="flex flex-col gap-5 p-4 sm:p-6">
      <section aria-labelledby="survey-start">
        <Description text={survey.description} />
        <div className="flex flex-col gap-2">
          <h2 id="survey-start" className="text-lg font-semibold">
            {started ? m.participant_survey_external_resume() : m.participant_survey_external_expect()}
          </h2>
          <ul className="flex list-disc flex-col gap-1.5 ps-5 text-sm">
            <li>{m.participant_survey_external_partner()}</li>
            {minutes && <li>{m.participant_survey_external_takes({ duration: lowerFirst(minutes) })}</li>}
            <li>
              {survey.closesAt
                ? m.participant_survey_external_earn_before({ points: pointsLabel(survey.points), date: dateLabel(survey.closesAt) })
                : m.participant_survey_external_earn({ points: pointsLabel(survey.points) })}
            </li>
            <li>{m.participant_survey_external_return()}</li>
          </ul>
        </div>
        <Button asChild size="lg" className="w-full sm:w-auto sm:self-start">
          <a href={`/api/surveys/${survey.id}/start`} data-astro-reload>
            {started ? m.participant_survey_external_continue() : m.participant_survey_external_start()}
            <ExternalIcon className="size-4 rtl:-scale-x-100" />
          </a>
        </Button>
      </section>
    </Card>
  );
}

function ExternalOutcomeView({ outcome, points, focus }: { outcome: ExternalOutcome; points: number; focus: boolean }) {
  if (outcome === 'screened_out') {
    return (
      <Outcome tone="info" title={m.participant_survey_screened_out_title()} focus={focus} action={<HomeButton />}>
        <p>{m.participant_survey_screened_out_body()}</p>
      </Outcome>
    );
  }
  if (outcome === 'over_quota') {
    return (
      <Outcome tone="info" title={m.participant_survey_over_quota_title()} focus={focus} action={<HomeButton />}>
        <p>{m.participant_survey_over_quota_body()}</p>
      </Outcome>
    );
  }
  return (
    <Outcome tone="success" title={m.participant_survey_thanks_title()} focus={focus} action={<HomeButton />}>
      <p>{withNodes((marks) => m.participant_survey_completed_worth({ points: marks.points }), { points: <Worth points={points} /> })}</p>
    </Outcome>
  );
}

function HomeButton() {
  return (
    <Button asChild variant="outline" size="lg">
      <a href="/">{m.participant_back_home()}</a>
    </Button>
  );
}

/** What a survey is worth, in bold inside its sentence. */
function Worth({ points }: { points: number }) {
  return <strong className="font-semibold text-foreground">{pointsLabel(points)}</strong>;
}

/** "About 5 minutes" → "about 5 minutes", inside a sentence (only the first letter: German nouns keep theirs). */
function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase(currentLanguage()) + text.slice(1);
}

/** The answers, the questions in the language they were answered in. */
function AnsweredIn({ definition, language, answers }: { definition: FormDefinition; language: Language | null | undefined; answers: Answers }) {
  const shown = answeredIn(definition, language);
  return (
    <div {...shown.attrs}>
      <AnswersView definition={shown.definition} answers={answers} photos={{ thumbnailUrl }} />
    </div>
  );
}

/** A submitted native survey: the thank-you with the points, then the answers read-only. */
export function SubmittedSurvey({
  survey,
  definition,
  focus,
}: {
  survey: ParticipantSurvey;
  definition: NonNullable<ParticipantSurvey['form']>['definition'];
  focus: boolean;
}) {
  const submittedAt = survey.response?.submittedAt;
  return (
    <div className="flex flex-col gap-8">
      <Outcome tone="success" title={m.participant_survey_thanks_title()} focus={focus} action={<HomeButton />}>
        <p>
          {withNodes(
            (marks) =>
              submittedAt
                ? m.participant_survey_submitted_on_worth({ date: dateLabel(submittedAt), points: marks.points })
                : m.participant_survey_submitted_worth({ points: marks.points }),
            { points: <Worth points={survey.points} /> },
          )}
        </p>
      </Outcome>
      {survey.response && (
        <Card asChild className="flex flex-col gap-4 p-4 sm:p-6">
          <section aria-labelledby="survey-answers">
            <h2 id="survey-answers" className="text-lg font-semibold">
              {m.participant_your_answers()}
            </h2>
            <AnsweredIn definition={definition} language={survey.response.language} answers={survey.response.answers} />
          </section>
        </Card>
      )}
    </div>
  );
}
