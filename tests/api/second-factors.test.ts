/**
 * The authenticator app and recovery codes (issue 29 §1, §3; docs/api.md "Account security"):
 * enrolment (a pending secret shown as URL, QR and text, sealed at rest, replaced by a new
 * set-up, confirmed once even by two requests at once), the TOTP window on a moved clock (the
 * current and the previous step pass, two back fails, a step never twice, not even by two checks
 * at once), recovery codes (spent once under parallel use, a new set voids the old), the security
 * view, removing the app (the last factor of a staff account stays) and an admin's reset. The
 * staff requirement is on here, as in production: staff reach these calls without a factor.
 */
import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, passkeys, recoveryCodes, sessions, totpFactors, trustedBrowsers, users } from '../../src/server/db/schema/index.ts';
import { methodsOf, spendRecoveryCode, totpCodeAt, totpStep, verifyTotpCode } from '../../src/server/services/second-factors.ts';
import { RECOVERY_CODE_COUNT, TOTP } from '../../src/shared/second-factors.ts';
import type { RecoveryCodesAnswer, SecurityView, TotpEnrolment } from '../../src/shared/schemas/second-factors.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, signedInUser, type SignedIn } from './helpers.ts';
import { callAs, okJson } from './programme-fixtures.ts';

const STEP_MS = TOTP.periodSeconds * 1000;

