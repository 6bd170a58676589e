/**
 * A local stand-in for Tremendous' REST API v2 (issue 30 §4), speaking the calls Fieldwork makes
 * as Tremendous documents them (src/server/services/reward-provider-tremendous.ts): `POST /orders`
 * (200 a new order; the same `external_id` again: 201 and the order already made, without the link;
 * another payload under it: 409), `GET /orders/{id or external_id}`, `GET /rewards/{id}`,
 * `POST /rewards/{id}/generate_link`, Bearer keys, `{ errors: { message } }` refusals — and
 * failures on demand (a 500, an insufficient-funds 422, an answer lost after the order was made,
 * an answer held until the test lets it go), orders left pending until the test approves or fails
 * them, and signed webhooks (`Tremendous-Webhook-Signature: sha256=<hex HMAC-SHA256>`).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinOrder {
  id: string;
  external_id: string | null;
  status: string;
  created_at: string;
  /** What was asked (the request's `reward`), for the tests' checks. */
  request: { products: string[]; value: { denomination: number; currency_code: string }; recipient: { name?: string; email?: string } };
  funding_source_id: string;
  reward: { id: string; link: string };
}

/** What the next `POST /orders` does instead of answering 200. */
export type StandinFailure =
  /** 500, no order made. */
  | 'server_error'
  /** 422 "Insufficient funds", no order made. */
  | 'insufficient_funds'
  /** The order is made, then the connection is dropped: the answer is lost. */
  | 'drop';

export interface TremendousStandin {
  url: string;
  apiKey: string;
  webhookSecret: string;
  /** Products it sells (others: 422). */
  products: Set<string>;
  /** Every order made, in order. */
  orders: StandinOrder[];
  /** How many `POST /orders` calls arrived (answered or not). */
  orderCalls(): number;
  /** The next `POST /orders` fails this way. */
  failNext(failure: StandinFailure): void;
  /** The next new order stays in this status (e.g. `PENDING APPROVAL`) instead of `EXECUTED`. */
  nextStatus(status: string): void;
  /**
   * The next `POST /orders` makes its order, then holds the answer: `received` resolves once the
   * order is made; `release()` sends the answer (to whoever is still listening).
   */
  holdNext(): { received: Promise<StandinOrder>; release: () => void };
  /** Sets an order's status (an approval at Tremendous, a cancellation). */
  setStatus(orderId: string, status: string): void;
  /** Forgets every order (a new account: each database's redemption ids start at 1 again). */
  reset(): void;
  /** A webhook as Tremendous sends it, signed with `secret` (default: the right one). */
  webhook(event: string, resource: { id: string; type: string }, secret?: string): { body: string; headers: Record<string, string> };
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const refusal = (res: ServerResponse, status: number, message: string) => send(res, status, { errors: { message, payload: {} } });

/** The order as Tremendous answers it; the link only in the first answer of a LINK order. */
function orderBody(order: StandinOrder, withLink: boolean) {
  return {
    order: {
      id: order.id,
      external_id: order.external_id,
      created_at: order.created_at,
      status: order.status,
      payment: { funding_source_id: order.funding_source_id },
      rewards: [
        {
          id: order.reward.id,
          order_id: order.id,
          value: order.request.value,
          recipient: order.request.recipient,
          delivery: { method: 'LINK', status: order.status === 'EXECUTED' ? 'SUCCEEDED' : 'PENDING', ...(withLink ? { link: order.reward.link } : {}) },
        },
      ],
    },
  };
}

const samePayload = (order: StandinOrder, request: StandinOrder['request']) => JSON.stringify(order.request) === JSON.stringify(request);

/** A webhook as Tremendous sends it, its raw body signed with `secret` (HMAC-SHA256, hex). */
export function signedWebhook(secret: string, event: string, resource: { id: string; type: string }): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({ event, uuid: randomUUID(), created_utc: new Date().toISOString(), payload: { resource, meta: {} } });
  const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return { body, headers: { 'Content-Type': 'application/json', 'Tremendous-Webhook-Signature': signature } };
}

