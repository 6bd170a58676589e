/**
 * The answers export: a mission's entries (`GET /api/admin/missions/{id}/entries/export`) or a
 * project's, every mission's (`GET /api/admin/projects/{id}/entries/export`), as CSV or XLSX, one
 * row per entry and one column per question of the mission's form. Entries are read in keyset
 * pages of `CSV_PAGE_SIZE` by id (`keysetPages`, csv.ts) as the client reads the file, so memory
 * stays bounded whatever their number; every text cell passes the formula guard (export-text.ts),
 * in CSV (`csvRows`) and XLSX (`xlsx-writer.ts`) alike. Photos are signed links
 * (`media-links.ts`) valid `SHARED_PHOTO_LINK_DAYS` days. docs/api.md "Answers export".
 */
import { and, asc, eq, gt, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { EntryExportQuery } from '../../shared/schemas/entry-exports.ts';
import type { EntryExportFormat } from '../../shared/entry-exports.ts';
import { answerLanguageOf } from '../../shared/answers.ts';
import type { Answers, FormElement } from '../../shared/forms/definition.ts';
import type { Language } from '../../shared/languages.ts';
import { answerOf, isOtherAnswer } from '../../shared/forms/logic.ts';
import { SHARED_PHOTO_LINK_DAYS } from '../../shared/review-exports.ts';
import { addDays, utcMidnight } from '../../shared/calendar-day.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { missionEntries, missions, users, type Mission, type Project } from '../db/schema/index.ts';
import { audit } from './audit.ts';
import { currentEntryAnswers } from './entry-versions.ts';
import { answerableElements, answerCell, elementHeader, keysetCsvStream, keysetPages, type CsvCell } from './csv.ts';
import { existingMediaIds, sharedPhotoLinks } from './media-links.ts';
import { missionDefinitions } from './review-exports.ts';
import { XLSX_CONTENT_TYPE, xlsxSheetName, xlsxStream, type XlsxSheetSource } from './xlsx-writer.ts';

/** The columns every export starts with (the project's adds `PROJECT_MISSION_HEADER` after `Entry ID`). */
export const ENTRY_EXPORT_HEADER = [
  'Participant ID',
  'Email',
  'Entry ID',
  'Diary day',
  'Status',
  'Submitted at',
  'Decided at',
  'Reviewer',
  'Resubmissions',
  // The code of the language the entry was answered in (decision 035); answers are written with the source language's labels.
  'Language',
];
/** The project export's mission columns, after `Entry ID`. */
export const PROJECT_MISSION_HEADER = ['Mission ID', 'Mission'];

/** An entry as read: its latest submitted answers (a draft's own), its participant's and reviewer's addresses. */
interface EntryRead {
  id: number;
  missionId: number;
  userId: number;
  email: string;
  localDate: string;
  status: string;
  submittedAt: Date | null;
  reviewedAt: Date | null;
  reviewer: string | null;
  submissionCount: number;
  language: Language | null;
  answers: Answers;
}

/** A photo's signed link, or null when the photo is no longer there. */
type PhotoLink = (mediaId: string) => string | null;

/** One column of a question: its header and its cell from an entry's answers. */
interface QuestionColumn {
  header: string;
  cell: (answers: Answers, photo: PhotoLink) => CsvCell;
}

/** A mission with its question columns, and the photo questions whose photos a page looks up. */
interface MissionColumns {
  mission: Mission;
  questions: QuestionColumn[];
  photoIds: string[];
}

/** The columns of one question: a multiple choice one per option (`Yes`/`No`, blank when not answered) and `Other` when allowed; photos and videos as links. */
function questionColumns(element: FormElement, photoSeparator: string): QuestionColumn[] {
  const header = elementHeader(element);
  const value = (answers: Answers) => answerOf(answers, element.id);
  if (element.type === 'multiple_choice') {
    const chosen = (answers: Answers) => {
      const given = value(answers);
      return Array.isArray(given) ? given : given === undefined || given === null ? null : [given];
    };
    const columns: QuestionColumn[] = element.options.map((option) => ({
      header: `${header}: ${option.label.trim() || option.id}`,
      cell: (answers) => {
        const items = chosen(answers);
        return items === null ? null : items.includes(option.id) ? 'Yes' : 'No';
      },
    }));
    if (element.allowOther)
      columns.push({
        header: `${header}: Other`,
        cell: (answers) => {
          const others = (chosen(answers) ?? []).filter(isOtherAnswer).map((item) => item.other);
          return others.length > 0 ? others.join('; ') : null;
        },
      });
    return columns;
  }
  if (element.type === 'photo' || element.type === 'video')
    return [
      {
        header,
        cell: (answers, photo) => {
          const given = value(answers);
          if (!Array.isArray(given)) return null;
          const links = given.flatMap((id) => (typeof id === 'string' ? (photo(id) ?? []) : []));
          return links.length > 0 ? links.join(photoSeparator) : null;
        },
      },
    ];
  return [{ header, cell: (answers) => answerCell(element, value(answers)) }];
}

/** The missions with their question columns, in order. */
async function missionColumns(db: Db, rows: readonly Mission[], format: EntryExportFormat): Promise<MissionColumns[]> {
  const definitions = await missionDefinitions(db, rows);
  // A cell holds several links on lines of their own in a workbook; a CSV keeps a row on one line.
  const separator = format === 'xlsx' ? '\n' : ' ';
  return rows.map((mission) => {
    const definition = definitions.get(mission.id) ?? null;
    const elements = definition ? answerableElements(definition) : [];
    return {
      mission,
      questions: elements.flatMap((element) => questionColumns(element, separator)),
      photoIds: elements.filter((element) => element.type === 'photo' || element.type === 'video').map((element) => element.id),
    };
  });
}

/** When an entry counts for the day filters: submitted, else created (the review queue's rule). */
const entryMoment = sql`coalesce(${missionEntries.submittedAt}, ${missionEntries.createdAt})`;

/** The query's filters on entries of these missions. */
function entryFilter(missionIds: readonly number[], query: EntryExportQuery): SQL | undefined {
  return and(
    inArray(missionEntries.missionId, [...missionIds]),
    query.status === 'all' ? ne(missionEntries.status, 'draft') : eq(missionEntries.status, query.status),
    query.from ? sql`${entryMoment} >= ${utcMidnight(query.from).toISOString()}::timestamptz` : undefined,
    query.to ? sql`${entryMoment} < ${utcMidnight(addDays(query.to, 1)).toISOString()}::timestamptz` : undefined,
  );
}

const reviewerEmail = sql<string | null>`(select reviewer.email from ${users} as reviewer where reviewer.id = ${missionEntries.reviewedBy})`;

/** What an export needs besides its query: the database, the links' key and origin, the time. */
export interface ExportContext {
  db: Db;
  config: Pick<Config, 'mediaLinkSecret' | 'publicUrl'>;
  now: Date;
}

/**
 * A page reader for the keyset: the entries after `afterId` of these missions, in id order, each
 * turned into its cells (`cells`) once the page's photos have been looked up (one query a page).
 */
function pageReader(
  context: ExportContext,
  link: (mediaId: string) => string,
  byMission: ReadonlyMap<number, MissionColumns>,
  query: EntryExportQuery,
  cells: (entry: EntryRead, photo: PhotoLink) => CsvCell[],
): (afterId: number, limit: number) => Promise<{ id: number; cells: CsvCell[] }[]> {
  const where = entryFilter([...byMission.keys()], query);
  return async (afterId, limit) => {
    const entries: EntryRead[] = await context.db
      .select({
        id: missionEntries.id,
        missionId: missionEntries.missionId,
        userId: missionEntries.userId,
        email: users.email,
        localDate: missionEntries.localDate,
        status: missionEntries.status,
        submittedAt: missionEntries.submittedAt,
        reviewedAt: missionEntries.reviewedAt,
        reviewer: reviewerEmail,
        submissionCount: missionEntries.submissionCount,
        language: missionEntries.language,
        // The entry's current version (what was reviewed; a draft's own answers): entry-versions.ts.
        answers: currentEntryAnswers(missionEntries.id, missionEntries.answers),
      })
      .from(missionEntries)
      .innerJoin(users, eq(users.id, missionEntries.userId))
      .where(and(where, gt(missionEntries.id, afterId)))
      .orderBy(asc(missionEntries.id))
      .limit(limit);
    const named = new Set<string>();
    for (const entry of entries) {
      for (const id of byMission.get(entry.missionId)?.photoIds ?? []) {
        const given = answerOf(entry.answers, id);
        if (Array.isArray(given)) for (const item of given) if (typeof item === 'string') named.add(item);
      }
    }
    const existing = await existingMediaIds(context.db, named);
    const photo: PhotoLink = (mediaId) => (existing.has(mediaId) ? link(mediaId) : null);
    return entries.map((entry) => ({ id: entry.id, cells: cells(entry, photo) }));
  };
}

/** The fixed cells of an entry; `mission` adds the project export's mission columns. */
function entryCells(entry: EntryRead, columns: MissionColumns, withMission: boolean): CsvCell[] {
  const { mission } = columns;
  const reviewer = entry.reviewer ?? (entry.reviewedAt && mission.review === 'automatic' ? 'Automatic' : null);
  return [
    entry.userId,
    entry.email,
    entry.id,
    ...(withMission ? [mission.id, mission.title] : []),
    entry.localDate,
    entry.status,
    entry.submittedAt?.toISOString() ?? null,
    entry.reviewedAt?.toISOString() ?? null,
    reviewer,
    Math.max(0, entry.submissionCount - 1),
    answerLanguageOf(entry.language),
  ];
}

const baseHeader = (withMission: boolean) =>
  withMission ? [...ENTRY_EXPORT_HEADER.slice(0, 3), ...PROJECT_MISSION_HEADER, ...ENTRY_EXPORT_HEADER.slice(3)] : ENTRY_EXPORT_HEADER;

/** A streamed file: its body, type and name. */
export interface ExportFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
}

