/**
 * The staff's daily review digest (`digest.review`): nothing while no entry has waited a day; then
 * one mail to each active moderator and admin who turned `mailReviewDigest` on (how many wait, the
 * oldest's age, per project, the link to `/admin/review`), none to the others, never to
 * participants; a rerun the same day sends nothing twice, the next day sends again. The preference
 * itself: off for staff until set, not part of a participant's preferences.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import type { AccountUser } from '../../src/platform/api.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { mailsTo, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, insertEntry, member, okJson, participant, setUserStatus, staff } from './programme-fixtures.ts';

const HOUR = 60 * 60 * 1000;

describeEachBackend('review digest', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const account = async (who: SignedIn) => (await okJson<{ user: AccountUser }>(await as(who)('GET', '/api/account'))).user;
  const setPreferences = (who: SignedIn, extra: Record<string, unknown>) =>
    as(who)('PATCH', '/api/account/preferences', { emailNotifications: true, language: 'en', colorMode: 'system', ...extra });
  const runDigest = async (c: TestContext) => {
    await c.jobs.send('digest.review', {});
    await c.jobs.drain();
  };
  const digestsTo = async (c: TestContext, who: SignedIn) => (await mailsTo(c, who.email)).filter((mail) => /waiting for review/.test(mail.subject));

  it('mails opted-in staff once a day when entries waited more than a day; others, participants and the disabled never', async () => {
    const c = ctx();
    const alpha = await createProject(c, { name: 'Alpha study' });
    const beta = await createProject(c, { name: 'Beta study' });
    const breakfast = await createMission(c, alpha.id, { title: 'Breakfast', entries: { min: 1, max: 5 } });
    const dinner = await createMission(c, beta.id, { title: 'Dinner' });
    const ann = await member(c, alpha.id);
    const cat = await member(c, beta.id);

    const keen = await staff(c, 'moderator');
    const boss = await staff(c, 'admin');
    const quiet = await staff(c, 'moderator');
    const muted = await staff(c, 'moderator');
    const gone = await staff(c, 'admin');
    const nosy = await participant(c);

    // The switch: off for staff until they turn it on; participants neither see it nor keep it.
    expect((await account(keen)).preferences.mailReviewDigest).toBe(false);
    expect((await account(nosy)).preferences).not.toHaveProperty('mailReviewDigest');
    for (const who of [keen, boss, gone]) await okJson(await setPreferences(who, { mailReviewDigest: true }));
    await okJson(await setPreferences(muted, { mailReviewDigest: true, emailNotifications: false }));
    expect((await account(keen)).preferences.mailReviewDigest).toBe(true);
    await okJson(await setPreferences(nosy, { mailReviewDigest: true }));
    expect((await account(nosy)).preferences).not.toHaveProperty('mailReviewDigest');
    // Even written straight into the table, a participant gets no digest.
    await c.database.db
      .update(users)
      .set({ preferences: { mailReviewDigest: true } })
      .where(eq(users.id, nosy.id));
    await setUserStatus(c, gone.id, 'disabled');

    // Entries that have waited less than a day: no digest.
    const start = c.clock.now().getTime();
    await insertEntry(c, breakfast, ann.id, { submittedAt: new Date(start - 2 * HOUR) });
    await insertEntry(c, dinner, cat.id, { submittedAt: new Date(start - HOUR) });
    await insertEntry(c, breakfast, ann.id, { status: 'approved', submittedAt: new Date(start - 100 * HOUR) });
    await runDigest(c);
    for (const who of [keen, boss, quiet, muted, gone, nosy]) expect(await digestsTo(c, who)).toHaveLength(0);

    // A day later they still wait: one digest to each opted-in active moderator or admin.
    c.clock.advance(24 * HOUR);
    await insertEntry(c, breakfast, ann.id, { submittedAt: c.clock.now() });
    await runDigest(c);
    for (const who of [keen, boss]) {
      const mails = await digestsTo(c, who);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      expect(mail?.subject).toBe('3 entries waiting for review on Fieldwork');
      expect(mail?.raw).toContain('3 entries wait for review; 2 for more than a day. The oldest has waited 26 hours.');
      expect(mail?.raw).toContain('Alpha study: 2');
      expect(mail?.raw).toContain('Beta study: 1');
      expect(mail?.links).toContain(`${c.config.publicUrl}/admin/review`);
      expect(mail?.links).toContain(`${c.config.publicUrl}/admin/review?projectId=${alpha.id}`);
    }
    for (const who of [quiet, muted, gone, nosy]) expect(await digestsTo(c, who)).toHaveLength(0);

    // The job runs again the same day (a retry, a second process): nothing twice.
    c.clock.advance(3 * HOUR);
    await runDigest(c);
    await runDigest(c);
    for (const who of [keen, boss]) expect(await digestsTo(c, who)).toHaveLength(1);

    // The next day, still waiting: the next digest.
    c.clock.advance(24 * HOUR);
    await runDigest(c);
    for (const who of [keen, boss]) expect(await digestsTo(c, who)).toHaveLength(2);
    for (const who of [quiet, muted, gone, nosy]) expect(await digestsTo(c, who)).toHaveLength(0);
  });
});
