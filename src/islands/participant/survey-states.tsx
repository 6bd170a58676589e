/**
 * The states of `/surveys/{id}` other than answering a native survey, loaded when needed: not
 * open yet or closed, an external survey (what to expect, "Start the survey", the outcome of the
 * return), and a submitted survey's thank-you with the answers read-only.
 */
import { useState } from 'react';
import type { ExternalOutcome, ParticipantSurvey } from '../../shared/surveys.ts';
import { Outcome } from '../../components/Outcome.tsx';
import { AnswersView } from '../../components/forms/AnswersView.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { closedLabel, dateLabel, minutesLabel, opensLabel, pointsLabel } from '../../lib/labels.ts';
import { ExternalIcon } from './parts.tsx';
import { thumbnailUrl } from '../../shared/media.ts';
import { Description } from './description.tsx';

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
          This survey is not open yet. It appears under “To do” on your home page when it opens.
        </Alert>
      </>
    );
  }
  return (
    <Alert variant="info" title={`This survey is closed · ${closedLabel(survey.closesAt)}`}>
      It is no longer taking answers. Thank you for your interest — new surveys appear on your home page.
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
            {started ? 'Pick up where you left off' : 'What to expect'}
          </h2>
          <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm">
            <li>The survey opens in this tab, on our survey partner’s site.</li>
            {minutes && <li>It takes {minutes.toLowerCase()}.</li>}
            <li>
              You earn {pointsLabel(survey.points)} when you complete it{survey.closesAt ? `, before it closes on ${dateLabel(survey.closesAt)}` : ''}.
            </li>
            <li>At the end you come back here automatically.</li>
          </ul>
        </div>
        <Button asChild size="lg" className="w-full sm:w-auto sm:self-start">
          <a href={`/api/surveys/${survey.id}/start`} data-astro-reload>
            {started ? 'Continue the survey' : 'Start the survey'}
            <ExternalIcon className="size-4" />
          </a>
        </Button>
      </section>
    </Card>
  );
}

function ExternalOutcomeView({ outcome, points, focus }: { outcome: ExternalOutcome; points: number; focus: boolean }) {
  if (outcome === 'screened_out') {
    return (
      <Outcome tone="info" title="Thanks — this survey was looking for different participants this time" focus={focus} action={<HomeButton />}>
        <p>
          Your answers told us this survey is not the right fit for you, so it ended early. That is nothing you did wrong; new surveys appear on your home page.
        </p>
      </Outcome>
    );
  }
  if (outcome === 'over_quota') {
    return (
      <Outcome tone="info" title="Thanks — this survey already has all the answers it needs" focus={focus} action={<HomeButton />}>
        <p>It filled up while you were taking part, so it ended early. Thank you for your time; new surveys appear on your home page.</p>
      </Outcome>
    );
  }
  return (
    <Outcome tone="success" title="Thank you — your answers are in" focus={focus} action={<HomeButton />}>
      <p>
        You completed this survey. It is worth <strong className="font-semibold text-foreground">{pointsLabel(points)}</strong>.
      </p>
    </Outcome>
  );
}

function HomeButton() {
  return (
    <Button asChild variant="outline" size="lg">
      <a href="/">Back to home</a>
    </Button>
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
      <Outcome tone="success" title="Thank you — your answers are in" focus={focus} action={<HomeButton />}>
        <p>
          You submitted this survey{submittedAt ? ` on ${dateLabel(submittedAt)}` : ''}. It is worth{' '}
          <strong className="font-semibold text-foreground">{pointsLabel(survey.points)}</strong>.
        </p>
      </Outcome>
      {survey.response && (
        <Card asChild className="flex flex-col gap-4 p-4 sm:p-6">
          <section aria-labelledby="survey-answers">
            <h2 id="survey-answers" className="text-lg font-semibold">
              Your answers
            </h2>
            <AnswersView definition={definition} answers={survey.response.answers} photos={{ thumbnailUrl }} />
          </section>
        </Card>
      )}
    </div>
  );
}
