/**
 * A survey's results for moderators and admins: the paginated responses, the CSV export (built
 * 500 rows at a time and streamed, however many responses there are) and the per-question
 * summaries behind the charts, aggregated by PostgreSQL over the `answers` jsonb of submitted
 * responses. Answers given on other versions of the form count by element id (an element id
 * keeps its meaning across versions).
 */
import { and, asc, count, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { SCALE_DEFAULT_STEP } from '../../shared/forms/constants.ts';
import type { FormDefinition, FormElement, FormOption } from '../../shared/forms/definition.ts';
import { answerOf } from '../../shared/forms/logic.ts';
import type { ListPage } from '../../shared/list.ts';
import type { responseListQuerySchema } from '../../shared/schemas/surveys.ts';
import {
  OTHER_OPTION_ID,
  type AdminSurveyResponse,
  type ElementSummary,
  type OptionCount,
  type ResponseExportStatus,
  type SurveyResults,
} from '../../shared/surveys.ts';
import { queryRows, type Db } from '../db/index.ts';
import { formVersions, surveyExternalRefs, surveyResponses, users, type Survey } from '../db/schema/index.ts';
import { answerCell, answerableElements, elementHeader, keysetCsvStream } from './csv.ts';
import { countOf, listOrder, paginate } from './list.ts';
import { iso } from './projects.ts';
import { containsPattern } from './search.ts';

/** Rows of the CSV export read per query. */

/** The definition of the survey's current form version (null for external surveys). */
export async function currentDefinition(db: Db, survey: Survey): Promise<FormDefinition | null> {
  if (survey.formId === null || survey.formVersion === null) return null;
  const [row] = await db
    .select({ definition: formVersions.definition })
    .from(formVersions)
    .where(and(eq(formVersions.formId, survey.formId), eq(formVersions.version, survey.formVersion)))
    .limit(1);
  return row?.definition ?? null;
}

export type ResponseListQuery = z.output<typeof responseListQuerySchema>;

/**
 * A page of the survey's responses (the list contract), or of one status: `q` searches the
 * participant's email and names; sorted by `latest` (default: submitted ones first, latest first,
 * then drafts, latest change first), `started` (newest first) or `name` (last, then first; A to Z).
 */
export async function listResponses(db: Db, surveyId: number, query: ResponseListQuery): Promise<ListPage<AdminSurveyResponse>> {
  const conditions: (SQL | undefined)[] = [eq(surveyResponses.surveyId, surveyId), query.status ? eq(surveyResponses.status, query.status) : undefined];
  if (query.q) {
    const pattern = containsPattern(query.q);
    conditions.push(or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern)));
  }
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      latest: { by: [sql`${surveyResponses.status} = 'submitted'`, sql`coalesce(${surveyResponses.submittedAt}, ${surveyResponses.updatedAt})`], dir: 'desc' },
      started: { by: surveyResponses.startedAt, dir: 'desc' },
      name: { by: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`], dir: 'asc' },
    },
    surveyResponses.id,
  );
  return paginate(query, {
    rows: async (limit, offset) => {
      const rows = await db
        .select({
          id: surveyResponses.id,
          user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
          status: surveyResponses.status,
          formVersion: surveyResponses.formVersion,
          answers: surveyResponses.answers,
          startedAt: surveyResponses.startedAt,
          updatedAt: surveyResponses.updatedAt,
          submittedAt: surveyResponses.submittedAt,
        })
        .from(surveyResponses)
        .innerJoin(users, eq(users.id, surveyResponses.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => ({
        ...row,
        startedAt: row.startedAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        submittedAt: iso(row.submittedAt),
      }));
    },
    count: () => countOf(db.select({ value: count() }).from(surveyResponses).innerJoin(users, eq(users.id, surveyResponses.userId)).where(where)),
  });
}

// ---------------------------------------------------------------------------------------------
// CSV

/** The fixed columns of the export, before one column per question. */
export const CSV_BASE_HEADER = ['Response ID', 'Email', 'First name', 'Last name', 'Status', 'Submitted at', 'Form version'] as const;

/**
 * The CSV export as a stream of UTF-8 text (a byte order mark first, so spreadsheets read the
 * accents): the header row, then one row per response of `status` (default submitted), in the
 * order they were made; read `CSV_PAGE_SIZE` rows at a time by id, never all at once.
 */
export function responsesCsv(db: Db, survey: Survey, definition: FormDefinition | null, status: ResponseExportStatus): ReadableStream<Uint8Array> {
  const elements = definition ? answerableElements(definition) : [];
  const header = [...CSV_BASE_HEADER, ...elements.map(elementHeader)];
  return keysetCsvStream(
    header,
    (afterId, limit) =>
      db
        .select({
          id: surveyResponses.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          status: surveyResponses.status,
          submittedAt: surveyResponses.submittedAt,
          formVersion: surveyResponses.formVersion,
          answers: surveyResponses.answers,
        })
        .from(surveyResponses)
        .innerJoin(users, eq(users.id, surveyResponses.userId))
        .where(and(eq(surveyResponses.surveyId, survey.id), gt(surveyResponses.id, afterId), status === 'all' ? undefined : eq(surveyResponses.status, status)))
        .orderBy(asc(surveyResponses.id))
        .limit(limit),
    (row) => [
      row.id,
      row.email,
      row.firstName,
      row.lastName,
      row.status,
      iso(row.submittedAt),
      row.formVersion,
      ...elements.map((element) => answerCell(element, answerOf(row.answers, element.id))),
    ],
  );
}

// ---------------------------------------------------------------------------------------------
// Per-question summaries

const keyList = (keys: readonly string[]) =>
  sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  );

/**
 * `from … where …` of the queries below: each submitted response's top-level answers `e(key, val)`
 * to these element ids, with more lateral joins (`more`) when a query unnests the values.
 */
const answersOf = (surveyId: number, keys: readonly string[], more: SQL = sql``) => sql`
  from ${surveyResponses} r
  cross join lateral jsonb_each(case jsonb_typeof(r.answers) when 'object' then r.answers else '{}'::jsonb end) as e(key, val)
  ${more}
  where r.survey_id = ${surveyId} and r.status = 'submitted' and e.key in (${keyList(keys)})`;

const CHOICE_TYPES = new Set(['single_choice', 'multiple_choice', 'dropdown', 'ranking', 'rating', 'scale']);
const NUMBER_TYPES = new Set(['rating', 'scale', 'number']);
const TEXT_TYPES = new Set(['short_text', 'long_text']);
/** Latest texts shown per text question. */
const SAMPLES = 5;
/** Scales with more values than this list only the values given. */
const SCALE_OPTIONS_MAX = 201;

function optionsOf(element: FormElement): FormOption[] {
  switch (element.type) {
    case 'single_choice':
    case 'multiple_choice':
    case 'dropdown':
    case 'ranking':
      return element.options;
    case 'rating':
      return Array.from({ length: element.max }, (_, index) => ({ id: String(index + 1), label: String(index + 1) }));
    case 'scale': {
      const step = element.step ?? SCALE_DEFAULT_STEP;
      const values: FormOption[] = [];
      if (step > 0 && (element.max - element.min) / step + 1 <= SCALE_OPTIONS_MAX) {
        for (let index = 0; element.min + index * step <= element.max + 1e-9; index++) {
          const value = Number((element.min + index * step).toFixed(10));
          values.push({ id: String(value), label: String(value) });
        }
      }
      return values;
    }
    default:
      return [];
  }
}

/** The element's options with their counts; values not in the options (another version, "Other") are added after them. */
function countedOptions(element: FormElement, counts: Map<string, number>): OptionCount[] {
  const numeric = element.type === 'rating' || element.type === 'scale';
  const keyOf = (value: string) => (numeric && Number.isFinite(Number(value)) ? String(Number(value)) : value);
  const byKey = new Map<string, number>();
  for (const [value, n] of counts) byKey.set(keyOf(value), (byKey.get(keyOf(value)) ?? 0) + n);
  const out: OptionCount[] = optionsOf(element).map((option) => ({ id: option.id, label: option.label, count: byKey.get(keyOf(option.id)) ?? 0 }));
  const listed = new Set(out.map((option) => option.id));
  const allowsOther = (element.type === 'single_choice' || element.type === 'multiple_choice') && element.allowOther === true;
  const other = byKey.get(OTHER_OPTION_ID) ?? 0;
  const extra = [...byKey.entries()].filter(([key]) => key !== OTHER_OPTION_ID && !listed.has(key));
  extra.sort(([a], [b]) => (numeric ? Number(a) - Number(b) : a.localeCompare(b)));
  for (const [key, n] of extra) out.push({ id: key, label: key, count: n });
  if (allowsOther || other > 0) out.push({ id: OTHER_OPTION_ID, label: 'Other', count: other });
  return out;
}

function labelOf(options: readonly FormOption[], id: string): string {
  return options.find((option) => option.id === id)?.label ?? id;
}

/**
 * Per-question summaries over the survey's submitted responses, in form order (its current
 * version): how many answered; counts per option (choices, dropdowns; rating and scale values;
 * rankings: times ranked first; `_other` for "Other"); average, min and max (ratings, scales,
 * numbers); per row and column (matrices); the 5 latest texts. Six queries whatever the form.
 * External surveys: the participants who returned `complete`, and no questions.
 */
export async function surveyResults(db: Db, survey: Survey, definition: FormDefinition | null): Promise<SurveyResults> {
  if (survey.kind === 'external') {
    const [row] = await db
      .select({ n: sql<number>`count(distinct ${surveyExternalRefs.userId})::int`.mapWith(Number) })
      .from(surveyExternalRefs)
      .where(and(eq(surveyExternalRefs.surveyId, survey.id), eq(surveyExternalRefs.outcome, 'complete')));
    return { submitted: row?.n ?? 0, elements: [] };
  }
  const elements = definition ? answerableElements(definition) : [];
  const keysOf = (types: Set<string>) => elements.filter((element) => types.has(element.type)).map((element) => element.id);
  const allKeys = elements.map((element) => element.id);
  const choiceKeys = keysOf(CHOICE_TYPES);
  const rankingKeys = keysOf(new Set(['ranking']));
  const numberKeys = keysOf(NUMBER_TYPES);
  const matrixKeys = keysOf(new Set(['matrix']));
  const textKeys = keysOf(TEXT_TYPES);
  const none = Promise.resolve([]);

  const [[submitted], answered, choices, numbers, matrices, texts] = await Promise.all([
    db
      .select({ n: count() })
      .from(surveyResponses)
      .where(and(eq(surveyResponses.surveyId, survey.id), eq(surveyResponses.status, 'submitted'))),
    allKeys.length === 0
      ? none
      : queryRows<{ key: string; n: number }>(
          db,
          sql`select e.key, count(*)::int as n ${answersOf(survey.id, allKeys)}
            and e.val not in ('null'::jsonb, 'false'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb)
            and not (jsonb_typeof(e.val) = 'string' and btrim(e.val #>> '{}') = '')
            group by e.key`,
        ),
    choiceKeys.length === 0
      ? none
      : queryRows<{ key: string; value: string | null; n: number }>(
          db,
          sql`select s.key, s.value, count(*)::int as n from (
              select e.key, x.pos, case jsonb_typeof(x.item) when 'string' then x.item #>> '{}' when 'number' then x.item #>> '{}' when 'object' then ${OTHER_OPTION_ID} end as value
              ${answersOf(survey.id, choiceKeys, sql`cross join lateral jsonb_array_elements(case jsonb_typeof(e.val) when 'array' then e.val else jsonb_build_array(e.val) end) with ordinality as x(item, pos)`)}
            ) s
            where s.value is not null ${rankingKeys.length === 0 ? sql`` : sql`and (s.key not in (${keyList(rankingKeys)}) or s.pos = 1)`}
            group by s.key, s.value`,
        ),
    numberKeys.length === 0
      ? none
      : queryRows<{ key: string; average: number | null; min: number | null; max: number | null }>(
          db,
          sql`select e.key, avg((e.val #>> '{}')::float8)::float8 as average, min((e.val #>> '{}')::float8)::float8 as min, max((e.val #>> '{}')::float8)::float8 as max
            ${answersOf(survey.id, numberKeys)} and jsonb_typeof(e.val) = 'number'
            group by e.key`,
        ),
    matrixKeys.length === 0
      ? none
      : queryRows<{ key: string; row: string; col: string; n: number }>(
          db,
          sql`select e.key, m.key as row, c.col, count(*)::int as n
            ${answersOf(
              survey.id,
              matrixKeys,
              sql`cross join lateral jsonb_each(case jsonb_typeof(e.val) when 'object' then e.val else '{}'::jsonb end) as m(key, val)
                cross join lateral jsonb_array_elements_text(case jsonb_typeof(m.val) when 'array' then m.val else jsonb_build_array(m.val) end) as c(col)`,
            )}
            group by 1, 2, 3`,
        ),
    textKeys.length === 0
      ? none
      : queryRows<{ key: string; text: string }>(
          db,
          sql`select s.key, s.text from (
            select e.key, e.val #>> '{}' as text, row_number() over (partition by e.key order by r.submitted_at desc nulls last, r.id desc) as rn
            ${answersOf(survey.id, textKeys)} and jsonb_typeof(e.val) = 'string' and btrim(e.val #>> '{}') <> ''
          ) s where s.rn <= ${SAMPLES} order by s.key, s.rn`,
        ),
  ]);

  const answeredBy = new Map(answered.map((row) => [row.key, Number(row.n)]));
  const choiceCounts = new Map<string, Map<string, number>>();
  for (const row of choices) {
    if (row.value === null) continue;
    const map = choiceCounts.get(row.key) ?? new Map<string, number>();
    map.set(row.value, (map.get(row.value) ?? 0) + Number(row.n));
    choiceCounts.set(row.key, map);
  }
  const numbersBy = new Map(numbers.map((row) => [row.key, row]));
  const matrixCounts = new Map<string, Map<string, Map<string, number>>>();
  for (const row of matrices) {
    const rowsOfElement = matrixCounts.get(row.key) ?? new Map<string, Map<string, number>>();
    const columns = rowsOfElement.get(row.row) ?? new Map<string, number>();
    columns.set(row.col, (columns.get(row.col) ?? 0) + Number(row.n));
    rowsOfElement.set(row.row, columns);
    matrixCounts.set(row.key, rowsOfElement);
  }
  const samplesBy = new Map<string, string[]>();
  for (const row of texts) samplesBy.set(row.key, [...(samplesBy.get(row.key) ?? []), row.text]);
  const num = (value: number | string | null | undefined) => (value === null || value === undefined ? null : Number(value));

  const summaries: ElementSummary[] = elements.map((element) => {
    const summary: ElementSummary = { id: element.id, type: element.type, title: element.title, answered: answeredBy.get(element.id) ?? 0 };
    if (CHOICE_TYPES.has(element.type)) summary.options = countedOptions(element, choiceCounts.get(element.id) ?? new Map());
    if (NUMBER_TYPES.has(element.type)) {
      const stats = numbersBy.get(element.id);
      summary.average = num(stats?.average);
      summary.min = num(stats?.min);
      summary.max = num(stats?.max);
    }
    if (element.type === 'matrix') {
      const counted = matrixCounts.get(element.id) ?? new Map<string, Map<string, number>>();
      const rowIds = [...element.rows.map((row) => row.id), ...[...counted.keys()].filter((id) => !element.rows.some((row) => row.id === id))];
      summary.rows = rowIds.map((rowId) => {
        const columns = counted.get(rowId) ?? new Map<string, number>();
        const columnIds = [
          ...element.columns.map((column) => column.id),
          ...[...columns.keys()].filter((id) => !element.columns.some((column) => column.id === id)),
        ];
        return {
          id: rowId,
          label: labelOf(element.rows, rowId),
          columns: columnIds.map((columnId) => ({ id: columnId, label: labelOf(element.columns, columnId), count: columns.get(columnId) ?? 0 })),
        };
      });
    }
    if (TEXT_TYPES.has(element.type)) summary.samples = samplesBy.get(element.id) ?? [];
    return summary;
  });
  return { submitted: submitted?.n ?? 0, elements: summaries };
}
