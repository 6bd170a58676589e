import { and, desc, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { preparedFor } from '../db/prepared.ts';
import { sessions, users, type User } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** A session used after this long since its last renewal gets a new expiry (sliding). */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

export interface SessionMeta {
  userAgent?: string | null;
  ip?: string | null;
}

/** Starts a session for a user; returns the token for the cookie (never stored as such). */
export async function createSession(db: Db, clock: Clock, userId: number, meta: SessionMeta = {}) {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.insert(sessions).values({
    id: sha256Hex(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    ip: meta.ip ?? null,
  });
  return { token, expiresAt };
}

function prepareLookup(db: Db) {
  return db
    .select({ user: users, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('id')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('session_lookup');
}

/** Every signed-in request runs this lookup: prepared once per database. */
const lookupFor = preparedFor(prepareLookup);

/** How long a cached session answers without the database at most (docs/decisions/025-…). */
export const SESSION_CACHE_MAX_AGE_MS = 5_000;
const SESSION_CACHE_MAX_ENTRIES = 10_000;

interface CachedSession {
  user: User;
  lastSeenAt: Date;
  expiresAt: Date;
  cachedAt: number;
}

/**
 * The embedded database's session cache: PGlite runs every query on the server's one thread, so
 * the signed-in lookup is most of a cheap call's cost there. An entry is dropped the moment its
 * user or session row changes (the database's `fw_session_changed` notification, migration 0010),
 * and answers for 5 s at most in any case (a change made through the CLI's socket is not
 * notified to this process). A lookup that raced a change is not cached (`generation`). Only the
 * embedded database has one: with PostgreSQL, several processes share the data.
 */
export class SessionCache {
  readonly #byId = new Map<string, CachedSession>();
  readonly #byUser = new Map<number, Set<string>>();
  /** Bumped by every change: a lookup started before a change must not be cached after it. */
  generation = 0;

  get(id: string, nowMs: number): CachedSession | undefined {
    const entry = this.#byId.get(id);
    if (entry && nowMs - entry.cachedAt > SESSION_CACHE_MAX_AGE_MS) {
      this.#drop(id);
      return undefined;
    }
    return entry;
  }

  set(id: string, entry: CachedSession, generation: number): void {
    if (generation !== this.generation) return;
    if (this.#byId.size >= SESSION_CACHE_MAX_ENTRIES) this.clear();
    this.#byId.set(id, entry);
    let ids = this.#byUser.get(entry.user.id);
    if (!ids) {
      ids = new Set();
      this.#byUser.set(entry.user.id, ids);
    }
    ids.add(id);
  }

  /** A notification's payload: `u<user id>`, `s<session id>` or `*`. */
  changed(payload: string): void {
    this.generation++;
    if (payload.startsWith('s')) this.#drop(payload.slice(1));
    else if (payload.startsWith('u')) for (const id of this.#byUser.get(Number(payload.slice(1))) ?? []) this.#drop(id);
    else this.clear();
  }

  clear(): void {
    this.generation++;
    this.#byId.clear();
    this.#byUser.clear();
  }

  #drop(id: string): void {
    const entry = this.#byId.get(id);
    if (!entry) return;
    this.#byId.delete(id);
    const ids = this.#byUser.get(entry.user.id);
    ids?.delete(id);
    if (ids?.size === 0) this.#byUser.delete(entry.user.id);
  }
}

/** The channel migration 0010's triggers notify. */
export const SESSION_CHANGED_CHANNEL = 'fw_session_changed';

const sessionCaches = new WeakMap<Db, SessionCache>();

/** Gives a database's signed-in lookups a cache (the embedded database, once it listens for changes: db/index.ts). */
export function useSessionCache(db: Db, cache: SessionCache): void {
  sessionCaches.set(db, cache);
}

/** The signed-in user for a session token, or null (unknown, expired, or user not active). */
export async function validateSession(
  db: Db,
  clock: Clock,
  token: string,
): Promise<{ user: User; sessionId: string; expiresAt: Date; renewed: boolean } | null> {
  if (!token || token.length > 128) return null;
  const id = sha256Hex(token);
  const now = clock.now();
  const lookup = lookupFor(db);
  const cache = sessionCaches.get(db);
  const nowMs = now.getTime();
  const cached = cache?.get(id, nowMs);
  if (cached && cached.expiresAt.getTime() > nowMs && nowMs - cached.lastSeenAt.getTime() <= RENEW_AFTER_MS) {
    return { user: cached.user, sessionId: id, expiresAt: cached.expiresAt, renewed: false };
  }
  const generation = cache?.generation ?? 0;
  const [row] = await lookup.execute({ id, now: now.toISOString() });
  if (!row || row.user.status !== 'active') return null;
  if (nowMs - row.lastSeenAt.getTime() <= RENEW_AFTER_MS) {
    cache?.set(id, { user: row.user, lastSeenAt: row.lastSeenAt, expiresAt: row.expiresAt, cachedAt: nowMs }, generation);
    return { user: row.user, sessionId: id, expiresAt: row.expiresAt, renewed: false };
  }
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
  // At most once a day per session: the dashboard's "active in the last 30 days".
  await db.update(users).set({ lastActiveAt: now }).where(eq(users.id, row.user.id));
  return { user: row.user, sessionId: id, expiresAt, renewed: true };
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sha256Hex(token)));
}

/** Ends every session of a user (password reset, role change, disable), or all but one. */
export async function deleteUserSessions(db: Db, userId: number, exceptSessionId?: string): Promise<number> {
  const ended = await db
    .delete(sessions)
    .where(exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)) : eq(sessions.userId, userId))
    .returning({ id: sessions.id });
  return ended.length;
}

/** A user's sessions, newest use first. */
export function listUserSessions(db: Db, userId: number) {
  return db
    .select({ id: sessions.id, userAgent: sessions.userAgent, ip: sessions.ip, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt));
}

export async function deleteExpiredSessions(db: Db, clock: Clock): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, clock.now()));
}
