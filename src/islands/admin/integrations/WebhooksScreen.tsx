/**
 * /admin/integrations (issue 32 §1; admins): the outgoing webhooks' endpoints — address,
 * description, events, project, on or off (and why, since when), the last delivery — with "Add
 * endpoint" (its signing secret then shown once), and per endpoint: send a test event, its
 * deliveries (resend one), edit, turn off or on, rotate the secret (the new one shown once; the
 * old one signs beside it for 24 hours) and delete. Creating, rotating and deleting need a recent
 * sign-in: the HTTP client asks "Confirm it's you" and sends the call again (`withReauth`).
 */
import { useCallback, useState } from 'react';
import type { WebhookCreated, WebhookEndpoint } from '../../../shared/webhooks.ts';
import { apiSend } from '../../../platform/api.ts';
import { formatDate, formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton, ListBody, Section } from '../admin-kit.tsx';
import { m } from '../../../shared/i18n.ts';
import { Deliveries, DeliveryStatus } from './Deliveries.tsx';
import { AdminsOnly, attempt, Code, OnceDialog } from './kit.tsx';
import { projectName, type ProjectOption } from './logic.ts';
import { WebhookDialog } from './WebhookDialog.tsx';

/** The island of /admin/integrations. */
export default function WebhooksScreen() {
  return (
    <AdminsOnly loadingLabel={m.integrations_webhooks_loading()}>
      <Webhooks />
    </AdminsOnly>
  );
}

/** A secret shown once: after creating an endpoint, or rotating its secret. */
interface Shown {
  kind: 'created' | 'rotated';
  secret: string;
}

function Webhooks() {
  const list = useResource<{ items: WebhookEndpoint[] }>('/api/admin/webhooks');
  const projectsLoad = useResource<{ items: ProjectOption[] }>('/api/admin/projects?pageSize=100&sort=name');
  const projects = projectsLoad.load.status === 'ready' ? projectsLoad.load.data.items : [];
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);
  const endpoint = editing === 'new' ? null : editing;
  const { refresh } = list;
  const refreshQuietly = useCallback(() => void refresh().catch(() => {}), [refresh]);

  return (
    <>
      <Section
        id="webhooks"
        title={m.integrations_webhooks_title()}
        description={m.integrations_webhooks_description()}
        aside={<Button onClick={() => setEditing('new')}>{m.integrations_webhook_add()}</Button>}
      >
        <ListBody
          load={list.load}
          reload={list.reload}
          loadingLabel={m.integrations_webhooks_loading()}
          isEmpty={(data) => data.items.length === 0}
          empty={m.integrations_webhooks_empty()}
        >
          {(data) => (
            <ul className="flex flex-col gap-4" aria-label={m.integrations_webhooks_list()}>
              {data.items.map((item) => (
                <EndpointCard
                  key={item.id}
                  endpoint={item}
                  projects={projects}
                  onEdit={() => setEditing(item)}
                  onChanged={(next) => list.replace((was) => ({ items: was.items.map((other) => (other.id === next.id ? next : other)) }))}
                  onRotated={(secret) => {
                    setShown({ kind: 'rotated', secret });
                    refreshQuietly();
                  }}
                  onDeleted={() => list.replace((was) => ({ items: was.items.filter((other) => other.id !== item.id) }))}
                  onDelivered={refreshQuietly}
                />
              ))}
            </ul>
          )}
        </ListBody>
      </Section>

      <WebhookDialog
        // A new form for each endpoint (and each saved version of it): the dialog's values start from it.
        key={endpoint ? `${endpoint.id}-${endpoint.updatedAt}` : 'new'}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        endpoint={endpoint}
        projects={projects}
        onCreated={(created: WebhookCreated) => {
          setShown({ kind: 'created', secret: created.secret });
          list.reload();
        }}
        onSaved={(saved) => {
          toast({ title: m.integrations_webhook_saved() });
          list.replace((was) => ({ items: was.items.map((other) => (other.id === saved.id ? saved : other)) }));
        }}
      />

      <OnceDialog
        open={shown !== null}
        onDone={() => setShown(null)}
        title={shown?.kind === 'rotated' ? m.integrations_secret_rotated_title() : m.integrations_secret_created_title()}
        description={shown?.kind === 'rotated' ? m.integrations_secret_rotated_description() : m.integrations_secret_created_description()}
        label={m.integrations_secret_label()}
        value={shown?.secret ?? ''}
      />
    </>
  );
}

