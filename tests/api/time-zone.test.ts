/**
 * A participant's time zone is theirs, not each request's: set from the browser at onboarding,
 * changeable on the preferences screen, and the only zone a diary's one-entry-a-day counts in;
 * changing it opens no day already used.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import { issueLinkToken } from '../../src/server/services/tokens.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, PASSWORD, uniqueEmail } from './helpers.ts';
import { shortDay } from '../../src/server/services/participation.ts';
import { callAs, createMission, createProject, member, okJson } from './programme-fixtures.ts';

const HOUR = 3_600_000;

describeEachBackend('time zones', (ctx) => {
  const preferencesOf = async (userId: number) =>
    (await ctx().database.db.select({ preferences: users.preferences }).from(users).where(eq(users.id, userId)))[0]?.preferences;

  it('onboarding stores the browser’s zone (canonical spelling); an unknown one is ignored, never refused', async () => {
    const c = ctx();
    for (const [sent, stored] of [
      ['asia/tokyo', 'Asia/Tokyo'],
      ['Mars/Olympus_Mons', undefined],
      [undefined, undefined],
    ] as const) {
      const [row] = await c.database.db
        .insert(users)
        .values({ email: uniqueEmail('invited'), firstName: 'Ina', lastName: 'Vite', status: 'invited', termsAcceptedAt: c.clock.now() })
        .returning();
      const { token } = await issueLinkToken(c.database.db, c.clock, { type: 'onboarding', userId: row?.id ?? 0 });
      const body = { password: PASSWORD, confirmPassword: PASSWORD, ...(sent === undefined ? {} : { timeZone: sent }) };
      const res = await c.json('POST', `/api/auth/onboard?token=${token}`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await preferencesOf(row?.id ?? 0))?.timeZone).toBe(stored);
    }
  });

  it('the preferences screen sets and changes it; a name the platform does not know is refused with a clear message', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const as = callAs(c, user);
    const base = { emailNotifications: true, language: 'en', colorMode: 'system' };
    const saved = await okJson<{ user: { preferences: { timeZone?: string } } }>(
      await as('PATCH', '/api/account/preferences', { ...base, timeZone: 'europe/paris' }),
    );
    expect(saved.user.preferences.timeZone).toBe('Europe/Paris');
    expect((await okJson<{ user: { preferences: { timeZone?: string } } }>(await as('GET', '/api/account'))).user.preferences.timeZone).toBe('Europe/Paris');
    expect(await fieldsOf(await as('PATCH', '/api/account/preferences', { ...base, timeZone: 'Mars/Olympus_Mons' }))).toEqual({
      timeZone: ['Choose a time zone from the list'],
    });
    expect(await fieldsOf(await as('PATCH', '/api/account/preferences', { ...base, timeZone: '' }))).toEqual({ timeZone: ['Required'] });
    // A save without it keeps it.
    await okJson(await as('PATCH', '/api/account/preferences', base));
    expect((await preferencesOf(user.id))?.timeZone).toBe('Europe/Paris');
  });

  it('a one-a-day diary counts days in the participant’s zone from their preferences, whatever zone a request names', async () => {
    const c = ctx();
    const project = await createProject(c);
    const user = await member(c, project.id);
    const as = callAs(c, user);
    const mission = await createMission(c, project.id, { entries: { min: 1, max: 7, perDay: 1 } });
    const base = { emailNotifications: true, language: 'en', colorMode: 'system' };
    await okJson(await as('PATCH', '/api/account/preferences', { ...base, timeZone: 'America/New_York' }));
    // 22:00 UTC: 17:00 in New York, already the next day in Tokyo and on Kiritimati.
    const now = c.clock.now();
    c.clock.advance(((((22 - now.getUTCHours()) % 24) + 24) % 24) * HOUR - now.getUTCMinutes() * 60_000);
    const entry = await okJson<{ id: number }>(await as('POST', `/api/missions/${mission.id}/entries`, { timeZone: 'Asia/Tokyo' }), 201);
    const submit = (id: number) => as('POST', `/api/missions/${mission.id}/entries/${id}/submit`, { answers: { name: 'Soup' } });
    await okJson(await submit(entry.id));
    for (const zone of ['Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', undefined]) {
      const refused = await errorOf(await as('POST', `/api/missions/${mission.id}/entries`, zone === undefined ? {} : { timeZone: zone }), 409);
      expect(refused.code).toBe('daily_limit');
    }
    const view = await okJson<{ myEntries: { id: number; localDate: string }[]; canAddEntry: boolean; nextEntryAt: string }>(
      await as('GET', `/api/missions/${mission.id}`),
    );
    expect(view.myEntries.map((each) => each.id)).toEqual([entry.id]);
    expect(view.myEntries[0]?.localDate).toBe(new Date(c.clock.now().getTime() - 5 * HOUR).toISOString().slice(0, 10));
    expect(view.canAddEntry).toBe(false);
    // Midnight in New York (05:00 UTC).
    expect(view.nextEntryAt).toBe(new Date(Date.parse(`${view.myEntries[0]?.localDate}T00:00:00Z`) + 29 * HOUR).toISOString());

    // Moving to Tokyo on the preferences screen, where it is already tomorrow (07:00), opens no day
    // already used (issue 28 §8): the entry of 17:00 in New York falls on today in Tokyo.
    const day = view.myEntries[0]?.localDate ?? '';
    const utc = (days: number, hour: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 24 * HOUR + hour * HOUR).toISOString();
    await okJson(await as('PATCH', '/api/account/preferences', { ...base, timeZone: 'Asia/Tokyo' }));
    const moved = await errorOf(await as('POST', `/api/missions/${mission.id}/entries`, {}), 409);
    expect(moved).toEqual({
      code: 'daily_limit',
      message: `You changed your time zone: your entry of ${shortDay(new Date(`${day}T00:00:00Z`))} falls on today in Asia/Tokyo. Come back tomorrow.`,
      // Midnight in Tokyo: 15:00 UTC the next day.
      nextEntryAt: utc(1, 15),
    });
    expect(await okJson(await as('GET', `/api/missions/${mission.id}`))).toMatchObject({
      canAddEntry: false,
      nextEntryAt: utc(1, 15),
      zoneChange: { entryDay: day, timeZone: 'Asia/Tokyo' },
    });
    c.clock.advance(Date.parse(utc(1, 15)) - c.clock.now().getTime());
    await okJson(await submit((await okJson<{ id: number }>(await as('POST', `/api/missions/${mission.id}/entries`, {}), 201)).id));
    expect((await errorOf(await as('POST', `/api/missions/${mission.id}/entries`, { timeZone: 'America/New_York' }), 409)).code).toBe('daily_limit');

    // Back to New York (10:00 there): that entry falls on today, and it carries the Tokyo date of
    // tomorrow, so the next free day starts the day after (midnight in New York, 05:00 UTC).
    await okJson(await as('PATCH', '/api/account/preferences', { ...base, timeZone: 'America/New_York' }));
    expect(await errorOf(await as('POST', `/api/missions/${mission.id}/entries`, {}), 409)).toMatchObject({ code: 'daily_limit', nextEntryAt: utc(3, 5) });
  });
});
