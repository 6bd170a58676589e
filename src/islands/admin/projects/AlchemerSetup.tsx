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
import { m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';

/** The outcomes with a return link each (texts read when shown). */
const outcomes = (): readonly { status: ExternalOutcome; label: string; where: string }[] => [
  { status: 'complete', label: m.projects_alchemer_outcome_complete(), where: m.projects_alchemer_outcome_complete_where() },
  { status: 'screened_out', label: m.projects_alchemer_outcome_screened_out(), where: m.projects_alchemer_outcome_screened_out_where() },
  { status: 'over_quota', label: m.projects_alchemer_outcome_over_quota(), where: m.projects_alchemer_outcome_over_quota_where() },
];

/** The setup steps of an external survey, or a note while its links are not there. */
export function AlchemerSetup({ survey }: { survey: AdminSurvey }) {
  if (!survey.returnLinks || !survey.webhook) {
    return (
      <Section id="alchemer" title={m.projects_alchemer_title()}>
        <p className="text-sm text-muted-foreground">{m.projects_alchemer_not_ready()}</p>
      </Section>
    );
  }
  const links = survey.returnLinks;
  return (
    <Section id="alchemer" title={m.projects_alchemer_title()} description={m.projects_alchemer_description()}>
      <ol className="flex list-decimal flex-col gap-3 ps-5 text-sm">
        <li>
          {withNodes((marks) => m.projects_alchemer_step_hidden_value(marks), {
            action: <strong>Hidden Value</strong>,
            pid: <code>pid</code>,
            value: <CopyableCode text={ALCHEMER_PID_MERGE_CODE} label={m.projects_alchemer_pid_code_label()} name={m.projects_alchemer_pid_code_name()} />,
          })}
        </li>
        <li>{m.projects_alchemer_step_redirects()}</li>
        <li>{m.projects_alchemer_step_webhook()}</li>
        <li>{m.projects_alchemer_step_test()}</li>
      </ol>
      <ul aria-label={m.projects_alchemer_return_links()} className="flex flex-col gap-4">
        {outcomes().map((entry) => (
          <li key={entry.status} className="flex flex-col gap-2 rounded-lg border border-border p-3">
            <div className="flex flex-col gap-0.5">
              <span className="text-sm font-semibold">{entry.label}</span>
              <span className="text-sm text-muted-foreground">{entry.where}</span>
            </div>
            <CopyField value={links[entry.status]} label={m.projects_alchemer_return_url({ outcome: entry.label })} />
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
      if (!handleSessionLost(error)) toast({ title: m.projects_alchemer_secret_failed(), description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 border-t border-border pt-5">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={headingId} className="text-base font-semibold">
          {m.projects_alchemer_webhook()}
        </h3>
        <Badge variant={webhook.configured ? 'default' : 'secondary'}>
          {webhook.configured ? m.projects_alchemer_secret_made() : m.projects_alchemer_no_secret()}
        </Badge>
      </div>
      <p className="text-sm text-muted-foreground">{trustReturns ? m.projects_alchemer_trusts_returns() : m.projects_alchemer_pending_until_confirmed()}</p>
      <ol className="flex list-decimal flex-col gap-3 ps-5 text-sm">
        <li className="flex flex-col gap-2">
          <span>
            {withNodes((marks) => m.projects_alchemer_webhook_step_action(marks), { action: <strong>Webhook</strong>, method: <strong>POST</strong> })}
          </span>
          <CopyField value={webhook.url} label={m.projects_alchemer_webhook_url()} />
        </li>
        <li>
          {withNodes((marks) => m.projects_alchemer_webhook_step_fields(marks), {
            choice: <strong>Post custom fields</strong>,
            pid: <code>pid</code>,
            pidValue: (
              <CopyableCode
                text={ALCHEMER_PID_MERGE_CODE}
                label={m.projects_alchemer_pid_code_webhook_label()}
                name={m.projects_alchemer_pid_code_webhook_name()}
              />
            ),
            status: <code>status</code>,
            complete: <code>complete</code>,
            secret: <code>secret</code>,
          })}
        </li>
        <li>
          {withNodes((marks) => m.projects_alchemer_webhook_step_other(marks), {
            status: <code>status</code>,
            screenedOut: <code>screened_out</code>,
            overQuota: <code>over_quota</code>,
          })}
        </li>
      </ol>
      {secret !== null && (
        <div className="flex flex-col gap-2">
          <Alert variant="success" title={m.projects_alchemer_secret_made_title()}>
            {m.projects_alchemer_secret_made_text()}
          </Alert>
          <CopyField value={secret} label={m.projects_alchemer_webhook_secret()} />
        </div>
      )}
      <div>
        {webhook.configured ? (
          <ConfirmButton
            confirmLabel={m.projects_alchemer_replace_secret()}
            confirmVariant="destructive"
            question={m.projects_alchemer_replace_question()}
            onConfirm={makeSecret}
          >
            {m.projects_alchemer_replace_secret()}
          </ConfirmButton>
        ) : (
          <Button variant="outline" size="sm" loading={busy} onClick={() => void makeSecret()}>
            {m.projects_alchemer_create_secret()}
          </Button>
        )}
      </div>
    </section>
  );
}

async function copyText(text: string, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: m.projects_alchemer_copied({ what }) });
  } catch {
    toast({ title: m.projects_alchemer_copy_failed(), description: m.projects_alchemer_copy_failed_description(), variant: 'destructive' });
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
        {withNodes((marks) => m.projects_alchemer_copy(marks), { label: <span className="sr-only">{label}</span> })}
      </Button>
    </div>
  );
}

/** A code to copy; `label` completes "Copy …" for screen readers, `name` is what the toast says was copied. */
function CopyableCode({ text, label, name }: { text: string; label: string; name: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      <code className="rounded bg-muted px-1.5 py-0.5">{text}</code>
      <Button variant="link" className="text-sm" onClick={() => void copyText(text, name)}>
        {withNodes((marks) => m.projects_alchemer_copy(marks), { label: <span className="sr-only">{label}</span> })}
      </Button>
    </span>
  );
}
