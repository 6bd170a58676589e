/**
 * The fulfilment queue (issue 30 §4; docs/api.md "Rewards"): the staff list (no code in it),
 * approve, reject (the points back), deliver by hand (the points spent, the code sealed at rest
 * and shown to its owner alone), `expectedStatus` conflicts, bulk approval with skips, the recent
 * sign-in proof, every action audited (never the code) and notified. Who may call:
 * tests/api/permissions.test.ts.
 */
import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/index.ts';
import { pointsLedger, rewards, sessions } from '../../src/server/db/schema/index.ts';
import type { AdminRedemption } from '../../src/server/services/redemptions-admin.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { PointsSummary } from '../../src/shared/points.ts';
import type { Redemption } from '../../src/shared/rewards.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, type SignedIn } from './helpers.ts';
import { callAs, okJson, participant, staff } from './programme-fixtures.ts';
import { insertReward, newKey, rewardSettingsAre } from './reward-fixtures.ts';

describeEachBackend('admin redemptions API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const balanceOf = async (who: SignedIn) => okJson<PointsSummary>(await as(who)('GET', '/api/account/points?pageSize=1'));

  const settings = rewardSettingsAre;
  const reward = (c: TestContext, input: Partial<typeof rewards.$inferInsert> = {}) => insertReward(c, {}, input);
  async function give(c: TestContext, who: SignedIn, points: number): Promise<void> {
    await c.database.db
      .insert(pointsLedger)
      .values({ userId: who.id, points, state: 'available', reason: 'Survey', source: 'adjustment', reference: `fixture:${newKey()}` });
  }
  const redeem = async (who: SignedIn, rewardId: number, value = 5) =>
    okJson<Redemption>(await ctx().json('POST', '/api/redemptions', { rewardId, value }, { ...who.headers, 'Idempotency-Key': newKey() }), 201);
  const noticesOf = async (c: TestContext, who: SignedIn) =>
    (await queryRows<{ text: string }>(c.database.db, sql`select text from notifications where user_id = ${who.id} and kind = 'reward' order by id`)).map(
      (row) => row.text,
    );

  it('approve then deliver by hand: the hold is spent, the code sealed at rest, shown to its owner only, never in the list or the audit log', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c);
    const who = await participant(c);
    await give(c, who, 1000);
    const made = await redeem(who, voucher.id);
    expect(await balanceOf(who)).toMatchObject({ available: 500, held: 500 });
    const admin = await staff(c, 'admin');
    const other = await staff(c, 'admin');
    const moderator = await staff(c, 'moderator');

    const list = await okJson<ListPage<AdminRedemption>>(await as(moderator)('GET', `/api/admin/redemptions?status=requested&rewardId=${voucher.id}`));
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({ id: made.id, status: 'requested', needsReview: true, points: 500, user: { id: who.id } });
    expect(list.items[0]).not.toHaveProperty('delivery');

    for (const path of ['approve', 'reject', 'deliver']) {
      expect((await errorOf(await as(moderator)('POST', `/api/admin/redemptions/${made.id}/${path}`, {}), 403)).code).toBe('forbidden');
    }
    const approve = (by: SignedIn, expectedStatus: string) => as(by)('POST', `/api/admin/redemptions/${made.id}/approve`, { expectedStatus });
    const approved = await okJson<AdminRedemption>(await approve(admin, 'requested'));
    expect(approved).toMatchObject({ status: 'approved', user: { id: who.id, email: who.email } });
    expect(approved.timeline.map((step) => step.status)).toEqual(['requested', 'approved']);
    // A retry of the same admin's approval answers it unchanged; another admin's stale screen is a conflict.
    expect(await okJson<AdminRedemption>(await approve(admin, 'requested'))).toEqual(approved);
    const conflict = await errorOf(await approve(other, 'requested'), 409);
    expect(conflict).toMatchObject({ code: 'conflict', current: { status: 'approved' } });

    const deliver = (body: unknown) => as(admin)('POST', `/api/admin/redemptions/${made.id}/deliver`, body);
    expect(await fieldsOf(await deliver({ note: 'Sent' }))).toEqual({ code: ['Give a code or a link'] });
    expect(await fieldsOf(await deliver({ link: 'http://example.com/card' }))).toEqual({ link: ['Give an https:// link'] });
    const code = 'GIFT-SECRET-7Q2X';
    const link = 'https://cards.example.com/r/SECRETLINK99';
    const delivered = await okJson<AdminRedemption>(await deliver({ code, link, note: 'Sent by hand' }));
    expect(delivered).toMatchObject({ status: 'delivered' });
    expect(delivered).not.toHaveProperty('delivery');
    expect(delivered.timeline.map((step) => step.status)).toEqual(['requested', 'approved', 'delivered']);
    expect((await errorOf(await deliver({ code }), 409)).code).toBe('not_deliverable');

    // The ledger: the hold spent (available stays 500, nothing held).
    expect(await balanceOf(who)).toMatchObject({ available: 500, held: 0, balance: 500 });
    const [spent] = await c.database.db
      .select({ state: pointsLedger.state })
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, who.id), eq(pointsLedger.source, 'redemption')));
    expect(spent).toEqual({ state: 'available' });

    // At rest: sealed; the audit rows say delivered, never the code or link.
    const [row] = await queryRows<{ delivery_sealed: string | null; note: string | null }>(
      c.database.db,
      sql`select delivery_sealed, note from redemptions where id = ${made.id}`,
    );
    expect(row?.delivery_sealed).toBeTruthy();
    expect(row?.delivery_sealed).not.toContain(code);
    expect(row?.delivery_sealed).not.toContain('SECRETLINK99');
    expect(row?.note).toBe('Sent by hand');
    const audits = await queryRows<{ action: string; text: string }>(
      c.database.db,
      sql`select action, coalesce(before::text, '') || coalesce(after::text, '') as text from audit_log where target_type = 'redemption' and target_id = ${String(made.id)} order by id`,
    );
    expect(audits.map((each) => each.action)).toEqual(['redemption.approve', 'redemption.deliver']);
    for (const each of audits) {
      expect(each.text).not.toContain(code);
      expect(each.text).not.toContain('SECRETLINK99');
    }
    expect(audits[1]?.text).toContain('"delivered": true');

    // The owner sees the code; the staff list does not.
    expect((await okJson<Redemption>(await as(who)('GET', `/api/redemptions/${made.id}`))).delivery).toEqual({ code, link });
    const listed = await (await as(admin)('GET', `/api/admin/redemptions?rewardId=${voucher.id}`)).text();
    expect(listed).toContain(`"id":${made.id}`);
    expect(listed).not.toContain(code);
    expect(listed).not.toContain('SECRETLINK99');

    expect(await noticesOf(c, who)).toEqual([
      'Reward requested: Book voucher (5 EUR)',
      'Reward approved: Book voucher (5 EUR)',
      'Reward sent: Book voucher (5 EUR)',
    ]);
  });

  it('reject: the points come back in the same step, the reason kept and told; a stale expectedStatus is 409 conflict; provider rewards are not delivered by hand', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c);
    const provided = await reward(c, { title: 'Store card', fulfilment: 'provider', providerProductId: 'p-1' });
    const who = await participant(c);
    await give(c, who, 2000);
    const made = await redeem(who, voucher.id, 10);
    const ordered = await redeem(who, provided.id, 5);
    expect(await balanceOf(who)).toMatchObject({ available: 500, held: 1500 });
    const admin = await staff(c, 'admin');

    expect((await errorOf(await as(admin)('POST', `/api/admin/redemptions/${ordered.id}/deliver`, { code: 'X' }), 409)).code).toBe('provider_fulfilment');
    const reject = (body: unknown) => as(admin)('POST', `/api/admin/redemptions/${made.id}/reject`, body);
    expect(await fieldsOf(await reject({ reason: ' ', expectedStatus: 'requested' }))).toEqual({ reason: ['Say why'] });
    expect(await errorOf(await reject({ reason: 'Duplicate account', expectedStatus: 'approved' }), 409)).toMatchObject({
      code: 'conflict',
      current: { status: 'requested' },
    });
    const rejected = await okJson<AdminRedemption>(await reject({ reason: 'Duplicate account', expectedStatus: 'requested' }));
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Duplicate account' });
    expect(await balanceOf(who)).toMatchObject({ available: 1500, held: 500 });
    expect((await okJson<Redemption>(await as(who)('GET', `/api/redemptions/${made.id}`))).status).toBe('rejected');
    expect((await errorOf(await as(admin)('POST', `/api/admin/redemptions/${made.id}/approve`, { expectedStatus: 'rejected' }), 409)).code).toBe(
      'not_approvable',
    );
    expect((await noticesOf(c, who)).at(-1)).toBe('Reward request rejected: Book voucher (10 EUR) — your points are back');

    // A sign-in proof older than 15 minutes: the decisions ask for it again (the list does not).
    await c.database.db
      .update(sessions)
      .set({ authenticatedAt: new Date(c.clock.now().getTime() - 16 * 60_000) })
      .where(eq(sessions.userId, admin.id));
    expect((await errorOf(await as(admin)('POST', `/api/admin/redemptions/${ordered.id}/approve`, { expectedStatus: 'requested' }), 403)).code).toBe(
      'reauth_required',
    );
    await okJson(await as(admin)('GET', '/api/admin/redemptions'));
  });

  it('the list: oldest first, q in the participant’s e-mail or name, status and day filters', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c);
    const first = await participant(c);
    const second = await participant(c);
    await give(c, first, 1000);
    await give(c, second, 1000);
    const a = await redeem(first, voucher.id);
    c.clock.advance(60_000);
    const b = await redeem(second, voucher.id);
    const admin = await staff(c, 'admin');
    const ids = async (query: string) =>
      (await okJson<ListPage<AdminRedemption>>(await as(admin)('GET', `/api/admin/redemptions?rewardId=${voucher.id}&${query}`))).items.map((item) => item.id);
    expect(await ids('')).toEqual([a.id, b.id]);
    expect(await ids('dir=desc')).toEqual([b.id, a.id]);
    expect(await ids(`q=${encodeURIComponent(second.email.toUpperCase())}`)).toEqual([b.id]);
    const today = c.clock.now().toISOString().slice(0, 10);
    expect(await ids(`from=${today}&to=${today}`)).toEqual([a.id, b.id]);
    expect(await ids('from=2000-01-01&to=2000-01-02')).toEqual([]);
    expect(await ids('status=approved')).toEqual([]);
    expect(await fieldsOf(await as(admin)('GET', '/api/admin/redemptions?from=2020-02-02&to=2020-02-01'))).toEqual({
      to: ['Must be on or after the start date'],
    });
  });

  it('bulk approve: in ascending id, one transaction; what is not requested any more, or unknown, is skipped with its reason', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c);
    const who = await participant(c);
    const another = await participant(c);
    await give(c, who, 2000);
    await give(c, another, 1000);
    const one = await redeem(who, voucher.id);
    const two = await redeem(another, voucher.id);
    const three = await redeem(who, voucher.id);
    const admin = await staff(c, 'admin');
    await okJson(await as(admin)('POST', `/api/admin/redemptions/${two.id}/reject`, { reason: 'No', expectedStatus: 'requested' }));
    const bulk = (body: unknown) => as(admin)('POST', '/api/admin/redemptions/approve', body);
    expect(await fieldsOf(await bulk({ ids: [], expectedStatus: 'requested' }))).toEqual({ ids: ['Choose at least one request'] });
    const answer = await okJson<{ approved: number[]; skipped: { id: number; reason: string }[] }>(
      await bulk({ ids: [three.id, 999_999_999, two.id, one.id, three.id], expectedStatus: 'requested' }),
    );
    expect(answer).toEqual({
      approved: [one.id, three.id],
      skipped: [
        { id: two.id, reason: 'conflict' },
        { id: 999_999_999, reason: 'not_found' },
      ],
    });
    const statuses = await queryRows<{ id: number; status: string }>(
      c.database.db,
      sql`select id, status from redemptions where id in (${one.id}, ${two.id}, ${three.id}) order by id`,
    );
    expect(statuses.map((row) => row.status)).toEqual(['approved', 'rejected', 'approved']);
    expect(await balanceOf(who)).toMatchObject({ available: 1000, held: 1000 });
    expect(await balanceOf(another)).toMatchObject({ available: 1000, held: 0 });
    // Told in the bell and by mail (one sweep for the batch): one of each per approved request.
    expect((await noticesOf(c, who)).filter((text) => text.startsWith('Reward approved'))).toHaveLength(2);
    const mails = await mailsTo(c, who.email);
    expect(mails.filter((mail) => mail.raw.includes('Reward approved: Book voucher (5 EUR)'))).toHaveLength(2);
  });

  it('the reconciliation CSV: a period’s redemptions in id order, formula-safe, who approved, never a code; audited; staff only', async () => {
    const c = ctx();
    await settings(c);
    const voucher = await reward(c, { title: '=HYPERLINK("http://evil.example")' });
    const who = await participant(c);
    await give(c, who, 2000);
    const first = await redeem(who, voucher.id);
    const second = await redeem(who, voucher.id, 10);
    const admin = await staff(c, 'admin');
    await okJson(await as(admin)('POST', `/api/admin/redemptions/${first.id}/deliver`, { code: 'CSV-SECRET-CODE' }));
    const moderator = await staff(c, 'moderator');
    const today = c.clock.now().toISOString().slice(0, 10);
    const answer = await as(moderator)('GET', `/api/admin/redemptions.csv?from=${today}&to=${today}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="redemptions-${today}-to-${today}.csv"`);
    const text = await answer.text();
    expect(text).not.toContain('CSV-SECRET-CODE');
    // (The file starts with a byte-order mark for spreadsheets; text() drops it.)
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Redemption ID,Participant ID,Email,Reward ID,Reward,Kind,Value,Currency,Points,Status,Requested at,Approved at,Delivered at,Closed at,Provider order ID,Approved by',
    );
    const ours = lines.filter((line) => line.includes(who.email));
    expect(ours).toHaveLength(2);
    expect(ours[0]).toMatch(
      new RegExp(`^${first.id},${who.id},${who.email},${voucher.id},"'=HYPERLINK\\(""http://evil.example""\\)",gift_card,5,EUR,500,delivered,`),
    );
    expect(ours[0]?.endsWith(`,,${admin.email}`)).toBe(true);
    expect(ours[1]).toMatch(new RegExp(`^${second.id},.*,10,EUR,1000,requested,[^,]+,,,,,$`));
    expect(await (await as(moderator)('GET', '/api/admin/redemptions.csv?status=rejected&from=2000-01-01&to=2000-01-01')).text()).toMatch(
      /^Redemption ID[^\r\n]*$/,
    );
    expect(await fieldsOf(await as(moderator)('GET', '/api/admin/redemptions.csv?status=lost'))).toHaveProperty('status');
    expect((await errorOf(await as(who)('GET', '/api/admin/redemptions.csv'), 403)).code).toBe('forbidden');
    const [audited] = await queryRows<{ after: unknown }>(
      c.database.db,
      sql`select after from audit_log where action = 'redemptions.export' and actor_id = ${moderator.id}`,
    );
    expect(audited?.after).toEqual({ status: null, from: today, to: today });
  });
});
