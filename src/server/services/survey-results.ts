/**
 * A survey's results for moderators and admins: the paginated responses, the CSV export (built
 * 500 rows at a time and streamed, however many responses there are) and the per-question
 * summaries behind the charts, aggregated by PostgreSQL over the `answers` jsonb of submitted
 * responses and cached per process with a staleness bound (`cachedSurveyResults`). Answers given
 * on other versions of the form count by element id (an element id keeps its meaning across
 * versions).
 */
import { and, asc, count, eq, gt, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { SCALE_DEFAULT_STEP } from '../../shared/forms/constants.ts';
import type { Answers, FormDefinition, FormElement, FormOption } from '../../shared/forms/definition.ts';
import { answerOf } from '../../shared/forms/logic.ts';
import { answerLanguageOf } from '../../shared/answers.ts';
import { LANGUAGES, SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';
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
import { parsedJson, queryRows, type Db } from '../db/index.ts';
import { formVersions, surveyExternalRefs, surveyResponses, users, type Survey } from '../db/schema/index.ts';
import { answerCell, answerableElements, elementHeader, keysetCsvStream } from './csv.ts';
import { afterCursor, answeredIn, countOf, cursorMoment, keysetPage, listOrder, paginate, type MomentCursor } from './list.ts';
import type { Clock } from './clock.ts';
import { iso } from './projects.ts';
import { containsPattern } from './search.ts';

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
 * A page of the survey's responses (the list contract), or of one status or `language`: `q` searches the
 * participant's email and names; sorted by `latest` (default: submitted ones first, latest first,
 * then drafts, latest change first), `started` (newest first) or `name` (last, then first; A to Z).
 */
export async function listResponses(db: Db, surveyId: number, query: ResponseListQuery): Promise<ListPage<AdminSurveyResponse>> {
  const conditions: (SQL | undefined)[] = [
    eq(surveyResponses.surveyId, surveyId),
    query.status ? eq(surveyResponses.status, query.status) : undefined,
    query.language ? answeredIn(surveyResponses.language, query.language) : undefined,
  ];
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
          language: surveyResponses.language,
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
        language: answerLanguageOf(row.language),
        startedAt: row.startedAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        submittedAt: iso(row.submittedAt),
      }));
    },
    count: () => countOf(db.select({ value: count() }).from(surveyResponses).innerJoin(users, eq(users.id, surveyResponses.userId)).where(where)),
  });
}

/** A submitted response as the token API lists it (`GET /api/v1/surveys/{id}/responses`): answers keyed by element id. */
export interface SubmittedResponse {
  id: number;
  surveyId: number;
  userId: number;
  status: 'submitted';
  formVersion: number;
  language: Language;
  answers: Answers;
  submittedAt: string;
}

/**
 * A keyset page of the survey's submitted responses, oldest submission first on (submitted, id) —
 * a response is submitted once and never changes afterwards, so what an integration read stays
 * read and newer ones always come after its cursor — along `survey_responses_survey_status_idx`.
 * Drafts are not listed: they still change.
 */
