/**
 * The gift-card provider behind `provider` rewards (issue 30 §4; docs/decisions/033-reward-provider.md):
 * a small interface with one real implementation, Tremendous (`reward-provider-tremendous.ts`).
 * What runs the orders — the `rewards.order` job, the poll, the webhook — is
 * `reward-provider-fulfilment.ts` (with `rewardProviderOf`, the configured one); it knows nothing
 * of a provider's wire format.
 *
 * Every order carries the redemption's own key (`externalId` = `redemption:{id}`), the same on
 * every attempt: a provider that has seen it answers the order it made, never a second one.
 */

/** The providers Fieldwork speaks to (`REWARDS_PROVIDER`), as they appear in the webhook's path. */
export const REWARD_PROVIDERS = ['tremendous'] as const;
export type RewardProviderName = (typeof REWARD_PROVIDERS)[number];

/** What to order: one reward of `value` in `currency`, for one person, under the redemption's key. */
export interface ProviderOrderRequest {
  /** `redemption:{id}`: the provider's idempotency key (Tremendous `external_id`). */
  externalId: string;
  productId: string;
  value: number;
  currency: string;
  recipient: { email: string; name: string };
}

/** An order as the provider has it now. */
export type ProviderOrder =
  /** Paid and redeemable: the link and/or code the participant uses (secret: sealed at rest, never logged). */
  | { state: 'delivered'; orderId: string; delivery: { code?: string; link?: string } }
  /** Made but not yet executed (waiting for the provider's or the account's approval, funds settling). */
  | { state: 'pending'; orderId: string }
  /** Will never be paid (cancelled, failed); `message` is the provider's words, for staff. */
  | { state: 'failed'; orderId: string; message: string };

/**
 * The provider refused the order for good (a final 4xx: an unknown product, insufficient funds,
 * a value it does not sell): asking again with the same key would be refused again. `message` is
 * the provider's words, for staff and the log; the participant reads `REWARD_PROVIDER_FAILED`.
 */
export class ProviderRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ProviderRefusal';
    this.status = status;
  }
}

/** The provider could not be asked or did not answer usefully now (a timeout, a 5xx, a 429, a wrong key): the job tries again with the same key. */
export class ProviderUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderUnavailable';
  }
}

/** A webhook event, reduced to what Fieldwork acts on. */
export interface ProviderWebhookEvent {
  /** The provider's id of the event (de-duplication). */
  id: string;
  /** Its type (Tremendous: `ORDERS.FAILED`, `REWARDS.DELIVERY.SUCCEEDED`, …). */
  type: string;
  /** What it is about. */
  resource: { kind: 'order' | 'reward' | 'other'; id: string };
}

export interface RewardProvider {
  readonly name: RewardProviderName;
  /** Places the order, or answers the one this key already made. Throws ProviderRefusal (final) or ProviderUnavailable (retry). */
  placeOrder(order: ProviderOrderRequest): Promise<ProviderOrder>;
  /** The order of this provider id or external id as it is now; null when the provider has none. */
  getOrder(id: string): Promise<ProviderOrder | null>;
  /** The order a reward of the provider belongs to (webhooks about rewards name the reward); null when unknown. */
  orderIdOfReward(rewardId: string): Promise<string | null>;
  /** Whether the raw body carries the provider's signature (constant time; false without a configured secret). */
  verifyWebhook(rawBody: string, headers: Headers): boolean;
  /** The event of a verified body; null when it is not one (the route answers 400). */
  parseWebhook(rawBody: string): ProviderWebhookEvent | null;
}

/** Outgoing calls give up after this long (then the job retries). */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** The provider's key of a redemption: the same on every attempt. */
export const providerExternalId = (redemptionId: number) => `redemption:${redemptionId}`;
