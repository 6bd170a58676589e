/**
 * The users list's state in the address bar (`/admin/users?q=&role=&status=&projectId=&from=&to=&active=&sort=&dir=&page=`),
 * so a link (the dashboard's `?role=participant`, `?active=30d`, `?from=YYYY-MM-DD`) opens a
 * filtered list, and Back and a reload keep it. Pure: unit-testable.
 */
import { ROLES, USER_STATUSES, type Role, type UserStatus } from '../../../shared/roles.ts';
import { PAGE_SIZE, type SortDirection } from '../../../shared/list.ts';
import { USER_ACTIVE_WINDOWS, USER_LIST_SORTS, type UserActiveWindow, type UserSort } from '../../../shared/users.ts';

export interface UsersQuery {
  q: string;
  role: Role | 'all';
  status: UserStatus | 'all';
  projectId: number | null;
  from: string;
  to: string;
  active: UserActiveWindow | 'all';
  sort: UserSort;
  dir: SortDirection | null;
  page: number;
}

export const DEFAULT_USERS_QUERY: UsersQuery = {
  q: '',
  role: 'all',
  status: 'all',
  projectId: null,
  from: '',
  to: '',
  active: 'all',
  sort: 'id',
  dir: null,
  page: 1,
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isOneOf = <T extends string>(list: readonly T[], value: string | null): value is T => value !== null && (list as readonly string[]).includes(value);

/** The list's state from `location.search`; anything unknown is left at its default. */
export function readUsersQuery(search: string): UsersQuery {
  const params = new URLSearchParams(search);
  const role = params.get('role');
  const status = params.get('status');
  const sort = params.get('sort');
  const dir = params.get('dir');
  const projectId = Number(params.get('projectId'));
  const page = Number(params.get('page'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const active = params.get('active');
  return {
    q: (params.get('q') ?? '').trim(),
    role: isOneOf(ROLES, role) ? role : 'all',
    status: isOneOf(USER_STATUSES, status) ? status : 'all',
    projectId: Number.isInteger(projectId) && projectId > 0 ? projectId : null,
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    active: isOneOf(USER_ACTIVE_WINDOWS, active) ? active : 'all',
    sort: isOneOf(USER_LIST_SORTS, sort) ? sort : 'id',
    dir: dir === 'asc' || dir === 'desc' ? dir : null,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The filters as query parameters (what the CSV export takes too); defaults left out. */
export function filterParams(query: UsersQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.q) params.q = query.q;
  if (query.role !== 'all') params.role = query.role;
  if (query.status !== 'all') params.status = query.status;
  if (query.projectId !== null) params.projectId = String(query.projectId);
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  if (query.active !== 'all') params.active = query.active;
  return params;
}

/** `location.search` for the state (defaults left out). */
export function writeUsersQuery(query: UsersQuery): string {
  const params: Record<string, string> = filterParams(query);
  if (query.sort !== 'id') params.sort = query.sort;
  if (query.dir) params.dir = query.dir;
  if (query.page > 1) params.page = String(query.page);
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
}

/** The API's address of the asked page. */
export function usersApiPath(query: UsersQuery): string {
  const params: Record<string, string> = { ...filterParams(query), page: String(query.page), pageSize: String(PAGE_SIZE.default), sort: query.sort };
  if (query.dir) params.dir = query.dir;
  return `/api/admin/users?${new URLSearchParams(params).toString()}`;
}

/** The "Export CSV" link: the same filters. */
export function usersCsvHref(query: UsersQuery): string {
  const search = new URLSearchParams(filterParams(query)).toString();
  return `/api/admin/users.csv${search ? `?${search}` : ''}`;
}

/** Each sort key's natural direction (the API's), so a header shows which way a column is sorted. */
export const NATURAL_DIRECTION: Readonly<Record<UserSort, SortDirection>> = { id: 'asc', email: 'asc', name: 'asc', created: 'desc', lastActive: 'desc' };

/** The direction the list is sorted in on `key`, or null when it is sorted on another key. */
export function sortedDirection(query: Pick<UsersQuery, 'sort' | 'dir'>, key: UserSort): SortDirection | null {
  return query.sort === key ? (query.dir ?? NATURAL_DIRECTION[key]) : null;
}

/** A click on a column header: sorts by it in its natural direction, or flips the direction. */
export function toggleSort(query: UsersQuery, key: UserSort): UsersQuery {
  const current = sortedDirection(query, key);
  const dir: SortDirection = current === null ? NATURAL_DIRECTION[key] : current === 'asc' ? 'desc' : 'asc';
  return { ...query, sort: key, dir: dir === NATURAL_DIRECTION[key] ? null : dir, page: 1 };
}
