/**
 * The rewards catalogue and settings (issue 30): admins create and edit rewards (field-by-field
 * messages, the rules between fields checked on the reward as it would be, audited), the settings
 * (validated whole, audited with before and after), the participant's catalogue (availability by
 * country, stock and rate; the balance with held points), reward images shown to participants,
 * and the tax-form record. Who may call what: tests/api/permissions.test.ts.
 */
import { desc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { auditLog, pointsLedger, users } from '../../src/server/db/schema/index.ts';
import type { AdminReward, AdminRewardSettings, RewardCatalogue, RewardSettings, TaxFormRecord } from '../../src/shared/rewards.ts';
import { DEFAULT_REWARD_SETTINGS, REWARD_UNAVAILABLE } from '../../src/shared/rewards.ts';
import type { ListPage } from '../../src/shared/list.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, okJson, participant, staff } from './programme-fixtures.ts';

const giftCard = (over: Record<string, unknown> = {}) => ({
  title: 'Bol.com gift card',
  description: 'Spend it on anything at bol.com',
  kind: 'gift_card',
  fulfilment: 'manual',
  currency: 'EUR',
  denominations: [25, 10],
  countries: ['NL', 'BE'],
  ...over,
});

async function upload(c: TestContext, who: SignedIn): Promise<string> {
  const bytes = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 200, g: 120, b: 20 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'card.png');
  const res = await c.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
  return (await okJson<{ id: string }>(res, 201)).id;
}

