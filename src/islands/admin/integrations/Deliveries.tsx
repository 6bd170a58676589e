/**
 * One endpoint's deliveries (`GET /api/admin/webhooks/{id}/deliveries`, the list contract, newest
 * first): the event, the attempt, its status, the receiver's answer (status, latency, first
 * characters) and when; "Resend" sends that event again (`POST …/deliveries/{id}/resend`, 202).
 * While a delivery waits to be sent the list asks again by itself, less often as time goes by, so
 * a test event is seen to arrive without reloading.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ListPage } from '../../../shared/list.ts';
import type { WebhookDelivery, WebhookDeliveryStatus } from '../../../shared/webhooks.ts';
import { apiSend, withQuery } from '../../../platform/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FilterSelect, ListBody, ListFooter, PER_PAGE, TableHead, TableScroller, td } from '../admin-kit.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { attempt, Code } from './kit.tsx';
import { DELIVERY_STATUS_LABELS } from './logic.ts';

type StatusFilter = 'all' | WebhookDeliveryStatus;

/** How much of the receiver's answer a row shows (the API keeps 64 KB and lists 500 characters). */
const EXCERPT_CHARS = 160;

export function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <Badge
      variant={status === 'succeeded' ? 'default' : status === 'pending' ? 'secondary' : 'outline'}
      className={cn(status === 'failed' && 'border-destructive text-destructive')}
    >
      {DELIVERY_STATUS_LABELS[status]()}
    </Badge>
  );
}

