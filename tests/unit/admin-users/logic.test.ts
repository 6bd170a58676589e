import { describe, expect, it } from 'vitest';
import {
  DEFAULT_USERS_QUERY,
  readUsersQuery,
  sortedDirection,
  toggleSort,
  usersApiPath,
  usersCsvHref,
  writeUsersQuery,
} from '../../../src/islands/admin/users/logic.ts';

describe('the users list in the address bar', () => {
  it("reads the dashboard's links: ?status=active, ?from=YYYY-MM-DD, ?role=participant", () => {
    expect(readUsersQuery('?status=active')).toEqual({ ...DEFAULT_USERS_QUERY, status: 'active' });
    expect(readUsersQuery('?from=2026-11-01')).toEqual({ ...DEFAULT_USERS_QUERY, from: '2026-11-01' });
    expect(readUsersQuery('?role=participant')).toEqual({ ...DEFAULT_USERS_QUERY, role: 'participant' });
    // The dashboard's "active in the last 30 days".
    expect(readUsersQuery('?role=participant&active=30d')).toEqual({ ...DEFAULT_USERS_QUERY, role: 'participant', active: '30d' });
  });

  it('leaves anything unknown at its default', () => {
    expect(readUsersQuery('?role=owner&status=gone&projectId=-3&from=yesterday&active=1y&sort=age&dir=up&page=0')).toEqual(DEFAULT_USERS_QUERY);
    expect(readUsersQuery('')).toEqual(DEFAULT_USERS_QUERY);
  });

  it('writes what it reads, defaults left out', () => {
    const search = '?q=ann&role=moderator&status=invited&projectId=4&from=2026-01-01&to=2026-02-01&active=7d&sort=email&dir=desc&page=3';
    const query = readUsersQuery(search);
    expect(writeUsersQuery(query)).toBe(search);
    expect(writeUsersQuery(DEFAULT_USERS_QUERY)).toBe('');
  });

  it('asks the API for 10 a page with the filters, and exports the same filters without page or sort', () => {
    const query = readUsersQuery('?q=a b&status=active&sort=lastActive&page=2');
    expect(usersApiPath(query)).toBe('/api/admin/users?q=a+b&status=active&page=2&pageSize=10&sort=lastActive');
    expect(usersCsvHref(query)).toBe('/api/admin/users.csv?q=a+b&status=active');
    expect(usersCsvHref(DEFAULT_USERS_QUERY)).toBe('/api/admin/users.csv');
  });

  it('a header click sorts by its column in its natural direction, then flips it, back to page 1', () => {
    const byName = toggleSort({ ...DEFAULT_USERS_QUERY, page: 4 }, 'name');
    expect(byName).toMatchObject({ sort: 'name', dir: null, page: 1 });
    expect(sortedDirection(byName, 'name')).toBe('asc');
    const flipped = toggleSort(byName, 'name');
    expect(sortedDirection(flipped, 'name')).toBe('desc');
    expect(sortedDirection(flipped, 'email')).toBeNull();
    expect(sortedDirection(toggleSort(DEFAULT_USERS_QUERY, 'created'), 'created')).toBe('desc');
    expect(toggleSort(toggleSort(DEFAULT_USERS_QUERY, 'created'), 'created').dir).toBe('asc');
  });
});
