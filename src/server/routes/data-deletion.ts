import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { tokenQuerySchema } from '../../shared/schemas/auth.ts';
import { dataDeletionByEmailSchema, dataDeletionSignedInSchema } from '../../shared/schemas/data-deletion.ts';
import type { AppEnv } from '../context.ts';
import { dataDeletionRequests } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, readJson, readQuery } from '../http.ts';
import { dataDeletionConfirmedNotice } from '../mail/templates.ts';
import { audit } from '../services/audit.ts';
import { findOpenRequest, findRequest, openRequest } from '../services/data-deletion.ts';
import { consumeToken, findUsableToken } from '../services/link-tokens.ts';
import { verifyPassword } from '../services/passwords.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { findUserById } from '../services/users.ts';
import { INVALID_TOKEN_MESSAGE } from './auth.ts';

const invalidToken = () => new ApiError(404, 'invalid_token', INVALID_TOKEN_MESSAGE);

/**
 * Data-deletion requests from /data-deletion. Signed in, the current password confirms at once;
 * otherwise a confirmation link goes to the address when it belongs to an active account (the
 * answer is the same either way). Requests wait for an admin: nothing is deleted here.
 */
export const dataDeletionRoutes = new Hono<AppEnv>()
  .post('/', async (c) => {
    const { db, deps } = c.var;
    const ip = clientIp(c);
    const supportUrl = `${deps.config.publicUrl}/contact`;
    const user = c.var.user;

    if (user) {
      const input = await readJson(c, dataDeletionSignedInSchema);
      await enforceRateLimits(c, [[`password-check:user:${user.id}`, RATE_LIMITS.passwordChecksPerUser]]);
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
        throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { currentPassword: ['Incorrect password'] } });
      }
      const request = await openRequest(db, deps.clock, { user, status: 'confirmed', reason: input.reason, ip });
      await audit(db, { actorId: user.id, via: 'api', action: 'data_deletion.confirm', targetType: 'data_deletion_request', targetId: request.id, ip });
      await deps.jobs.mail(dataDeletionConfirmedNotice({ to: user.email, firstName: user.firstName, supportUrl }));
      return c.json({ ok: true, status: 'confirmed' } as const, 201);
    }

    const input = await readJson(c, dataDeletionByEmailSchema);
    await enforceRateLimits(c, [
      [`data-deletion:email:${input.email}`, RATE_LIMITS.dataDeletionPerEmail],
      [`data-deletion:ip:${ip}`, RATE_LIMITS.dataDeletionPerIp],
    ]);
    // A job looks the address up and mails, so the answer's timing says nothing about which addresses have an account.
    await deps.jobs.send('data-deletion.request', { email: input.email, ...(input.reason === undefined ? {} : { reason: input.reason }), ip });
    return c.json({ ok: true } as const, 202);
  })

  /** The mailed link (/data-deletion?token=…): confirms the request; works once. */
  .post('/confirm', async (c) => {
    const { token } = readQuery(c, tokenQuerySchema);
    await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
    const { db, deps } = c.var;
    const found = await findUsableToken(db, deps.clock, token, 'data-deletion');
    const requestId = Number(found?.data.requestId);
    const request = found && Number.isInteger(requestId) ? await findRequest(db, requestId) : null;
    const user = found ? await findUserById(db, found.userId) : null;
    if (!found || !request || !user || user.status === 'disabled' || request.userId !== user.id) throw invalidToken();
    if (request.status !== 'pending' && request.status !== 'confirmed') throw invalidToken();
    const now = deps.clock.now();
    const confirmed = await db.transaction(async (tx) => {
      if (!(await consumeToken(tx, deps.clock, found.id))) return false;
      if (request.status === 'pending') {
        const rows = await tx
          .update(dataDeletionRequests)
          .set({ status: 'confirmed', confirmedAt: now })
          .where(and(eq(dataDeletionRequests.id, request.id), eq(dataDeletionRequests.status, 'pending')))
          .returning({ id: dataDeletionRequests.id });
        if (rows.length === 0) {
          // Closed by an admin in the meantime, unless it was confirmed another way.
          const open = await findOpenRequest(tx, user.id);
          if (open?.id !== request.id) throw invalidToken();
        }
      }
      return true;
    });
    if (!confirmed) throw invalidToken();
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: 'data_deletion.confirm',
      targetType: 'data_deletion_request',
      targetId: request.id,
      ip: clientIp(c),
    });
    await deps.jobs.mail(dataDeletionConfirmedNotice({ to: user.email, firstName: user.firstName, supportUrl: `${deps.config.publicUrl}/contact` }));
    return c.json({ ok: true, status: 'confirmed' } as const, 200);
  });
