/**
 * The account's language (issue 31): the four values the preferences take, the switcher's call
 * `PUT /api/account/language`, and `GET /api/auth` saying it (the pages open in it on every device).
 */
import { expect, it } from 'vitest';
import { describeEachBackend } from './harness.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../src/server/db/schema/index.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { fieldsOf, PASSWORD, signedInUser, uniqueEmail } from './helpers.ts';

describeEachBackend('the account’s language', (ctx) => {
  it('takes en, de, es and ar through the switcher and the preferences; GET /api/auth says it', async () => {
    const c = ctx();
    const { headers } = await signedInUser(c, 'participant');
    expect(((await (await c.request('/api/auth', { headers })).json()) as { language: string }).language).toBe('en');
    const switched = await c.json('PUT', '/api/account/language', { language: 'ar' }, headers);
    expect(switched.status).toBe(200);
    expect(((await switched.json()) as { user: { preferences: { language: string; colorMode: string } } }).user.preferences).toMatchObject({
      language: 'ar',
      colorMode: 'system',
    });
    expect(((await (await c.request('/api/auth', { headers })).json()) as { language: string }).language).toBe('ar');
    const saved = await c.json('PATCH', '/api/account/preferences', { emailNotifications: true, language: 'es', colorMode: 'dark' }, headers);
    expect(saved.status).toBe(200);
    expect(((await (await c.request('/api/auth', { headers })).json()) as { language: string }).language).toBe('es');
  });

  it('refuses a language there is not, with the field’s message; signed out is 401', async () => {
    const c = ctx();
    const { headers } = await signedInUser(c, 'participant');
    const refused = await c.json('PUT', '/api/account/language', { language: 'fr' }, headers);
    expect(refused.status).toBe(400);
    expect((await fieldsOf(refused)).language).toBeDefined();
    expect((await c.json('PUT', '/api/account/language', { language: 'de' })).status).toBe(401);
  });

  it('a sign-in adopts the language chosen on the device when the account never chose one, and never replaces the account’s', async () => {
    const c = ctx();
    const languageAfterSignIn = async (cookie: string, preferences: Record<string, unknown>) => {
      const email = uniqueEmail('language');
      const user = await createActiveUser(c.database.db, { email, password: PASSWORD, role: 'participant', firstName: 'Lea', lastName: 'Sand' });
      await c.database.db.update(users).set({ preferences }).where(eq(users.id, user.id));
      const res = await c.json('POST', '/api/auth/login', { email, password: PASSWORD }, { Cookie: cookie });
      expect(res.status).toBe(200);
      const session = res.headers.get('set-cookie')?.split(';')[0] ?? '';
      return ((await (await c.request('/api/auth', { headers: { Cookie: session } })).json()) as { language: string }).language;
    };
    expect(await languageAfterSignIn('fw_lang=de', {})).toBe('de');
    expect(await languageAfterSignIn('fw_lang=de', { language: 'es' })).toBe('es');
    expect(await languageAfterSignIn('fw_lang=xx', {})).toBe('en');
  });
});
