/**
 * The audit log screen's state in the address bar (`/admin/audit?q=&actorId=&action=&targetType=&targetId=&from=&to=&dir=&page=`),
 * so a link (a user's page: `?targetType=user&targetId=12`) opens a filtered log, and Back and a
 * reload keep it. Pure: unit-testable.
 */
import { PAGE_SIZE, type SortDirection } from '../../../shared/list.ts';

export interface AuditQuery {
  /** Any part of the actor's email or names. */
  q: string;
  actorId: number | null;
  action: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
  /** null: newest first (the natural order); `asc`: oldest first. */
  dir: SortDirection | null;
  page: number;
}

export const DEFAULT_AUDIT_QUERY: AuditQuery = { q: '', actorId: null, action: '', targetType: '', targetId: '', from: '', to: '', dir: null, page: 1 };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const text = (value: string | null): string => (value ?? '').trim().slice(0, 100);

/** The screen's state from `location.search`; anything unknown is left at its default. */
export function readAuditQuery(search: string): AuditQuery {
  const params = new URLSearchParams(search);
  const actorId = Number(params.get('actorId'));
  const page = Number(params.get('page'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const dir = params.get('dir');
  return {
    q: text(params.get('q')),
    actorId: Number.isInteger(actorId) && actorId > 0 && actorId <= 2_147_483_647 ? actorId : null,
    action: text(params.get('action')),
    targetType: text(params.get('targetType')),
    targetId: text(params.get('targetId')),
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
    dir: dir === 'asc' || dir === 'desc' ? dir : null,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The filters as query parameters (what the CSV export takes too); empty ones left out. */
export function auditFilterParams(query: AuditQuery): Record<string, string> {
  const params: Record<string, string> = {};
  if (query.q) params.q = query.q;
  if (query.actorId !== null) params.actorId = String(query.actorId);
  if (query.action) params.action = query.action;
  if (query.targetType) params.targetType = query.targetType;
  if (query.targetId) params.targetId = query.targetId;
  if (query.from) params.from = query.from;
  if (query.to) params.to = query.to;
  return params;
}

/** How many filters apply (the phone's "Filters (n)"). */
export const auditFilterCount = (query: AuditQuery): number => Object.keys(auditFilterParams(query)).length;

/** `location.search` for the state (defaults left out). */
export function writeAuditQuery(query: AuditQuery): string {
  const params = auditFilterParams(query);
  if (query.dir === 'asc') params.dir = 'asc';
  if (query.page > 1) params.page = String(query.page);
  const search = new URLSearchParams(params).toString();
  return search ? `?${search}` : '';
}

/** The API's address of the asked page. */
export function auditApiPath(query: AuditQuery): string {
  const params: Record<string, string> = { ...auditFilterParams(query), page: String(query.page), pageSize: String(PAGE_SIZE.default) };
  if (query.dir === 'asc') params.dir = 'asc';
  return `/api/admin/audit?${new URLSearchParams(params).toString()}`;
}

/** The "Export CSV" link: the same filters. */
export function auditCsvHref(query: AuditQuery): string {
  const search = new URLSearchParams(auditFilterParams(query)).toString();
  return `/api/admin/audit/export${search ? `?${search}` : ''}`;
}

/** A row's before or after as indented JSON ("—" for none). */
export function prettyJson(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value, null, 2);
}
