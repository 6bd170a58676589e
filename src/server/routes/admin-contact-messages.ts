import { count, desc, eq, ilike, or } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { MESSAGES } from '../../shared/messages.ts';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import { adminListQuerySchema, idParamSchema } from '../../shared/schemas/admin.ts';
import type { AppEnv } from '../context.ts';
import { contactMessages, type ContactMessage } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import { containsPattern } from '../services/search.ts';
import { readParams, signedInUser } from './params.ts';

const messageView = (m: ContactMessage) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  message: m.message,
  userId: m.userId,
  ip: m.ip,
  createdAt: m.createdAt.toISOString(),
  handledAt: m.handledAt?.toISOString() ?? null,
});

const handledSchema = z.strictObject({ handled: z.boolean({ error: MESSAGES.required }) });

/** Contact-form messages for moderators and admins: newest first, searchable; mark one handled. */
export const adminContactMessageRoutes = new Hono<AppEnv>()
  .use('*', requireUser(ELEVATED_ROLES))
  .use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  })

  .get('/', async (c) => {
    const { search, page, perPage } = readQuery(c, adminListQuerySchema);
    const pattern = search ? containsPattern(search) : null;
    const where = pattern
      ? or(ilike(contactMessages.name, pattern), ilike(contactMessages.email, pattern), ilike(contactMessages.message, pattern))
      : undefined;
    const [rows, [total]] = await Promise.all([
      c.var.db
        .select()
        .from(contactMessages)
        .where(where)
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(perPage)
        .offset((page - 1) * perPage),
      c.var.db.select({ value: count() }).from(contactMessages).where(where),
    ]);
    return c.json({ messages: rows.map(messageView), total: total?.value ?? 0, page, perPage }, 200);
  })

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const { id } = readParams(c, idParamSchema);
    const { handled } = await readJson(c, handledSchema);
    const { db, deps } = c.var;
    const [before] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
    if (!before) throw new ApiError(404, 'not_found', 'No such message');
    const [updated] = await db
      .update(contactMessages)
      .set({ handledAt: handled ? (before.handledAt ?? deps.clock.now()) : null })
      .where(eq(contactMessages.id, id))
      .returning();
    if (!updated) throw new ApiError(404, 'not_found', 'No such message');
    await audit(db, {
      actorId: user.id,
      via: 'api',
      action: handled ? 'contact_message.handled' : 'contact_message.reopened',
      targetType: 'contact_message',
      targetId: id,
      before: { handledAt: before.handledAt?.toISOString() ?? null },
      after: { handledAt: updated.handledAt?.toISOString() ?? null },
      ip: clientIp(c),
    });
    return c.json({ message: messageView(updated) }, 200);
  });
