import { Hono } from 'hono';
import { redactSecrets } from '../../shared/redact.ts';
import { contactSchema } from '../../shared/schemas/contact.ts';
import type { AppEnv } from '../context.ts';
import { contactMessages } from '../db/schema/index.ts';
import { clientIp, enforceRateLimits, readJson } from '../http.ts';
import { contactMail } from '../mail/templates.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/** `POST /api/contact`: the /contact form. Stored, and mailed to SUPPORT_EMAIL by a job after the answer. */
export const contactRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const parsed = await readJson(c, contactSchema);
  // Staff read the message (the admin list, the mail to support): a pasted link keeps no live
  // token (docs/permissions.md, "Secrets").
  const input = { ...parsed, message: redactSecrets(parsed.message) };
  const ip = clientIp(c);
  await enforceRateLimits(c, [
    [`contact:ip:${ip}`, RATE_LIMITS.contactPerIp],
    [`contact:email:${input.email}`, RATE_LIMITS.contactPerEmail],
  ]);
  const { db, deps } = c.var;
  const userId = c.var.user?.id ?? null;
  // The message and its mail job are stored together: no message without its mail, nor the reverse.
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({ ...input, userId, ip, createdAt: deps.clock.now() })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    if (!row) throw new Error('insert returned no row');
    await deps.jobs.mail(contactMail({ to: deps.config.supportEmail, ...input, userId, messageId: row.id, receivedAt: row.createdAt }), { tx });
  });
  return c.json({ ok: true } as const, 202);
});
