import { Hono } from 'hono';
import { contactSchema } from '../../shared/schemas/contact.ts';
import type { AppEnv } from '../context.ts';
import { contactMessages } from '../db/schema/index.ts';
import { clientIp, enforceRateLimits, readJson } from '../http.ts';
import { contactMail } from '../mail/templates.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/** `POST /api/contact`: the /contact form. Stored, then mailed to SUPPORT_EMAIL after the answer. */
export const contactRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const input = await readJson(c, contactSchema);
  const ip = clientIp(c);
  await enforceRateLimits(c, [
    [`contact:ip:${ip}`, RATE_LIMITS.contactPerIp],
    [`contact:email:${input.email}`, RATE_LIMITS.contactPerEmail],
  ]);
  const { db, deps } = c.var;
  const userId = c.var.user?.id ?? null;
  const [row] = await db
    .insert(contactMessages)
    .values({ ...input, userId, ip, createdAt: deps.clock.now() })
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
  if (!row) throw new Error('insert returned no row');
  deps.tasks.run('contact-mail', () =>
    deps.mailer.send(contactMail({ to: deps.config.supportEmail, ...input, userId, messageId: row.id, receivedAt: row.createdAt })),
  );
  return c.json({ ok: true } as const, 202);
});
