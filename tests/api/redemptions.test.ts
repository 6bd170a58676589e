/**
 * A participant's reward requests (issue 30; docs/api.md "Rewards"): the points held in the
 * ledger and the balances that follow, ten requests at once for more than the balance, the retry
 * key, every refusal in the order it is checked, cancelling (points and stock back), who reviews
 * what, and the code shown to its owner alone (and never in the database's text). Who may call:
 * tests/api/permissions.test.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/index.ts';
import { pointsLedger, redemptions, rewards, users } from '../../src/server/db/schema/index.ts';
import { rewardDeliveryKey, sealDelivery } from '../../src/server/services/secret-box.ts';
import { pointReference, type PointsSummary } from '../../src/shared/points.ts';
import type { Redemption } from '../../src/shared/rewards.ts';
import type { ListPage } from '../../src/shared/list.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, okJson, participant, staff } from './programme-fixtures.ts';
import { insertReward, newKey, rewardSettingsAre } from './reward-fixtures.ts';

describeEachBackend('redemptions API', (ctx) => {
  /** `POST /api/redemptions` as `who` with a fresh (or the given) Idempotency-Key. */
  const request = (who: SignedIn, body: unknown, key: string | null = newKey()) =>
    ctx().json('POST', '/api/redemptions', body, { ...who.headers, ...(key === null ? {} : { 'Idempotency-Key': key }) });
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const balanceOf = async (who: SignedIn) => okJson<PointsSummary>(await as(who)('GET', '/api/account/points?pageSize=1'));

  const settings = rewardSettingsAre;
  const reward = (c: TestContext, input: Partial<typeof rewards.$inferInsert> = {}) =>
    insertReward(c, { fulfilment: 'provider', providerProductId: 'p-1', denominations: [5, 10, 25] }, input);
  async function give(c: TestContext, who: SignedIn, points: number, state: 'available' | 'pending' = 'available'): Promise<void> {
    await c.database.db
      .insert(pointsLedger)
      .values({ userId: who.id, points, state, reason: 'Survey', source: 'adjustment', reference: `fixture:${newKey()}` });
  }
  async function livesIn(c: TestContext, who: SignedIn, country: string): Promise<void> {
    await c.database.db
      .update(users)
      .set({ address: { line1: '1 Main St', city: 'Town', postalCode: '1000', country } })
      .where(eq(users.id, who.id));
  }

  it('a request holds its points: 201, the balance everywhere takes them off; the same key again answers the first (200), whatever the body', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c, { title: 'Book voucher' });
    const who = await participant(c);
    await give(c, who, 1700);
    await give(c, who, 40, 'pending');
    const key = newKey();
    const made = await okJson<Redemption>(await request(who, { rewardId: voucher.id, value: 10 }, key), 201);
    expect(made).toMatchObject({
      reward: { id: voucher.id, title: 'Book voucher', kind: 'gift_card' },
      value: 10,
      currency: 'EUR',
      points: 1000,
      status: 'requested',
      reason: null,
      delivery: null,
      needsReview: false,
    });
    expect(made.timeline).toEqual([{ status: 'requested', at: made.createdAt }]);
    expect(await balanceOf(who)).toMatchObject({ balance: 700, available: 700, pending: 40, held: 1000 });
    expect(await okJson<{ points: { balance: number; held: number } }>(await as(await staff(c, 'admin'))('GET', `/api/admin/users/${who.id}`))).toMatchObject({
      points: { balance: 700, available: 700, pending: 40, held: 1000 },
    });
    const [held] = await c.database.db
      .select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, who.id), eq(pointsLedger.source, 'redemption')));
    expect(held).toMatchObject({ points: -1000, state: 'held', reference: pointReference.redemption(made.id), reason: 'Reward: Book voucher (10 EUR)' });

    expect(await okJson<Redemption>(await request(who, { rewardId: voucher.id, value: 25 }, key), 200)).toEqual(made);
    // The key in the body serves a client that cannot set headers; a key is required one way or the other.
    const byBody = await okJson<Redemption>(await request(who, { rewardId: voucher.id, value: 5, key: 'body-key-1' }, null), 201);
    expect(await okJson<Redemption>(await request(who, { rewardId: voucher.id, value: 5, key: 'body-key-1' }, null), 200)).toEqual(byBody);
    expect(await fieldsOf(await request(who, { rewardId: voucher.id, value: 5 }, null))).toEqual({ key: ['Send an Idempotency-Key header'] });
    expect(await c.database.db.select().from(redemptions).where(eq(redemptions.userId, who.id))).toHaveLength(2);
    const [notice] = await queryRows<{ text: string; kind: string }>(
      c.database.db,
      sql`select kind, text from notifications where user_id = ${who.id} order by id limit 1`,
    );
    expect(notice).toEqual({ kind: 'reward', text: 'Reward requested: Book voucher (10 EUR)' });
  });

  it('ten requests at once for more than the balance: exactly those that fit succeed, and available never goes below zero', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c, { denominations: [3] });
    const who = await participant(c);
    await give(c, who, 1000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(who, { rewardId: voucher.id, value: 3 })));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of answers.filter((each) => each.status === 409)) expect((await errorOf(res, 409)).code).toBe('insufficient_points');
    expect(await balanceOf(who)).toMatchObject({ available: 100, held: 900 });
  });

  it('refusals, in the order they are checked: 404, 400 value, not_available_here, out_of_stock, below_minimum, open_request_exists, tax_form_required, insufficient_points', async () => {
    const c = ctx();
    const who = await participant(c);
    await give(c, who, 600);
    const code = async (res: Response, status = 409) => (await errorOf(res, status)).code;
    await settings(c, { pointsPerUnit: { EUR: 100 } });
    expect(await code(await request(who, { rewardId: 999_999, value: 5 }), 404)).toBe('not_found');
    const inactive = await reward(c, { active: false });
    expect(await code(await request(who, { rewardId: inactive.id, value: 5 }), 404)).toBe('not_found');
    const voucher = await reward(c, { denominations: { min: 1, max: 20, step: 0.5 } });
    expect(await fieldsOf(await request(who, { rewardId: voucher.id, value: 1.25 }))).toEqual({ value: ['Choose one of the values this reward offers'] });

    // No rate for the currency; offered elsewhere; offered somewhere while the participant has no address.
    const dollars = await reward(c, { currency: 'USD', denominations: [5] });
    expect(await code(await request(who, { rewardId: dollars.id, value: 5 }))).toBe('not_available_here');
    const dutch = await reward(c, { countries: ['NL'], denominations: [5] });
    expect(await code(await request(who, { rewardId: dutch.id, value: 5 }))).toBe('not_available_here');
    await livesIn(c, who, 'BE');
    expect(await code(await request(who, { rewardId: dutch.id, value: 5 }))).toBe('not_available_here');
    await livesIn(c, who, 'NL');
    await settings(c, { pointsPerUnit: { EUR: 100 }, minimumPoints: 1000 });
    // A country that matches gets to the next check (below the minimum here).
    expect(await code(await request(who, { rewardId: dutch.id, value: 5 }))).toBe('below_minimum');

    const lastOne = await reward(c, { kind: 'custom', fulfilment: 'manual', providerProductId: null, stock: 0, denominations: [5] });
    expect(await code(await request(who, { rewardId: lastOne.id, value: 5 }))).toBe('out_of_stock');
    expect(await code(await request(who, { rewardId: voucher.id, value: 5 }))).toBe('below_minimum');

    await settings(c, { pointsPerUnit: { EUR: 100 }, oneOpenRequest: true });
    await okJson(await request(who, { rewardId: voucher.id, value: 1 }), 201);
    expect(await code(await request(who, { rewardId: voucher.id, value: 1 }))).toBe('open_request_exists');

    // 1 EUR open this year + 4 EUR = 5 EUR: not above the yearly 5 EUR; 1 more is. A value in another currency is not counted.
    await settings(c, { pointsPerUnit: { EUR: 100, USD: 100 }, taxForm: { yearlyValue: 5, currency: 'EUR' } });
    await okJson(await request(who, { rewardId: voucher.id, value: 4 }), 201);
    expect(await code(await request(who, { rewardId: voucher.id, value: 1 }))).toBe('tax_form_required');
    expect(await code(await request(who, { rewardId: dollars.id, value: 5 }))).toBe('insufficient_points');
    await give(c, who, 1000);
    await okJson(await request(who, { rewardId: dollars.id, value: 5 }), 201);
    await c.database.db.update(users).set({ taxFormOnFileAt: c.clock.now() }).where(eq(users.id, who.id));
    await okJson(await request(who, { rewardId: voucher.id, value: 1 }), 201);
    expect(await balanceOf(who)).toMatchObject({ available: 500, held: 1100 });
    expect(await code(await request(who, { rewardId: voucher.id, value: 20 }))).toBe('insufficient_points');
  });

  it('cancel while requested: points and stock come back; not_cancellable after; the list is newest first; another’s is 404', async () => {
    const c = ctx();
    await settings(c);
    const mug = await reward(c, { title: 'Mug', kind: 'custom', fulfilment: 'manual', providerProductId: null, stock: 1, denominations: [5] });
    const who = await participant(c);
    const other = await participant(c);
    await give(c, who, 1000);
    const first = await okJson<Redemption>(await request(who, { rewardId: mug.id, value: 5 }), 201);
    expect(first.needsReview).toBe(true);
    expect((await errorOf(await request(who, { rewardId: mug.id, value: 5 }), 409)).code).toBe('out_of_stock');
    c.clock.advance(60_000);
    const cancelled = await okJson<Redemption>(await as(who)('POST', `/api/redemptions/${first.id}/cancel`));
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.timeline.map((step) => step.status)).toEqual(['requested', 'cancelled']);
    expect(await balanceOf(who)).toMatchObject({ available: 1000, held: 0 });
    expect((await errorOf(await as(who)('POST', `/api/redemptions/${first.id}/cancel`), 409)).code).toBe('not_cancellable');

    c.clock.advance(60_000);
    const second = await okJson<Redemption>(await request(who, { rewardId: mug.id, value: 5 }), 201);
    await c.database.db.update(redemptions).set({ status: 'approved', approvedAt: c.clock.now() }).where(eq(redemptions.id, second.id));
    expect((await errorOf(await as(who)('POST', `/api/redemptions/${second.id}/cancel`), 409)).code).toBe('not_cancellable');

    const list = await okJson<ListPage<Redemption>>(await as(who)('GET', '/api/redemptions'));
    expect(list).toMatchObject({ total: 2, page: 1, pageSize: 10 });
    expect(list.items.map((item) => [item.id, item.status])).toEqual([
      [second.id, 'approved'],
      [first.id, 'cancelled'],
    ]);
    expect(await okJson<Redemption>(await as(who)('GET', `/api/redemptions/${second.id}`))).toMatchObject({ id: second.id, status: 'approved' });
    expect((await errorOf(await as(other)('GET', `/api/redemptions/${second.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await as(other)('POST', `/api/redemptions/${second.id}/cancel`), 404)).code).toBe('not_found');
    expect(await okJson<ListPage<Redemption>>(await as(other)('GET', '/api/redemptions'))).toMatchObject({ items: [], total: 0 });
  });

  it('who reviews: a first redemption (when set), above the approval value in its currency, a reward delivered by hand; else none', async () => {
    const c = ctx();
    const voucher = await reward(c, { denominations: [5, 50] });
    const who = await participant(c);
    await give(c, who, 20_000);
    const needsReview = async (value: number) => (await okJson<Redemption>(await request(who, { rewardId: voucher.id, value }), 201)).needsReview;
    await settings(c, { reviewFirstRedemption: true });
    expect(await needsReview(5)).toBe(true);
    await c.database.db.update(redemptions).set({ status: 'delivered', deliveredAt: c.clock.now() }).where(eq(redemptions.userId, who.id));
    expect(await needsReview(5)).toBe(false);
    await settings(c, { approvalAbove: { value: 20, currency: 'EUR' } });
    expect(await needsReview(50)).toBe(true);
    expect(await needsReview(5)).toBe(false);
    await settings(c, { approvalAbove: { value: 20, currency: 'USD' } });
    expect(await needsReview(50)).toBe(false);
  });

  it('a delivered code is shown to its owner alone, and is not in the database in clear', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c);
    const who = await participant(c);
    await give(c, who, 1000);
    const made = await okJson<Redemption>(await request(who, { rewardId: voucher.id, value: 5 }), 201);
    const key = await rewardDeliveryKey(c.database.db, c.config);
    await c.database.db
      .update(redemptions)
      .set({ status: 'delivered', deliveredAt: c.clock.now(), deliverySealed: sealDelivery(key, made.id, { code: 'SECRET-CODE-77' }) })
      .where(eq(redemptions.id, made.id));
    expect(await okJson<Redemption>(await as(who)('GET', `/api/redemptions/${made.id}`))).toMatchObject({
      status: 'delivered',
      delivery: { code: 'SECRET-CODE-77' },
    });
    const [row] = await queryRows<{ text: string }>(c.database.db, sql`select row_to_json(r)::text as text from redemptions r where id = ${made.id}`);
    expect(row?.text).not.toContain('SECRET-CODE-77');
  });
});
