/**
 * CSV for exports: papaparse writes the rows (quoting, `\r\n`), every text cell goes through the
 * one formula guard (`csvText`, export-text.ts: no spreadsheet runs it as a formula, however it
 * splits the row; numbers stay numbers), and answers are written as people read them (option
 * labels, `Other: …`, `row: column`, `1. first; 2. second`).
 */
import Papa from 'papaparse';
import type { AnswerValue, FormDefinition, FormElement, FormOption } from '../../shared/forms/definition.ts';
import { isAnswerable, isOtherAnswer, isPlainObject } from '../../shared/forms/logic.ts';
import { CSV_RECORD_MAX_BYTES, sizeText } from '../../shared/file-limits.ts';
import { csvText } from './export-text.ts';

/** A CSV cell: text, a number, or empty. */
export type CsvCell = string | number | null;

/** Rows as CSV text (no trailing newline), formula-safe; with `header`, that row first. */
export function csvRows(rows: readonly (readonly CsvCell[])[], header?: readonly string[]): string {
  // The header goes in as a row of data: made formula-safe like the rest (a title may start with `=`).
  // A cell the guard marked is quoted too, as papaparse quotes the cells its own formula escape marks.
  const guarded = new Set<string>();
  const data: CsvCell[][] = [...(header ? [[...header]] : []), ...rows].map((row) =>
    row.map((cell) => {
      if (typeof cell !== 'string') return cell;
      const safe = csvText(cell);
      if (safe !== cell) guarded.add(safe);
      return safe;
    }),
  );
  return Papa.unparse(data, { quotes: (value: unknown) => typeof value === 'string' && guarded.has(value), newline: '\r\n', header: false });
}

/**
 * What is wrong with a CSV file csv-parse could not read, in our words (its own, and any path,
 * stay in the log): the row is the record it stopped in, the header counted as row 1.
 */
export function csvReadProblem(error: unknown): string {
  const info = error instanceof Error ? (error as Error & { code?: unknown; records?: unknown }) : null;
  const row = typeof info?.records === 'number' ? `Row ${info.records + 1} (the header is row 1)` : 'A row';
  switch (info?.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `${row} is longer than ${sizeText(CSV_RECORD_MAX_BYTES)}: a quote (") is probably never closed`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${row} opens a quote (") that is never closed`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `${row} has text after the closing quote of a cell`;
    default:
      return `${row} cannot be read`;
  }
}

/** The elements that take answers, in form order (statements left out). */
export function answerableElements(definition: FormDefinition): FormElement[] {
  return definition.pages.flatMap((page) => page.elements).filter((element) => isAnswerable(element));
}

/** A column header for an element: `Title [id]` (just `[id]` without a title). */
export function elementHeader(element: Pick<FormElement, 'id' | 'title'>): string {
  const title = element.title.trim();
  return title ? `${title} [${element.id}]` : `[${element.id}]`;
}

function labelOf(options: readonly FormOption[], id: string): string {
  return options.find((option) => option.id === id)?.label ?? id;
}

function choiceText(options: readonly FormOption[], item: unknown): string {
  if (isOtherAnswer(item)) return `Other: ${item.other}`;
  return typeof item === 'string' ? labelOf(options, item) : JSON.stringify(item);
}

const fallback = (value: AnswerValue): CsvCell => (typeof value === 'string' || typeof value === 'number' ? value : JSON.stringify(value));

/**
 * One answer as a CSV cell: texts as given, choices by label (`Other: text`, several joined with
 * `; `), numbers as numbers, consent `Agreed`, photos and videos as media ids, matrices `row: column; …`,
 * rankings `1. a; 2. b`. An answer that does not fit the element (another form version) is
 * written as JSON. Empty when not answered.
 */
export function answerCell(element: FormElement, value: AnswerValue | undefined): CsvCell {
  if (value === undefined || value === null) return null;
  switch (element.type) {
    case 'short_text':
    case 'long_text':
    case 'date':
      return typeof value === 'string' ? value : fallback(value);
    case 'single_choice':
    case 'dropdown':
      return typeof value === 'string' || isOtherAnswer(value) ? choiceText(element.options, value) : fallback(value);
    case 'multiple_choice':
      return Array.isArray(value) ? value.map((item) => choiceText(element.options, item)).join('; ') : fallback(value);
    case 'ranking':
      return Array.isArray(value) ? value.map((item, index) => `${index + 1}. ${choiceText(element.options, item)}`).join('; ') : fallback(value);
    case 'rating':
    case 'scale':
    case 'number':
      return typeof value === 'number' ? value : fallback(value);
    case 'consent':
      return value === true ? 'Agreed' : fallback(value);
    case 'photo':
    case 'video':
      return Array.isArray(value) ? value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('; ') : fallback(value);
    case 'matrix': {
      if (!isPlainObject(value)) return fallback(value);
      const cells = value as Record<string, unknown>;
      const known = element.rows.filter((row) => Object.hasOwn(cells, row.id)).map((row) => row.id);
      const extra = Object.keys(cells).filter((id) => !element.rows.some((row) => row.id === id));
      return [...known, ...extra]
        .map((rowId) => {
          const cell = cells[rowId];
          const columns = (Array.isArray(cell) ? cell : [cell]).map((column) =>
            typeof column === 'string' ? labelOf(element.columns, column) : JSON.stringify(column),
          );
          return `${labelOf(element.rows, rowId)}: ${columns.join(', ')}`;
        })
        .join('; ');
    }
    case 'statement':
      return null;
  }
}

/** Rows a streamed export reads at a time. */
export const CSV_PAGE_SIZE = 500;

/**
 * Pages of rows read by keyset on their `id`: `page(afterId, limit)` answers rows with a larger id,
 * in id order; `size` at a time until a page comes back short. A page is read only when the one
 * before has been taken, so an export holds one page at a time whatever its length.
 */
export async function* keysetPages<T extends { id: number }>(
  page: (afterId: number, limit: number) => Promise<T[]>,
  size: number = CSV_PAGE_SIZE,
): AsyncGenerator<T[], void, undefined> {
  let lastId = 0;
  for (;;) {
    const rows = await page(lastId, size);
    const last = rows[rows.length - 1];
    if (last) {
      lastId = last.id;
      yield rows;
    }
    if (rows.length < size) return;
  }
}

/**
 * A CSV export streamed in bounded memory: a byte order mark and the header, then pages of
 * `CSV_PAGE_SIZE` rows read by keyset on their `id` (`keysetPages`), each turned into cells by
 * `cells`, as the client reads them.
 */
export function keysetCsvStream<T extends { id: number }>(
  header: readonly string[],
  page: (afterId: number, limit: number) => Promise<T[]>,
  cells: (row: T) => CsvCell[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pages = keysetPages(page);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${csvRows([], header)}`));
    },
    async pull(controller) {
      const next = await pages.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`\r\n${csvRows(next.value.map(cells))}`));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}
