/**
 * Where forms are used, and which of their versions have answers: straight queries over the
 * programme's tables (surveys and their responses, missions and their entries).
 */
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FormUse } from '../../shared/schemas/forms.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missions, surveyResponses, surveys } from '../db/schema/index.ts';

export type { FormUse };

/** Every survey and mission using each form (surveys first, then missions, by id); forms without uses map to []. */
export async function formUsageForMany(db: Db, formIds: readonly number[]): Promise<Map<number, FormUse[]>> {
  const out = new Map<number, FormUse[]>(formIds.map((id) => [id, []]));
  if (formIds.length === 0) return out;
  const ids = [...new Set(formIds)];
  const usesOf = (table: typeof surveys | typeof missions) =>
    db
      .select({ formId: table.formId, id: table.id, title: table.title, projectId: table.projectId, status: table.status, version: table.formVersion })
      .from(table)
      .where(inArray(table.formId, ids))
      .orderBy(asc(table.id));
  const [surveyRows, missionRows] = await Promise.all([usesOf(surveys), usesOf(missions)]);
  for (const [kind, rows] of [
    ['survey', surveyRows],
    ['mission', missionRows],
  ] as const) {
    for (const row of rows) {
      if (row.formId === null || row.version === null) continue;
      out
        .get(row.formId)
        ?.push({ kind, id: row.id, title: row.title, projectId: row.projectId, status: row.status, version: row.version, live: row.status === 'live' });
    }
  }
  return out;
}

/** Every survey and mission using the form. */
export async function formUsage(db: Db, formId: number): Promise<FormUse[]> {
  return (await formUsageForMany(db, [formId])).get(formId) ?? [];
}

/**
 * The form's version numbers that have answers, ascending (publishing a breaking change then
 * needs confirming): the versions of its surveys' responses and its missions' entries whose
 * answers are not empty.
 */
export async function formVersionsWithAnswers(db: Db, formId: number): Promise<number[]> {
  const notEmpty = (column: typeof surveyResponses.answers | typeof missionEntries.answers) => ne(column, sql`'{}'::jsonb`);
  const [fromResponses, fromEntries] = await Promise.all([
    db
      .selectDistinct({ version: surveyResponses.formVersion })
      .from(surveyResponses)
      .innerJoin(surveys, eq(surveys.id, surveyResponses.surveyId))
      .where(and(eq(surveys.formId, formId), notEmpty(surveyResponses.answers))),
    db
      .selectDistinct({ version: missionEntries.formVersion })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .where(and(eq(missions.formId, formId), notEmpty(missionEntries.answers))),
  ]);
  return [...new Set([...fromResponses, ...fromEntries].map((row) => row.version))].sort((a, b) => a - b);
}