export async function submittedResponsesAfter(
  db: Db,
  surveyId: number,
  page: { cursor?: MomentCursor | undefined; limit: number },
): Promise<{ items: SubmittedResponse[]; nextCursor: string | null }> {
  const rows = await db
    .select({
      id: surveyResponses.id,
      userId: surveyResponses.userId,
      formVersion: surveyResponses.formVersion,
      answers: surveyResponses.answers,
      language: surveyResponses.language,
      submittedAt: surveyResponses.submittedAt,
      at: cursorMoment(surveyResponses.submittedAt),
    })
    .from(surveyResponses)
    .where(
      and(
        eq(surveyResponses.surveyId, surveyId),
        eq(surveyResponses.status, 'submitted'),
        page.cursor ? afterCursor(surveyResponses.submittedAt, surveyResponses.id, page.cursor) : undefined,
      ),
    )
    .orderBy(asc(surveyResponses.submittedAt), asc(surveyResponses.id))
    .limit(page.limit + 1);
  return keysetPage(
    rows,
    page.limit,
    (row) => row.id,
    (row) => ({
      id: row.id,
      surveyId,
      userId: row.userId,
      status: 'submitted' as const,
      formVersion: row.formVersion,
      language: answerLanguageOf(row.language),
      answers: row.answers,
      // A submitted response always has its time (submitting sets it).
      submittedAt: (row.submittedAt ?? new Date(row.at)).toISOString(),
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// CSV

/** The fixed columns of the export, before one column per question. */
export const CSV_BASE_HEADER = ['Response ID', 'Email', 'First name', 'Last name', 'Status', 'Submitted at', 'Form version', 'Language'] as const;

/**
 * The CSV export as a stream of UTF-8 text (a byte order mark first, so spreadsheets read the
 * accents): the header row, then one row per response of `status` (default submitted), in the
 * order they were made (of one language when `language` is given); read `CSV_PAGE_SIZE` rows at a time by id, never all at once. `Language`:
 * the code the response was answered in; answers are ids, written with the labels of the
 * version's source language whatever the language (decision 035).
 */
export function responsesCsv(
  db: Db,
  survey: Survey,
  definition: FormDefinition | null,
  status: ResponseExportStatus,
  language?: Language,
): ReadableStream<Uint8Array> {
  const elements = definition ? answerableElements(definition) : [];
  const header = [...CSV_BASE_HEADER, ...elements.map(elementHeader)];
  return keysetCsvStream(
    header,
    (afterId, limit) =>
      db
        .select({ id: surveyResponses.id, row: csvRowColumn })
        .from(surveyResponses)
        .innerJoin(users, eq(users.id, surveyResponses.userId))
        .where(
          and(
            eq(surveyResponses.surveyId, survey.id),
            gt(surveyResponses.id, afterId),
            status === 'all' ? undefined : eq(surveyResponses.status, status),
            language ? answeredIn(surveyResponses.language, language) : undefined,
          ),
        )
        .orderBy(asc(surveyResponses.id))
        .limit(limit),
    ({ id, row: [email, firstName, lastName, rowStatus, submittedAt, formVersion, language, answers] }) => [
      id,
      email,
      firstName,
      lastName,
      rowStatus,
      submittedAt,
      formVersion,
      answerLanguageOf(language),
      ...elements.map((element) => answerCell(element, answerOf(answers, element.id))),
    ],
  );
}

/**
 * A response's cells after its id, as one JSON array: on the embedded database each column of a
 * row costs its own decoding in JavaScript, and one column instead of seven took the 100,000-row
 * export from ~2.0 to ~1.4 s of reading (docs/benchmarks.md). `submitted_at` is formatted as
 * `toISOString` writes it (milliseconds, UTC).
 */
const csvRowColumn = sql`json_build_array(
  ${users.email}, ${users.firstName}, ${users.lastName}, ${surveyResponses.status},
  to_char(${surveyResponses.submittedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  ${surveyResponses.formVersion}, ${surveyResponses.language}, ${surveyResponses.answers})`.mapWith((value: unknown) =>
  parsedJson<[string, string, string, string, string | null, number, Language | null, Answers]>(value),
);

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
const answersOf = (range: SQL, keys: readonly string[], more: SQL = sql``) => sql`
  from ${surveyResponses} r
  cross join lateral jsonb_each(case jsonb_typeof(r.answers) when 'object' then r.answers else '{}'::jsonb end) as e(key, val)
  ${more}
  where ${range} and r.status = 'submitted' and e.key in (${keyList(keys)})`;

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
 * `and …` keeping the responses answered in `language` (nothing when all): a response recorded
 * before answers had a language (null) counts as the source language, as `answeredIn` reads it.
 */
const inLanguage = (language: Language | undefined): SQL =>
  language === undefined ? sql`` : language === SOURCE_LANGUAGE ? sql`and (r.language = ${language} or r.language is null)` : sql`and r.language = ${language}`;

const inList = (keys: readonly string[]) => (keys.length === 0 ? sql`false` : sql`e.key in (${keyList(keys)})`);

/** The survey's per-question rows: `answered` and numbers' stats merged, choice and matrix counts to be summed, the latest texts in order. */
interface ResultRows {
  submitted: number;
  answered: { key: string; n: number; average: number | null; min: number | null; max: number | null }[];
  choices: { key: string; value: string | null; n: number }[];
  matrices: { key: string; row: string; col: string; n: number }[];
  texts: { key: string; text: string }[];
}

/** Responses (of any status) aggregated per statement: a slice of work short enough for the embedded database to serve other calls in between. */
export const RESULTS_CHUNK = 5_000;

interface AnsweredPart {
  key: string;
  n: number;
  sum: number | null;
  count: number;
  min: number | null;
  max: number | null;
}
interface TextPart {
  key: string;
  text: string;
  /** `submitted_at` in epoch seconds. */
  at: number | null;
  id: number;
}

/**
 * The aggregation, by slices of `RESULTS_CHUNK` responses in id order (`survey_responses_survey_id_idx`),
 * each slice in a short read-only transaction of its own, merged here: one pass over a slice's
 * answers for `answered` and the numbers' sum, count, min and max; one for the options (arrays
 * unnested); one for matrices; one for the slice's 5 latest texts per question; and the count.
 * Slices keep every statement small: the embedded database serves other calls between them
 * (docs/decisions/022-survey-results-cache.md), and PostgreSQL never JIT-compiles them (off for
 * them anyway: on 100,000 responses at once compiling took longer than running).
 */
async function resultRows(db: Db, surveyId: number, elements: readonly FormElement[], language: Language | undefined): Promise<ResultRows> {
  const keysOf = (types: Set<string>) => elements.filter((element) => types.has(element.type)).map((element) => element.id);
  const allKeys = elements.map((element) => element.id);
  const choiceKeys = keysOf(CHOICE_TYPES);
  const rankingKeys = keysOf(new Set(['ranking']));
  const numberKeys = keysOf(NUMBER_TYPES);
  const matrixKeys = keysOf(new Set(['matrix']));
  const textKeys = keysOf(TEXT_TYPES);

  let submitted = 0;
  const answered = new Map<string, AnsweredPart>();
  const choices: ResultRows['choices'] = [];
  const matrices: ResultRows['matrices'] = [];
  const texts: TextPart[] = [];
  let after = 0;
  for (;;) {
    const [bound] = await queryRows<{ id: number }>(
      db,
      sql`select id from ${surveyResponses} where survey_id = ${surveyId} and id > ${after} order by id offset ${RESULTS_CHUNK - 1} limit 1`,
    );
    const upTo = bound ? Number(bound.id) : null;
    const range = sql`r.survey_id = ${surveyId} and r.id > ${after} ${upTo === null ? sql`` : sql`and r.id <= ${upTo}`} ${inLanguage(language)}`;
    await db.transaction(
      async (tx) => {
        await tx.execute(sql`set local jit = off`);
        const [count] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from ${surveyResponses} r where ${range} and r.status = 'submitted'`);
        submitted += Number(count?.n ?? 0);
        if (allKeys.length > 0) {
          const rows = await queryRows<AnsweredPart>(
            tx,
            sql`select s.key, count(*) filter (where s.answered)::int as n,
              sum(s.num)::float8 as sum, count(s.num)::int as count, min(s.num)::float8 as min, max(s.num)::float8 as max
              from (
                select e.key,
                  -- Blank answers do not count: null, false, blank text, [] and {} (one jsonb_typeof per answer).
                  case jsonb_typeof(e.val)
                    when 'null' then false
                    when 'boolean' then e.val = 'true'::jsonb
                    when 'string' then btrim(e.val #>> '{}') <> ''
                    when 'array' then jsonb_array_length(e.val) > 0
                    when 'object' then e.val <> '{}'::jsonb
                    else true
                  end as answered,
                  case when ${inList(numberKeys)} and jsonb_typeof(e.val) = 'number' then (e.val #>> '{}')::float8 end as num
                ${answersOf(range, allKeys)}
              ) s
              group by s.key`,
          );
          for (const row of rows) {
            const [n, count, sum, min, max] = [Number(row.n), Number(row.count), row.sum === null ? null : Number(row.sum), row.min, row.max];
            const total = answered.get(row.key);
            if (!total) {
              answered.set(row.key, { key: row.key, n, count, sum, min: min === null ? null : Number(min), max: max === null ? null : Number(max) });
              continue;
            }
            total.n += n;
            total.count += count;
            if (sum !== null) total.sum = (total.sum ?? 0) + sum;
            if (min !== null) total.min = total.min === null ? Number(min) : Math.min(total.min, Number(min));
            if (max !== null) total.max = total.max === null ? Number(max) : Math.max(total.max, Number(max));
          }
        }
        if (choiceKeys.length > 0) {
          choices.push(
            ...(await queryRows<ResultRows['choices'][number]>(
              tx,
              sql`select s.key, s.value, count(*)::int as n from (
                  select e.key, x.pos, case jsonb_typeof(x.item) when 'string' then x.item #>> '{}' when 'number' then x.item #>> '{}' when 'object' then ${OTHER_OPTION_ID} end as value
                  ${answersOf(range, choiceKeys, sql`cross join lateral jsonb_array_elements(case jsonb_typeof(e.val) when 'array' then e.val else jsonb_build_array(e.val) end) with ordinality as x(item, pos)`)}
                ) s
                where s.value is not null ${rankingKeys.length === 0 ? sql`` : sql`and (s.key not in (${keyList(rankingKeys)}) or s.pos = 1)`}
                group by s.key, s.value`,
            )),
          );
        }
        if (matrixKeys.length > 0) {
          matrices.push(
            ...(await queryRows<ResultRows['matrices'][number]>(
              tx,
              sql`select e.key, m.key as row, c.col, count(*)::int as n
                ${answersOf(
                  range,
                  matrixKeys,
                  sql`cross join lateral jsonb_each(case jsonb_typeof(e.val) when 'object' then e.val else '{}'::jsonb end) as m(key, val)
                    cross join lateral jsonb_array_elements_text(case jsonb_typeof(m.val) when 'array' then m.val else jsonb_build_array(m.val) end) as c(col)`,
                )}
                group by 1, 2, 3`,
            )),
          );
        }
        if (textKeys.length > 0) {
          texts.push(
            ...(await queryRows<TextPart>(
              tx,
              sql`select s.key, s.text, s.at, s.id from (
                select e.key, e.val #>> '{}' as text, extract(epoch from r.submitted_at)::float8 as at, r.id,
                  row_number() over (partition by e.key order by r.submitted_at desc nulls last, r.id desc) as rn
                ${answersOf(range, textKeys)} and jsonb_typeof(e.val) = 'string' and btrim(e.val #>> '{}') <> ''
              ) s where s.rn <= ${SAMPLES}`,
            )),
          );
        }
      },
      { accessMode: 'read only' },
    );
    if (upTo === null) break;
    after = upTo;
  }

  // The latest texts of all slices: newest submission first (never submitted last), then the newest response.
  const newestFirst = (a: TextPart, b: TextPart) =>
    a.at === b.at ? Number(b.id) - Number(a.id) : a.at === null ? 1 : b.at === null ? -1 : Number(b.at) - Number(a.at);
  const latest = textKeys.flatMap((key) =>
    texts
      .filter((row) => row.key === key)
      .sort(newestFirst)
      .slice(0, SAMPLES)
      .map((row) => ({ key, text: row.text })),
  );
  return {
    submitted,
    answered: [...answered.values()].map((row) => ({
      key: row.key,
      n: row.n,
      average: row.count > 0 && row.sum !== null ? row.sum / row.count : null,
      min: row.min,
      max: row.max,
    })),
    choices,
    matrices,
    texts: latest,
  };
}

/**
 * Per-question summaries over the survey's submitted responses, in form order (its current
 * version): how many answered; counts per option (choices, dropdowns; rating and scale values;
 * rankings: times ranked first; `_other` for "Other"); average, min and max (ratings, scales,
 * numbers); per row and column (matrices); the 5 latest texts. Six queries per slice of responses whatever the form.
 * External surveys: the participants who returned `complete`, and no questions. Computed now:
 * the call answers `cachedSurveyResults`.
 */
export async function surveyResults(
  db: Db,
  survey: Survey,
  definition: FormDefinition | null,
  language?: Language,
): Promise<Omit<SurveyResults, 'computedAt'>> {
  if (survey.kind === 'external') {
    const [row] = await db
      .select({ n: sql<number>`count(distinct ${surveyExternalRefs.userId})::int`.mapWith(Number) })
      .from(surveyExternalRefs)
      .where(and(eq(surveyExternalRefs.surveyId, survey.id), eq(surveyExternalRefs.outcome, 'complete')));
    return { submitted: row?.n ?? 0, elements: [] };
  }
  const elements = definition ? answerableElements(definition) : [];
  const { submitted, answered, choices, matrices, texts } = await resultRows(db, survey.id, elements, language);
  const numbers = answered;

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
  return { submitted, elements: summaries };
}

// ---------------------------------------------------------------------------------------------
// The results cache (docs/api.md, "Results"; docs/decisions/022-survey-results-cache.md)

/** Results this young are served as they are. */
export const RESULTS_FRESH_MS = 5_000;
/**
 * A survey whose results took longer than this to compute is slow: recomputed in the background,
 * less often. Tens of thousands of responses take a second or more (PostgreSQL ~1 s over 100,000,
 * the embedded database ~3 s); a few hundred take tens of milliseconds — and, on a machine under
 * load, a few hundred: a lower bound made a small survey "slow", so a submit did not show in its
 * results for several seconds.
 */
export const RESULTS_SLOW_MS = 500;
/** A slow survey's results are served for this many times their computation time (at least `RESULTS_FRESH_MS`) … */
export const RESULTS_SLOW_FACTOR = 10;
/** … and at most this long before a recomputation starts. */
export const RESULTS_SLOW_FRESH_MAX_MS = 30_000;
/** Results are never served older than this. */
export const RESULTS_MAX_AGE_MS = 60_000;

interface Computed {
  results: SurveyResults;
  /** `performance.now()` when the computation began (the data are at least that recent). */
  at: number;
  tookMs: number;
}

interface CacheEntry {
  /** The survey's kind and form version the results were computed for: another one is a miss. */
  version: string;
  computed: Computed | null;
  /** A submit in this process since the computation began. */
  changed: boolean;
  /** The computation under way: concurrent misses wait for this one (single flight). */
  pending: Promise<Computed> | null;
}

/** A cache entry's key: the survey, and the language its results are of (`all`: every response). */
type CacheKey = `${number}:${Language | 'all'}`;
const cacheKey = (surveyId: number, language: Language | undefined): CacheKey => `${surveyId}:${language ?? 'all'}`;

/** Per database handle (and so per process, and per test backend). */
const caches = new WeakMap<Db, Map<CacheKey, CacheEntry>>();

function cacheOf(db: Db): Map<CacheKey, CacheEntry> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Tells the cache that the survey's submitted responses changed (a submit in this process): the next call recomputes. */
export function surveyResultsChanged(db: Db, surveyId: number): void {
  const cache = caches.get(db);
  for (const language of [undefined, ...LANGUAGES]) {
    const entry = cache?.get(cacheKey(surveyId, language));
    if (entry) entry.changed = true;
  }
}

function recompute(
  db: Db,
  clock: Clock,
  survey: Survey,
  definition: () => Promise<FormDefinition | null>,
  language: Language | undefined,
  entry: CacheEntry,
  cache: Map<CacheKey, CacheEntry>,
): Promise<Computed> {
  if (entry.pending) return entry.pending;
  const at = performance.now();
  const computedAt = clock.now().toISOString();
  entry.changed = false;
  const pending = definition()
    .then((loaded) => surveyResults(db, survey, loaded, language))
    .then((results) => {
      const computed: Computed = { results: { ...results, computedAt }, at, tookMs: performance.now() - at };
      entry.computed = computed;
      // Forget results nobody asked for within the longest age (the cache stays as small as what is being looked at).
      for (const [id, other] of cache)
        if (other.pending === null && other.computed !== null && performance.now() - other.computed.at > RESULTS_MAX_AGE_MS) cache.delete(id);
      return computed;
    });
  entry.pending = pending;
  const done = () => {
    if (entry.pending === pending) entry.pending = null;
  };
  pending.then(done, done);
  return pending;
}

/**
 * `GET /api/admin/surveys/{id}/results`: the survey's results with `computedAt`, from a cache
 * kept per process (docs/api.md, "Results"). Results younger than `RESULTS_FRESH_MS` are served
 * as they are (a submit in this process makes the next call recompute); older ones are
 * recomputed, once however many calls ask at the same time. A slow survey (over
 * `RESULTS_SLOW_MS` to compute, e.g. 100,000 responses) is recomputed at most every
 * `RESULTS_SLOW_FACTOR` times its computation time (≤ `RESULTS_SLOW_FRESH_MAX_MS`), in the
 * background: calls get its previous results meanwhile, so on the embedded database, where a
 * computation holds the one engine, it takes a bounded share of the time. Nothing older than
 * `RESULTS_MAX_AGE_MS` is served, whichever process computed it.
 */
export async function cachedSurveyResults(
  db: Db,
  clock: Clock,
  survey: Survey,
  /** Read only when the results are computed. */
  definition: () => Promise<FormDefinition | null>,
  /** The results of the responses answered in this language only (decision 035); each language is cached on its own. */
  language?: Language,
): Promise<SurveyResults> {
  const cache = cacheOf(db);
  const key = cacheKey(survey.id, language);
  const version = `${survey.kind}:${survey.formId ?? ''}:${survey.formVersion ?? ''}`;
  let entry = cache.get(key);
  if (!entry || entry.version !== version) {
    entry = { version, computed: null, changed: false, pending: null };
    cache.set(key, entry);
  }
  const computed = entry.computed;
  const age = computed ? performance.now() - computed.at : Number.POSITIVE_INFINITY;
  const slow = computed !== null && computed.tookMs > RESULTS_SLOW_MS;
  const freshFor = slow ? Math.min(RESULTS_SLOW_FRESH_MAX_MS, Math.max(RESULTS_FRESH_MS, RESULTS_SLOW_FACTOR * computed.tookMs)) : RESULTS_FRESH_MS;
  // A submit in this process makes a fast survey's next call recompute; a slow one waits for its time.
  if (computed && age < freshFor && !(entry.changed && !slow)) return computed.results;
  const next = recompute(db, clock, survey, definition, language, entry, cache);
  if (computed && slow && age < RESULTS_MAX_AGE_MS) {
    // Served the previous results; a failed recomputation is retried by a later call.
    next.catch(() => {});
    return computed.results;
  }
  return (await next).results;
}
