/**
 * The account's language (issue 31): the four values the preferences take, the switcher's call
 * `PUT /api/account/language`, and `GET /api/auth` saying it (the pages open in it on every device).
 */
import { expect, it } from 'vitest';
import { describeEachBackend } from './harness.ts';
import { fieldsOf, signedInUser } from './helpers.ts';

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
});