function excerpt(text: string | null): string {
  if (!text) return '';
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** The answer: its HTTP status and latency, why it failed, its first characters. */
function Answer({ delivery }: { delivery: WebhookDelivery }) {
  const shown = excerpt(delivery.responseExcerpt);
  return (
    <div className="flex min-w-48 flex-col gap-1">
      <p className="tabular-nums">
        {delivery.responseStatus === null ? '—' : <Code>{delivery.responseStatus}</Code>}
        {delivery.latencyMs !== null && <span className="ms-2 text-muted-foreground">{m.integrations_latency({ ms: formatCount(delivery.latencyMs) })}</span>}
      </p>
      {delivery.error && (
        <p className="text-xs text-destructive">
          <bdi>{delivery.error}</bdi>
        </p>
      )}
      {shown && (
        <code dir="ltr" className="block rounded bg-muted px-2 py-1 text-start font-mono text-xs whitespace-pre-wrap wrap-anywhere">
          {shown}
        </code>
      )}
    </div>
  );
}

/** "Attempt 2", and "resend or test" for a manual one. */
function AttemptText({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <span className="whitespace-nowrap tabular-nums">
      {m.integrations_attempt({ n: formatCount(delivery.attempt) })}
      {delivery.manual && <span className="block text-xs text-muted-foreground">{m.integrations_delivery_manual()}</span>}
    </span>
  );
}

function EventCell({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <div className="flex min-w-44 flex-col gap-1">
      <Code className="self-start break-normal whitespace-nowrap">{delivery.type}</Code>
      <span dir="ltr" className="self-start font-mono text-xs break-all text-muted-foreground">
        {delivery.eventId}
      </span>
    </div>
  );
}

export function Deliveries({
  endpointId,
  endpointName,
  nonce,
  onSettled,
}: {
  endpointId: number;
  /** The endpoint's address, for the section's name. */
  endpointName: string;
  /** Changes when the list should be asked for again (a test event sent). */
  nonce: number;
  /** Every delivery on screen has been sent (the endpoint's "last delivery" may have changed). */
  onSettled: () => void;
}) {
  const id = useId();
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (status !== 'all') params.status = status;
  const { load, reload, refresh } = useResource<ListPage<WebhookDelivery>>(withQuery(`/api/admin/webhooks/${endpointId}/deliveries`, params));

  // Asked again when told (not on the first render: the list was just asked for).
  const firstNonce = useRef(nonce);
  useEffect(() => {
    if (nonce !== firstNonce.current) void refresh().catch(() => {});
  }, [nonce, refresh]);

  // While a delivery waits: ask again, after 2 s, then less and less often (at most every 30 s).
  // Once nothing waits, the endpoint's "last delivery" is told, once per newest delivery seen done.
  const polls = useRef(0);
  const reported = useRef<string | null>(null);
  const data = load.status === 'ready' ? load.data : null;
  useEffect(() => {
    if (!data) return;
    const waiting = data.items.filter((delivery) => delivery.status === 'pending');
    if (waiting.length === 0) {
      polls.current = 0;
      const newest = data.items[0];
      const seen = newest ? `${newest.id}:${newest.status}` : '';
      if (seen !== reported.current) {
        reported.current = seen;
        onSettled();
      }
      return;
    }
    const due = Math.min(...waiting.map((delivery) => Date.parse(delivery.scheduledAt))) - Date.now();
    const backoff = Math.min(30_000, 2_000 * 1.5 ** polls.current);
    const wait = Math.max(backoff, Number.isFinite(due) ? due + 1_000 : backoff);
    // A retry hours away is not waited for here: the list is asked again when the screen is.
    if (wait > 10 * 60_000) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      void refresh().catch(() => {});
    }, wait);
    return () => clearTimeout(timer);
  }, [data, refresh, onSettled]);

  const resend = (delivery: WebhookDelivery) =>
    attempt(m.integrations_resend_failed(), async () => {
      await apiSend('POST', `/api/admin/webhooks/deliveries/${delivery.id}/resend`, {});
      toast({ title: m.integrations_resent() });
      setPage(1);
      await refresh();
    });

  const statusOptions: readonly { value: StatusFilter; label: string }[] = [
    { value: 'all', label: m.integrations_delivery_all() },
    { value: 'succeeded', label: DELIVERY_STATUS_LABELS.succeeded() },
    { value: 'failed', label: DELIVERY_STATUS_LABELS.failed() },
    { value: 'pending', label: DELIVERY_STATUS_LABELS.pending() },
  ];

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4 border-t border-border pt-4">
      <h4 id={`${id}-heading`} className="text-base font-semibold">
        {m.integrations_deliveries()}
        <span className="sr-only"> {endpointName}</span>
      </h4>
      <FilterSelect
        label={m.integrations_delivery_status()}
        value={status}
        options={statusOptions}
        onChange={(next) => {
          setStatus(next);
          setPage(1);
        }}
        className="w-full sm:w-48"
      />
      <ListBody
        load={load}
        reload={reload}
        loadingLabel={m.integrations_deliveries_loading()}
        isEmpty={(list) => list.items.length === 0}
        empty={status === 'all' ? m.integrations_deliveries_empty() : m.integrations_deliveries_empty_filtered()}
      >
        {(list) => (
          <>
            {/* Narrower screens: one card per delivery. */}
            <ul className="flex flex-col divide-y divide-border border-y border-border lg:hidden" aria-label={m.integrations_deliveries()}>
              {list.items.map((delivery) => (
                <li key={delivery.id} className="flex flex-col gap-2 py-3 text-sm">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <DeliveryStatus status={delivery.status} />
                    <time dateTime={delivery.createdAt} className="text-xs text-muted-foreground">
                      {formatDateTime(delivery.createdAt)}
                    </time>
                  </div>
                  <EventCell delivery={delivery} />
                  <AttemptText delivery={delivery} />
                  <Answer delivery={delivery} />
                  {delivery.status !== 'pending' && (
                    <Button variant="outline" size="sm" className="self-start" onClick={() => void resend(delivery)}>
                      {m.integrations_resend()}
                      <span className="sr-only"> {m.integrations_resend_sr({ type: delivery.type, n: formatCount(delivery.attempt) })}</span>
                    </Button>
                  )}
                </li>
              ))}
            </ul>
            {/* From the `lg` width: the table. */}
            <div className="hidden lg:block">
              <TableScroller label={m.integrations_deliveries_table()}>
                <div className="relative">
                  <table className="w-full min-w-[48rem] border-collapse">
                    <caption className="sr-only">{m.integrations_deliveries_caption({ total: formatCount(list.total) })}</caption>
                    <TableHead
                      columns={[
                        m.integrations_delivery_time(),
                        m.integrations_delivery_event(),
                        m.integrations_delivery_attempt(),
                        m.integrations_delivery_status(),
                        m.integrations_delivery_answer(),
                        { label: m.integrations_actions(), hidden: true },
                      ]}
                    />
                    <tbody>
                      {list.items.map((delivery) => (
                        <tr key={delivery.id}>
                          <td className={`${td} whitespace-nowrap`}>
                            <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time>
                          </td>
                          <td className={td}>
                            <EventCell delivery={delivery} />
                          </td>
                          <td className={td}>
                            <AttemptText delivery={delivery} />
                          </td>
                          <td className={td}>
                            <DeliveryStatus status={delivery.status} />
                          </td>
                          <td className={td}>
                            <Answer delivery={delivery} />
                          </td>
                          <td className={`${td} text-end`}>
                            {delivery.status !== 'pending' && (
                              <Button variant="outline" size="sm" onClick={() => void resend(delivery)}>
                                {m.integrations_resend()}
                                <span className="sr-only"> {m.integrations_resend_sr({ type: delivery.type, n: formatCount(delivery.attempt) })}</span>
                              </Button>
                            )}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </TableScroller>
            </div>
            <ListFooter page={list.page} total={list.total} perPage={list.pageSize} label={m.integrations_deliveries_pages()} onPageChange={setPage} />
          </>
        )}
      </ListBody>
    </section>
  );
}
