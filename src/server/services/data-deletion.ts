import { and, count, desc, eq, ilike, inArray, or } from 'drizzle-orm';
import { redactSecrets } from '../../shared/redact.ts';
import type { DataDeletionStatus } from '../../shared/schemas/data-deletion.ts';
import type { Db } from '../db/index.ts';
import { dataDeletionRequests, users, type DataDeletionRequest, type User } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { containsPattern } from './search.ts';

/** Requests still waiting for someone: the owner's confirmation (pending) or an admin (confirmed). */
const OPEN_STATUSES: DataDeletionStatus[] = ['pending', 'confirmed'];

/** The user's open request, if any (one per user: a new ask reuses it). */
export async function findOpenRequest(db: Db, userId: number): Promise<DataDeletionRequest | null> {
  const [row] = await db
    .select()
    .from(dataDeletionRequests)
    .where(and(eq(dataDeletionRequests.userId, userId), inArray(dataDeletionRequests.status, OPEN_STATUSES)))
    .orderBy(desc(dataDeletionRequests.createdAt), desc(dataDeletionRequests.id))
    .limit(1);
  return row ?? null;
}

/**
 * Opens (or reuses) the user's request in the given status. Confirming never goes back to
 * pending; a new reason replaces the old one, no reason keeps it.
 */
export async function openRequest(
  db: Db,
  clock: Clock,
  input: { user: User; status: 'pending' | 'confirmed'; reason: string | undefined; ip: string },
): Promise<DataDeletionRequest> {
  const now = clock.now();
  // Admins read the reason: a pasted link keeps no live token (docs/permissions.md, "Secrets").
  const reason = input.reason === undefined ? undefined : redactSecrets(input.reason);
  const existing = await findOpenRequest(db, input.user.id);
  if (existing) {
    const confirm = input.status === 'confirmed' && existing.status === 'pending';
    const [row] = await db
      .update(dataDeletionRequests)
      .set({
        ...(reason !== undefined ? { reason } : {}),
        ...(confirm ? { status: 'confirmed' as const, confirmedAt: now } : {}),
        email: input.user.email,
        ip: input.ip,
      })
      .where(eq(dataDeletionRequests.id, existing.id))
      .returning();
    if (!row) throw new Error('update returned no row');
    return row;
  }
  const [row] = await db
    .insert(dataDeletionRequests)
    .values({
      userId: input.user.id,
      email: input.user.email,
      reason: reason ?? null,
      status: input.status,
      ip: input.ip,
      createdAt: now,
      confirmedAt: input.status === 'confirmed' ? now : null,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function findRequest(db: Db, id: number): Promise<DataDeletionRequest | null> {
  const [row] = await db.select().from(dataDeletionRequests).where(eq(dataDeletionRequests.id, id)).limit(1);
  return row ?? null;
}

export function requestView(request: DataDeletionRequest, user: { id: number; email: string; firstName: string; lastName: string } | null = null) {
  return {
    id: request.id,
    userId: request.userId,
    email: request.email,
    reason: request.reason,
    status: request.status,
    ip: request.ip,
    createdAt: request.createdAt.toISOString(),
    confirmedAt: request.confirmedAt?.toISOString() ?? null,
    handledAt: request.handledAt?.toISOString() ?? null,
    handledBy: request.handledBy,
    user,
  };
}

/** The admin list: newest first, optionally one status, searched in the address and the reason. */
export async function listRequests(db: Db, query: { search?: string | undefined; status?: DataDeletionStatus | undefined; page: number; perPage: number }) {
  const pattern = query.search ? containsPattern(query.search) : null;
  const where = and(
    query.status ? eq(dataDeletionRequests.status, query.status) : undefined,
    pattern ? or(ilike(dataDeletionRequests.email, pattern), ilike(dataDeletionRequests.reason, pattern)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ request: dataDeletionRequests, user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName } })
      .from(dataDeletionRequests)
      .leftJoin(users, eq(users.id, dataDeletionRequests.userId))
      .where(where)
      .orderBy(desc(dataDeletionRequests.createdAt), desc(dataDeletionRequests.id))
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage),
    db.select({ value: count() }).from(dataDeletionRequests).where(where),
  ]);
  return { requests: rows.map(({ request, user }) => requestView(request, user?.id ? user : null)), total: total?.value ?? 0 };
}

/** Which closing step a request in a status allows: completed only once confirmed; cancelled while open. */
export function canMoveTo(from: DataDeletionStatus, to: 'completed' | 'cancelled'): boolean {
  return to === 'completed' ? from === 'confirmed' : from === 'pending' || from === 'confirmed';
}