describeEachBackend(
  'second factors API',
  (ctx) => {
    const as = (who: SignedIn | null) => callAs(ctx(), who);

    /** A person signed in just now (their sign-in proof is recent: the factor calls need one). */
    async function person(role: 'participant' | 'moderator' | 'admin' = 'participant'): Promise<SignedIn> {
      const c = ctx();
      const who = await signedInUser(c, role);
      await c.database.db.update(sessions).set({ authenticatedAt: c.clock.now() }).where(eq(sessions.userId, who.id));
      return who;
    }

    const codeNow = (secret: string, stepsBack = 0) => totpCodeAt(secret, totpStep(ctx().clock.now()) - stepsBack);

    /** Sets up and confirms an authenticator app; its secret and the recovery codes. */
    async function enrol(who: SignedIn): Promise<{ secret: string; codes: string[] }> {
      const { secret } = await okJson<TotpEnrolment>(await as(who)('POST', '/api/account/totp'));
      const { recoveryCodes: codes } = await okJson<RecoveryCodesAnswer>(await as(who)('POST', '/api/account/totp/confirm', { code: codeNow(secret) }));
      return { secret, codes };
    }

    const view = async (who: SignedIn) => okJson<SecurityView>(await as(who)('GET', '/api/account/security'));
    const auditOf = async (c: TestContext, action: string, targetId: number) =>
      c.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, action), eq(auditLog.targetId, String(targetId))));

    it('sets up an app: URL, QR and secret shown once, sealed at rest, replaced by a new set-up, confirmed once by a first code', async () => {
      const c = ctx();
      const db = c.database.db;
      const who = await person();

      const first = await okJson<TotpEnrolment>(await as(who)('POST', '/api/account/totp'));
      expect(first.secret).toMatch(/^[A-Z2-7]{32}$/);
      const url = new URL(first.otpauthUrl);
      expect([url.protocol, url.host, decodeURIComponent(url.pathname)]).toEqual(['otpauth:', 'totp', `/Fieldwork:${who.email}`]);
      expect(Object.fromEntries(url.searchParams)).toMatchObject({ secret: first.secret, issuer: 'Fieldwork', algorithm: 'SHA1', digits: '6', period: '30' });
      expect(first.qrSvg).toMatch(/^<svg [^>]*role="img"[^>]*aria-label="[^"]+"[\s\S]*<\/svg>$/);

      // A new set-up replaces the pending secret: a code of the first no longer confirms.
      const second = await okJson<TotpEnrolment>(await as(who)('POST', '/api/account/totp'));
      expect(second.secret).not.toBe(first.secret);
      expect((await errorOf(await as(who)('POST', '/api/account/totp/confirm', { code: codeNow(first.secret) }), 400)).code).toBe('invalid_code');

      // Bad input is a 400, never a 500.
      for (const body of [{}, { code: 123456 }, { code: null }, { code: '12a456' }, { code: '1'.repeat(5000) }, { code: '123456', extra: 1 }]) {
        expect(await fieldsOf(await as(who)('POST', '/api/account/totp/confirm', body))).toBeTypeOf('object');
      }
      const notJson = await c.request('/api/account/totp/confirm', {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json', ...who.headers },
        body: '{"code":',
      });
      expect((await errorOf(notJson, 400)).code).toBe('invalid_json');

      // Two confirmations of one code at once: one turns the app on, the other finds nothing to confirm.
      const code = codeNow(second.secret);
      const answers = await Promise.all([0, 1].map(() => as(who)('POST', '/api/account/totp/confirm', { code: code.slice(0, 3) + ' ' + code.slice(3) })));
      expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
      const won = answers.find((res) => res.status === 200);
      const { recoveryCodes: codes } = await okJson<RecoveryCodesAnswer>(won as Response);
      expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
      expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
      for (const shown of codes) expect(shown).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/); // 16 × 5 bits = 80 bits

      // At rest: the secret only sealed, the codes only hashed, nothing secret in the audit row.
      const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, who.id));
      expect(row?.secret).toBeTruthy();
      expect(row?.pendingSecret).toBeNull();
      const stored = JSON.stringify([row, await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, who.id))]);
      expect(stored).not.toContain(second.secret);
      for (const shown of codes) expect(stored.toUpperCase()).not.toContain(shown.replace(/-/g, '').toUpperCase());
      const audited = await auditOf(c, 'user.totp_enabled', who.id);
      expect(audited).toHaveLength(1);
      expect(JSON.stringify(audited)).not.toContain(second.secret);

      expect(await view(who)).toEqual({ totp: true, passkeys: [], recoveryCodesLeft: RECOVERY_CODE_COUNT, required: false });
      expect(await methodsOf(db, who.id)).toEqual(['totp', 'recovery']);
    });

    it('accepts the current and the previous step, never two back, and never one step twice (not even two checks at once)', async () => {
      const c = ctx();
      const deps = { clock: c.clock, config: c.config };
      const who = await person();
      const { secret } = await enrol(who); // uses the current step
      c.clock.advance(3 * STEP_MS);

      expect(await verifyTotpCode(c.database.db, deps, who.id, codeNow(secret, 2))).toBe(false); // two steps back
      expect(await verifyTotpCode(c.database.db, deps, who.id, codeNow(secret, 1))).toBe(true); // the previous step
      expect(await verifyTotpCode(c.database.db, deps, who.id, codeNow(secret, 1))).toBe(false); // that step again
      expect(await verifyTotpCode(c.database.db, deps, who.id, codeNow(secret))).toBe(true); // the current step
      expect(await verifyTotpCode(c.database.db, deps, who.id, codeNow(secret))).toBe(false);
      expect(await verifyTotpCode(c.database.db, deps, who.id, '000000')).toBe(false);

      c.clock.advance(STEP_MS);
      const code = codeNow(secret);
      const checks = await Promise.all([0, 1, 2].map(() => verifyTotpCode(c.database.db, deps, who.id, code)));
      expect(checks.filter(Boolean)).toHaveLength(1);
    });

    it('spends a recovery code once, even twice at once; reads it in any case and spacing; new codes void the old set', async () => {
      const c = ctx();
      const db = c.database.db;
      const deps = { clock: c.clock };
      const who = await person();
      const { codes } = await enrol(who);
      const [a, b, old] = codes as [string, string, string];

      const spends = await Promise.all([0, 1, 2].map(() => spendRecoveryCode(db, deps, who.id, a)));
      expect(spends.filter(Boolean)).toHaveLength(1);
      expect(await spendRecoveryCode(db, deps, who.id, ` ${b.replace(/-/g, '').toUpperCase()} `)).toBe(true);
      expect(await spendRecoveryCode(db, deps, who.id, 'not-a-code')).toBe(false);
      expect((await view(who)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 2);

      const { recoveryCodes: fresh } = await okJson<RecoveryCodesAnswer>(await as(who)('POST', '/api/account/recovery-codes'));
      expect(fresh).toHaveLength(RECOVERY_CODE_COUNT);
      expect(await spendRecoveryCode(db, deps, who.id, old)).toBe(false);
      expect(await spendRecoveryCode(db, deps, who.id, fresh[0]!.replace(/-/g, ' '))).toBe(true);
      expect((await view(who)).recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
      expect(await auditOf(c, 'user.recovery_codes_made', who.id)).toHaveLength(1);

      // Without a second factor there is nothing for codes to stand in for.
      const plain = await person();
      expect((await errorOf(await as(plain)('POST', '/api/account/recovery-codes'), 409)).code).toBe('no_second_factor');
    });

    it('removes the app (and its codes) for a participant; a staff account keeps its last factor; the changes need a recent sign-in', async () => {
      const c = ctx();
      const db = c.database.db;
      const who = await person();
      await enrol(who);
      await okJson(await as(who)('DELETE', '/api/account/totp'));
      expect(await view(who)).toEqual({ totp: false, passkeys: [], recoveryCodesLeft: 0, required: false });
      expect((await db.select({ on: users.secondFactor }).from(users).where(eq(users.id, who.id)))[0]?.on).toBe(false);
      expect(await auditOf(c, 'user.totp_removed', who.id)).toHaveLength(1);
      expect((await errorOf(await as(who)('DELETE', '/api/account/totp'), 404)).code).toBe('not_found');

      // A moderator without a factor reaches the set-up (the staff area does not answer yet), and cannot remove the last one.
      const moderator = await person('moderator');
      expect((await errorOf(await as(moderator)('GET', '/api/admin/users'), 403)).code).toBe('second_factor_required');
      expect(await view(moderator)).toMatchObject({ totp: false, required: true });
      await enrol(moderator);
      expect((await errorOf(await as(moderator)('DELETE', '/api/account/totp'), 409)).code).toBe('last_second_factor');
      await db.insert(passkeys).values({ userId: moderator.id, credentialId: `cred-${moderator.id}`, publicKey: 'AAAA', name: 'Laptop' });
      await okJson(await as(moderator)('DELETE', '/api/account/totp'));
      expect((await view(moderator)).totp).toBe(false);

      // A sign-in proof older than 15 minutes: 403 reauth_required on each change.
      await db
        .update(sessions)
        .set({ authenticatedAt: new Date(c.clock.now().getTime() - 16 * 60_000) })
        .where(eq(sessions.userId, who.id));
      for (const [method, path] of [
        ['POST', '/api/account/totp'],
        ['DELETE', '/api/account/totp'],
        ['POST', '/api/account/recovery-codes'],
      ] as const) {
        expect((await errorOf(await as(who)(method, path), 403)).code).toBe('reauth_required');
      }
    });

    it("resets another person's factors (admins only): all gone, sessions ended, the person mailed, audited", async () => {
      const c = ctx();
      const db = c.database.db;
      const admin = await person('admin');
      await enrol(admin); // the staff area needs the admin's own factor
      const target = await person();
      await enrol(target);
      await db.insert(trustedBrowsers).values({ id: `trusted-${target.id}`, userId: target.id, expiresAt: new Date(c.clock.now().getTime() + 60_000) });
      const reset = (id: number | string, who: SignedIn = admin) => as(who)('POST', `/api/admin/users/${id}/second-factors/reset`);

      const moderator = await person('moderator');
      await enrol(moderator);
      expect((await errorOf(await reset(target.id, moderator), 403)).code).toBe('forbidden');
      expect((await errorOf(await reset(2_000_000_000), 404)).code).toBe('not_found');
      expect((await errorOf(await reset('x1'), 404)).code).toBe('not_found');
      expect((await errorOf(await reset(admin.id), 409)).code).toBe('self_change');

      expect(await okJson(await reset(target.id))).toEqual({ ok: true, endedSessions: 1 });
      expect((await errorOf(await as(target)('GET', '/api/account/security'), 401)).code).toBe('unauthenticated');
      const left = await Promise.all([
        db.select().from(totpFactors).where(eq(totpFactors.userId, target.id)),
        db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, target.id)),
        db.select().from(trustedBrowsers).where(eq(trustedBrowsers.userId, target.id)),
      ]);
      expect(left.map((rows) => rows.length)).toEqual([0, 0, 0]);
      expect(await methodsOf(db, target.id)).toEqual([]);
      const [audited] = await auditOf(c, 'user.second_factors_reset', target.id);
      expect(audited).toMatchObject({
        actorId: admin.id,
        before: { totp: true, passkeys: 0, recoveryCodesLeft: 10, trustedBrowsers: 1 },
        after: { endedSessions: 1 },
      });
      const mails = await mailsTo(c, target.email);
      expect(mails.map((mail) => mail.subject)).toEqual(['Your Fieldwork second factors were reset']);
      expect(mails[0]?.links).toContain(`${ORIGIN}/account/security`);
    });
  },
  { env: { REQUIRE_STAFF_SECOND_FACTOR: '1' } },
);
