/**
 * Projects for moderators and admins: the list (search, status, counts), one project, create and
 * update. The routes (`routes/admin-projects.ts`) read requests and shape answers; the rules are
 * here. Helpers the other programme services share (ISO dates, audit summaries) are here too.
 */
import { and, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ListPage } from '../../shared/list.ts';
import type { AdminProject, AdminProjectListItem, ItemTextField, ItemTranslations } from '../../shared/projects.ts';
import { TRANSLATION_WITHOUT_SOURCE, untranslatableField } from '../../shared/schemas/fields.ts';
import type { projectCreateSchema, projectListQuerySchema, projectPatchSchema } from '../../shared/schemas/projects.ts';
import type { Db } from '../db/index.ts';
import { missionGroups, missions, projectMembers, projects, surveys, type Project } from '../db/schema/index.ts';
import { ApiError, foundOr404 } from '../errors.ts';
import { withAudit } from './audit.ts';
import type { Clock } from './clock.ts';
import { countOf, listOrder, paginate } from './list.ts';
import { containsPattern } from './search.ts';

export type ProjectCreate = z.output<typeof projectCreateSchema>;
export type ProjectPatch = z.output<typeof projectPatchSchema>;
export type ProjectListQuery = z.output<typeof projectListQuerySchema>;

/** A timestamp as the API gives it (ISO 8601, UTC), or null. */
export const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

/** A 400 `validation_failed` with one field's message (the same shape as a schema error). */
export function fieldError(field: string, message: string): ApiError {
  return new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { [field]: [message] } });
}

/** Copies the patch's given fields (those not undefined) into the update's values, in the order of `keys`. */
export function copyDefined<V extends object, K extends keyof V>(values: V, patch: { readonly [k in K]?: V[k] }, keys: readonly K[]): void {
  for (const key of keys) {
    const value = patch[key];
    if (value !== undefined) values[key] = value;
  }
}

/**
 * A survey's or mission's change that would leave a translation of a text empty as written (the
 * text cleared, or a translation sent for a text the row does not have): 400 on `translations`,
 * "Add the text in the original language first" (decision 035). `values` are the update's.
 */
export function checkTranslationsWritten(
  fields: readonly ItemTextField[],
  before: Partial<Record<ItemTextField, string>> & { translations: ItemTranslations },
  values: Partial<Record<ItemTextField, string>> & { translations?: ItemTranslations },
): void {
  const texts = Object.fromEntries(fields.map((field) => [field, values[field] ?? before[field] ?? '']));
  if (untranslatableField(fields, texts, values.translations ?? before.translations)) throw fieldError('translations', TRANSLATION_WITHOUT_SOURCE);
}

/** Who made a new project, survey or mission, and when (made and last changed at once). */
export const authoredColumns = (actorId: number, now: Date) => ({ createdBy: actorId, createdAt: now, updatedAt: now });

/** The one row an `insert … returning()` answered. */
export function insertedRow<T>(rows: readonly T[]): T {
  const [row] = rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Long texts in audit summaries are cut to this many characters. */
const AUDIT_TEXT_MAX = 200;
const auditValue = (value: unknown): unknown => (typeof value === 'string' && value.length > AUDIT_TEXT_MAX ? `${value.slice(0, AUDIT_TEXT_MAX)}…` : value);

/** A record for the audit log, long texts cut. */
export function auditSummary(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, auditValue(value)]));
}

/** The fields that changed between two plain records, as `{ before, after }` for the audit log (long texts cut). */
export function auditChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const out = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    out.before[key] = auditValue(before[key] ?? null);
    out.after[key] = auditValue(after[key] ?? null);
  }
  return out;
}

/**
 * Runs an update that answers the row before and after, with its audit row (`via: 'api'`, the
 * fields of `summary` that changed) in the same transaction (`withAudit`); answers the row after.
 */
export async function updateWithAudit<Row>(
  db: Db,
  update: (tx: Db) => Promise<{ before: Row; after: Row }>,
  target: { action: string; type: string; id: number; summary: (row: Row) => Record<string, unknown> },
  actor: { id: number; ip: string },
): Promise<Row> {
  const { after } = await withAudit(db, update, (changed) => ({
    actorId: actor.id,
    via: 'api',
    action: target.action,
    targetType: target.type,
    targetId: target.id,
    ...auditChanges(target.summary(changed.before), target.summary(changed.after)),
    ip: actor.ip,
  }));
  return after;
}

/** The project, or 404 `not_found`. */
export async function existingProject(db: Db, id: number): Promise<Project> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id)).limit(1);
  return foundOr404(row, 'No such project');
}

type ProjectCounts = AdminProject['counts'];

