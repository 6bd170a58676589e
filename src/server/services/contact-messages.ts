import { count, eq, ilike, or, sql } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import type { z } from 'zod';
import { redactSecrets } from '../../shared/redact.ts';
import type { ContactMessageListQuery } from '../../shared/schemas/admin.ts';
import type { contactSchema } from '../../shared/schemas/contact-messages.ts';
import type { AppDeps } from '../context.ts';
import type { Db } from '../db/index.ts';
import { contactMessages, type ContactMessage } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { contactMail } from '../mail/templates.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { countOf, listOrder, pageOf, paginate } from './list.ts';
import { containsPattern } from './search.ts';

/** A message as the admin list shows it. */
export const messageView = (m: ContactMessage) => ({
  id: m.id,
  name: m.name,
  email: m.email,
  message: m.message,
  userId: m.userId,
  ip: m.ip,
  createdAt: m.createdAt.toISOString(),
  handledAt: m.handledAt?.toISOString() ?? null,
});
export type ContactMessageView = ReturnType<typeof messageView>;

/**
 * `POST /api/contact`: stores the message and queues its mail to SUPPORT_EMAIL together (no
 * message without its mail, nor the reverse). Staff read the message (the admin list, the mail
 * to support): a pasted link keeps no live token (docs/permissions.md, "Secrets").
 */
export async function storeContactMessage(
  db: Db,
  deps: Pick<AppDeps, 'clock' | 'jobs' | 'config'>,
  parsed: z.output<typeof contactSchema>,
  from: { userId: number | null; ip: string },
): Promise<void> {
  const input = { ...parsed, message: redactSecrets(parsed.message) };
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactMessages)
      .values({ ...input, userId: from.userId, ip: from.ip, createdAt: deps.clock.now() })
      .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
    if (!row) throw new Error('insert returned no row');
    await deps.jobs.mail(contactMail({ to: deps.config.supportEmail, ...input, userId: from.userId, messageId: row.id, receivedAt: row.createdAt }), { tx });
  });
}

/** `GET /api/admin/contact-messages`: searched in the name, the address and the message; newest first by default. */
export function listContactMessages(db: Db, query: ContactMessageListQuery): Promise<ListPage<ContactMessageView>> {
  const pattern = query.q ? containsPattern(query.q) : null;
  const where = pattern ? or(ilike(contactMessages.name, pattern), ilike(contactMessages.email, pattern), ilike(contactMessages.message, pattern)) : undefined;
  const order = listOrder(
    query,
    {
      created: { by: contactMessages.createdAt, dir: 'desc' },
      name: { by: sql`lower(${contactMessages.name})`, dir: 'asc' },
      email: { by: sql`lower(${contactMessages.email})`, dir: 'asc' },
    },
    contactMessages.id,
  );
  return paginate(query, {
    rows: pageOf(
      db
        .select()
        .from(contactMessages)
        .where(where)
        .orderBy(...order),
      messageView,
    ),
    count: () => countOf(db.select({ value: count() }).from(contactMessages).where(where)),
  });
}

/** Marks a message handled (keeping when it first was) or open again; audited. 404 for an unknown id. */
export async function setHandled(db: Db, clock: Clock, id: number, handled: boolean, actor: { actorId: number; ip: string }) {
  const [before] = await db.select().from(contactMessages).where(eq(contactMessages.id, id)).limit(1);
  if (!before) throw new ApiError(404, 'not_found', 'No such message');
  const [updated] = await db
    .update(contactMessages)
    .set({ handledAt: handled ? (before.handledAt ?? clock.now()) : null })
    .where(eq(contactMessages.id, id))
    .returning();
  if (!updated) throw new ApiError(404, 'not_found', 'No such message');
  await audit(db, {
    actorId: actor.actorId,
    via: 'api',
    action: handled ? 'contact_message.handled' : 'contact_message.reopened',
    targetType: 'contact_message',
    targetId: id,
    before: { handledAt: before.handledAt?.toISOString() ?? null },
    after: { handledAt: updated.handledAt?.toISOString() ?? null },
    ip: actor.ip,
  });
  return messageView(updated);
}
