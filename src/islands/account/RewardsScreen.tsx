/**
 * `/account/rewards` (issue 30 §3), phone first: the balance (available, pending and why, held),
 * the rewards with their values and what each costs in points — a reward out of reach says why
 * ("You need 350 more points", or its own reason: never hidden) —, choose → confirm
 * (`RewardsConfirmDialog`) → the request, and "Your requests" with each one's timeline
 * (`RewardsRequests`). Data: `GET /api/rewards` and `GET /api/redemptions` (the list contract, a
 * page at a time), through the one data hook (`useResource`). Staff see the catalogue as
 * participants do; requesting is the participants' alone.
 */
import { useId, useRef, useState, type ReactNode } from 'react';
import type { ListPage } from '../../shared/list.ts';
import { pointsFor, type Redemption, type RewardCatalogue, type RewardView } from '../../shared/rewards.ts';
import { useResource } from '../../lib/resource.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { cn } from '../../lib/utils.ts';
import { $auth, type AuthStoreState } from '../../stores/auth.ts';
import { AlertCircleIcon, StarIcon } from '../../components/icons.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { describedBy, FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { RadioCard, RadioCardGroup } from '../../components/ui/radio-card.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { m } from '../../shared/i18n.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';
import RewardsConfirmDialog, { type Choice } from './RewardsConfirmDialog.tsx';
import RewardsRequests, { requestHeadingId } from './RewardsRequests.tsx';
import { formatMoney, pointsText, rangeHint, reachOf, redemptionsPath, rewardKindLabel, REWARDS_PATH, startingValue, valuesOf } from './rewards.ts';

const UNKNOWN: AuthStoreState = { status: 'unknown' };

