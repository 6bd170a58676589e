import { KNOWN_FLAGS, isTruthyFlag, type FlagValue } from '../../shared/flags.ts';
import type { Db } from '../db/index.ts';
import type { Clock } from './clock.ts';
import { getFlag } from './flags.ts';

/**
 * The flags anyone may read through `GET /api/feature-flags` (the pages need them before sign-in).
 * Every other flag stays private to admins: flags may hold experiments or settings that are
 * nobody else's business (docs/decisions/006-…).
 */
export const PUBLIC_FLAGS: readonly string[] = [KNOWN_FLAGS.banner, KNOWN_FLAGS.maintenance];

export function isPublicFlag(key: string): boolean {
  return PUBLIC_FLAGS.includes(key);
}

/** How long a flag read is reused: every page request asks for maintenance, the browser for both. */
export const FLAG_CACHE_TTL_MS = 1000;

interface Entry {
  value: Promise<FlagValue | undefined>;
  readAt: number;
}

/** One small cache per database (tests run many databases in one process). */
const caches = new WeakMap<Db, Map<string, Entry>>();

/**
 * A flag's value, read at most once per FLAG_CACHE_TTL_MS per process; concurrent readers share
 * one query. Changes through this process's API are seen at once (forgetCachedFlags); changes
 * from elsewhere (the CLI, another API process) within a second.
 */
export function readFlagCached(db: Db, clock: Clock, key: string): Promise<FlagValue | undefined> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = clock.now().getTime();
  const entry = cache.get(key);
  // A clock set back makes the entry stale too.
  if (entry && now >= entry.readAt && now - entry.readAt < FLAG_CACHE_TTL_MS) return entry.value;
  const value = getFlag(db, key);
  const fresh: Entry = { value, readAt: now };
  cache.set(key, fresh);
  // A failed read is not kept: the next request asks the database again.
  value.catch(() => {
    if (cache.get(key) === fresh) cache.delete(key);
  });
  return value;
}

/** Drops the cached flags of a database (after a change through the API). */
export function forgetCachedFlags(db: Db): void {
  caches.delete(db);
}

/** True while the maintenance flag is on (read through the cache). */
export async function maintenanceOn(db: Db, clock: Clock): Promise<boolean> {
  return isTruthyFlag(await readFlagCached(db, clock, KNOWN_FLAGS.maintenance));
}
