import { Hono } from 'hono';
import { totpConfirmSchema, type RecoveryCodesAnswer } from '../../shared/schemas/second-factors.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, jsonBody, recentAuth, signedIn, signedInUser } from '../http.ts';
import { confirmTotp, makeRecoveryCodes, removeTotp, securityView, startTotpEnrolment } from '../services/second-factors.ts';

/**
 * The account's second factors (issue 29; docs/api.md "Account security"), mounted at
 * `/api/account`: the security view, the authenticator app and the recovery codes (passkeys are
 * `passkeys.ts`). Every call needs a session only — never the staff area's second factor, since
 * this is where staff set one up; those that change the factors need a recent sign-in
 * (`recentAuth`: 403 `reauth_required`). The confirmation follows its own set-up, so it needs no
 * more than the set-up did.
 */
export const accountSecurityRoutes = new Hono<AppEnv>()
  .get('/security', signedIn, async (c) => {
    const user = signedInUser(c.get('user'));
    return c.json(await securityView(c.get('db'), user, c.get('deps').config), 200);
  })

  /**
   * Whether this session's sign-in proof is recent: 200 `{ ok: true }`, else 403 `reauth_required`.
   * A plain-link download of personal data (users CSV, answers and responses exports) asks this
   * first, through the client that shows the re-authentication dialog, then follows its link.
   */
  .get('/sign-in-proof', signedIn, recentAuth, (c) => c.json({ ok: true } as const, 200))

  /** A new pending secret (replacing a pending one): `{ secret, otpauthUrl, qrSvg }`. */
  .post('/totp', signedIn, recentAuth, async (c) => {
    const user = signedInUser(c.get('user'));
    return c.json(await startTotpEnrolment(c.get('db'), c.get('deps'), user), 200);
  })

  /** The first code of the pending secret: the app is on, and the new recovery codes are shown once. */
  .post('/totp/confirm', signedIn, jsonBody(totpConfirmSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { code } = c.req.valid('json');
    const answer: RecoveryCodesAnswer = await confirmTotp(c.get('db'), c.get('deps'), user.id, code, { ip: clientIp(c) });
    return c.json(answer, 200);
  })

  .delete('/totp', signedIn, recentAuth, async (c) => {
    const user = signedInUser(c.get('user'));
    await removeTotp(c.get('db'), c.get('deps'), user, { ip: clientIp(c) });
    return c.json({ ok: true } as const, 200);
  })

  /** "Make new codes": the old set stops working. */
  .post('/recovery-codes', signedIn, recentAuth, async (c) => {
    const user = signedInUser(c.get('user'));
    const answer: RecoveryCodesAnswer = { recoveryCodes: await makeRecoveryCodes(c.get('db'), c.get('deps'), user.id, { ip: clientIp(c) }) };
    return c.json(answer, 200);
  });
