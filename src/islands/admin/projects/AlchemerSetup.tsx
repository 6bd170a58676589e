/**
 * The "Alchemer setup" panel of an external survey's page: what to paste into Alchemer, step by
 * step (`docs/alchemer.md`): the Hidden Value that keeps the member's reference, one return link
 * per outcome (each with its own key), and the Webhook action that confirms outcomes server to
 * server, with its secret made here and shown once.
 */
import { useId, useState } from 'react';
import type { AdminSurvey, ExternalOutcome, SurveyWebhook, SurveyWebhookSecret } from '../../../shared/surveys.ts';
import { apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton, Section } from '../admin-kit.tsx';
import { ALCHEMER_PID_MERGE_CODE } from '../../../shared/surveys.ts';

const OUTCOMES: readonly { status: ExternalOutcome; label: string; where: string }[] = [
  { status: 'complete', label: 'Finished (end of survey)', where: 'On the Thank You page: Action → URL Redirect.' },
  { status: 'screened_out', label: 'Screened out', where: 'On the disqualification page (or a Disqualify action): URL Redirect.' },
  { status: 'over_quota', label: 'Over quota', where: 'In the quota settings: when a quota is full, redirect to this URL.' },
];

/** The setup steps of an external survey, or a note while its links are not there. */
export function AlchemerSetup({ survey }: { survey: AdminSurvey }) {
  if (!survey.returnLinks || !survey.webhook) {
    return (
      <Section id="alchemer" title="Alchemer setup">
        <p className="text-sm text-muted-foreground">The return links are not available yet. Reload the page in a moment.</p>
      </Section>
    );
  }
  const links = survey.returnLinks;
  return (
    <Section
      id="alchemer"
      title="Alchemer setup"
      description="Members reach the survey with an anonymous reference (pid). Alchemer must keep it and send it back when they leave."
    >
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm">
        <li>
          On the survey's first page, add a <strong>Hidden Value</strong> action named <code>pid</code> with the value{' '}
          <CopyableCode text={ALCHEMER_PID_MERGE_CODE} label="the pid merge code" />.
        </li>
        <li>
          Add the redirects below, each with its own link: a link only works for its outcome. Alchemer fills in the member's pid. Keep “Pass URL variables” off:
          the pid is already in the link.
        </li>
        <li>Add the webhook below, so Alchemer confirms each outcome itself.</li>
        <li>Test it once with a member account: the survey page shows the member's outcome afterwards.</li>
      </ol>
      <ul aria-label="Return links" className="flex flex-col gap-4">
        {OUTCOMES.map((entry) => (
          <li key={entry.status} className="flex flex-col gap-2 rounded-lg border border-border p-3">
            <div className="flex flex-col gap-0.5">
              <span className="text-sm font-semibold">{entry.label}</span>
              <span className="text-sm text-muted-foreground">{entry.where}</span>
            </div>
            <CopyField value={links[entry.status]} label={`Return URL: ${entry.label}`} />
          </li>
        ))}
      </ul>
      <WebhookSetup surveyId={survey.id} initial={survey.webhook} trustReturns={survey.trustReturns} />
    </Section>
  );
}

/** The webhook: its URL, the fields to pass, and the secret (made or replaced here, shown once). */
function WebhookSetup({ surveyId, initial, trustReturns }: { surveyId: number; initial: SurveyWebhook; trustReturns: boolean }) {
  const [webhook, setWebhook] = useState(initial);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();

  async function makeSecret(): Promise<void> {
    setBusy(true);
    try {
      const made = await apiSend<SurveyWebhookSecret>('POST', `/api/admin/surveys/${surveyId}/webhook-secret`, {});
      setSecret(made.secret);
      setWebhook(made.webhook);
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: 'The webhook secret was not made', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-t border-border pt-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          Webhook
        </h3>
        <Badge variant={webhook.configured ? 'default' : 'secondary'}>{webhook.configured ? 'Secret made' : 'No secret yet'}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        {trustReturns
          ? 'This survey trusts returns: a member who comes back on the Finished link gets the points at once. The webhook still confirms each outcome, and corrects one that Alchemer did not send.'
          : 'Points of a finished survey stay pending until Alchemer confirms the outcome here (or until the export is checked).'}
      </p>
      <ol className="flex list-decimal flex-col gap-3 pl-5 text-sm">
        <li className="flex flex-col gap-2">
          <span>
            On the page after the last question, add a <strong>Webhook</strong> action with the method <strong>POST</strong> and this URL:
          </span>
          <CopyField value={webhook.url} label="Webhook URL" />
        </li>
        <li>
          Under “Fields to pass”, choose <strong>Post custom fields</strong>: <code>pid</code> ={' '}
          <CopyableCode text={ALCHEMER_PID_MERGE_CODE} label="the pid merge code for the webhook" />, <code>status</code> = <code>complete</code> and{' '}
          <code>secret</code> = the webhook secret.
        </li>
        <li>
          Optionally, the same action on the disqualification and quota pages, with <code>status</code> = <code>screened_out</code> or <code>over_quota</code>.
        </li>
      </ol>
      {secret !== null && (
        <div className="flex flex-col gap-2">
          <Alert variant="success" title="Webhook secret made">
            Copy it into the Webhook action now: it is shown only this once.
          </Alert>
          <CopyField value={secret} label="Webhook secret" />
        </div>
      )}
      <div>
        {webhook.configured ? (
          <ConfirmButton
            confirmLabel="Replace secret"
            confirmVariant="destructive"
            question="Replace the secret? Webhooks sending the old one are refused from now on."
            onConfirm={makeSecret}
          >
            Replace secret
          </ConfirmButton>
        ) : (
          <Button variant="outline" size="sm" loading={busy} onClick={() => void makeSecret()}>
            Create webhook secret
          </Button>
        )}
      </div>
    </section>
  );
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: `${what} copied` });
  } catch {
    toast({ title: 'Copying did not work', description: 'Select the text and copy it with Ctrl+C (or ⌘C).', variant: 'destructive' });
  }
}

function CopyField({ value, label }: { value: string; label: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={value}
        onFocus={(event) => event.target.select()}
        className="h-10 min-w-0 flex-1 rounded-md border border-input bg-muted px-3 font-mono text-xs text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      />
      <Button variant="secondary" size="sm" onClick={() => void copyText(value, label)} className="self-start sm:self-auto">
        Copy<span className="sr-only"> {label}</span>
      </Button>
    </div>
  );
}

function CopyableCode({ text, label }: { text: string; label: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <code className="rounded bg-muted px-1.5 py-0.5">{text}</code>
      <Button variant="link" className="text-sm" onClick={() => void copyText(text, label[0]?.toUpperCase() + label.slice(1))}>
        Copy<span className="sr-only"> {label}</span>
      </Button>
    </span>
  );
}
