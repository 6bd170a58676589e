/**
 * Forms and their published versions: the queries and rules behind `/api/admin/forms` (the routes
 * only read requests and shape answers). A form has one working draft, saved whenever it is
 * well-formed, with a revision number that detects concurrent edits; publishing freezes the draft
 * as version 1, 2, … once it passes the publish checks.
 */
import { and, count, desc, eq, ilike, inArray, max, ne, sql, type SQL } from 'drizzle-orm';
import { emptyDefinition, type FormDefinition, type FormDraft } from '../../shared/forms/definition.ts';
import { checkForPublish, diffDefinitions, missingTranslations, type FormChange } from '../../shared/forms/index.ts';
import type { Language } from '../../shared/languages.ts';
import {
  FORM_TITLE_MAX_LENGTH,
  type AdminForm,
  type AdminFormList,
  type AdminFormListItem,
  type FormDraftChanges,
  type FormListQuery,
  type FormStatus,
  type FormUse,
  type FormVersion,
  type StaleRevisionError,
  type UserRef,
} from '../../shared/schemas/forms.ts';
import type { Db } from '../db/index.ts';
import { formVersions, forms, users, type Form, type FormVersionRow } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { formUsage, formUsageForMany, formVersionsWithAnswers } from './form-usage.ts';
import { countOf, listOrder, paginate } from './list.ts';
import { containsPattern } from './search.ts';

export const STALE_REVISION_MESSAGE = 'Someone else saved this form since you opened it';

/** A title cut to the form title's limit (never inside a surrogate pair), trimmed. */
export function formTitle(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= FORM_TITLE_MAX_LENGTH) return trimmed;
  let end = FORM_TITLE_MAX_LENGTH;
  const last = trimmed.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return trimmed.slice(0, end).trimEnd();
}

/** True for PostgreSQL's unique_violation, however the driver wraps it. */
function isUniqueViolation(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function userRefs(db: Db, ids: readonly (number | null)[]): Promise<Map<number, UserRef>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, row]));
}

const refOf = (refs: Map<number, UserRef>, id: number | null): UserRef | null => (id === null ? null : (refs.get(id) ?? null));

/** The highest version of each form that has one. */
async function latestVersionNumbers(db: Db, formIds: readonly number[]): Promise<Map<number, number>> {
  if (formIds.length === 0) return new Map();
  const rows = await db
    .select({ formId: formVersions.formId, version: max(formVersions.version) })
    .from(formVersions)
    .where(inArray(formVersions.formId, [...formIds]))
    .groupBy(formVersions.formId);
  return new Map(rows.flatMap((row) => (row.version === null ? [] : [[row.formId, row.version] as const])));
}

/** The form's newest version with its definition, or null before the first publish. */
async function latestVersion(db: Db, formId: number): Promise<FormVersionRow | null> {
  const [row] = await db.select().from(formVersions).where(eq(formVersions.formId, formId)).orderBy(desc(formVersions.version)).limit(1);
  return row ?? null;
}

export async function findForm(db: Db, id: number): Promise<Form | null> {
  const [row] = await db.select().from(forms).where(eq(forms.id, id)).limit(1);
  return row ?? null;
}

/** A page of forms: search in the title, sorted, archived ones only when asked for. */
export async function listForms(db: Db, query: FormListQuery): Promise<AdminFormList> {
  const conditions: SQL[] = [query.status ? eq(forms.status, query.status) : ne(forms.status, 'archived')];
  if (query.q) conditions.push(ilike(forms.title, containsPattern(query.q)));
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      updated: { by: forms.updatedAt, dir: 'desc' },
      title: { by: sql`lower(${forms.title})`, dir: 'asc' },
      created: { by: forms.createdAt, dir: 'desc' },
    },
    forms.id,
  );
  return paginate(query, {
    rows: async (limit, offset) => {
      const rows = await db
        .select({ id: forms.id, title: forms.title, status: forms.status, createdAt: forms.createdAt, updatedAt: forms.updatedAt })
        .from(forms)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      const ids = rows.map((row) => row.id);
      const [latest, usage] = await Promise.all([latestVersionNumbers(db, ids), formUsageForMany(db, ids)]);
      return rows.map((row): AdminFormListItem => ({
        id: row.id,
        title: row.title,
        status: row.status,
        latestVersion: latest.get(row.id) ?? null,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        usedBy: usage.get(row.id) ?? [],
      }));
    },
    count: () => countOf(db.select({ value: count() }).from(forms).where(where)),
  });
}