/** Why an endpoint is off, or that its deliveries are failing. */
function EndpointState({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (!endpoint.enabled && endpoint.disabledReason === 'failing') {
    return (
      <Alert variant="destructive" role="note" title={m.integrations_disabled_failing_title()}>
        {m.integrations_disabled_failing_text({ since: formatDateTime(endpoint.failingSince ?? endpoint.updatedAt) })}
      </Alert>
    );
  }
  if (!endpoint.enabled) {
    return (
      <Alert variant="info" role="note" title={m.integrations_disabled_admin_title()}>
        {m.integrations_disabled_admin_text({ since: formatDateTime(endpoint.updatedAt) })}
      </Alert>
    );
  }
  if (endpoint.failingSince) {
    return (
      <Alert variant="destructive" role="note" title={m.integrations_failing_title()}>
        {m.integrations_failing_text({ since: formatDateTime(endpoint.failingSince) })}
      </Alert>
    );
  }
  return null;
}

function EndpointCard({
  endpoint,
  projects,
  onEdit,
  onChanged,
  onRotated,
  onDeleted,
  onDelivered,
}: {
  endpoint: WebhookEndpoint;
  projects: readonly ProjectOption[];
  onEdit: () => void;
  onChanged: (endpoint: WebhookEndpoint) => void;
  onRotated: (secret: string) => void;
  onDeleted: () => void;
  onDelivered: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [nonce, setNonce] = useState(0);
  const [busy, setBusy] = useState<'test' | 'toggle' | null>(null);
  const last = endpoint.lastDelivery;
  const deliveriesId = `webhook-${endpoint.id}-deliveries`;

  const sendTest = () =>
    attempt(m.integrations_test_failed(), async () => {
      setBusy('test');
      try {
        await apiSend('POST', `/api/admin/webhooks/${endpoint.id}/test`, {});
        toast({ title: m.integrations_test_sent(), description: m.integrations_test_sent_text() });
        setOpen(true);
        setNonce((n) => n + 1);
      } finally {
        setBusy(null);
      }
    });

  const toggle = () =>
    attempt(endpoint.enabled ? m.integrations_turn_off_failed() : m.integrations_turn_on_failed(), async () => {
      setBusy('toggle');
      try {
        const next = await apiSend<WebhookEndpoint>('PATCH', `/api/admin/webhooks/${endpoint.id}`, { enabled: !endpoint.enabled });
        toast({ title: next.enabled ? m.integrations_turned_on() : m.integrations_turned_off() });
        onChanged(next);
      } finally {
        setBusy(null);
      }
    });

  return (
    <li className="flex flex-col gap-4 rounded-lg border border-border p-4 sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h3 className="text-base font-semibold">
            <span dir="ltr" className="font-mono text-sm break-all">
              {endpoint.url}
            </span>
          </h3>
          {endpoint.description && (
            <p className="text-sm text-muted-foreground">
              <bdi>{endpoint.description}</bdi>
            </p>
          )}
        </div>
        <Badge variant={endpoint.enabled ? 'default' : 'outline'}>{endpoint.enabled ? m.integrations_enabled() : m.integrations_disabled()}</Badge>
      </div>

      <EndpointState endpoint={endpoint} />

      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2 xl:grid-cols-4">
        <div className="flex min-w-0 flex-col gap-1 sm:col-span-2 xl:col-span-2">
          <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{m.integrations_webhook_events()}</dt>
          <dd className="flex flex-wrap gap-1.5">
            {endpoint.events.map((type) => (
              <Code key={type}>{type}</Code>
            ))}
          </dd>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{m.integrations_project()}</dt>
          <dd>{projectName(projects, endpoint.projectId)}</dd>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <dt className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{m.integrations_last_delivery()}</dt>
          <dd className="flex flex-wrap items-center gap-2">
            {last ? (
              <>
                <DeliveryStatus status={last.status} />
                {last.responseStatus !== null && <Code>{last.responseStatus}</Code>}
                <time dateTime={last.createdAt} title={formatDateTime(last.createdAt)} className="text-muted-foreground">
                  {formatRelative(last.createdAt)}
                </time>
              </>
            ) : (
              <span className="text-muted-foreground">{m.integrations_no_delivery()}</span>
            )}
          </dd>
        </div>
      </dl>
      <p className="text-xs text-muted-foreground">
        {m.integrations_created_on({ date: formatDate(endpoint.createdAt) })}
        {endpoint.previousSecretUntil && <> · {m.integrations_previous_secret_until({ date: formatDateTime(endpoint.previousSecretUntil) })}</>}
      </p>

      <div role="group" aria-label={m.integrations_endpoint_actions({ url: endpoint.url })} className="flex flex-wrap items-center gap-2">
        <Button size="sm" loading={busy === 'test'} disabled={!endpoint.enabled} onClick={() => void sendTest()}>
          {m.integrations_send_test()}
        </Button>
        <Button size="sm" variant="outline" aria-expanded={open} aria-controls={deliveriesId} onClick={() => setOpen(!open)}>
          {open ? m.integrations_hide_deliveries() : m.integrations_show_deliveries()}
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit}>
          {m.integrations_edit()}
        </Button>
        <Button size="sm" variant="outline" loading={busy === 'toggle'} onClick={() => void toggle()}>
          {endpoint.enabled ? m.integrations_turn_off() : m.integrations_turn_on()}
        </Button>
        <ConfirmButton
          question={m.integrations_rotate_question()}
          confirmLabel={m.integrations_rotate_confirm()}
          onConfirm={() =>
            attempt(m.integrations_rotate_failed(), async () => {
              const { secret } = await apiSend<{ secret: string }>('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`, {});
              onRotated(secret);
            })
          }
        >
          {m.integrations_rotate()}
        </ConfirmButton>
        <ConfirmButton
          confirmVariant="destructive"
          question={m.integrations_delete_question()}
          confirmLabel={m.integrations_delete_confirm()}
          onConfirm={() =>
            attempt(m.integrations_delete_failed(), async () => {
              await apiSend('DELETE', `/api/admin/webhooks/${endpoint.id}`, {});
              toast({ title: m.integrations_deleted() });
              onDeleted();
            })
          }
        >
          {m.integrations_delete()}
        </ConfirmButton>
      </div>

      <div id={deliveriesId} hidden={!open}>
        {open && <Deliveries endpointId={endpoint.id} endpointName={endpoint.url} nonce={nonce} onSettled={onDelivered} />}
      </div>
    </li>
  );
}