describeEachBackend('rewards catalogue and settings API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const lastAudit = async (action: string) => {
    const [row] = await ctx().database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1);
    return row;
  };
  const create = async (admin: SignedIn, body: Record<string, unknown>) => okJson<AdminReward>(await as(admin)('POST', '/api/admin/rewards', body), 201);

  it('an admin creates a reward (values sorted, countries de-duplicated, audited) and edits part of it; moderators read it', async () => {
    const admin = await staff(ctx(), 'admin');
    const moderator = await staff(ctx(), 'moderator');
    const made = await create(admin, giftCard({ countries: ['NL', 'BE', 'NL'] }));
    expect(made).toMatchObject({
      title: 'Bol.com gift card',
      kind: 'gift_card',
      fulfilment: 'manual',
      providerProductId: null,
      currency: 'EUR',
      denominations: [10, 25],
      range: null,
      countries: ['BE', 'NL'],
      active: true,
      stock: null,
      imageUrl: null,
    });
    expect(await lastAudit('reward.create')).toMatchObject({
      actorId: admin.id,
      targetType: 'reward',
      targetId: String(made.id),
      after: { title: 'Bol.com gift card', currency: 'EUR' },
    });
    expect(await okJson<AdminReward>(await as(moderator)('GET', `/api/admin/rewards/${made.id}`))).toEqual(made);

    // A range replaces the fixed values; only the fields that changed are audited.
    const edited = await okJson<AdminReward>(
      await as(admin)('PATCH', `/api/admin/rewards/${made.id}`, { range: { min: 5, max: 50, step: 2.5 }, active: false }),
    );
    expect(edited).toMatchObject({ title: 'Bol.com gift card', denominations: null, range: { min: 5, max: 50, step: 2.5 }, active: false });
    const audit = await lastAudit('reward.update');
    expect(audit).toMatchObject({
      targetId: String(made.id),
      before: { denominations: [10, 25], active: true },
      after: { denominations: { min: 5, max: 50, step: 2.5 }, active: false },
    });
    expect(Object.keys(audit?.after as object).sort()).toEqual(['active', 'denominations']);
    expect((await errorOf(await as(admin)('PATCH', '/api/admin/rewards/999999', { active: true }), 404)).code).toBe('not_found');
  });

  it('says what is wrong field by field, never a 500: codes, values, the rules between fields (also on the reward as a patch would leave it)', async () => {
    const admin = await staff(ctx(), 'admin');
    const post = (body: unknown) => as(admin)('POST', '/api/admin/rewards', body);
    expect(
      await fieldsOf(
        await post(giftCard({ title: ' ', currency: 'eur', countries: ['NL', 'XX', 'EU'], denominations: [10, 10.005, 20_000, 0], stock: 5, extra: 1 })),
      ),
    ).toEqual({
      extra: ['Unexpected field'],
      title: ['Required'],
      currency: ['Enter a currency code (ISO 4217, e.g. EUR)'],
      countries: ['Enter country codes (ISO 3166-1, e.g. NL)'],
      denominations: ['At most two decimals', 'At most 10,000', 'Enter more than 0'],
      stock: ['Only custom rewards keep a stock'],
    });
    expect(await fieldsOf(await post(giftCard({ currency: 'XYZ', range: { min: 50, max: 5, step: 5 } })))).toEqual({
      currency: ['Enter a currency code (ISO 4217, e.g. EUR)'],
      denominations: ['Give fixed values or a range, not both'],
      range: ['The minimum must not be above the maximum'],
    });
    expect(await fieldsOf(await post(giftCard({ denominations: undefined, fulfilment: 'provider', providerProductId: '' })))).toEqual({
      denominations: ['Give fixed values or a range'],
      providerProductId: ["Enter the provider's product id"],
    });
    for (const body of [null, [], 'x', { title: 5, kind: 'voucher', denominations: 'ten', range: [1], countries: 'NL', active: 'yes', stock: -1 }]) {
      expect((await errorOf(await post(body), 400)).code).toBe('validation_failed');
    }

    const made = await create(admin, giftCard());
    const patch = (body: unknown) => as(admin)('PATCH', `/api/admin/rewards/${made.id}`, body);
    expect(await fieldsOf(await patch({ fulfilment: 'provider' }))).toEqual({ providerProductId: ["Enter the provider's product id"] });
    expect(await fieldsOf(await patch({ stock: 3 }))).toEqual({ stock: ['Only custom rewards keep a stock'] });
    expect(await fieldsOf(await patch({ denominations: [5], range: { min: 1, max: 2, step: 1 } }))).toEqual({
      denominations: ['Give fixed values or a range, not both'],
    });
    expect(await okJson<AdminReward>(await patch({ kind: 'custom', stock: 3, fulfilment: 'provider', providerProductId: 'SKU-1' }))).toMatchObject({
      kind: 'custom',
      stock: 3,
      providerProductId: 'SKU-1',
    });
  });

  it('lists rewards by the list contract: search, active and kind filters, pages', async () => {
    const admin = await staff(ctx(), 'admin');
    const tag = `List${Date.now().toString(36)}`;
    const a = await create(admin, giftCard({ title: `${tag} Alpha` }));
    const b = await create(admin, giftCard({ title: `${tag} Bravo`, kind: 'donation', active: false }));
    const c = await create(admin, giftCard({ title: `${tag} Charlie`, kind: 'custom', stock: 2 }));
    const list = async (query: string) => okJson<ListPage<AdminReward>>(await as(admin)('GET', `/api/admin/rewards?q=${tag}&${query}`));
    expect((await list('sort=title')).items.map((r) => r.id)).toEqual([a.id, b.id, c.id]);
    expect((await list('active=false')).items.map((r) => r.id)).toEqual([b.id]);
    expect((await list('kind=custom')).items.map((r) => r.id)).toEqual([c.id]);
    expect(await list('sort=title&dir=desc&pageSize=2&page=2')).toMatchObject({ total: 3, page: 2, pageSize: 2, items: [{ id: a.id }] });
  });

  it("a reward's image is a photo staff uploaded, shown to participants while the reward is active; a participant's photo is refused", async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const someone = await participant(c);
    const image = await upload(c, admin);
    const theirs = await upload(c, someone);
    const other = await participant(c);
    expect((await errorOf(await as(other)('GET', `/api/media/${image}`), 404)).code).toBe('not_found');
    expect(await fieldsOf(await as(admin)('POST', '/api/admin/rewards', giftCard({ imageMediaId: theirs })))).toEqual({
      imageMediaId: ['Choose an image uploaded by staff'],
    });
    expect(await fieldsOf(await as(admin)('POST', '/api/admin/rewards', giftCard({ imageMediaId: 'nope' })))).toEqual({
      imageMediaId: ['No such image: upload it first'],
    });
    const made = await create(admin, giftCard({ imageMediaId: image }));
    expect(made.imageUrl).toBe(`/api/media/${image}`);
    expect((await as(other)('GET', `/api/media/${image}`)).status).toBe(200);
    expect((await errorOf(await as(admin)('DELETE', `/api/media/${image}`), 409)).code).toBe('in_use');
    await okJson(await as(admin)('PATCH', `/api/admin/rewards/${made.id}`, { active: false }));
    expect((await as(other)('GET', `/api/media/${image}`)).status).toBe(404);
  });

  it('settings: the defaults until saved; saved whole, validated field by field, audited with before and after', async () => {
    const admin = await staff(ctx(), 'admin');
    const moderator = await staff(ctx(), 'moderator');
    const put = (body: unknown) => as(admin)('PUT', '/api/admin/rewards/settings', body);
    // With the provider this server orders from: none here (REWARDS_PROVIDER unset), so the screen can warn.
    expect(await okJson<AdminRewardSettings>(await as(moderator)('GET', '/api/admin/rewards/settings'))).toEqual({
      ...DEFAULT_REWARD_SETTINGS,
      provider: null,
    });
    expect(
      await fieldsOf(
        await put({
          pointsPerUnit: { eur: 100, USD: 0, GBP: 1.5 },
          minimumPoints: -1,
          oneOpenRequest: 'yes',
          taxForm: { yearlyValue: 600 },
          approvalAbove: { value: 50, currency: 'EUR', extra: true },
        }),
      ),
    ).toEqual({
      pointsPerUnit: ['Enter a currency code (ISO 4217, e.g. EUR)', 'Enter 1 or more', 'Enter a whole number of points'],
      minimumPoints: ['Enter 0 or more'],
      oneOpenRequest: ['Must be true or false'],
      reviewFirstRedemption: ['Must be true or false'],
      taxForm: ['Required'],
      approvalAbove: ['Unexpected field: extra'],
    });
    const saved: RewardSettings = {
      pointsPerUnit: { EUR: 100, USD: 90 },
      minimumPoints: 1000,
      oneOpenRequest: false,
      reviewFirstRedemption: true,
      taxForm: { yearlyValue: 600, currency: 'USD' },
      approvalAbove: null,
    };
    expect(await okJson<AdminRewardSettings>(await put(saved))).toEqual({ ...saved, provider: null });
    expect(await okJson<AdminRewardSettings>(await as(moderator)('GET', '/api/admin/rewards/settings'))).toEqual({ ...saved, provider: null });
    expect(await lastAudit('reward_settings.update')).toMatchObject({ actorId: admin.id, before: DEFAULT_REWARD_SETTINGS, after: saved });
    await okJson(await put(DEFAULT_REWARD_SETTINGS));
  });

  it("the participant's catalogue: active rewards with why one is not available (rate, country, stock), the balance with held points, the pricing settings", async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const user = await participant(c);
    const db = c.database.db;
    await okJson(await as(admin)('PUT', '/api/admin/rewards/settings', { ...DEFAULT_REWARD_SETTINGS, pointsPerUnit: { EUR: 100 }, minimumPoints: 700 }));
    const tag = `Cat${Date.now().toString(36)}`;
    const everywhere = await create(admin, giftCard({ title: `${tag} 1 everywhere`, countries: [] }));
    const dutch = await create(admin, giftCard({ title: `${tag} 2 Dutch`, countries: ['NL'] }));
    const dollars = await create(admin, giftCard({ title: `${tag} 3 dollars`, currency: 'USD', countries: [] }));
    const soldOut = await create(
      admin,
      giftCard({ title: `${tag} 4 sold out`, kind: 'custom', stock: 0, countries: [], range: { min: 5, max: 20, step: 5 }, denominations: undefined }),
    );
    await create(admin, giftCard({ title: `${tag} 5 inactive`, active: false }));
    await db.insert(pointsLedger).values([
      { userId: user.id, points: 1200, state: 'available', reason: 'Survey', source: 'survey', reference: 'survey:1' },
      { userId: user.id, points: 300, state: 'pending', reason: 'Mission', source: 'mission', reference: 'mission-entry:1' },
      { userId: user.id, points: -500, state: 'held', reason: 'Reward', source: 'redemption', reference: 'redemption:1' },
      { userId: user.id, points: -100, state: 'voided', reason: 'Reward', source: 'redemption', reference: 'redemption:2' },
    ]);
    const catalogue = async () => {
      const got = await okJson<RewardCatalogue>(await as(user)('GET', '/api/rewards'));
      return { ...got, items: got.items.filter((item) => item.title.startsWith(tag)) };
    };

    const first = await catalogue();
    expect(first.balance).toEqual({ available: 700, pending: 300, held: 500 });
    expect(first.settings).toEqual({ minimumPoints: 700, pointsPerUnit: { EUR: 100 } });
    expect(first.items.map((item) => [item.id, item.available, item.unavailableReason])).toEqual([
      [everywhere.id, true, null],
      [dutch.id, false, REWARD_UNAVAILABLE.noCountry],
      [dollars.id, false, REWARD_UNAVAILABLE.noRate],
      [soldOut.id, false, REWARD_UNAVAILABLE.outOfStock],
    ]);
    expect(first.items[0]).toEqual({
      id: everywhere.id,
      title: `${tag} 1 everywhere`,
      description: 'Spend it on anything at bol.com',
      kind: 'gift_card',
      imageUrl: null,
      currency: 'EUR',
      denominations: [10, 25],
      pointsPerUnit: 100,
      available: true,
      unavailableReason: null,
    });
    expect(first.items[3]?.denominations).toEqual({ min: 5, max: 20, step: 5 });

    const address = { line1: 'Damrak 1', line2: '', city: 'Amsterdam', region: '', postalCode: '1012 LG', country: 'BE' };
    await db.update(users).set({ address }).where(eq(users.id, user.id));
    expect((await catalogue()).items[1]).toMatchObject({ id: dutch.id, available: false, unavailableReason: REWARD_UNAVAILABLE.country });
    await db
      .update(users)
      .set({ address: { ...address, country: 'NL' } })
      .where(eq(users.id, user.id));
    expect((await catalogue()).items[1]).toMatchObject({ id: dutch.id, available: true, unavailableReason: null });
    await okJson(await as(admin)('PUT', '/api/admin/rewards/settings', DEFAULT_REWARD_SETTINGS));
  });

  it('an admin records a tax form (the first date kept) and withdraws it, audited; an unknown user is 404', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const user = await participant(c);
    const put = (onFile: unknown, id: number = user.id) => as(admin)('PUT', `/api/admin/users/${id}/tax-form`, { onFile });
    const onFileAt = async () => (await c.database.db.select({ at: users.taxFormOnFileAt }).from(users).where(eq(users.id, user.id)))[0]?.at ?? null;
    const recorded = await okJson<TaxFormRecord>(await put(true));
    expect(recorded).toEqual({ onFile: true, taxFormOnFileAt: c.clock.now().toISOString() });
    c.clock.advance(60_000);
    expect(await okJson<TaxFormRecord>(await put(true))).toEqual(recorded);
    expect((await onFileAt())?.toISOString()).toBe(recorded.taxFormOnFileAt);
    // The participant sees it on their account, staff on the person's page.
    expect(await okJson(await as(user)('GET', '/api/account'))).toMatchObject({ user: { taxFormOnFileAt: recorded.taxFormOnFileAt } });
    expect(await okJson(await as(admin)('GET', `/api/admin/users/${user.id}`))).toMatchObject({ taxFormOnFileAt: recorded.taxFormOnFileAt });
    expect(await okJson<TaxFormRecord>(await put(false))).toEqual({ onFile: false, taxFormOnFileAt: null });
    expect(await onFileAt()).toBeNull();
    expect(await lastAudit('user.tax_form')).toMatchObject({
      actorId: admin.id,
      targetType: 'user',
      targetId: String(user.id),
      before: { taxFormOnFileAt: recorded.taxFormOnFileAt },
      after: { taxFormOnFileAt: null },
    });
    expect(await fieldsOf(await put('yes'))).toEqual({ onFile: ['Must be true or false'] });
    expect((await errorOf(await put('yes', 999_999), 404)).code).toBe('not_found');
  });
});
