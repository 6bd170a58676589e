import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import { redactSecrets } from '../../shared/redact.ts';
import type { DataDeletionListQuery } from '../../shared/schemas/admin.ts';
import { canMoveTo, type DataDeletionStatus } from '../../shared/schemas/data-deletion.ts';
import type { AppDeps } from '../context.ts';
import type { Db } from '../db/index.ts';
import { dataDeletionRequests, type DataDeletionRequest, type Token, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { consumeToken, invalidToken } from './tokens.ts';
import { listOrder, pageWithUser, type ListUser } from './list.ts';
import { containsPattern } from './search.ts';

/** What the calls that mail need besides the database. */
type MailDeps = Pick<AppDeps, 'clock' | 'jobs' | 'config'>;

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

export type DataDeletionRequestView = ReturnType<typeof requestView>;

export function requestView(request: DataDeletionRequest, user: ListUser | null = null) {
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

/** `GET /api/admin/data-deletion-requests`: optionally one status, searched in the address and the reason; newest first by default. */
export function listRequests(db: Db, query: DataDeletionListQuery): Promise<ListPage<DataDeletionRequestView>> {
  const pattern = query.q ? containsPattern(query.q) : null;
  const where = and(
    query.status ? eq(dataDeletionRequests.status, query.status) : undefined,
    pattern ? or(ilike(dataDeletionRequests.email, pattern), ilike(dataDeletionRequests.reason, pattern)) : undefined,
  );
  const order = listOrder(
    query,
    {
      created: { by: dataDeletionRequests.createdAt, dir: 'desc' },
      email: { by: sql`lower(${dataDeletionRequests.email})`, dir: 'asc' },
      // The order a request goes through: waiting for its owner, for an admin, then closed.
      status: {
        by: sql`case ${dataDeletionRequests.status} when 'pending' then 0 when 'confirmed' then 1 when 'completed' then 2 else 3 end`,
        dir: 'asc',
      },
    },
    dataDeletionRequests.id,
  );
  return pageWithUser(db, query, { table: dataDeletionRequests, userId: dataDeletionRequests.userId, where, order }, requestView);
}

/**
 * A signed-in user's request, confirmed at once (their password was checked): opened or reused,
 * audited `data_deletion.confirm`, and the user told.
 */
export async function requestConfirmed(db: Db, deps: MailDeps, input: { user: User; reason: string | undefined }, actor: { ip: string }): Promise<void> {
  const { user } = input;
  const request = await openRequest(db, deps.clock, { user, status: 'confirmed', reason: input.reason, ip: actor.ip });
  await audit(db, { actorId: user.id, via: 'api', action: 'data_deletion.confirm', targetType: 'data_deletion_request', targetId: request.id, ip: actor.ip });
  await deps.jobs.send('account.notice', { notice: 'data-deletion-confirmed', to: user.email, userId: user.id });
}

/**
 * The mailed link: uses the token and confirms the request (a pending one; a confirmed one stays
 * so) in one transaction, audited `data_deletion.confirm`, and tells the user. 404
 * `invalid_token` when the token was used meanwhile, or an admin closed the request meanwhile.
 */
export async function confirmByLink(
  db: Db,
  deps: MailDeps,
  input: { token: Token; request: DataDeletionRequest; user: User },
  actor: { ip: string },
): Promise<void> {
  const { request, user } = input;
  if (request.status !== 'pending' && request.status !== 'confirmed') throw invalidToken();
  const now = deps.clock.now();
  const confirmed = await db.transaction(async (tx) => {
    if (!(await consumeToken(tx, deps.clock, input.token.id))) return false;
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
  await audit(db, { actorId: user.id, via: 'api', action: 'data_deletion.confirm', targetType: 'data_deletion_request', targetId: request.id, ip: actor.ip });
  await deps.jobs.send('account.notice', { notice: 'data-deletion-confirmed', to: user.email, userId: user.id });
}

/**
 * An admin closes a request: `completed` (only once confirmed: records that the data was deleted
 * and tells the person; it deletes nothing itself) or `cancelled` (while open). Audited
 * `data_deletion.complete` / `.cancel`. 404 for an unknown id; 409 `invalid_status` otherwise.
 */
export async function closeRequest(
  db: Db,
  deps: MailDeps,
  id: number,
  status: 'completed' | 'cancelled',
  actor: { actorId: number; ip: string },
): Promise<DataDeletionRequest> {
  const before = await findRequest(db, id);
  if (!before) throw new ApiError(404, 'not_found', 'No such request');
  if (!canMoveTo(before.status, status)) {
    const why = status === 'completed' ? 'Only a confirmed request can be completed' : 'This request is already closed';
    throw new ApiError(409, 'invalid_status', `${why} (it is ${before.status})`);
  }
  const [updated] = await db
    .update(dataDeletionRequests)
    .set({ status, handledAt: deps.clock.now(), handledBy: actor.actorId })
    .where(and(eq(dataDeletionRequests.id, id), eq(dataDeletionRequests.status, before.status)))
    .returning();
  if (!updated) throw new ApiError(409, 'invalid_status', 'The request changed meanwhile; reload it');
  await audit(db, {
    actorId: actor.actorId,
    via: 'api',
    action: `data_deletion.${status === 'completed' ? 'complete' : 'cancel'}`,
    targetType: 'data_deletion_request',
    targetId: id,
    before: { status: before.status },
    after: { status },
    ip: actor.ip,
  });
  // In the account's language when the job runs, while the account exists (English once it is gone).
  if (status === 'completed') await deps.jobs.send('account.notice', { notice: 'data-deletion-completed', to: updated.email, userId: updated.userId });
  return updated;
}
