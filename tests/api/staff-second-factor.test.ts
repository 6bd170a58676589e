/**
 * Staff must have a second factor (issue 29 §3) and sensitive calls need a recent sign-in
 * (§4; docs/permissions.md "Second factor and re-authentication"), with REQUIRE_STAFF_SECOND_FACTOR on.
 */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { REAUTH_MAX_AGE_MS } from '../../src/shared/second-factors.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, PASSWORD, signedInUser, type SignedIn } from './helpers.ts';
import { enrolTotp, totpCode } from './sign-in-helpers.ts';

const MINUTE = 60_000;

/** Every call of the Hono application under `/api/admin`, once per method and path, its parameters 1. */
function adminCalls(ctx: TestContext): { method: string; path: string }[] {
  const seen = new Set<string>();
  const calls: { method: string; path: string }[] = [];
  for (const route of ctx.app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/admin') || route.path.includes('*')) continue;
    const path = route.path.replace(/:\w+(\{[^}]*\})?/g, '1');
    const key = `${route.method} ${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    calls.push({ method: route.method, path });
  }
  return calls;
}

function call(ctx: TestContext, who: { headers: Record<string, string> }, method: string, path: string, body: unknown = {}): Promise<Response> {
  return method === 'GET' ? ctx.request(path, { headers: who.headers }) : ctx.json(method, path, body, who.headers);
}

describeEachBackend(
  'staff and their second factor',
  (ctx) => {
    it('every /api/admin call answers 403 second_factor_required to a moderator or an admin without one', async () => {
      const calls = adminCalls(ctx());
      expect(calls.length).toBeGreaterThan(50);
      for (const role of ['moderator', 'admin'] as const) {
        const person = await signedInUser(ctx(), role);
        const refused: string[] = [];
        for (const { method, path } of calls) {
          const res = await call(ctx(), person, method, path);
          const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
          if (res.status !== 403 || body?.error?.code !== 'second_factor_required')
            refused.push(`${method} ${path} → ${res.status} ${body?.error?.code ?? ''}`);
        }
        expect(refused, `${role}: calls not refused`).toEqual([]);
      }
    });

    it("the account calls stay open to set one up, which opens the staff area (and another person's photos)", async () => {
      const moderator = await signedInUser(ctx(), 'moderator');
      const owner = await signedInUser(ctx());
      const form = new FormData();
      const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 0, g: 0, b: 0 } } })
        .png()
        .toBuffer();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'p.png');
      const uploaded = await ctx().request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...owner.headers }, body: form });
      expect(uploaded.status).toBe(201);
      const photo = `/api/media/${((await uploaded.json()) as { id: string }).id}/thumbnail`;
      expect((await ctx().request(photo, { headers: moderator.headers })).status).toBe(404);
      expect(await (await ctx().request('/api/auth', { headers: moderator.headers })).json()).toMatchObject({
        secondFactor: false,
        secondFactorRequired: true,
      });
      expect((await ctx().request('/api/account/security', { headers: moderator.headers })).status).toBe(200);
      await enrolTotp(ctx(), moderator.headers);
      expect(await (await ctx().request('/api/auth', { headers: moderator.headers })).json()).toMatchObject({ secondFactor: true, secondFactorRequired: true });
      expect((await ctx().request('/api/admin/users', { headers: moderator.headers })).status).toBe(200);
      expect((await ctx().request(photo, { headers: moderator.headers })).status).toBe(200);
      const participant = await signedInUser(ctx());
      expect(await (await ctx().request('/api/auth', { headers: participant.headers })).json()).toMatchObject({
        secondFactor: false,
        secondFactorRequired: false,
      });
    });

    it('each sensitive call needs a sign-in proof under 15 minutes old; POST /api/auth/reauth renews it', async () => {
      const admin = await signedInUser(ctx(), 'admin');
      const { secret } = await enrolTotp(ctx(), admin.headers);
      const other = await signedInUser(ctx());
      const sensitive: [method: string, path: string][] = [
        ['PATCH', `/api/admin/users/${other.id}`],
        ['GET', '/api/admin/users.csv'],
        ['POST', `/api/admin/users/${other.id}/points`],
        ['POST', `/api/admin/users/${other.id}/second-factors/reset`],
        ['POST', '/api/admin/tools/points-bulk-update/999999/apply'],
        ['POST', '/api/admin/tools/alchemer-export-append'],
        ['POST', '/api/admin/tools/export-reviews'],
        ['GET', '/api/admin/missions/999999/entries/export'],
        ['GET', '/api/admin/projects/999999/entries/export'],
        ['GET', '/api/admin/surveys/999999/responses.csv'],
        ['POST', '/api/admin/redemptions/999999/approve'],
        ['POST', '/api/admin/redemptions/999999/reject'],
        ['POST', '/api/admin/redemptions/999999/deliver'],
        ['POST', '/api/admin/redemptions/approve'],
        ['GET', '/api/account/sign-in-proof'],
        ['GET', '/api/admin/audit/export'],
        ['POST', '/api/admin/tokens'],
        ['POST', '/api/account/email'],
        ['POST', '/api/account/password'],
        ['POST', '/api/account/totp'],
        ['DELETE', '/api/account/totp'],
        ['POST', '/api/account/recovery-codes'],
        ['POST', '/api/account/passkeys/options'],
        ['POST', '/api/account/passkeys'],
        ['PATCH', '/api/account/passkeys/999999'],
        ['DELETE', '/api/account/passkeys/999999'],
      ];
      const reauthCodes = async () => {
        const codes: string[] = [];
        for (const [method, path] of sensitive) {
          const res = await call(ctx(), admin, method, path);
          const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
          codes.push(`${method} ${path} → ${res.status === 403 ? (body?.error?.code ?? '') : 'through'}`);
        }
        return codes;
      };
      ctx().clock.advance(16 * MINUTE);
      expect(await reauthCodes()).toEqual(sensitive.map(([method, path]) => `${method} ${path} → reauth_required`));
      // The preview of a review export is no export: not asked.
      expect((await errorOf(await ctx().json('POST', '/api/admin/tools/export-reviews?preview=1', {}, admin.headers), 400)).code).toBe('validation_failed');

      const reauth = (body: unknown) => ctx().json('POST', '/api/auth/reauth', body, admin.headers);
      expect((await errorOf(await reauth({ password: 'Wrong-passw0rd', code: totpCode(secret, ctx().clock.now()) }), 401)).code).toBe('invalid_credentials');
      expect((await errorOf(await reauth({ password: PASSWORD }), 401)).code).toBe('invalid_code');
      const done = await reauth({ password: PASSWORD, code: totpCode(secret, ctx().clock.now()) });
      expect(done.status).toBe(200);
      expect(await done.json()).toEqual({ ok: true, until: new Date(ctx().clock.now().getTime() + REAUTH_MAX_AGE_MS).toISOString() });
      expect(await reauthCodes()).toEqual(sensitive.map(([method, path]) => `${method} ${path} → through`));

      ctx().clock.advance(REAUTH_MAX_AGE_MS);
      expect((await errorOf(await call(ctx(), admin, 'GET', '/api/admin/users.csv'), 403)).code).toBe('reauth_required');
    });

    it('a passkey re-authenticates alone, and so does a password for an account without an authenticator app', async () => {
      const person: SignedIn = await signedInUser(ctx());
      const authenticator = new SoftAuthenticator();
      const options = await ctx().json('POST', '/api/account/passkeys/options', undefined, person.headers);
      const registered = await ctx().json(
        'POST',
        '/api/account/passkeys',
        { name: 'Phone', response: authenticator.register(await options.json(), ORIGIN) },
        person.headers,
      );
      expect(registered.status).toBe(201);
      ctx().clock.advance(16 * MINUTE);
      expect((await errorOf(await ctx().json('POST', '/api/account/password', {}, person.headers), 403)).code).toBe('reauth_required');

      const request = await ctx().json('POST', '/api/auth/reauth/options', undefined, person.headers);
      const wrong = authenticator.assert(await request.json(), ORIGIN, { userVerified: false });
      expect((await errorOf(await ctx().json('POST', '/api/auth/reauth', { passkey: wrong }, person.headers), 401)).code).toBe('invalid_code');
      const again = await ctx().json('POST', '/api/auth/reauth/options', undefined, person.headers);
      expect((await ctx().json('POST', '/api/auth/reauth', { passkey: authenticator.assert(await again.json(), ORIGIN) }, person.headers)).status).toBe(200);
      expect((await errorOf(await ctx().json('POST', '/api/account/password', {}, person.headers), 400)).code).toBe('validation_failed');

      ctx().clock.advance(16 * MINUTE);
      expect((await ctx().json('POST', '/api/auth/reauth', { password: PASSWORD }, person.headers)).status).toBe(200);
      expect((await errorOf(await ctx().json('POST', '/api/auth/reauth', {}, person.headers), 400)).code).toBe('validation_failed');
    });
  },
  { env: { REQUIRE_STAFF_SECOND_FACTOR: '1' } },
);