/** The whole form as the builder loads it: draft, revision, version history, uses. */
export async function formView(db: Db, form: Form): Promise<AdminForm> {
  const [versions, usedBy] = await Promise.all([
    db
      .select({ version: formVersions.version, publishedAt: formVersions.publishedAt, publishedBy: formVersions.publishedBy })
      .from(formVersions)
      .where(eq(formVersions.formId, form.id))
      .orderBy(desc(formVersions.version)),
    formUsage(db, form.id),
  ]);
  const refs = await userRefs(db, [form.createdBy, form.updatedBy, ...versions.map((v) => v.publishedBy)]);
  return {
    id: form.id,
    title: form.title,
    status: form.status,
    draft: form.draft,
    revision: form.revision,
    versions: versions.map((v) => ({ version: v.version, publishedAt: v.publishedAt.toISOString(), publishedBy: refOf(refs, v.publishedBy) })),
    latestVersion: versions[0]?.version ?? null,
    usedBy,
    createdAt: form.createdAt.toISOString(),
    createdBy: refOf(refs, form.createdBy),
    updatedAt: form.updatedAt.toISOString(),
    updatedBy: refOf(refs, form.updatedBy),
    archivedAt: form.archivedAt?.toISOString() ?? null,
  };
}

/** A new form: `emptyDefinition(title)`, or the given draft with its title replaced by `title`. */
export async function createForm(db: Db, clock: Clock, input: { title: string; definition?: FormDraft; actorId: number }): Promise<Form> {
  const title = formTitle(input.title);
  const draft: FormDraft = input.definition ? { ...input.definition, title } : emptyDefinition(title);
  const now = clock.now();
  const [row] = await db
    .insert(forms)
    .values({ title, draft, status: 'draft', createdBy: input.actorId, updatedBy: input.actorId, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** The 409 `stale_revision` body: the form as it is now, so nothing typed is lost. */
async function staleRevision(db: Db, form: Form): Promise<StaleRevisionError> {
  const refs = await userRefs(db, [form.updatedBy]);
  return {
    code: 'stale_revision',
    message: STALE_REVISION_MESSAGE,
    revision: form.revision,
    draft: form.draft,
    title: form.title,
    updatedAt: form.updatedAt.toISOString(),
    updatedBy: refOf(refs, form.updatedBy),
  };
}

export type DraftSaveResult =
  | { kind: 'saved'; revision: number; title: string; updatedAt: Date }
  | { kind: 'not_found' }
  | { kind: 'archived' }
  | { kind: 'stale'; error: StaleRevisionError };

/**
 * Saves the draft when `revision` is still the current one (one UPDATE … WHERE revision = ?, so
 * of two concurrent saves from the same revision exactly one wins); the form's title follows a
 * non-empty draft title.
 */
export async function saveDraft(
  db: Db,
  clock: Clock,
  input: { id: number; definition: FormDraft; revision: number; actorId: number },
): Promise<DraftSaveResult> {
  const title = formTitle(input.definition.title);
  const [saved] = await db
    .update(forms)
    .set({
      draft: input.definition,
      revision: sql`${forms.revision} + 1`,
      ...(title === '' ? {} : { title }),
      updatedAt: clock.now(),
      updatedBy: input.actorId,
    })
    .where(and(eq(forms.id, input.id), eq(forms.revision, input.revision), ne(forms.status, 'archived')))
    .returning({ revision: forms.revision, title: forms.title, updatedAt: forms.updatedAt });
  if (saved) return { kind: 'saved', ...saved };
  const form = await findForm(db, input.id);
  if (!form) return { kind: 'not_found' };
  if (form.status === 'archived') return { kind: 'archived' };
  return { kind: 'stale', error: await staleRevision(db, form) };
}

export type PublishResult =
  | { kind: 'published'; version: number; changes: FormChange[] }
  | { kind: 'not_found' }
  | { kind: 'archived' }
  | { kind: 'stale'; error: StaleRevisionError }
  | { kind: 'problems'; problems: Record<string, string[]> }
  | { kind: 'breaking'; changes: FormChange[] }
  | { kind: 'missing_translations'; missing: Partial<Record<Language, number>> }
  | { kind: 'conflict' };

const hasProblems = (problems: Record<string, string[]>) => Object.values(problems).some((list) => list.length > 0);

/**
 * Publishes the current draft as the next version. In one transaction holding the form's row
 * lock, so concurrent publishes of a form take 1, 2, … in turn; (form_id, version) is the primary
 * key besides. Breaking changes need `confirmBreaking` once an earlier version has answers.
 */
export async function publishForm(
  db: Db,
  clock: Clock,
  input: { id: number; confirmBreaking: boolean; revision?: number; fallback?: 'source'; actorId: number },
): Promise<PublishResult> {
  try {
    return await db.transaction(async (tx): Promise<PublishResult> => {
      const [form] = await tx.select().from(forms).where(eq(forms.id, input.id)).for('update');
      if (!form) return { kind: 'not_found' };
      if (form.status === 'archived') return { kind: 'archived' };
      if (input.revision !== undefined && input.revision !== form.revision) return { kind: 'stale', error: await staleRevision(tx, form) };
      const { definition: checked, problems } = checkForPublish(form.draft);
      if (!checked || hasProblems(problems)) return { kind: 'problems', problems };
      // Missing translations publish only with the fallback named; the version records it.
      const missing = missingTranslations(checked);
      const hasMissing = Object.keys(missing).length > 0;
      if (hasMissing && input.fallback !== 'source') return { kind: 'missing_translations', missing };
      const { fallback: _fallback, ...rest } = checked;
      const definition: FormDefinition = hasMissing ? { ...rest, fallback: 'source' } : rest;
      const previous = await latestVersion(tx, form.id);
      const changes = previous ? diffDefinitions(previous.definition, definition) : [];
      const breaking = changes.filter((change) => change.breaking);
      if (breaking.length > 0 && !input.confirmBreaking && (await formVersionsWithAnswers(tx, form.id)).length > 0) {
        return { kind: 'breaking', changes: breaking };
      }
      const version = (previous?.version ?? 0) + 1;
      const now = clock.now();
      await tx.insert(formVersions).values({ formId: form.id, version, definition, publishedAt: now, publishedBy: input.actorId });
      await tx.update(forms).set({ status: 'published', updatedAt: now, updatedBy: input.actorId }).where(eq(forms.id, form.id));
      return { kind: 'published', version, changes };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: 'conflict' };
    throw error;
  }
}

/** The current draft against the latest version, for the publish dialog. */
export async function draftChanges(db: Db, form: Form): Promise<FormDraftChanges> {
  const [previous, answered] = await Promise.all([latestVersion(db, form.id), formVersionsWithAnswers(db, form.id)]);
  const hasAnswers = answered.length > 0;
  const latest = previous?.version ?? null;
  const { definition, problems } = checkForPublish(form.draft);
  const missing = missingTranslations(form.draft);
  if (!definition || hasProblems(problems)) return { changes: [], breaking: false, hasAnswers, latestVersion: latest, problems, missingTranslations: missing };
  const changes = previous ? diffDefinitions(previous.definition, definition) : [];
  return { changes, breaking: changes.some((change) => change.breaking), hasAnswers, latestVersion: latest, missingTranslations: missing };
}

/** One published version with its frozen definition, or null. */
export async function findVersion(db: Db, formId: number, version: number): Promise<FormVersion | null> {
  const [row] = await db
    .select()
    .from(formVersions)
    .where(and(eq(formVersions.formId, formId), eq(formVersions.version, version)))
    .limit(1);
  if (!row) return null;
  const refs = await userRefs(db, [row.publishedBy]);
  return { version: row.version, definition: row.definition, publishedAt: row.publishedAt.toISOString(), publishedBy: refOf(refs, row.publishedBy) };
}

/** A new draft-only form, `Copy of <title>`, whose draft is the source's draft (retitled the same way). */
export async function duplicateForm(db: Db, clock: Clock, source: Form, actorId: number): Promise<Form> {
  const title = formTitle(`Copy of ${source.title}`);
  const now = clock.now();
  const [row] = await db
    .insert(forms)
    .values({ title, draft: { ...source.draft, title }, status: 'draft', createdBy: actorId, updatedBy: actorId, createdAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export type ArchiveResult =
  { kind: 'archived'; form: Form; previousStatus: FormStatus } | { kind: 'unchanged' } | { kind: 'not_found' } | { kind: 'in_use'; usedBy: FormUse[] };

/** Archives the form unless a live survey or mission uses it; archiving an archived form changes nothing. */
export async function archiveForm(db: Db, clock: Clock, id: number, actorId: number): Promise<ArchiveResult> {
  const form = await findForm(db, id);
  if (!form) return { kind: 'not_found' };
  if (form.status === 'archived') return { kind: 'unchanged' };
  const usedBy = await formUsage(db, id);
  if (usedBy.some((use) => use.live)) return { kind: 'in_use', usedBy };
  const now = clock.now();
  const [row] = await db
    .update(forms)
    .set({ status: 'archived', archivedAt: now, updatedAt: now, updatedBy: actorId })
    .where(and(eq(forms.id, id), ne(forms.status, 'archived')))
    .returning();
  return row ? { kind: 'archived', form: row, previousStatus: form.status } : { kind: 'unchanged' };
}

export type RestoreResult = { kind: 'restored'; form: Form } | { kind: 'unchanged'; form: Form } | { kind: 'not_found' };

/** Brings an archived form back: `published` when it has versions, else `draft`. */
export async function restoreForm(db: Db, clock: Clock, id: number, actorId: number): Promise<RestoreResult> {
  const [row] = await db
    .update(forms)
    .set({
      status: sql`case when exists (select 1 from ${formVersions} where ${formVersions.formId} = ${forms.id}) then 'published' else 'draft' end`,
      archivedAt: null,
      updatedAt: clock.now(),
      updatedBy: actorId,
    })
    .where(and(eq(forms.id, id), eq(forms.status, 'archived')))
    .returning();
  if (row) return { kind: 'restored', form: row };
  const form = await findForm(db, id);
  return form ? { kind: 'unchanged', form } : { kind: 'not_found' };
}
