import { Hono } from 'hono';
import { tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { dataDeletionByEmailSchema, dataDeletionSignedInSchema } from '../../shared/schemas/data-deletion.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, enforceRateLimits, jsonBodyBySession, query, requestLanguage, signedInAccount } from '../http.ts';
import { checkCurrentPassword } from '../services/account.ts';
import { confirmByLink, findRequest, requestConfirmed } from '../services/data-deletion.ts';
import { findUsableToken, invalidToken } from '../services/tokens.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { findUserById } from '../services/users.ts';

/**
 * Data-deletion requests from /data-deletion. Signed in, the current password confirms at once;
 * otherwise a confirmation link goes to the address when it belongs to an active account (the
 * answer is the same either way). Requests wait for an admin: nothing is deleted here.
 */
export const dataDeletionRoutes = new Hono<AppEnv>()
  .post('/', jsonBodyBySession(dataDeletionSignedInSchema, dataDeletionByEmailSchema), async (c) => {
    const { db, deps } = c.var;
    const ip = clientIp(c);
    const user = c.get('user');
    const input = c.req.valid('json');

    if (user && 'currentPassword' in input) {
      await enforceRateLimits(c, [[`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser]]);
      const account = await signedInAccount(c);
      await checkCurrentPassword(account, input.currentPassword);
      await requestConfirmed(db, deps, { user: account, reason: input.reason }, { ip });
      return c.json({ ok: true, status: 'confirmed' } as const, 201);
    }

    if (!('email' in input)) throw new Error('the body of a visitor was checked with the signed-in schema');
    await enforceRateLimits(c, [
      [`data-deletion:email:${input.email}`, RATE_LIMITS.dataDeletionPerEmail],
      [`data-deletion:ip:${ip}`, RATE_LIMITS.dataDeletionPerIp],
    ]);
    // A job looks the address up and mails, so the answer's timing says nothing about which addresses have an account.
    const language = requestLanguage(c);
    await deps.jobs.send('data-deletion.request', {
      email: input.email,
      ...(input.reason === undefined ? {} : { reason: input.reason }),
      ip,
      ...(language ? { language } : {}),
    });
    return c.json({ ok: true } as const, 202);
  })

  /** The mailed link (/data-deletion?token=…): confirms the request; works once. */
  .post('/confirm', query(tokenQuerySchema), async (c) => {
    const { token } = c.req.valid('query');
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'data-deletion');
    const requestId = Number(found?.data.requestId);
    const request = found && Number.isInteger(requestId) ? await findRequest(db, requestId) : null;
    const user = found ? await findUserById(db, found.userId) : null;
    if (!found || !request || !user || user.status === 'disabled' || request.userId !== user.id) throw invalidToken();
    await confirmByLink(db, deps, { token: found, request, user }, { ip: clientIp(c) });
    return c.json({ ok: true, status: 'confirmed' } as const, 200);
  });
