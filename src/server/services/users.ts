import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import { isElevated, type Role } from '../../shared/roles.ts';
import { isLanguage, SOURCE_LANGUAGE } from '../../shared/languages.ts';
import type { UserListQuery } from '../../shared/schemas/users.ts';
import { activeWindowDays, type AdminUserDetail, type AdminUserListItem } from '../../shared/users.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import {
  auditLog,
  missionEntries,
  missions,
  pointsLedger,
  projectMembers,
  projects,
  sessions,
  tokens,
  users,
  userSearchText,
  type User,
} from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { keysetCsvStream } from './csv.ts';
import { hashPassword } from './passwords.ts';
import { countOf, listOrder, pageOf, paginate } from './list.ts';
import { containsPattern } from './search.ts';
import { deleteUserSessions } from './sessions.ts';
import { balanceColumns } from './points.ts';

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists.`);
    this.name = 'UserExistsError';
  }
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: number): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Creates an active account with a password (operator CLI, admin tools). */
export async function createActiveUser(db: Db, input: { email: string; password: string; role: Role; firstName: string; lastName: string }): Promise<User> {
  if (await findUserByEmail(db, input.email)) throw new UserExistsError(input.email);
  const now = new Date();
  const [user] = await db
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      status: 'active',
      termsAcceptedAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!user) throw new Error('insert returned no row');
  return user;
}

/** The invited account for an email: created when new, else the existing one (role unchanged). */
export async function findOrCreateInvitedUser(
  db: Db,
  input: { email: string; role: Role; firstName?: string; lastName?: string },
): Promise<{ user: User; created: boolean }> {
  const existing = await findUserByEmail(db, input.email);
  if (existing) return { user: existing, created: false };
  const [user] = await db
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      role: input.role,
      status: 'invited',
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
    })
    // Two invitations of one new address at once: the second waits for the first and finds its account.
    .onConflictDoNothing()
    .returning();
  if (user) return { user, created: true };
  const raced = await findUserByEmail(db, input.email);
  if (!raced) throw new Error('insert returned no row');
  return { user: raced, created: false };
}

/** Who a user is, as every answer about a person shows it (never the password hash). */
function userBasics(user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status'>) {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: user.role, status: user.status };
}

/**
 * What a user looks like to the browser (never the password hash): `GET /api/auth` (both paths:
 * routes/auth.ts and lean.ts answer the same JSON), onboarding and the account screens.
 * `secondFactor`: the account has one (an authenticator app or a passkey); `secondFactorRequired`:
 * it must have one to use the admin area (staff while REQUIRE_STAFF_SECOND_FACTOR is on).
 */
export function publicUser(
  user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'secondFactor' | 'preferences'>,
  config: Pick<Config, 'requireStaffSecondFactor'>,
) {
  const preferred = user.preferences?.language;
  return {
    ...userBasics(user),
    /** The account's language (issue 31): its pages are shown in it on every device. */
    language: isLanguage(preferred) ? preferred : SOURCE_LANGUAGE,
    secondFactor: user.secondFactor,
    secondFactorRequired: isElevated(user.role) && config.requireStaffSecondFactor,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;

/** A row of the admin users list (and its CSV). */
export function adminUserListItem(user: User): AdminUserListItem {
  return {
    ...userBasics(user),
    createdAt: user.createdAt.toISOString(),
    lastActiveAt: user.lastActiveAt?.toISOString() ?? null,
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The users list's filters (what its CSV takes too). */
export type UserListFilters = Omit<UserListQuery, 'page' | 'pageSize' | 'sort' | 'dir'>;
/** The start of a `YYYY-MM-DD` day in UTC. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/**
 * A user's email or name holds `search` (any part, any case): `userSearchText like '%…%'`, the exact
 * expression of the pg_trgm index `users_search_trgm_idx` (the users list, the gallery's participant filter).
 */
export function userSearchMatches(search: string): SQL {
  return sql`${userSearchText} like ${containsPattern(search.toLowerCase())}`;
}

/**
 * The WHERE of the users list and its CSV: `q` with `userSearchText like '%…%'` (lower-cased, the
 * exact expression of the pg_trgm index `users_search_trgm_idx`, so prefix and contains searches
 * use it), `role` and `status` (`users_role_status_idx`), `projectId` (an `exists` on
 * project_members, indexed by user), `from` / `to` (sign-up days, inclusive, UTC; `users_created_idx`),
 * `active` (last active within that many days of `now`; `users_last_active_idx`).
 */
export function userListWhere(query: UserListFilters, now: Date): SQL | undefined {
  return and(
    query.q ? userSearchMatches(query.q) : undefined,
    query.role ? eq(users.role, query.role) : undefined,
    query.status ? eq(users.status, query.status) : undefined,
    query.projectId
      ? sql`exists (select 1 from ${projectMembers} where ${projectMembers.projectId} = ${query.projectId} and ${projectMembers.userId} = ${users.id})`
      : undefined,
    query.from ? gte(users.createdAt, dayStart(query.from)) : undefined,
    query.to ? lt(users.createdAt, new Date(dayStart(query.to).getTime() + DAY_MS)) : undefined,
    query.active ? gte(users.lastActiveAt, new Date(now.getTime() - activeWindowDays(query.active) * DAY_MS)) : undefined,
  );
}

/**
 * `GET /api/admin/users`: searched in the email and the names (any part, any case); filtered by
 * role, status, project membership and sign-up days; by id (default), email, name (last, first),
 * creation (newest first) or last activity (most recent first, never active last).
 */
export function listUsers(db: Db, query: UserListQuery, now: Date): Promise<ListPage<AdminUserListItem>> {
  const where = userListWhere(query, now);
  const order = listOrder(
    query,
    {
      id: { by: users.id, dir: 'asc' },
      email: { by: sql`lower(${users.email})`, dir: 'asc' },
      name: { by: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`], dir: 'asc' },
      created: { by: users.createdAt, dir: 'desc' },
      lastActive: { by: sql`coalesce(${users.lastActiveAt}, '-infinity'::timestamptz)`, dir: 'desc' },
    },
    users.id,
  );
  return paginate(query, {
    rows: pageOf(
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(...order),
      adminUserListItem,
    ),
    count: () => countOf(db.select({ value: count() }).from(users).where(where)),
  });
}

