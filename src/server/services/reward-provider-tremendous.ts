/**
 * Tremendous (https://developers.tremendous.com), REST API v2, as its reference and official SDK
 * (tremendous-io/tremendous-node) document it:
 *
 * - `POST {base}/api/v2/orders` with `external_id`, `payment.funding_source_id` and one `reward`
 *   (`products: [id]`, `value: { denomination, currency_code }`, `recipient`, `delivery.method:
 *   'LINK'`). A new order answers 200; the same `external_id` with the same payload answers 201 and
 *   the order already made (no second one); the same `external_id` with another payload answers
 *   409 — then the order is read by its `external_id` (`GET /orders/{external_id}` takes either id).
 * - A LINK reward's link is in the first `POST /orders` answer only; `POST /rewards/{id}/generate_link`
 *   gives one for an existing reward (a retry after a lost answer).
 * - Order statuses: `EXECUTED` (paid, the reward is out), `FAILED` / `CANCELED`, and the waiting
 *   ones (`OPEN`, `PENDING APPROVAL`, `PENDING INTERNAL PAYMENT APPROVAL`, `PENDING SETTLEMENT`).
 * - Errors answer `{ errors: { message, payload } }`.
 * - Webhooks: `{ event, uuid, created_utc, payload: { resource: { id, type } } }`, signed with the
 *   webhook's private key: `Tremendous-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>`.
 *
 * Calls go to the configured base URL only (nothing a user sends picks a host) and give up after
 * 10 s. The key, the link and the body of an answer are never logged.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RewardsProviderConfig } from '../config.ts';
import {
  PROVIDER_TIMEOUT_MS,
  ProviderRefusal,
  ProviderUnavailable,
  type ProviderOrder,
  type ProviderOrderRequest,
  type ProviderWebhookEvent,
  type RewardProvider,
} from './reward-provider.ts';

/** The header Tremendous signs webhooks in. */
export const TREMENDOUS_SIGNATURE_HEADER = 'Tremendous-Webhook-Signature';

/** The HMAC-SHA256 signature Tremendous sends for a body under a webhook's private key (`sha256=<hex>`). */
export function tremendousSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

const WAITING = new Set(['OPEN', 'PENDING APPROVAL', 'PENDING INTERNAL PAYMENT APPROVAL', 'PENDING SETTLEMENT', 'CART']);

const orderSchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  rewards: z
    .array(
      z.object({
        id: z.string().min(1),
        value: z.object({ denomination: z.number(), currency_code: z.string() }).optional(),
        delivery: z.object({ status: z.string().optional(), link: z.string().optional() }).optional(),
      }),
    )
    .optional(),
});
const orderAnswer = z.object({ order: orderSchema });
type TremendousOrder = z.infer<typeof orderSchema>;

const webhookSchema = z.object({
  event: z.string().min(1).max(200),
  uuid: z.string().min(1).max(200),
  payload: z.object({ resource: z.object({ id: z.string().min(1).max(200), type: z.string().max(100).optional() }) }).optional(),
});

/** The error message of an answer (`errors.message`), or its status. */
async function messageOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { errors?: { message?: unknown } };
    if (typeof body.errors?.message === 'string' && body.errors.message.trim() !== '') return body.errors.message.slice(0, 500);
  } catch {
    // Not JSON: the status says it.
  }
  return `HTTP ${response.status}`;
}

export class TremendousProvider implements RewardProvider {
  readonly name = 'tremendous' as const;
  private readonly settings: RewardsProviderConfig;

  constructor(settings: RewardsProviderConfig) {
    this.settings = settings;
  }

  /** One call to the API (`path` under `/api/v2`, built here from ids only). Network failures and timeouts: ProviderUnavailable. */
  private async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    try {
      return await fetch(`${this.settings.baseUrl}/api/v2${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.settings.apiKey}`,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        redirect: 'error',
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ProviderUnavailable(`Tremendous did not answer ${method} ${path.split('/')[1] ?? ''}: ${error instanceof Error ? error.name : 'error'}`, {
        cause: error,
      });
    }
  }

  /** A refusal for a final 4xx; ProviderUnavailable for what may pass (5xx, 408, 429, and 401/403: a key an operator fixes). */
  private async failure(response: Response, what: string): Promise<Error> {
    const message = await messageOf(response);
    const { status } = response;
    if (status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) return new ProviderRefusal(status, message);
    return new ProviderUnavailable(`Tremendous answered ${status} to ${what}: ${message}`);
  }

  private async readOrder(response: Response): Promise<TremendousOrder> {
    const parsed = orderAnswer.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ProviderUnavailable('Tremendous answered an order in a shape Fieldwork does not know');
    return parsed.data.order;
  }

