/**
 * An entry's current version, one rule for every reader (the review exports, the gallery and its
 * ZIP): the answers of its latest submitted version (`entry_submissions`, the highest `version`,
 * one row read backwards through `entry_submissions_entry_version_idx`), or the entry's own
 * answers while it has none (a draft never submitted, an entry submitted before versions were
 * kept). A participant's changes to a submitted entry are not part of it until they are
 * submitted; a photo they replaced is in no current version.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Answers } from '../../shared/forms/definition.ts';
import { entrySubmissions } from '../db/schema/index.ts';

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