export default function RewardsScreen() {
  const catalogue = useResource<RewardCatalogue>(REWARDS_PATH);
  const auth = useClientStore($auth, UNKNOWN);
  const user = auth.status === 'authenticated' ? auth.user : null;
  const participant = user?.role === 'participant';
  // Only participants have requests (staff: 403); nothing is asked until the visitor is known.
  const requests = useResource<ListPage<Redemption>>(participant ? redemptionsPath(1) : null);
  const [choice, setChoice] = useState<Choice | null>(null);
  const [created, setCreated] = useState<Redemption | null>(null);
  // The request to move the focus to once the dialog has closed on it.
  const focusAfterClose = useRef<number | null>(null);

  const { load } = catalogue;
  if (load.status === 'loading') return <RewardsSkeleton />;
  if (load.status !== 'ready') return <Failed title={m.account_rewards_load_failed()} message={load.message} onRetry={catalogue.reload} />;
  const { items, balance, settings } = load.data;

  /** After a request was made or cancelled: the balance again (quietly; what is on screen stays if it fails). */
  const refreshBalance = () => void catalogue.refresh().catch(() => undefined);

  const onCreated = (redemption: Redemption) => {
    requests.replace((page) => {
      const known = page.items.some((item) => item.id === redemption.id);
      return { ...page, items: [redemption, ...page.items.filter((item) => item.id !== redemption.id)], total: page.total + (known ? 0 : 1) };
    });
    if (requests.load.status !== 'ready') requests.reload();
    setCreated(redemption);
    focusAfterClose.current = redemption.id;
    setChoice(null);
    refreshBalance();
  };

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      <Balance available={balance.available} pending={balance.pending} held={balance.held} />

      {user && !participant && (
        <Alert variant="info" title={m.account_rewards_staff_title()}>
          {m.account_rewards_staff_body()}
        </Alert>
      )}

      <section aria-labelledby="rewards-title" className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <h2 id="rewards-title" className="text-xl font-semibold tracking-tight">
            {m.account_rewards_choose_title()}
          </h2>
          {settings.minimumPoints > 0 && (
            <p className="text-sm text-muted-foreground">{m.account_rewards_minimum({ points: pointsText(settings.minimumPoints) })}</p>
          )}
        </div>
        {items.length === 0 ? (
          <p className="rounded-lg border border-border px-4 py-3 text-sm text-muted-foreground">{m.account_rewards_none()}</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {items.map((reward) => (
              <li key={reward.id} className="flex">
                <RewardCard
                  reward={reward}
                  available={balance.available}
                  minimumPoints={settings.minimumPoints}
                  canRequest={participant}
                  onChoose={(value, points) => setChoice({ reward, value, points })}
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      {participant && (
        <RewardsRequests
          resource={requests}
          created={created}
          onChanged={(redemption) => {
            if (created?.id === redemption.id) setCreated(redemption);
            refreshBalance();
          }}
        />
      )}

      <RewardsConfirmDialog
        choice={choice}
        email={user?.email ?? null}
        onClose={() => setChoice(null)}
        onCreated={onCreated}
        onRefused={() => {
          refreshBalance();
          void requests.refresh().catch(() => undefined);
        }}
        onCloseAutoFocus={(event) => {
          const id = focusAfterClose.current;
          focusAfterClose.current = null;
          const target = id === null ? null : document.getElementById(requestHeadingId(id));
          if (target) {
            event.preventDefault();
            target.focus();
          }
        }}
      />
    </div>
  );
}

/** The balance at the top: what can be spent, what is pending and why, and what open requests hold. */
function Balance({ available, pending, held }: { available: ReactNode | number; pending: ReactNode | number; held: ReactNode | number }) {
  const amount = (value: ReactNode | number) => (typeof value === 'number' ? pointsText(value) : value);
  return (
    <Card asChild className="flex flex-col gap-4 p-4 sm:p-6">
      <section aria-labelledby="balance-title">
        <h2 id="balance-title" className="flex items-center gap-2 text-lg font-semibold tracking-tight">
          <StarIcon className="size-5 text-primary" />
          {m.account_rewards_your_points()}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          <div className="col-span-2 flex flex-col gap-1 rounded-lg bg-muted px-4 py-3 sm:col-span-1">
            <dt className="text-sm text-muted-foreground">{m.account_rewards_available()}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{amount(available)}</dd>
          </div>
          <div className="flex flex-col gap-1 rounded-lg border border-dashed border-border px-4 py-3">
            <dt className="text-sm text-muted-foreground">{m.account_points_pending()}</dt>
            <dd className="text-xl font-semibold text-muted-foreground tabular-nums">{amount(pending)}</dd>
          </div>
          <div className="flex flex-col gap-1 rounded-lg border border-border px-4 py-3">
            <dt className="text-sm text-muted-foreground">{m.account_rewards_held()}</dt>
            <dd className="text-xl font-semibold text-muted-foreground tabular-nums">{amount(held)}</dd>
          </div>
        </dl>
        <ul className="flex flex-col gap-1 text-sm text-muted-foreground">
          <li>{m.account_points_pending_explanation()}</li>
          <li>{m.account_rewards_held_explanation()}</li>
        </ul>
      </section>
    </Card>
  );
}

/**
 * One reward: its picture, title, kind and description, its values (buttons for fixed values, a
 * number field for a range), what the chosen value costs, and why it cannot be chosen when it
 * cannot (the reward's own reason, the smallest reward, the points missing).
 */
function RewardCard({
  reward,
  available,
  minimumPoints,
  canRequest,
  onChoose,
}: {
  reward: RewardView;
  available: number;
  minimumPoints: number;
  canRequest: boolean;
  onChoose: (value: number, points: number) => void;
}) {
  const id = useId();
  const titleId = `${id}-title`;
  const reachId = `${id}-reach`;
  const [text, setText] = useState(() => String(startingValue(reward, available, minimumPoints)));
  const value = text.trim() === '' ? null : Number(text);
  const reach = reachOf(reward, value, available, minimumPoints);
  const range = Array.isArray(reward.denominations) ? null : reward.denominations;
  const unavailable = !reward.available;

  return (
    <Card asChild className={cn('flex w-full flex-col overflow-hidden', unavailable && 'border-dashed')}>
      <article aria-labelledby={titleId} data-reward={reward.id}>
        {reward.imageUrl && (
          <img src={reward.imageUrl} alt="" loading="lazy" decoding="async" width={640} height={320} className="aspect-[2/1] w-full bg-muted object-cover" />
        )}
        <div className="flex flex-1 flex-col gap-4 p-4 sm:p-5">
          <div className="flex flex-col gap-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant="secondary">{rewardKindLabel(reward.kind)}</Badge>
              <span className="text-xs text-muted-foreground">{reward.currency}</span>
            </div>
            <h3 id={titleId} className="text-lg leading-snug font-semibold break-words">
              {reward.title}
            </h3>
            {reward.description && <p className="text-sm whitespace-pre-wrap text-muted-foreground break-words">{reward.description}</p>}
          </div>

          {range ? (
            <FormField id={`${id}-value`} label={m.account_rewards_value_in({ currency: reward.currency })} description={rangeHint(range, reward.currency)}>
              {(control) => (
                <Input
                  {...control}
                  type="number"
                  inputMode="decimal"
                  min={range.min}
                  max={range.max}
                  step={range.step}
                  value={text}
                  disabled={unavailable}
                  onChange={(event) => setText(event.target.value)}
                  aria-invalid={reach.ok === false && reach.kind === 'invalid' ? true : undefined}
                  aria-describedby={describedBy(control['aria-describedby'], !reach.ok && reachId)}
                  className="max-w-40"
                />
              )}
            </FormField>
          ) : (
            <div className="flex flex-col gap-2">
              <p id={`${id}-values`} className="text-sm font-medium">
                {m.account_rewards_value()}
              </p>
              <RadioCardGroup
                aria-labelledby={`${id}-values ${titleId}`}
                value={text}
                onValueChange={setText}
                disabled={unavailable}
                className="grid-cols-2 gap-2 min-[420px]:grid-cols-3"
              >
                {valuesOf(reward.denominations).map((each) => (
                  <RadioCard
                    key={each}
                    id={`${id}-value-${each}`}
                    value={String(each)}
                    size="sm"
                    label={formatMoney(each, reward.currency)}
                    description={reward.pointsPerUnit === null ? undefined : pointsText(pointsFor(each, reward.pointsPerUnit))}
                    disabled={unavailable}
                  />
                ))}
              </RadioCardGroup>
            </div>
          )}

          <div className="mt-auto flex flex-col gap-3">
            {reach.points !== null && (
              <p className="flex items-center gap-1.5 text-sm" aria-live="polite">
                <StarIcon className="size-4 text-primary" />
                <span>
                  {withNodes((marks) => m.account_rewards_costs({ points: marks.points }), {
                    points: <strong className="font-semibold tabular-nums">{pointsText(reach.points)}</strong>,
                  })}
                </span>
              </p>
            )}
            {!reach.ok && (
              <p
                id={reachId}
                className={cn('flex items-start gap-1.5 text-sm font-medium', reach.kind === 'unavailable' ? 'text-muted-foreground' : 'text-foreground')}
                data-reach={reach.kind}
              >
                <AlertCircleIcon className={cn('mt-0.5 size-4 shrink-0', reach.kind === 'unavailable' ? 'text-muted-foreground' : 'text-destructive')} />
                <span>{reach.reason}</span>
              </p>
            )}
            {canRequest && (
              <Button
                className="w-full sm:w-auto sm:self-start"
                disabled={!reach.ok}
                aria-describedby={reach.ok ? undefined : reachId}
                onClick={() => {
                  if (reach.ok && value !== null) onChoose(value, reach.points);
                }}
              >
                {m.account_rewards_choose()}
                <span className="sr-only"> {reward.title}</span>
              </Button>
            )}
          </div>
        </div>
      </article>
    </Card>
  );
}

function RewardsSkeleton() {
  return (
    <div aria-busy="true" className="flex max-w-3xl flex-col gap-8">
      <LoadingNote label={m.account_rewards_loading()} />
      <Balance available={<Bone className="h-8 w-28" />} pending={<Bone className="h-7 w-16" />} held={<Bone className="h-7 w-16" />} />
      <div aria-hidden="true" className="flex flex-col gap-4">
        <Bone className="h-7 w-44" />
        <div className="grid gap-4 sm:grid-cols-2">
          {[0, 1].map((n) => (
            <Card key={n} className="flex flex-col gap-4 p-4 sm:p-5">
              <Bone className="h-5 w-20 rounded-full" />
              <Bone className="h-6 w-48" />
              <div className="grid grid-cols-3 gap-2">
                <Bone className="h-14" />
                <Bone className="h-14" />
                <Bone className="h-14" />
              </div>
              <Bone className="h-10 w-24" />
            </Card>
          ))}
        </div>
      </div>
    </div>
  );
}