/** Members, surveys, missions and mission groups of each project: one grouped query per kind. */
async function projectCounts(db: Db, ids: readonly number[]): Promise<Map<number, ProjectCounts>> {
  const out = new Map<number, ProjectCounts>(ids.map((id) => [id, { members: 0, surveys: 0, missions: 0, missionGroups: 0 }]));
  if (ids.length === 0) return out;
  const list = [...ids];
  const [members, surveyRows, missionRows, groupRows] = await Promise.all([
    db
      .select({ id: projectMembers.projectId, n: count() })
      .from(projectMembers)
      .where(inArray(projectMembers.projectId, list))
      .groupBy(projectMembers.projectId),
    db.select({ id: surveys.projectId, n: count() }).from(surveys).where(inArray(surveys.projectId, list)).groupBy(surveys.projectId),
    db.select({ id: missions.projectId, n: count() }).from(missions).where(inArray(missions.projectId, list)).groupBy(missions.projectId),
    db.select({ id: missionGroups.projectId, n: count() }).from(missionGroups).where(inArray(missionGroups.projectId, list)).groupBy(missionGroups.projectId),
  ]);
  const fill = (rows: readonly { id: number; n: number }[], key: keyof ProjectCounts) => {
    for (const row of rows) {
      const c = out.get(row.id);
      if (c) c[key] = row.n;
    }
  };
  fill(members, 'members');
  fill(surveyRows, 'surveys');
  fill(missionRows, 'missions');
  fill(groupRows, 'missionGroups');
  return out;
}

const emptyCounts = (): ProjectCounts => ({ members: 0, surveys: 0, missions: 0, missionGroups: 0 });

/**
 * A page of projects (the list contract): search in name and client; archived ones only with
 * `status=archived`; sorted by `updated` (default, most recently changed first), `name` (A to Z)
 * or `created` (newest first).
 */
export async function listProjects(db: Db, query: ProjectListQuery): Promise<ListPage<AdminProjectListItem>> {
  const conditions: SQL[] = [query.status ? eq(projects.status, query.status) : ne(projects.status, 'archived')];
  if (query.q) {
    const pattern = containsPattern(query.q);
    const search = or(ilike(projects.name, pattern), ilike(projects.client, pattern));
    if (search) conditions.push(search);
  }
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      updated: { by: projects.updatedAt, dir: 'desc' },
      name: { by: sql`lower(${projects.name})`, dir: 'asc' },
      created: { by: projects.createdAt, dir: 'desc' },
    },
    projects.id,
  );
  return paginate(query, {
    rows: async (limit, offset) => {
      const rows = await db
        .select()
        .from(projects)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      const counts = await projectCounts(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        client: row.client,
        status: row.status,
        startsAt: row.startsAt,
        endsAt: row.endsAt,
        counts: counts.get(row.id) ?? emptyCounts(),
        updatedAt: row.updatedAt.toISOString(),
      }));
    },
    count: () => countOf(db.select({ value: count() }).from(projects).where(where)),
  });
}

/** The whole project as its page loads it, with counts. */
export async function projectView(db: Db, project: Project): Promise<AdminProject> {
  const counts = await projectCounts(db, [project.id]);
  return {
    id: project.id,
    ...projectSummary(project),
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
    counts: counts.get(project.id) ?? emptyCounts(),
  };
}

/** What the audit log keeps of a project. */
export const projectSummary = (project: Project) => ({
  name: project.name,
  client: project.client,
  description: project.description,
  status: project.status,
  startsAt: project.startsAt,
  endsAt: project.endsAt,
});

export async function createProject(db: Db, clock: Clock, input: ProjectCreate, actorId: number): Promise<Project> {
  const rows = await db
    .insert(projects)
    .values({
      name: input.name,
      client: input.client,
      description: input.description,
      status: input.status,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      ...authoredColumns(actorId, clock.now()),
    })
    .returning();
  return insertedRow(rows);
}

/**
 * Changes the given fields. The dates are checked against the ones kept (`endsAt` on or after
 * `startsAt`); 404 for an unknown project. Returns the project before and after.
 */
export async function updateProject(db: Db, clock: Clock, id: number, patch: ProjectPatch): Promise<{ before: Project; after: Project }> {
  const before = await existingProject(db, id);
  const startsAt = patch.startsAt === undefined ? before.startsAt : patch.startsAt;
  const endsAt = patch.endsAt === undefined ? before.endsAt : patch.endsAt;
  if (startsAt && endsAt && endsAt < startsAt) throw fieldError('endsAt', 'Must be on or after the start date');
  const values: Partial<typeof projects.$inferInsert> = { updatedAt: clock.now() };
  copyDefined(values, patch, ['name', 'client', 'description', 'status', 'startsAt', 'endsAt']);
  const [after] = await db.update(projects).set(values).where(eq(projects.id, id)).returning();
  if (!after) throw new ApiError(404, 'not_found', 'No such project');
  return { before, after };
}
