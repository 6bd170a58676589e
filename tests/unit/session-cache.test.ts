import { describe, expect, it } from 'vitest';
import type { User } from '../../src/server/db/schema/index.ts';
import { SESSION_CACHE_MAX_AGE_MS, SessionCache } from '../../src/server/db/session-cache.ts';

const user = (id: number) => ({ id, status: 'active' }) as User;
const entry = (id: number, cachedAt = 1_000) => ({
  user: user(id),
  createdAt: new Date(0),
  lastSeenAt: new Date(0),
  expiresAt: new Date(10_000_000),
  authenticatedAt: new Date(0),
  cachedAt,
});

describe('the embedded database session cache', () => {
  it('answers a cached session until its age runs out', () => {
    const cache = new SessionCache();
    cache.set('a', entry(1), cache.generation);
    expect(cache.get('a', 1_000 + SESSION_CACHE_MAX_AGE_MS)?.user.id).toBe(1);
    expect(cache.get('a', 1_001 + SESSION_CACHE_MAX_AGE_MS)).toBeUndefined();
  });

  it('drops every session of a changed user, a changed session, or everything', () => {
    const cache = new SessionCache();
    cache.set('a', entry(1), cache.generation);
    cache.set('b', entry(1), cache.generation);
    cache.set('c', entry(2), cache.generation);
    cache.changed('u1');
    expect(cache.get('a', 1_000)).toBeUndefined();
    expect(cache.get('b', 1_000)).toBeUndefined();
    expect(cache.get('c', 1_000)?.user.id).toBe(2);
    cache.set('d', entry(3), cache.generation);
    cache.changed('sc');
    expect(cache.get('c', 1_000)).toBeUndefined();
    expect(cache.get('d', 1_000)?.user.id).toBe(3);
    cache.changed('*');
    expect(cache.get('d', 1_000)).toBeUndefined();
  });

  it('does not keep a lookup that started before a change', () => {
    const cache = new SessionCache();
    const started = cache.generation;
    cache.changed('u9');
    cache.set('a', entry(1), started);
    expect(cache.get('a', 1_000)).toBeUndefined();
  });
});
