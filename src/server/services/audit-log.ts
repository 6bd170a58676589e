/**
 * The audit log screen (`/admin/audit`, admins; issue 29 §7): every audited action in one list
 * with the list contract, its filters, and its CSV. Rows are written by `audit()` (audit.ts).
 *
 * Every filter has an index (schema/audit-log.ts): the date range alone by `created_at`, an actor
 * by `(actor_id, created_at)`, a target by `(target_type, target_id, created_at)`, an action by
 * `(action, created_at)`; the search (`q`, the actor's email or names) finds the actors by the
 * users' trigram index first.
 */
import { and, asc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditFilters, AuditListItem } from '../../shared/audit.ts';
import type { ListPage } from '../../shared/list.ts';
import type { AuditListQuery } from '../../shared/schemas/audit.ts';
import { queryRows, type Db } from '../db/index.ts';
import { auditLog, users, type AuditEntry } from '../db/schema/index.ts';
import { keysetCsvStream } from './csv.ts';
import { listOrder, pageWithUser, type ListUser } from './list.ts';
import { userSearchMatches } from './users.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The start of a `YYYY-MM-DD` day in UTC. */
const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The list's filters (what its CSV takes too). */
export type AuditFilterQuery = Omit<AuditListQuery, 'page' | 'pageSize' | 'sort' | 'dir'>;

/** The WHERE of the audit list and its CSV. */
function auditWhere(query: AuditFilterQuery): SQL | undefined {
  return and(
    query.q ? inArray(auditLog.actorId, sql`(select ${users.id} from ${users} where ${userSearchMatches(query.q)})`) : undefined,
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
    query.action ? eq(auditLog.action, query.action) : undefined,
    query.targetType ? eq(auditLog.targetType, query.targetType) : undefined,
    query.targetId ? eq(auditLog.targetId, query.targetId) : undefined,
    query.from ? gte(auditLog.createdAt, dayStart(query.from)) : undefined,
    query.to ? lt(auditLog.createdAt, new Date(dayStart(query.to).getTime() + DAY_MS)) : undefined,
  );
}

function auditView(row: AuditEntry, actor: ListUser | null): AuditListItem {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actorId: row.actorId,
    actor,
    apiTokenId: row.apiTokenId,
    via: row.via,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    before: row.before,
    after: row.after,
    ip: row.ip,
  };
}

/** `GET /api/admin/audit`: newest first (`dir=asc`: oldest first), filtered, a page at a time. */
export function listAudit(db: Db, query: AuditListQuery): Promise<ListPage<AuditListItem>> {
  const order = listOrder(query, { created: { by: auditLog.createdAt, dir: 'desc' } }, auditLog.id);
  return pageWithUser(db, query, { table: auditLog, userId: auditLog.actorId, where: auditWhere(query), order }, auditView);
}

/**
 * The distinct values of an indexed column, A to Z, each found by one step down its index (a
 * "loose index scan": as many index probes as there are values, not a scan of the log).
 */
async function distinctValues(db: Db, column: 'action' | 'target_type'): Promise<string[]> {
  const name = sql.identifier(column);
  const rows = await queryRows<{ value: string }>(
    db,
    sql`
    with recursive walk(value) as (
      (select ${name} from ${auditLog} where ${name} is not null order by ${name} limit 1)
      union all
      select (select ${name} from ${auditLog} where ${name} > walk.value order by ${name} limit 1) from walk where walk.value is not null
    )
    select value from walk where value is not null`,
  );
  return rows.map((row) => row.value);
}

/** `GET /api/admin/audit/filters`: the actions and target types in the log (the screen's choices). */
export async function auditFilters(db: Db): Promise<AuditFilters> {
  const [actions, targetTypes] = await Promise.all([distinctValues(db, 'action'), distinctValues(db, 'target_type')]);
  return { actions, targetTypes };
}

export const AUDIT_CSV_HEADER = [
  'ID',
  'Time (UTC)',
  'Actor ID',
  'Actor email',
  'Via',
  'Action',
  'Target type',
  'Target ID',
  'IP address',
  'Before',
  'After',
] as const;

const jsonCell = (value: unknown): string => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * `GET /api/admin/audit/export`: the filtered log as a stream of formula-safe CSV (a byte order
 * mark first), oldest first, read by id 500 rows at a time (never the whole log); before and after
 * as JSON text.
 */
export function auditCsv(db: Db, query: AuditFilterQuery): ReadableStream<Uint8Array> {
  const where = auditWhere(query);
  return keysetCsvStream(
    AUDIT_CSV_HEADER,
    async (afterId, limit) =>
      (
        await db
          .select({ row: auditLog, actorEmail: users.email })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.actorId))
          .where(and(where, gt(auditLog.id, afterId)))
          .orderBy(asc(auditLog.id))
          .limit(limit)
      ).map(({ row, actorEmail }) => ({ ...row, actorEmail })),
    (row) => [
      row.id,
      row.createdAt.toISOString(),
      row.actorId ?? '',
      row.actorEmail ?? '',
      row.via,
      row.action,
      row.targetType ?? '',
      row.targetId ?? '',
      row.ip ?? '',
      jsonCell(row.before),
      jsonCell(row.after),
    ],
  );
}