/** The cells of the pages, for the XLSX writer. */
async function* cellPages(pages: AsyncIterable<{ cells: CsvCell[] }[]>): AsyncGenerator<CsvCell[][]> {
  for await (const rows of pages) yield rows.map((row) => row.cells);
}

/**
 * The file of an export. One mission: its questions after the fixed columns. A project: the
 * mission columns too, and in CSV the questions of every mission side by side (each header
 * prefixed with its mission's title, a row filling its own mission's), in XLSX a sheet per
 * mission (`1. Title`, in the project's order) with that mission's questions.
 */
export async function entryExportFile(
  context: ExportContext,
  scope: { kind: 'mission'; mission: Mission } | { kind: 'project'; project: Project; missions: Mission[] },
  query: EntryExportQuery,
): Promise<ExportFile> {
  const rows = scope.kind === 'mission' ? [scope.mission] : scope.missions;
  const withMission = scope.kind === 'project';
  const all = await missionColumns(context.db, rows, query.format);
  const link = await sharedPhotoLinks(context.db, context.config, context.now, SHARED_PHOTO_LINK_DAYS);
  const stamp = context.now.toISOString().slice(0, 10);
  const fileName = `${scope.kind}-${scope.kind === 'mission' ? scope.mission.id : scope.project.id}-answers-${stamp}.${query.format}`;
  const forMissions = (columns: MissionColumns[]) => new Map(columns.map((item) => [item.mission.id, item]));

  if (query.format === 'xlsx') {
    const sheets: XlsxSheetSource[] = all.map((columns, index) => ({
      name: withMission ? xlsxSheetName(`${index + 1}. `, columns.mission.title) : 'Answers',
      header: [...baseHeader(withMission), ...columns.questions.map((question) => question.header)],
      width: (_header, column) => (column < baseHeader(withMission).length ? 16 : 24),
      pages: cellPages(
        keysetPages(
          pageReader(context, link, forMissions([columns]), query, (entry, photo) => [
            ...entryCells(entry, columns, withMission),
            ...columns.questions.map((question) => question.cell(entry.answers, photo)),
          ]),
        ),
      ),
    }));
    if (sheets.length === 0) sheets.push({ name: 'Answers', header: baseHeader(withMission), pages: [] });
    return { body: xlsxStream(sheets), contentType: XLSX_CONTENT_TYPE, fileName };
  }

  // CSV: one table; a project's missions' questions side by side, each mission's at its offset.
  const offsets = new Map<number, number>();
  let width = 0;
  for (const columns of all) {
    offsets.set(columns.mission.id, width);
    width += columns.questions.length;
  }
  const header = [
    ...baseHeader(withMission),
    ...all.flatMap((columns) => columns.questions.map((question) => (withMission ? `${columns.mission.title} — ${question.header}` : question.header))),
  ];
  const byMission = forMissions(all);
  const read = pageReader(context, link, byMission, query, (entry, photo) => {
    const columns = byMission.get(entry.missionId);
    if (!columns) throw new Error(`entry ${entry.id} of a mission not in the export`);
    const questions: CsvCell[] = Array.from({ length: width }, () => null);
    const offset = offsets.get(entry.missionId) ?? 0;
    columns.questions.forEach((question, index) => (questions[offset + index] = question.cell(entry.answers, photo)));
    return [...entryCells(entry, columns, withMission), ...questions];
  });
  return {
    body: keysetCsvStream(
      header,
      (afterId, limit) => (byMission.size === 0 ? Promise.resolve([]) : read(afterId, limit)),
      (row) => row.cells,
    ),
    contentType: 'text/csv; charset=utf-8',
    fileName,
  };
}

/** The project's missions in its lists' order (oldest first). */
export function projectMissions(db: Db, projectId: number): Promise<Mission[]> {
  return db.select().from(missions).where(eq(missions.projectId, projectId)).orderBy(asc(missions.createdAt), asc(missions.id));
}

/** The audit row of an export (`entries.export`): what was exported and with which filters, never answers. */
export async function auditEntryExport(
  db: Db,
  target: { type: 'mission' | 'project'; id: number },
  query: EntryExportQuery,
  actor: { id: number; ip: string | null },
): Promise<void> {
  await audit(db, {
    actorId: actor.id,
    via: 'api',
    action: 'entries.export',
    targetType: target.type,
    targetId: target.id,
    after: { format: query.format, status: query.status, from: query.from ?? null, to: query.to ?? null },
    ip: actor.ip,
  });
}