export async function startTremendousStandin(options: { products?: string[]; approvalRequired?: boolean } = {}): Promise<TremendousStandin> {
  const apiKey = `TEST_${randomBytes(12).toString('hex')}`;
  const webhookSecret = randomBytes(24).toString('hex');
  const orders: StandinOrder[] = [];
  const products = new Set(options.products ?? ['OKMHM2X2OHYV', 'Q24BD9EZ332JT']);
  let calls = 0;
  let failure: StandinFailure | null = null;
  let status: string | null = null;
  let hold: { resolve: (order: StandinOrder) => void; released: Promise<void> } | null = null;
  let counter = 0;
  const newLink = () => `https://testflight.tremendous.com/rewards/payout/${randomBytes(10).toString('hex')}`;

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      const body = await readBody(req);
      if (req.headers.authorization !== `Bearer ${apiKey}`) return refusal(res, 401, 'Unauthorized');
      const path = url.pathname.replace(/^\/api\/v2/, '');
      const find = (id: string) => orders.find((order) => order.id === id || order.external_id === id);

      if (req.method === 'POST' && path === '/orders') {
        calls++;
        const input = JSON.parse(body) as {
          external_id?: string;
          payment?: { funding_source_id?: string };
          reward?: StandinOrder['request'] & { delivery?: { method?: string } };
        };
        const reward = input.reward;
        if (!reward?.value || !Array.isArray(reward.products) || !input.payment?.funding_source_id)
          return refusal(res, 400, 'The request is missing required fields');
        const request = { products: reward.products, value: reward.value, recipient: reward.recipient };
        const known = input.external_id ? find(input.external_id) : undefined;
        if (known && known.external_id === input.external_id) {
          if (!samePayload(known, request)) return refusal(res, 409, 'An order with this external_id already exists with other parameters');
          return send(res, 201, orderBody(known, false));
        }
        const failing = failure;
        failure = null;
        if (failing === 'server_error') return refusal(res, 500, 'Internal server error');
        if (failing === 'insufficient_funds') return refusal(res, 422, 'Insufficient funds in the funding source');
        if (!reward.products.every((product) => products.has(product))) return refusal(res, 422, `Product ${reward.products.join(', ')} is not available`);
        counter++;
        const order: StandinOrder = {
          id: `ORD${String(counter).padStart(9, '0')}`,
          external_id: input.external_id ?? null,
          status: status ?? (options.approvalRequired ? 'PENDING APPROVAL' : 'EXECUTED'),
          created_at: new Date().toISOString(),
          request,
          funding_source_id: input.payment.funding_source_id,
          reward: { id: `RWD${String(counter).padStart(9, '0')}`, link: newLink() },
        };
        status = null;
        orders.push(order);
        if (failing === 'drop') {
          req.socket.destroy();
          return;
        }
        const held = hold;
        hold = null;
        if (held) {
          held.resolve(order);
          await held.released;
        }
        return send(res, 200, orderBody(order, order.status === 'EXECUTED'));
      }
      const orderMatch = /^\/orders\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && orderMatch) {
        const order = find(decodeURIComponent(orderMatch[1] ?? ''));
        return order ? send(res, 200, orderBody(order, false)) : refusal(res, 404, 'Order not found');
      }
      const approval = /^\/order_approvals\/([^/]+)\/approve$/.exec(path);
      if (req.method === 'POST' && approval) {
        const order = find(decodeURIComponent(approval[1] ?? ''));
        if (!order) return refusal(res, 404, 'Order not found');
        if (order.status !== 'PENDING APPROVAL') return refusal(res, 422, 'The order is not waiting for approval');
        order.status = 'EXECUTED';
        return send(res, 200, orderBody(order, false));
      }
      const rewardMatch = /^\/rewards\/([^/]+)(\/generate_link)?$/.exec(path);
      if (rewardMatch) {
        const order = orders.find((each) => each.reward.id === decodeURIComponent(rewardMatch[1] ?? ''));
        if (!order) return refusal(res, 404, 'Reward not found');
        if (req.method === 'GET' && !rewardMatch[2]) return send(res, 200, { reward: { id: order.reward.id, order_id: order.id } });
        if (req.method === 'POST' && rewardMatch[2]) {
          if (order.status !== 'EXECUTED') return refusal(res, 422, 'The reward is not deliverable yet');
          order.reward.link = newLink();
          return send(res, 200, { reward: { id: order.reward.id, link: order.reward.link } });
        }
      }
      return refusal(res, 404, 'Not found');
    })().catch(() => refusal(res, 500, 'Stand-in error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    webhookSecret,
    products,
    orders,
    orderCalls: () => calls,
    failNext: (next) => (failure = next),
    nextStatus: (next) => (status = next),
    holdNext: () => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      const received = new Promise<StandinOrder>((resolve) => (hold = { resolve, released }));
      return { received, release };
    },
    reset: () => {
      orders.length = 0;
      failure = null;
      status = null;
    },
    setStatus: (orderId, next) => {
      const order = orders.find((each) => each.id === orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.status = next;
    },
    webhook: (event, resource, secret = webhookSecret) => signedWebhook(secret, event, resource),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
