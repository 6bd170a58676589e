/**
 * `/account/rewards`, "Your requests": the participant's reward requests, newest first, a page at a
 * time ("Show more", the list contract), each with its timeline — Requested → Approved (or
 * "Waits for a check, usually within 2 working days") → Sent with the code or link (a Copy button;
 * shown to its owner alone) | Rejected | Failed (the reason, the points back) | Cancelled — and
 * "Cancel request" while it is still requested (`POST /api/redemptions/{id}/cancel`; 409
 * `not_cancellable` said, and the request read again).
 */
import { useState } from 'react';
import type { ListPage } from '../../shared/list.ts';
import type { Redemption } from '../../shared/rewards.ts';
import { ApiError, apiGet, apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import type { Resource } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { CheckCircleIcon, CircleIcon, ClockIcon, ExternalIcon, XIcon } from '../../components/icons.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { appendPage, hasMore } from './points.ts';
import { formatMoney, pointsText, redemptionStatusLabel, REDEMPTIONS_PAGE_SIZE, redemptionsPath, timelineOf, type TimelineStep } from './rewards.ts';
import { m } from '../../shared/i18n.ts';

/** The id of a request's heading: the screen moves the focus there once it is made. */
export const requestHeadingId = (id: number) => `redemption-${id}-title`;

export default function RewardsRequests({
  resource,
  created,
  onChanged,
}: {
  resource: Resource<ListPage<Redemption>>;
  /** The request just made on this page, announced above the list. */
  created: Redemption | null;
  /** A request changed here (cancelled, read again). */
  onChanged: (redemption: Redemption) => void;
}) {
  const { load } = resource;
  return (
    <section aria-labelledby="requests-title" aria-busy={load.status === 'loading' || undefined} className="flex flex-col gap-4" id="your-requests">
      <h2 id="requests-title" className="text-xl font-semibold tracking-tight">
        {m.account_requests_title()}
      </h2>
      {created && (
        <Alert variant="success" title={m.account_requests_created_title()}>
          {created.status === 'requested' && created.needsReview
            ? m.account_requests_created_review({ title: created.reward.title })
            : m.account_requests_created({ title: created.reward.title })}
        </Alert>
      )}
      {load.status === 'loading' ? (
        <RequestsSkeleton />
      ) : load.status === 'ready' ? (
        <RequestsList first={load.data} replaceFirst={resource.replace} onChanged={onChanged} />
      ) : (
        <Failed title={m.account_requests_load_failed()} message={load.message} onRetry={resource.reload} />
      )}
    </section>
  );
}

function RequestsList({
  first,
  replaceFirst,
  onChanged,
}: {
  first: ListPage<Redemption>;
  replaceFirst: Resource<ListPage<Redemption>>['replace'];
  onChanged: (redemption: Redemption) => void;
}) {
  // Pages after the first (the first is the resource's, so a new request goes on top of it).
  const [later, setLater] = useState<Redemption[]>([]);
  const [pages, setPages] = useState(1);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const items = appendPage(first.items, later);

  const showMore = async () => {
    setLoading(true);
    setFailure(null);
    try {
      const next = await apiGet<ListPage<Redemption>>(redemptionsPath(pages + 1));
      setLater((shown) => appendPage(shown, next.items));
      setPages(pages + 1);
    } catch (error) {
      if (!handleSessionLost(error)) setFailure(errorMessage(error));
    } finally {
      setLoading(false);
    }
  };

  const changed = (redemption: Redemption) => {
    const swap = (list: Redemption[]) => list.map((item) => (item.id === redemption.id ? redemption : item));
    replaceFirst((page) => ({ ...page, items: swap(page.items) }));
    setLater(swap);
    onChanged(redemption);
  };

  if (items.length === 0) return <p className="rounded-lg border border-border px-4 py-3 text-sm text-muted-foreground">{m.account_requests_none()}</p>;
  return (
    <>
      <ul className="flex flex-col gap-4">
        {items.map((redemption) => (
          <RequestCard key={redemption.id} redemption={redemption} onChanged={changed} />
        ))}
      </ul>
      {failure && (
        <Alert variant="destructive" title={m.account_requests_more_failed()}>
          {failure}
        </Alert>
      )}
      {hasMore(pages, REDEMPTIONS_PAGE_SIZE, first.total) && (
        <div>
          <Button variant="outline" loading={loading} onClick={() => void showMore()}>
            {m.account_common_show_more()}
          </Button>
        </div>
      )}
    </>
  );
}

function StatusBadge({ status }: { status: Redemption['status'] }) {
  const tone =
    status === 'delivered'
      ? 'border-transparent bg-[color-mix(in_oklab,var(--success)_16%,var(--card))] text-foreground'
      : status === 'rejected' || status === 'failed'
        ? 'border-transparent bg-[color-mix(in_oklab,var(--destructive)_14%,var(--card))] text-foreground'
        : status === 'cancelled'
          ? 'border-border text-muted-foreground'
          : '';
  return (
    <Badge variant={status === 'requested' || status === 'approved' || status === 'ordering' ? 'secondary' : 'outline'} className={tone} data-status={status}>
      {redemptionStatusLabel(status)}
    </Badge>
  );
}

function RequestCard({ redemption, onChanged }: { redemption: Redemption; onChanged: (redemption: Redemption) => void }) {
  const [alert, setAlert] = useState<string | null>(null);
  const titleId = requestHeadingId(redemption.id);
  const steps = timelineOf(redemption);

  const cancel = async () => {
    setAlert(null);
    try {
      onChanged(await apiSend<Redemption>('POST', `/api/redemptions/${redemption.id}/cancel`, {}));
    } catch (error) {
      if (handleSessionLost(error)) return;
      setAlert(errorMessage(error));
      // Not cancellable any more (approved meanwhile): show where it is now.
      if (error instanceof ApiError && error.status === 409) {
        try {
          onChanged(await apiGet<Redemption>(`/api/redemptions/${redemption.id}`));
        } catch {
          // What is on screen stays; the alert says what happened.
        }
      }
    }
  };

  return (
    <li>
      <Card asChild className="flex flex-col gap-4 p-4 sm:p-5">
        <article aria-labelledby={titleId} data-redemption={redemption.id}>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="flex min-w-0 flex-col gap-0.5">
              <h3
                id={titleId}
                tabIndex={-1}
                className="text-base leading-snug font-semibold break-words outline-none focus-visible:outline-2 focus-visible:outline-ring"
              >
                {redemption.reward.title}
              </h3>
              <p className="text-sm text-muted-foreground">
                {formatMoney(redemption.value, redemption.currency)} · {pointsText(redemption.points)}
              </p>
            </div>
            <StatusBadge status={redemption.status} />
          </div>

          <ol aria-label={m.account_requests_steps_of({ title: redemption.reward.title })} className="flex flex-col">
            {steps.map((step, index) => (
              <Step key={step.key} step={step} last={index === steps.length - 1} />
            ))}
          </ol>

          {redemption.status === 'delivered' && redemption.delivery && <Delivery delivery={redemption.delivery} />}

          {alert && <Alert variant="destructive">{alert}</Alert>}
          {redemption.status === 'requested' && (
            <ConfirmButton
              className="self-start"
              question={m.account_requests_cancel_question()}
              confirmLabel={m.account_requests_cancel_confirm()}
              confirmVariant="destructive"
              onConfirm={cancel}
            >
              {m.account_requests_cancel()}
              <span className="sr-only"> {m.account_requests_cancel_hidden({ title: redemption.reward.title })}</span>
            </ConfirmButton>
          )}
        </article>
      </Card>
    </li>
  );
}

const STEP_ICONS = {
  done: <CheckCircleIcon className="size-5 text-success" />,
  now: <ClockIcon className="size-5 text-primary" />,
  ahead: <CircleIcon className="size-5 text-muted-foreground" />,
  stopped: <XIcon className="size-5 text-destructive" />,
} as const;

function Step({ step, last }: { step: TimelineStep; last: boolean }) {
  return (
    <li className="relative flex gap-3 pb-3 last:pb-0" data-step={step.key} data-state={step.state}>
      {!last && <span aria-hidden="true" className="absolute start-[9px] top-6 bottom-0 w-px bg-border" />}
      <span className="relative mt-0.5 shrink-0 bg-card">{STEP_ICONS[step.state]}</span>
      <div className="flex min-w-0 flex-col gap-0.5 text-sm">
        <p className={cn('font-medium', step.state === 'ahead' && 'text-muted-foreground')}>
          {step.label}
          {step.at && (
            <>
              {' · '}
              <time dateTime={step.at} title={formatDateTime(step.at)} className="font-normal text-muted-foreground">
                {formatDate(step.at)}
              </time>
            </>
          )}
        </p>
        {step.note && <p className="break-words text-muted-foreground">{step.note}</p>}
      </div>
    </li>
  );
}

/** The delivered code and/or link, with Copy buttons: the participant's alone. */
function Delivery({ delivery }: { delivery: NonNullable<Redemption['delivery']> }) {
  const [copied, setCopied] = useState<'code' | 'link' | 'failed' | null>(null);
  const copy = async (what: 'code' | 'link', text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-[color-mix(in_oklab,var(--success)_45%,transparent)] bg-[color-mix(in_oklab,var(--success)_6%,var(--card))] p-4">
      <p className="text-sm font-semibold">{m.account_requests_your_reward()}</p>
      {delivery.code && (
        <div className="flex flex-col gap-1.5">
          <span className="text-xs text-muted-foreground">{m.account_requests_code()}</span>
          <div className="flex flex-wrap items-center gap-2">
            <code className="rounded-md bg-card px-3 py-2 font-mono text-base tracking-wider break-all">{delivery.code}</code>
            <Button variant="outline" size="sm" onClick={() => void copy('code', delivery.code ?? '')}>
              {m.account_requests_copy_code()}
            </Button>
          </div>
        </div>
      )}
      {delivery.link && (
        <div className="flex flex-wrap items-center gap-2">
          <Button asChild size="sm">
            <a href={delivery.link} target="_blank" rel="noopener noreferrer">
              {m.account_requests_open_reward()}
              <ExternalIcon />
              <span className="sr-only"> {m.account_requests_new_tab()}</span>
            </a>
          </Button>
          <Button variant="outline" size="sm" onClick={() => void copy('link', delivery.link ?? '')}>
            {m.account_requests_copy_link()}
          </Button>
        </div>
      )}
      <p role="status" className="text-xs text-muted-foreground">
        {copied === 'code'
          ? m.account_requests_code_copied()
          : copied === 'link'
            ? m.account_requests_link_copied()
            : copied === 'failed'
              ? m.account_requests_copy_failed()
              : m.account_requests_only_you()}
      </p>
    </div>
  );
}

function RequestsSkeleton() {
  return (
    <>
      <LoadingNote label={m.account_requests_loading()} />
      <Card aria-hidden="true" className="flex flex-col gap-4 p-4 sm:p-5">
        <div className="flex items-start justify-between gap-2">
          <div className="flex flex-col gap-1">
            <Bone className="h-5 w-40" />
            <Bone className="h-4 w-28" />
          </div>
          <Bone className="h-6 w-20 rounded-full" />
        </div>
        <Bone className="h-5 w-48" />
        <Bone className="h-5 w-56" />
      </Card>
    </>
  );
}