  /** An order as Fieldwork sees it; an executed LINK order without its link (a repeated answer) gets a new one. */
  private async stateOf(order: TremendousOrder): Promise<ProviderOrder> {
    if (order.status === 'EXECUTED') {
      const reward = order.rewards?.[0];
      if (!reward) throw new ProviderUnavailable('Tremendous answered an executed order without its reward');
      const link = reward.delivery?.link ?? (await this.generateLink(reward.id));
      return { state: 'delivered', orderId: order.id, delivery: { link } };
    }
    if (order.status === 'FAILED' || order.status === 'CANCELED') return { state: 'failed', orderId: order.id, message: `Tremendous order ${order.status}` };
    if (WAITING.has(order.status)) return { state: 'pending', orderId: order.id };
    throw new ProviderUnavailable(`Tremendous answered an order status Fieldwork does not know: ${order.status.slice(0, 50)}`);
  }

  private async generateLink(rewardId: string): Promise<string> {
    const response = await this.call('POST', `/rewards/${encodeURIComponent(rewardId)}/generate_link`, {});
    // A reward that cannot have a link (yet) is not a final answer about the order: asked again later.
    if (!response.ok) throw new ProviderUnavailable(`Tremendous answered ${response.status} to generate_link: ${await messageOf(response)}`);
    const parsed = z.object({ reward: z.object({ link: z.string().min(1) }) }).safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw new ProviderUnavailable('Tremendous answered generate_link without a link');
    return parsed.data.reward.link;
  }

  async placeOrder(order: ProviderOrderRequest): Promise<ProviderOrder> {
    const response = await this.call('POST', '/orders', {
      external_id: order.externalId,
      payment: { funding_source_id: this.settings.fundingSource },
      reward: {
        products: [order.productId],
        value: { denomination: order.value, currency_code: order.currency },
        recipient: { name: order.recipient.name, email: order.recipient.email },
        delivery: { method: 'LINK' },
      },
    });
    if (response.status === 200 || response.status === 201) return this.stateOf(await this.readOrder(response));
    if (response.status === 409) {
      // This key made an order with another payload (the participant's name or e-mail changed between attempts): that order is the one.
      await response.body?.cancel();
      return this.existingOrder(order);
    }
    throw await this.failure(response, 'POST /orders');
  }

  /**
   * The order another payload made under this key: accepted only when it is for the same value and
   * currency (an account shared by two installations numbering redemptions alike would otherwise
   * hand one participant another's reward) — else a final refusal staff read.
   */
  private async existingOrder(order: ProviderOrderRequest): Promise<ProviderOrder> {
    const response = await this.call('GET', `/orders/${encodeURIComponent(order.externalId)}`);
    if (!response.ok) throw new ProviderUnavailable(`Tremendous answered 409 to an order, then ${response.status} to reading it`);
    const existing = await this.readOrder(response);
    const value = existing.rewards?.[0]?.value;
    if (!value) throw new ProviderUnavailable('Tremendous answered an order without its value');
    if (Math.round(value.denomination * 100) !== Math.round(order.value * 100) || value.currency_code !== order.currency)
      throw new ProviderRefusal(
        409,
        `The order key ${order.externalId} is already used by an order for ${value.denomination} ${value.currency_code} (another installation on this Tremendous account?)`,
      );
    return this.stateOf(existing);
  }

  async getOrder(id: string): Promise<ProviderOrder | null> {
    const response = await this.call('GET', `/orders/${encodeURIComponent(id)}`);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) {
      const error = await this.failure(response, 'GET /orders');
      // Reading an order is never a final refusal of it.
      throw error instanceof ProviderRefusal ? new ProviderUnavailable(`Tremendous answered ${error.status} to GET /orders: ${error.message}`) : error;
    }
    return this.stateOf(await this.readOrder(response));
  }

  async orderIdOfReward(rewardId: string): Promise<string | null> {
    const response = await this.call('GET', `/rewards/${encodeURIComponent(rewardId)}`);
    if (response.status === 404) {
      await response.body?.cancel();
      return null;
    }
    if (!response.ok) throw new ProviderUnavailable(`Tremendous answered ${response.status} to GET /rewards: ${await messageOf(response)}`);
    const parsed = z.object({ reward: z.object({ order_id: z.string().min(1) }) }).safeParse(await response.json().catch(() => null));
    return parsed.success ? parsed.data.reward.order_id : null;
  }

  verifyWebhook(rawBody: string, headers: Headers): boolean {
    const secret = this.settings.webhookSecret;
    const sent = headers.get(TREMENDOUS_SIGNATURE_HEADER)?.trim();
    if (!secret || !sent) return false;
    const expected = Buffer.from(tremendousSignature(secret, rawBody).slice('sha256='.length), 'hex');
    const hex = sent.startsWith('sha256=') ? sent.slice('sha256='.length) : sent;
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) return false;
    return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
  }

  parseWebhook(rawBody: string): ProviderWebhookEvent | null {
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return null;
    }
    const parsed = webhookSchema.safeParse(body);
    if (!parsed.success) return null;
    const { event, uuid, payload } = parsed.data;
    const resource = payload?.resource;
    const kind = event.startsWith('ORDERS.') ? 'order' : event.startsWith('REWARDS.') ? 'reward' : 'other';
    return { id: uuid, type: event, resource: { kind: resource ? kind : 'other', id: resource?.id ?? '' } };
  }
}
