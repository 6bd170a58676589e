/**
 * The signed-in lookup's cache on the embedded database (docs/decisions/025-embedded-session-cache.md):
 * kept by the database layer, which listens for the changes that invalidate it (db/index.ts), and
 * read by the sessions service (services/sessions.ts).
 */
import type { SessionUser } from './schema/index.ts';

/** How long a cached session answers without the database at most (docs/decisions/025-…). */
export const SESSION_CACHE_MAX_AGE_MS = 5_000;
const SESSION_CACHE_MAX_ENTRIES = 10_000;

interface CachedSession {
  user: SessionUser;
  /** The sign-in (a staff session ends a fixed time after it). */
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  /** The last proof of who signed in (sign-in or re-authentication). */
  authenticatedAt: Date;
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

const sessionCaches = new WeakMap<object, SessionCache>();

/** Gives a database's signed-in lookups a cache (the embedded database, once it listens for changes: db/index.ts). */
export function useSessionCache(db: object, cache: SessionCache): void {
  sessionCaches.set(db, cache);
}

/** The cache of a database's signed-in lookups, if it has one (services/sessions.ts). */
export function sessionCacheOf(db: object): SessionCache | undefined {
  return sessionCaches.get(db);
}
