/**
 * Provider fulfilment (issue 30 §4; docs/api.md "Rewards: provider fulfilment") against a local
 * Tremendous stand-in (tests/support/tremendous-standin.ts): a request that needs no review is
 * approved at once and ordered by the `rewards.order` job with the redemption's own key; an
 * admin's approval queues the order in its transaction; a lost answer, a 500 and a retry make
 * one order; a final refusal fails the request and gives the points back; a pending order is
 * finished by a signed webhook (each event once) or by the poll; forged webhooks are refused.
 * The kill between order and record with the real server: tests/process/reward-provider.test.ts.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/index.ts';
import { pointsLedger, rewards } from '../../src/server/db/schema/index.ts';
import type { AdminRedemption } from '../../src/server/services/redemptions-admin.ts';
import type { PointsSummary } from '../../src/shared/points.ts';
import { REWARD_PROVIDER_FAILED, type Redemption } from '../../src/shared/rewards.ts';
import { startTremendousStandin, type StandinOrder } from '../support/tremendous-standin.ts';
import { createTestContext, describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import { callAs, okJson, participant, staff } from './programme-fixtures.ts';
import { insertReward, newKey, rewardSettingsAre } from './reward-fixtures.ts';

const standin = await startTremendousStandin();
afterAll(() => standin.stop());

const PRODUCT = 'OKMHM2X2OHYV';
const WEBHOOK = '/api/webhooks/rewards/tremendous';
const providerEnv = {
  REWARDS_PROVIDER: 'tremendous',
  TREMENDOUS_API_KEY: standin.apiKey,
  TREMENDOUS_BASE_URL: standin.url,
  TREMENDOUS_WEBHOOK_SECRET: standin.webhookSecret,
};

describeEachBackend(
  'reward provider fulfilment',
  (ctx, backend) => {
    // Each database numbers its redemptions from 1: a new Tremendous account for each.
    beforeAll(() => standin.reset());
    const as = (who: SignedIn | null) => callAs(ctx(), who);
    const balanceOf = async (who: SignedIn) => okJson<PointsSummary>(await as(who)('GET', '/api/account/points?pageSize=1'));
    const providerReward = (c: TestContext, input: Partial<typeof rewards.$inferInsert> = {}) =>
      insertReward(c, { title: 'Shop card', fulfilment: 'provider', providerProductId: PRODUCT, currency: 'USD', denominations: [5, 10] }, input);
    async function richParticipant(c: TestContext, points = 1000): Promise<SignedIn> {
      const who = await participant(c);
      await c.database.db
        .insert(pointsLedger)
        .values({ userId: who.id, points, state: 'available', reason: 'Survey', source: 'adjustment', reference: `fixture:${newKey()}` });
      return who;
    }
    const redeem = async (who: SignedIn, rewardId: number, value = 5) =>
      okJson<Redemption>(await ctx().json('POST', '/api/redemptions', { rewardId, value }, { ...who.headers, 'Idempotency-Key': newKey() }), 201);
    const mine = (who: SignedIn, id: number) => as(who)('GET', `/api/redemptions/${id}`).then((res) => okJson<Redemption>(res));
    const ordersOf = (id: number): StandinOrder[] => standin.orders.filter((order) => order.external_id === `redemption:${id}`);
    const noticesOf = async (c: TestContext, who: SignedIn) =>
      (await queryRows<{ text: string }>(c.database.db, sql`select text from notifications where user_id = ${who.id} and kind = 'reward' order by id`)).map(
        (row) => row.text,
      );
    const webhook = (event: string, resource: { id: string; type: string }, secret?: string) => {
      const signed = standin.webhook(event, resource, secret);
      return ctx().request(WEBHOOK, { method: 'POST', headers: signed.headers, body: signed.body });
    };
    /** Runs the `rewards.order` job again, as the queue's retry does. */
    const retry = async (c: TestContext, id: number) => {
      await c.jobs.send('rewards.order', { redemptionId: id });
      await c.jobs.drain({ notifications: false });
    };

    it('a request that needs no review is approved at once, ordered with its own key, and delivered: the link sealed, shown to its owner, the points spent', async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
      const card = await providerReward(c);
      const who = await richParticipant(c);
      const made = await redeem(who, card.id, 5);
      expect(made).toMatchObject({ status: 'approved', needsReview: false, points: 500 });
      expect(made.timeline.map((step) => step.status)).toEqual(['requested', 'approved']);
      expect(await c.jobs.waiting('rewards.order')).toBe(1);

      await c.jobs.drain();
      const [order, ...more] = ordersOf(made.id);
      expect(more).toEqual([]);
      expect(order).toMatchObject({
        funding_source_id: 'balance',
        request: { products: [PRODUCT], value: { denomination: 5, currency_code: 'USD' }, recipient: { email: who.email } },
      });
      const delivered = await mine(who, made.id);
      expect(delivered).toMatchObject({ status: 'delivered', delivery: { link: order?.reward.link } });
      expect(delivered.timeline.map((step) => step.status)).toEqual(['requested', 'approved', 'ordering', 'delivered']);
      expect(await balanceOf(who)).toMatchObject({ available: 500, held: 0 });
      expect(await noticesOf(c, who)).toEqual(['Reward requested: Shop card (5 USD)', 'Reward sent: Shop card (5 USD)']);
      // The link is sealed at rest, and staff see that it was delivered, not the link.
      const [row] = await queryRows<{ text: string }>(c.database.db, sql`select r::text as text from redemptions r where id = ${made.id}`);
      expect(row?.text).toContain(order?.id);
      expect(row?.text).not.toContain(order?.reward.link);
      const admin = await staff(c, 'admin');
      const list = await okJson<{ items: AdminRedemption[] }>(await as(admin)('GET', `/api/admin/redemptions?rewardId=${card.id}`));
      expect(JSON.stringify(list)).not.toContain(order?.reward.link);
      // Asking again changes nothing and orders nothing.
      await retry(c, made.id);
      expect(ordersOf(made.id)).toHaveLength(1);
    });

    it("an admin's approval of a request that waits queues its order in the same transaction", async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 }, reviewFirstRedemption: true });
      const card = await providerReward(c);
      const who = await richParticipant(c);
      const made = await redeem(who, card.id, 10);
      expect(made).toMatchObject({ status: 'requested', needsReview: true });
      await c.jobs.drain();
      expect(ordersOf(made.id)).toEqual([]);

      const admin = await staff(c, 'admin');
      const approved = await okJson<AdminRedemption>(await as(admin)('POST', `/api/admin/redemptions/${made.id}/approve`, { expectedStatus: 'requested' }));
      expect(approved.status).toBe('approved');
      expect(await c.jobs.waiting('rewards.order')).toBe(1);
      await c.jobs.drain();
      expect(ordersOf(made.id)).toHaveLength(1);
      expect(await mine(who, made.id)).toMatchObject({ status: 'delivered', delivery: { link: ordersOf(made.id)[0]?.reward.link } });
      expect(await balanceOf(who)).toMatchObject({ available: 0, held: 0 });
    });

    it('an answer lost after the order was made, then a 500: every retry asks with the same key, one order is made and delivered', async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
      const card = await providerReward(c);
      const who = await richParticipant(c);

      standin.failNext('server_error');
      const first = await redeem(who, card.id);
      expect(await c.jobs.drain({ notifications: false })).toMatchObject({ failed: 1 });
      expect(ordersOf(first.id)).toEqual([]);
      expect(await mine(who, first.id)).toMatchObject({ status: 'ordering', delivery: null });
      expect(await balanceOf(who)).toMatchObject({ held: 500 });

      standin.failNext('drop');
      await retry(c, first.id);
      expect(ordersOf(first.id)).toHaveLength(1);
      expect((await mine(who, first.id)).status).toBe('ordering');

      const calls = standin.orderCalls();
      await retry(c, first.id);
      expect(standin.orderCalls()).toBe(calls + 1);
      const [order, ...more] = ordersOf(first.id);
      expect(more).toEqual([]);
      // The repeated answer has no link: a new one is asked for the existing reward.
      expect(await mine(who, first.id)).toMatchObject({ status: 'delivered', delivery: { link: order?.reward.link } });
      expect(await balanceOf(who)).toMatchObject({ available: 500, held: 0 });
    });

    it('a final refusal (insufficient funds) fails the request with a reason the participant reads, gives the points back, and tells staff why', async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
      const card = await providerReward(c);
      const who = await richParticipant(c);
      standin.failNext('insufficient_funds');
      const made = await redeem(who, card.id);
      expect(await c.jobs.drain({ notifications: false })).toMatchObject({ failed: 0 });
      expect(ordersOf(made.id)).toEqual([]);
      const failed = await mine(who, made.id);
      expect(failed).toMatchObject({ status: 'failed', reason: REWARD_PROVIDER_FAILED, delivery: null });
      expect(failed.timeline.map((step) => step.status)).toEqual(['requested', 'approved', 'ordering', 'failed']);
      expect(await balanceOf(who)).toMatchObject({ available: 1000, held: 0 });
      expect((await noticesOf(c, who)).at(-1)).toBe('Reward failed: Shop card (5 USD) — your points are back');
      const [audited] = await queryRows<{ after: { providerMessage: string } }>(
        c.database.db,
        sql`select after from audit_log where action = 'redemption.fail' and target_id = ${String(made.id)}`,
      );
      expect(audited?.after.providerMessage).toBe('422: Insufficient funds in the funding source');
    });

    it('a pending order is finished by the signed webhook; the same event again changes nothing; a cancelled one gives the points back', async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
      const card = await providerReward(c);
      const who = await richParticipant(c, 2000);

      standin.nextStatus('PENDING APPROVAL');
      const made = await redeem(who, card.id);
      await c.jobs.drain({ notifications: false });
      const [order] = ordersOf(made.id);
      if (!order) throw new Error('no order');
      expect(await mine(who, made.id)).toMatchObject({ status: 'ordering' });

      standin.setStatus(order.id, 'EXECUTED');
      const signed = standin.webhook('ORDERS.APPROVED', { id: order.id, type: 'orders' });
      const send = () => c.request(WEBHOOK, { method: 'POST', headers: signed.headers, body: signed.body });
      const waiting = await c.jobs.waiting('rewards.order');
      expect(await okJson(await send())).toEqual({ received: true, outcome: 'queued' });
      expect(await okJson(await send())).toEqual({ received: true, outcome: 'duplicate' });
      expect(await c.jobs.waiting('rewards.order')).toBe(waiting + 1);
      await c.jobs.drain({ notifications: false });
      expect(await mine(who, made.id)).toMatchObject({ status: 'delivered', delivery: { link: order.reward.link } });
      expect(ordersOf(made.id)).toHaveLength(1);

      standin.nextStatus('PENDING APPROVAL');
      const second = await redeem(who, card.id);
      await c.jobs.drain({ notifications: false });
      const [secondOrder] = ordersOf(second.id);
      if (!secondOrder) throw new Error('no order');
      standin.setStatus(secondOrder.id, 'CANCELED');
      // A reward's event names the reward: its order is looked up.
      expect(await okJson(await webhook('REWARDS.CANCELED', { id: secondOrder.reward.id, type: 'rewards' }))).toEqual({ received: true, outcome: 'queued' });
      await c.jobs.drain({ notifications: false });
      expect(await mine(who, second.id)).toMatchObject({ status: 'failed', reason: REWARD_PROVIDER_FAILED });
      expect(await balanceOf(who)).toMatchObject({ available: 1500, held: 0 });
      // An event about nothing of ours is received and ignored.
      expect(await okJson(await webhook('PRODUCTS.ADDED', { id: 'XYZ', type: 'products' }))).toEqual({ received: true, outcome: 'ignored' });
    });

    it('forged, unsigned and malformed webhooks are refused; another provider is 404', async () => {
      const c = ctx();
      expect((await errorOf(await webhook('ORDERS.FAILED', { id: 'ORD1', type: 'orders' }, 'not-the-secret'), 401)).code).toBe('invalid_signature');
      const signed = standin.webhook('ORDERS.FAILED', { id: 'ORD1', type: 'orders' });
      const unsigned = await c.request(WEBHOOK, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: signed.body });
      expect(await errorOf(unsigned, 401)).toMatchObject({ code: 'invalid_signature', message: 'Invalid signature' });
      // The body changed after signing.
      const tampered = await c.request(WEBHOOK, { method: 'POST', headers: signed.headers, body: signed.body.replace('ORD1', 'ORD2') });
      expect((await errorOf(tampered, 401)).code).toBe('invalid_signature');
      const notEvent = '{"hello":"world"}';
      const headers = {
        'Content-Type': 'application/json',
        'Tremendous-Webhook-Signature': standin.webhook('X', { id: 'x', type: 'x' }).headers['Tremendous-Webhook-Signature'] ?? '',
      };
      expect((await errorOf(await c.request(WEBHOOK, { method: 'POST', headers, body: notEvent }), 401)).code).toBe('invalid_signature');
      const { createHmac } = await import('node:crypto');
      const rightlySigned = {
        'Content-Type': 'application/json',
        'Tremendous-Webhook-Signature': `sha256=${createHmac('sha256', standin.webhookSecret).update(notEvent).digest('hex')}`,
      };
      expect((await errorOf(await c.request(WEBHOOK, { method: 'POST', headers: rightlySigned, body: notEvent }), 400)).code).toBe('invalid_event');
      const other = await c.request('/api/webhooks/rewards/tango', { method: 'POST', headers: signed.headers, body: signed.body });
      expect((await errorOf(other, 404)).code).toBe('not_found');
    });

    it('the poll asks about orders left ordering for 10 minutes', async () => {
      const c = ctx();
      await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
      const card = await providerReward(c);
      const who = await richParticipant(c);
      standin.nextStatus('PENDING APPROVAL');
      const made = await redeem(who, card.id);
      await c.jobs.drain({ notifications: false });
      const [order] = ordersOf(made.id);
      if (!order) throw new Error('no order');
      standin.setStatus(order.id, 'EXECUTED');
      const poll = async () => {
        await c.jobs.send('rewards.poll', {});
        await c.jobs.drain({ notifications: false });
      };
      await poll();
      expect((await mine(who, made.id)).status).toBe('ordering');
      c.clock.advance(11 * 60 * 1000);
      await poll();
      expect(await mine(who, made.id)).toMatchObject({ status: 'delivered', delivery: { link: order.reward.link } });
      expect(ordersOf(made.id)).toHaveLength(1);
    });

    it('without a provider a provider reward stays requested, and approving it is 409 provider_not_configured (bulk: skipped)', async () => {
      const { context: c, close } = await createTestContext(backend);
      try {
        await rewardSettingsAre(c, { pointsPerUnit: { USD: 100 } });
        const card = await providerReward(c);
        const who = await richParticipant(c);
        const made = await okJson<Redemption>(
          await c.json('POST', '/api/redemptions', { rewardId: card.id, value: 5 }, { ...who.headers, 'Idempotency-Key': newKey() }),
          201,
        );
        expect(made).toMatchObject({ status: 'requested', needsReview: false });
        const admin = await staff(c, 'admin');
        const approve = await callAs(c, admin)('POST', `/api/admin/redemptions/${made.id}/approve`, { expectedStatus: 'requested' });
        expect(await errorOf(approve, 409)).toMatchObject({ code: 'provider_not_configured' });
        const bulk = await okJson(await callAs(c, admin)('POST', '/api/admin/redemptions/approve', { ids: [made.id], expectedStatus: 'requested' }));
        expect(bulk).toEqual({ approved: [], skipped: [{ id: made.id, reason: 'provider_not_configured' }] });
        expect(await c.jobs.waiting('rewards.order')).toBe(0);
        expect((await errorOf(await c.request(WEBHOOK, { method: 'POST', body: '{}' }), 404)).code).toBe('not_found');
      } finally {
        await close();
      }
    });
  },
  { env: providerEnv },
);
