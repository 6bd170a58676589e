/**
 * An entry's current version, one rule for every reader (the review exports, the gallery and its
 * ZIP): the answers of its latest submitted version (`entry_submissions`, the highest `version`,
 * one row read backwards through `entry_submissions_entry_version_idx`), or the entry's own
 * answers while it has none (a draft never submitted, an entry submitted before versions were
 * kept). A participant's changes to a submitted entry are not part of it until they are
 * submitted; a photo they replaced is in no current version.
 */
import { inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Answers } from '../../shared/forms/definition.ts';
import { parsedJson, type Db } from '../db/index.ts';
import { entrySubmissions, missionEntries } from '../db/schema/index.ts';

/** The current version's answers of the entry whose id and own answers are given (columns of the outer query). */
export function currentEntryAnswers(entryId: SQLWrapper, entryAnswers: SQLWrapper): SQL<Answers> {
  return sql<Answers>`coalesce((select ${entrySubmissions.answers} from ${entrySubmissions} where ${entrySubmissions.entryId} = ${entryId} order by ${entrySubmissions.version} desc limit 1), ${entryAnswers})`;
}

/**
 * Whether answers (jsonb) hold a photo: its id as a JSON string anywhere in them. Media ids are
 * random base64url (nothing to escape), so a match is the id (decision 010, as removal checks).
 */
export function answersHoldMedia(answers: SQLWrapper, mediaId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`(strpos((${answers})::text, '"' || ${mediaId} || '"') > 0)`;
}

/** The current version's form version of the entry whose id and own form version are given (as `currentEntryAnswers`). */
export function currentEntryFormVersion(entryId: SQLWrapper, entryFormVersion: SQLWrapper): SQL<number> {
  return sql<number>`coalesce((select ${entrySubmissions.formVersion} from ${entrySubmissions} where ${entrySubmissions.entryId} = ${entryId} order by ${entrySubmissions.version} desc limit 1), ${entryFormVersion})`;
}

/** The current version (answers and the form version they answer) of each of these entries, by id. */
export async function currentVersionsOf(db: Db, entryIds: readonly number[]): Promise<Map<number, { formVersion: number; answers: Answers }>> {
  if (entryIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: missionEntries.id,
      formVersion: currentEntryFormVersion(missionEntries.id, missionEntries.formVersion),
      answers: currentEntryAnswers(missionEntries.id, missionEntries.answers),
    })
    .from(missionEntries)
    .where(inArray(missionEntries.id, [...entryIds]));
  return new Map(rows.map((row) => [row.id, { formVersion: Number(row.formVersion), answers: parsedJson<Answers>(row.answers) }]));
}
