/**
 * Reading a points bulk-update file (decision 015): a CSV (csv-parse, streamed, a record at most
 * `CSV_RECORD_MAX_BYTES`) or an XLSX (the tools' XLSX worker, xlsx-worker.ts: exceljs' streaming
 * reader in a worker thread with a capped heap, shared strings on disk, the zip's unpacked size
 * capped at `XLSX_UNPACKED_MAX_BYTES.points`; first worksheet), told apart by their bytes, not
 * their name. Rows come out one at a time with their line (the header is line 1; for an XLSX the
 * sheet's row number, for a CSV the record's number, which is the file's line unless a cell holds
 * a line break), their cells as trimmed text, and progress in bytes read. What cannot be read is
 * refused in our words; the library's go to the log (the refusal's cause).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import iconv from 'iconv-lite';
import { CSV_RECORD_MAX_BYTES, sizeText, XLSX_UNPACKED_MAX_BYTES } from '../../shared/file-limits.ts';
import { POINTS_BULK_LIMITS } from '../../shared/points-bulk-update.ts';
import { ApiError } from '../errors.ts';
import { csvReadProblem } from './csv.ts';
import { runXlsxWorker, type XlsxRefusals, type XlsxTextRow } from './xlsx-worker.ts';

/** A row of the file: its line and its cells as text (trimmed). */
export interface TableRow {
  line: number;
  cells: string[];
}

/** A file opened for reading: its header (the first non-blank row) and the rows after it. */
export interface OpenedTable {
  format: 'csv' | 'xlsx';
  headerLine: number;
  headers: string[];
  rows: AsyncGenerator<TableRow, void, undefined>;
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

const unreadable = (message: string, cause?: unknown) => new ApiError(422, 'unreadable_file', message, { cause });

/** The file's text: UTF-8 (with or without a byte order mark), UTF-16 with its mark, else Windows-1252 (Excel's "CSV" on Windows). */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return iconv.decode(bytes.subarray(2), 'utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return iconv.decode(bytes.subarray(2), 'utf16be');
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return iconv.decode(body, 'win1252');
  }
}

/** The delimiter of the header (the first non-blank line): the most frequent of comma, semicolon and tab (comma on a tie). */
function delimiterOf(text: string): string {
  const firstLine =
    text
      .slice(0, Math.min(text.length, 64 * 1024))
      .split(/\r?\n/)
      .find((line) => line.trim() !== '') ?? '';
  const count = (ch: string) => firstLine.split(ch).length - 1;
  const candidates = [',', ';', '\t'];
  let best = ',';
  for (const ch of candidates) if (count(ch) > count(best)) best = ch;
  return best;
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell === '');

type Progress = (bytesRead: number) => void;

async function* csvRows(text: string, totalBytes: number, onProgress: Progress): AsyncGenerator<TableRow, void, undefined> {
  const chunkChars = 256 * 1024;
  const chunks = (function* () {
    for (let at = 0; at < text.length; at += chunkChars) {
      yield text.slice(at, at + chunkChars);
      onProgress(Math.round((Math.min(text.length, at + chunkChars) / text.length) * totalBytes));
    }
  })();
  const parser = Readable.from(chunks).pipe(
    parseCsv({
      delimiter: delimiterOf(text),
      record_delimiter: ['\r\n', '\n', '\r'],
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
      max_record_size: CSV_RECORD_MAX_BYTES,
    }),
  );
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      line += 1;
      yield { line, cells: record.map((cell) => cell.trim()) };
    }
  } catch (error) {
    parser.destroy();
    throw unreadable(`The CSV could not be read: ${csvReadProblem(error)}`, error);
  }
}

const XLSX_REFUSALS: XlsxRefusals = {
  invalid: (cause) => unreadable('The XLSX file could not be read: save it again from your spreadsheet, or as a CSV', cause),
  unpacked: () =>
    new ApiError(
      413,
      'file_too_large',
      `The XLSX file unpacks to more than ${sizeText(XLSX_UNPACKED_MAX_BYTES.points)}: save it again from your spreadsheet, or as a CSV`,
    ),
  outOfMemory: () => new ApiError(422, 'xlsx_too_large', 'This XLSX file is too large to read here: save it as a CSV'),
};

/**
 * The rows of an XLSX, read in the tools' XLSX worker from a temporary copy: the worker sends its
 * rows as it reads them (non-blank ones, up to the row limit and one more), they wait here until
 * taken, and the worker and its folder are gone once it has finished — whether or not the rows
 * are all taken.
 */
async function* xlsxRows(bytes: Buffer, onProgress: Progress): AsyncGenerator<TableRow, void, undefined> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fieldwork-points-'));
  const queue: XlsxTextRow[] = [];
  let wake: (() => void) | null = null;
  const state: { done: boolean; error: unknown; sheets: number } = { done: false, error: null, sheets: 0 };
  const wakeUp = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const input = path.join(dir, 'upload.xlsx');
  await fs.promises.writeFile(input, bytes);
  const job = {
    kind: 'fieldwork-xlsx',
    mode: 'rows',
    input,
    dir,
    maxUnpackedBytes: XLSX_UNPACKED_MAX_BYTES.points,
    maxRows: POINTS_BULK_LIMITS.maxRows,
  } as const;
  void runXlsxWorker(
    job,
    (message) => {
      if (message.type === 'rows') {
        queue.push(...message.rows);
        onProgress(Math.min(message.bytesRead, bytes.length));
        wakeUp();
      } else if (message.type === 'done') state.sheets = message.sheets;
      return Promise.resolve(null);
    },
    XLSX_REFUSALS,
  )
    .catch((error: unknown) => {
      state.error = error;
    })
    .finally(() => {
      state.done = true;
      wakeUp();
      void fs.promises.rm(dir, { recursive: true, force: true });
    });
  for (;;) {
    const row = queue.shift();
    if (row) {
      yield row;
      continue;
    }
    if (state.done) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  if (state.error) throw state.error;
  onProgress(bytes.length);
  if (state.sheets === 0) throw unreadable('The XLSX file has no worksheet');
}

/**
 * Opens a file: detects its format from its first bytes (an XLSX is a ZIP; an old binary .xls is
 * refused), reads up to its header and answers it with the rows that follow. 422 `unreadable_file`
 * for what cannot be read, 422 `file_empty` for a file with no header.
 */
export async function openTable(bytes: Buffer, onProgress: Progress = () => {}): Promise<OpenedTable> {
  if (bytes.length === 0) throw new ApiError(422, 'file_empty', 'The file is empty');
  let format: 'csv' | 'xlsx';
  let source: AsyncGenerator<TableRow, void, undefined>;
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
    format = 'xlsx';
    source = xlsxRows(bytes, onProgress);
  } else if (bytes.subarray(0, 4).equals(OLE_MAGIC)) {
    throw unreadable('This is an old Excel file (.xls): save it as .xlsx or CSV');
  } else {
    const text = decodeText(bytes);
    if (text.includes('\u0000')) throw unreadable('This is not a CSV or XLSX file');
    format = 'csv';
    source = csvRows(text, bytes.length, onProgress);
  }
  for (;;) {
    const next = await source.next();
    if (next.done) throw new ApiError(422, 'file_empty', 'The file has no header line');
    if (isBlank(next.value.cells)) continue;
    const { line, cells } = next.value;
    return {
      format,
      headerLine: line,
      headers: cells,
      rows: (async function* () {
        for await (const row of source) if (!isBlank(row.cells)) yield row;
      })(),
    };
  }
}
