import { Hono } from 'hono';
import { contactSchema } from '../../shared/schemas/contact-messages.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, enforceRateLimits, jsonBody } from '../http.ts';
import { storeContactMessage } from '../services/contact-messages.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/** `POST /api/contact`: the /contact form. Stored, and mailed to SUPPORT_EMAIL by a job after the answer. */
export const contactRoutes = new Hono<AppEnv>().post('/', jsonBody(contactSchema), async (c) => {
  const input = c.req.valid('json');
  const ip = clientIp(c);
  await enforceRateLimits(c, [
    [`contact:ip:${ip}`, RATE_LIMITS.contactPerIp],
    [`contact:email:${input.email}`, RATE_LIMITS.contactPerEmail],
  ]);
  await storeContactMessage(c.get('db'), c.get('deps'), input, { userId: c.get('user')?.id ?? null, ip });
  return c.json({ ok: true } as const, 202);
});