/** Rows of the users CSV read at a time. */
export const USERS_CSV_HEADER = ['ID', 'Email', 'First name', 'Last name', 'Role', 'Status', 'Signed up', 'Last active'] as const;

/**
 * `GET /api/admin/users.csv`: the filtered list as a stream of formula-safe CSV (a byte order
 * mark first), in id order, read `CSV_PAGE_SIZE` rows at a time by id (never the whole table).
 */
export function usersCsv(db: Db, query: UserListFilters, now: Date): ReadableStream<Uint8Array> {
  const where = userListWhere(query, now);
  return keysetCsvStream(
    USERS_CSV_HEADER,
    (afterId, limit) =>
      db
        .select()
        .from(users)
        .where(and(where, gt(users.id, afterId)))
        .orderBy(asc(users.id))
        .limit(limit),
    (row) => [row.id, row.email, row.firstName, row.lastName, row.role, row.status, row.createdAt.toISOString(), row.lastActiveAt?.toISOString() ?? ''],
  );
}

/** How many rows of each history the detail shows (newest first). */
const DETAIL_ROWS = 50;

/** `GET /api/admin/users/{id}`: everything staff see about one person; null when there is none. */
export async function adminUserDetail(db: Db, userId: number): Promise<AdminUserDetail | null> {
  const user = await findUserById(db, userId);
  if (!user) return null;
  const [userSessions, memberships, entries, [totals], ledger, trail] = await Promise.all([
    db
      .select({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(desc(sessions.lastSeenAt)),
    db
      .select({ id: projects.id, name: projects.name, status: projects.status, addedAt: projectMembers.addedAt })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(eq(projectMembers.userId, userId))
      .orderBy(desc(projectMembers.addedAt)),
    db
      .select({
        id: missionEntries.id,
        missionId: missionEntries.missionId,
        missionTitle: missions.title,
        projectId: missions.projectId,
        status: missionEntries.status,
        submittedAt: missionEntries.submittedAt,
        updatedAt: missionEntries.updatedAt,
      })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .where(eq(missionEntries.userId, userId))
      .orderBy(desc(missionEntries.updatedAt), desc(missionEntries.id))
      .limit(DETAIL_ROWS),
    db.select(balanceColumns).from(pointsLedger).where(eq(pointsLedger.userId, userId)),
    db.select().from(pointsLedger).where(eq(pointsLedger.userId, userId)).orderBy(desc(pointsLedger.createdAt), desc(pointsLedger.id)).limit(DETAIL_ROWS),
    // Done to them (audit_log_target_idx) or by them (audit_log_actor_idx): two indexed reads, merged.
    Promise.all([
      db
        .select({ row: auditLog, actorEmail: users.email })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, String(userId))))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(DETAIL_ROWS),
      db
        .select({ row: auditLog, actorEmail: users.email })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(eq(auditLog.actorId, userId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(DETAIL_ROWS),
    ]),
  ]);
  const [toThem, byThem] = trail;
  const seen = new Set<number>();
  const auditRows = [...toThem.map((r) => ({ ...r, direction: 'to' as const })), ...byThem.map((r) => ({ ...r, direction: 'by' as const }))]
    .filter(({ row }) => (seen.has(row.id) ? false : (seen.add(row.id), true)))
    .sort((a, b) => b.row.createdAt.getTime() - a.row.createdAt.getTime() || b.row.id - a.row.id)
    .slice(0, DETAIL_ROWS);
  return {
    ...adminUserListItem(user),
    address: user.address,
    birthYear: user.birthYear,
    taxFormOnFileAt: user.taxFormOnFileAt?.toISOString() ?? null,
    preferences: { ...user.preferences },
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    termsAcceptedAt: user.termsAcceptedAt?.toISOString() ?? null,
    sessions: userSessions.map((s) => ({
      id: s.id.slice(0, 12),
      userAgent: s.userAgent,
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    })),
    projects: memberships.map((p) => ({ ...p, addedAt: p.addedAt.toISOString() })),
    entries: entries.map((e) => ({ ...e, submittedAt: e.submittedAt?.toISOString() ?? null, updatedAt: e.updatedAt.toISOString() })),
    points: {
      balance: totals?.available ?? 0,
      available: totals?.available ?? 0,
      pending: totals?.pending ?? 0,
      held: totals?.held ?? 0,
      entries: ledger.map((row) => ({
        id: row.id,
        points: row.points,
        state: row.state,
        reason: row.reason,
        source: row.source,
        createdAt: row.createdAt.toISOString(),
        createdBy: row.createdBy,
      })),
    },
    audit: auditRows.map(({ row, actorEmail, direction }) => ({
      id: row.id,
      action: row.action,
      actorId: row.actorId,
      actorEmail,
      targetType: row.targetType,
      targetId: row.targetId,
      direction,
      before: row.before,
      after: row.after,
      createdAt: row.createdAt.toISOString(),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Roles, status and sessions (admins only: docs/permissions.md)

/**
 * `PATCH /api/admin/users/{id}` (docs/product.md §2.5): a new role and/or status, in one
 * transaction with its audit row (`user.update`). The active admins are locked first and the
 * actor must be one of them: an admin demoted or disabled while their request was under way
 * changes nothing (403 `forbidden`), and two admins demoting each other at once leave one. Nobody
 * changes their own role or disables themself (409 `self_change`), so another active admin always
 * stays; the last active admin is never demoted or disabled (409 `last_admin`, kept as a guard).
 * An invited account is enabled by its owner's onboarding, not here (409 `not_onboarded`). A role change or a disable ends every session of the user at once; a disable
 * also voids their unused links (invitation, reset, email), which the link calls refuse anyway.
 */
export async function updateUserAccess(
  db: Db,
  clock: Clock,
  input: { actorId: number; userId: number; role?: Role | undefined; status?: 'active' | 'disabled' | undefined; ip: string },
): Promise<{ user: User; endedSessions: number }> {
  return db.transaction(async (tx) => {
    // Always in the same order (the admins by id, then the user), so concurrent changes cannot deadlock.
    const admins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.status, 'active')))
      .orderBy(asc(users.id))
      .for('update');
    // Checked against the locked rows: a demotion or disable of the actor committed before is seen, one after waits for this.
    if (!admins.some((admin) => admin.id === input.actorId)) throw new ApiError(403, 'forbidden', 'You do not have access to this');
    const [target] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
    if (!target) throw new ApiError(404, 'not_found', 'No such user');
    const role = input.role ?? target.role;
    let status = target.status;
    if (input.status === 'disabled') status = 'disabled';
    if (input.status === 'active' && target.status === 'disabled') status = target.passwordHash ? 'active' : 'invited';
    if (input.status === 'active' && target.status === 'invited') {
      throw new ApiError(
        409,
        'not_onboarded',
        'This account is still invited: it becomes active when its owner sets a password. Resend the invitation instead.',
      );
    }
    const roleChanged = role !== target.role;
    const statusChanged = status !== target.status;
    if (!roleChanged && !statusChanged) return { user: target, endedSessions: 0 };
    if (target.id === input.actorId) {
      throw new ApiError(409, 'self_change', 'You cannot change your own role or disable your own account: another admin must.');
    }
    const losesAdmin = target.role === 'admin' && target.status === 'active' && (role !== 'admin' || status !== 'active');
    if (losesAdmin && admins.filter((admin) => admin.id !== target.id).length === 0) {
      throw new ApiError(409, 'last_admin', 'This is the last active admin: make someone else an admin first.');
    }
    const now = clock.now();
    const [user] = await tx.update(users).set({ role, status, updatedAt: now }).where(eq(users.id, target.id)).returning();
    if (!user) throw new Error('update returned no row');
    const endedSessions = roleChanged || status === 'disabled' ? await deleteUserSessions(tx, target.id) : 0;
    if (status === 'disabled') {
      await tx
        .update(tokens)
        .set({ usedAt: now })
        .where(and(eq(tokens.userId, target.id), isNull(tokens.usedAt)));
    }
    await audit(tx, {
      actorId: input.actorId,
      via: 'api',
      action: 'user.update',
      targetType: 'user',
      targetId: target.id,
      before: { role: target.role, status: target.status },
      after: { role, status, endedSessions },
      ip: input.ip,
    });
    return { user, endedSessions };
  });
}

/** `POST /api/admin/users/{id}/sessions/end`: every session of the user ends; audited `user.sessions_end`. */
export async function endUserSessions(db: Db, input: { actorId: number; userId: number; ip: string }): Promise<{ ended: number }> {
  return db.transaction(async (tx) => {
    const ended = await deleteUserSessions(tx, input.userId);
    await audit(tx, {
      actorId: input.actorId,
      via: 'api',
      action: 'user.sessions_end',
      targetType: 'user',
      targetId: input.userId,
      after: { ended },
      ip: input.ip,
    });
    return { ended };
  });
}

/** The accounts of these lower-cased addresses (one query per 1000). */
export async function usersByEmails(db: Db, emails: readonly string[]): Promise<Map<string, User>> {
  const found = new Map<string, User>();
  for (let at = 0; at < emails.length; at += 1000) {
    const chunk = emails.slice(at, at + 1000);
    if (chunk.length === 0) continue;
    const rows = await db
      .select()
      .from(users)
      .where(inArray(sql`lower(${users.email})`, chunk));
    for (const row of rows) found.set(row.email.toLowerCase(), row);
  }
  return found;
}
