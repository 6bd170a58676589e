/**
 * The one XLSX reader of the admin tools (decision 016; issue 27 §3): exceljs' streaming reader
 * (and, for the Alchemer export append, its streaming writer) run in a worker thread with its own
 * heap limits (`runXlsxWorker` starts it). exceljs allocates a great deal for each row, and in the
 * server's heap V8 lets that garbage grow far past what is alive; a worker with a small young
 * generation collects it as it goes and keeps the server's memory bounded (measured in decision
 * 016), and a workbook that would need more fails alone (its heap limit) instead of taking the
 * server down. Shared strings are kept on disk, not in memory (`SharedStrings`).
 *
 * Before exceljs reads anything, the worker unpacks the whole zip once, counting what every part
 * inflates to, and stops past the job's `maxUnpackedBytes` (`checkUnpacked`): a few MB of zip can
 * unpack to gigabytes, which exceljs would otherwise inflate into temporary files and parse for
 * minutes. The count is of the bytes actually inflated (by the unzipper exceljs reads with), not
 * of the sizes the zip declares, which can lie. The worker's temporary files (exceljs parks sheets
 * until the shared strings are read) go to the job's folder, removed by its caller.
 *
 * Jobs: `alchemer-preview` and `alchemer-append` (the worker reads and writes the files; the
 * server thread does every database lookup: the worker sends the header's names, then each batch of
 * rows' id and status texts, and gets back the header's positions and each row's appended cells);
 * `rows` (the points bulk update: the first sheet's non-blank rows as the text a person sees, in
 * batches, up to `maxRows`).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { ALCHEMER_APPEND_LIMITS } from '../../shared/alchemer-export-append.ts';
import { ApiError } from '../errors.ts';

/** The worker's heap (MB): a small young generation (exceljs' garbage collected as it goes), a capped old one. */
export const XLSX_WORKER_LIMITS = { youngMb: 4, oldMb: 192 } as const;

/** Rows the `rows` job sends at a time. */
const ROWS_BATCH = 1000;

interface JobBase {
  kind: 'fieldwork-xlsx';
  /** The workbook. */
  input: string;
  /** The job's folder: shared strings and exceljs' temporary files go there. */
  dir: string;
  /** The most the zip may unpack to. */
  maxUnpackedBytes: number;
}

/** What the worker is asked to do. */
export type XlsxJob =
  (JobBase & { mode: 'alchemer-preview' }) | (JobBase & { mode: 'alchemer-append'; output: string }) | (JobBase & { mode: 'rows'; maxRows: number });

/** A row of the `rows` job: its row number and its cells as shown, column A first. */
export interface XlsxTextRow {
  line: number;
  cells: string[];
}

/** Messages from the worker. */
export type FromWorker =
  | { type: 'preview'; names: string[] | null; rows: number; sample: string[][] }
  | { type: 'header'; names: string[] }
  | { type: 'batch'; rows: { id: string; status: string }[] }
  | { type: 'rows'; rows: XlsxTextRow[]; bytesRead: number }
  | { type: 'done'; header: boolean; sheets: number }
  | { type: 'error'; reason: 'unpacked' | 'invalid'; message: string };

/** Messages to the worker. */
export type ToWorker =
  { type: 'header'; id: number; status: number; width: number; appended: string[] } | { type: 'cells'; cells: string[][] } | { type: 'stop' };

/** A cell's text: strings as they are, numbers and dates written out, rich text joined, a formula's result, a link's text. */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text;
  if ('result' in value) return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
  return '';
}

/**
 * A workbook's shared strings kept on disk, not in memory: exceljs' reader caches the whole table
 * in memory by default (`sharedStrings: 'cache'`), and an Alchemer export's table holds nearly
 * every text cell, so it grows with the file. Here each string is appended to a file (JSON, so
 * rich text survives) and only its offset is kept (8 bytes a string); a cell reads its string back
 * with one positioned read, the most recent ones from a small cache.
 */
class SharedStrings {
  private readonly fd: number;
  private offsets = new Float64Array(1024);
  private count = 0;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly recent = new Map<number, ExcelJS.CellValue>();
  constructor(filePath: string) {
    this.fd = fs.openSync(filePath, 'w+');
  }
  add(text: unknown): void {
    const bytes = Buffer.from(JSON.stringify(text ?? ''), 'utf8');
    if (this.count + 1 >= this.offsets.length) {
      const grown = new Float64Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.count] = this.size;
    this.count += 1;
    this.size += bytes.length;
    this.offsets[this.count] = this.size;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= 1 << 20) this.flush();
  }
  private flush(): void {
    if (this.pendingBytes === 0) return;
    const data = Buffer.concat(this.pending);
    fs.writeSync(this.fd, data, 0, data.length, this.size - this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
  }
  get(index: number): ExcelJS.CellValue {
    const cached = this.recent.get(index);
    if (cached !== undefined) return cached;
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return '';
    this.flush();
    const start = this.offsets[index] ?? 0;
    const length = (this.offsets[index + 1] ?? start) - start;
    const buffer = Buffer.alloc(length);
    fs.readSync(this.fd, buffer, 0, length, start);
    const value = JSON.parse(buffer.toString('utf8')) as ExcelJS.CellValue;
    if (this.recent.size >= 4096) {
      const oldest = this.recent.keys().next();
      if (!oldest.done) this.recent.delete(oldest.value);
    }
    this.recent.set(index, value);
    return value;
  }
  close(): void {
    fs.closeSync(this.fd);
  }
}

/** A cell as the text a person sees (the points bulk update): trimmed, a date as its day, a formula as its result, TRUE or FALSE. */
export function shownText(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if ('richText' in value && Array.isArray(value.richText))
    return value.richText
      .map((part) => part.text)
      .join('')
      .trim();
  if ('formula' in value || 'sharedFormula' in value) return shownText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ('text' in value && typeof value.text === 'string') return value.text.trim();
  if ('error' in value) return String(value.error);
  return '';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A sheet of the workbook: its name and its rows, their shared strings already filled in. */
interface XlsxSheet {
  name: string | undefined;
  rows: AsyncIterable<ExcelJS.Row>;
}

async function* resolvedRows(sheet: ExcelJS.stream.xlsx.WorksheetReader, strings: SharedStrings): AsyncGenerator<ExcelJS.Row> {
  for await (const row of sheet) {
    row.eachCell({ includeEmpty: false }, (cell) => {
      const value: unknown = cell.value;
      if (isRecord(value) && typeof value.sharedString === 'number') cell.value = strings.get(value.sharedString);
    });
    yield row;
  }
}

/**
 * exceljs' streaming reader over the sheets of a workbook: shared strings emitted and kept on disk
 * (`SharedStrings`; exceljs then parks each sheet in a temporary file until the table has been
 * read), styles cached so dates and number formats survive.
 */
async function* xlsxSheets(input: Readable, dir: string): AsyncGenerator<XlsxSheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'emit',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const strings = new SharedStrings(path.join(dir, `shared-strings-${Math.random().toString(36).slice(2)}`));
  try {
    for await (const item of reader.parse() as unknown as AsyncIterable<unknown>) {
      if (!isRecord(item)) continue;
      if (typeof item.index === 'number' && 'text' in item) strings.add(item.text);
      else if (item.eventType === 'worksheet' && isRecord(item.value)) {
        const sheet = item.value as unknown as ExcelJS.stream.xlsx.WorksheetReader & { name?: string };
        yield { name: sheet.name, rows: resolvedRows(sheet, strings) };
      }
    }
  } finally {
    strings.close();
  }
}

/** An XLSX row's cells as text, column 1 first (empty cells ''). */
function rowTexts(row: ExcelJS.Row): string[] {
  const values = row.values as ExcelJS.CellValue[];
  const out: string[] = [];
  for (let index = 1; index < values.length; index++) out.push(cellText(values[index]));
  return out;
}

/** Copies a row's cells (value and style) to the writer's row of the same number. */
function copyRow(target: ExcelJS.Worksheet, source: ExcelJS.Row): ExcelJS.Row {
  const row = target.getRow(source.number);
  source.eachCell({ includeEmpty: false }, (cell, column) => {
    const copy = row.getCell(column);
    copy.value = cell.value;
    if (cell.numFmt || cell.font || cell.alignment || cell.fill || cell.border) copy.style = cell.style;
  });
  if (source.height) row.height = source.height;
  return row;
}

/** The unzipper exceljs reads workbooks with (its dependency), so the count below sees the very parts exceljs will read. */
interface ZipEntry {
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}
interface ZipParser extends NodeJS.WritableStream {
  on(event: 'entry', listener: (entry: ZipEntry) => void): this;
  on(event: 'close', listener: () => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
}
const unzipper = createRequire(createRequire(import.meta.url).resolve('exceljs'))('unzipper') as { Parse: () => ZipParser };

class Unpacked extends Error {}

/**
 * Unpacks the whole workbook once, counting the bytes every part inflates to (entries read in
 * order from their local headers, as exceljs reads them), and rejects with `Unpacked` as soon as
 * the count passes `max`; with the unzipper's own error for a zip it cannot read.
 */
function checkUnpacked(file: string, max: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const source = fs.createReadStream(file);
    const zip = unzipper.Parse();
    let total = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) {
        source.unpipe();
        source.destroy();
        reject(error);
      } else resolve();
    };
    zip.on('entry', (entry) => {
      entry.on('error', finish);
      entry.on('data', (chunk) => {
        total += chunk.length;
        if (total > max) finish(new Unpacked(`the workbook unpacks to more than ${max} bytes`));
      });
    });
    zip.on('close', () => finish());
    zip.on('error', finish);
    source.on('error', finish);
    source.pipe(zip);
  });
}

// ---------------------------------------------------------------------------------------------
// The worker

/** Messages from the server thread, one at a time in order. */
class Inbox {
  private readonly queue: ToWorker[] = [];
  private waiting: ((message: ToWorker) => void) | null = null;
  push(message: ToWorker): void {
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve(message);
    } else this.queue.push(message);
  }
  next(): Promise<ToWorker> {
    const first = this.queue.shift();
    if (first) return Promise.resolve(first);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }
}

class Stopped extends Error {}

async function preview(job: Extract<XlsxJob, { mode: 'alchemer-preview' }>, post: (message: FromWorker) => void): Promise<void> {
  let names: string[] | null = null;
  let rows = 0;
  const sample: string[][] = [];
  for await (const sheet of xlsxSheets(fs.createReadStream(job.input), job.dir)) {
    for await (const row of sheet.rows) {
      const values = rowTexts(row);
      if (values.every((value) => value === '')) continue;
      if (names === null) {
        names = values;
        continue;
      }
      rows += 1;
      if (sample.length < ALCHEMER_APPEND_LIMITS.sampleRows) sample.push(values);
    }
    break;
  }
  post({ type: 'preview', names, rows, sample });
}

async function append(job: Extract<XlsxJob, { mode: 'alchemer-append' }>, post: (message: FromWorker) => void, inbox: Inbox): Promise<void> {
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: job.output, useSharedStrings: false, useStyles: true });
  const ask = async <T extends ToWorker['type']>(message: FromWorker, type: T): Promise<Extract<ToWorker, { type: T }>> => {
    post(message);
    const answer = await inbox.next();
    if (answer.type !== type) throw new Stopped();
    return answer as Extract<ToWorker, { type: T }>;
  };
  let first = true;
  let header: Extract<ToWorker, { type: 'header' }> | null = null;
  try {
    for await (const sheet of xlsxSheets(fs.createReadStream(job.input), job.dir)) {
      const target = writer.addWorksheet(sheet.name ?? (first ? 'Sheet1' : undefined));
      if (!first) {
        // Further sheets: copied as they are.
        for await (const row of sheet.rows) copyRow(target, row).commit();
        target.commit();
        continue;
      }
      first = false;
      let batch: { row: ExcelJS.Row; id: string; status: string }[] = [];
      const flush = async () => {
        if (batch.length === 0 || header === null) return;
        const width = header.width;
        const { cells } = await ask({ type: 'batch', rows: batch.map(({ id, status }) => ({ id, status })) }, 'cells');
        batch.forEach((item, index) => {
          const row = copyRow(target, item.row);
          (cells[index] ?? []).forEach((cell, column) => {
            // Strings, never formulas: exceljs writes a string value as text whatever it starts with.
            if (cell !== '') row.getCell(width + column + 1).value = cell;
          });
          row.commit();
        });
        batch = [];
      };
      for await (const row of sheet.rows) {
        const values = rowTexts(row);
        if (header === null) {
          if (values.every((value) => value === '')) {
            copyRow(target, row).commit();
            continue;
          }
          header = await ask({ type: 'header', names: values }, 'header');
          const written = copyRow(target, row);
          const width = header.width;
          header.appended.forEach((name, index) => {
            written.getCell(width + index + 1).value = name;
          });
          written.commit();
          continue;
        }
        if (values.every((value) => value === '')) {
          await flush();
          copyRow(target, row).commit();
          continue;
        }
        batch.push({ row, id: values[header.id] ?? '', status: header.status >= 0 ? (values[header.status] ?? '') : '' });
        if (batch.length >= ALCHEMER_APPEND_LIMITS.batchRows) await flush();
      }
      await flush();
      target.commit();
    }
    if (header === null) {
      post({ type: 'done', header: false, sheets: 0 });
      return;
    }
    await writer.commit();
    post({ type: 'done', header: true, sheets: 0 });
  } catch (error) {
    const parts = writer as unknown as { zip?: { abort(): void }; stream?: { destroy(): void } };
    parts.zip?.abort();
    parts.stream?.destroy();
    throw error;
  }
}

/** The first sheet's non-blank rows as shown (`shownText`), `ROWS_BATCH` at a time, until `maxRows` rows follow the header and one more. */
async function rows(job: Extract<XlsxJob, { mode: 'rows' }>, post: (message: FromWorker) => void): Promise<void> {
  const input = fs.createReadStream(job.input);
  let sheets = 0;
  let kept = 0;
  let batch: XlsxTextRow[] = [];
  const send = () => {
    if (batch.length > 0) post({ type: 'rows', rows: batch, bytesRead: input.bytesRead });
    batch = [];
  };
  for await (const sheet of xlsxSheets(input, job.dir)) {
    sheets += 1;
    for await (const row of sheet.rows) {
      const values = Array.isArray(row.values) ? (row.values as ExcelJS.CellValue[]) : [];
      // exceljs's row values start at index 1 (column A).
      const cells = values.slice(1).map((value) => shownText(value));
      if (cells.every((cell) => cell === '')) continue;
      batch.push({ line: row.number, cells });
      kept += 1;
      if (batch.length >= ROWS_BATCH) send();
      // The header, the limit and one more: enough for the caller to say the file has too many rows.
      if (kept > job.maxRows + 1) break;
    }
    break; // the first worksheet only
  }
  send();
  post({ type: 'done', header: kept > 0, sheets });
}

const job: unknown = workerData;
if (!isMainThread && parentPort && isRecord(job) && job.kind === 'fieldwork-xlsx') {
  const port = parentPort;
  const inbox = new Inbox();
  port.on('message', (message: ToWorker) => inbox.push(message));
  const post = (message: FromWorker) => port.postMessage(message);
  const task = job as unknown as XlsxJob;
  const run = () => (task.mode === 'alchemer-preview' ? preview(task, post) : task.mode === 'alchemer-append' ? append(task, post, inbox) : rows(task, post));
  checkUnpacked(task.input, task.maxUnpackedBytes)
    .then(run)
    .catch((error: unknown) => {
      if (error instanceof Stopped) return;
      post({ type: 'error', reason: error instanceof Unpacked ? 'unpacked' : 'invalid', message: error instanceof Error ? error.message : String(error) });
    })
    .finally(() => port.close());
}

// ---------------------------------------------------------------------------------------------
// The server thread's side

/** What a tool answers when its workbook cannot be read: broken, too big to unpack, too big for the worker's heap. */
export interface XlsxRefusals {
  /** A workbook exceljs or the unzipper cannot read (the library's words go to the log, as the cause). */
  invalid: (cause: Error) => ApiError;
  /** The zip unpacks to more than the job's `maxUnpackedBytes`. */
  unpacked: () => ApiError;
  /** Reading it outgrew the worker's heap. */
  outOfMemory: () => ApiError;
}

/**
 * Runs a job in a worker thread (this file): its young generation kept small so exceljs' garbage
 * is collected as it goes, its old generation capped so a workbook too big to read fails alone
 * rather than the server, its temporary files in the job's folder. `answer` handles each message
 * and returns what to send back (null: nothing). Resolves true once the worker has finished its
 * job (`done` or `preview`), false when it ended without; rejects with the tool's refusal.
 */
export async function runXlsxWorker(job: XlsxJob, answer: (message: FromWorker) => Promise<ToWorker | null>, refusals: XlsxRefusals): Promise<boolean> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: job,
    env: { ...process.env, TMPDIR: job.dir },
    resourceLimits: { maxYoungGenerationSizeMb: XLSX_WORKER_LIMITS.youngMb, maxOldGenerationSizeMb: XLSX_WORKER_LIMITS.oldMb },
  });
  let finished = false;
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        reject(error);
      };
      worker.on('message', (message: FromWorker) => {
        if (failed) return;
        if (message.type === 'error') {
          fail(message.reason === 'unpacked' ? refusals.unpacked() : refusals.invalid(new Error(message.message)));
          return;
        }
        answer(message)
          .then((reply) => {
            if (message.type === 'done' || message.type === 'preview') {
              finished = true;
              resolve();
            } else if (reply && !failed) worker.postMessage(reply);
          })
          .catch((error: unknown) => {
            worker.postMessage({ type: 'stop' } satisfies ToWorker);
            fail(error);
          });
      });
      worker.on('error', (error: Error & { code?: string }) =>
        fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refusals.outOfMemory() : refusals.invalid(error)),
      );
      worker.on('exit', () => resolve());
    });
  } finally {
    await worker.terminate();
  }
  return finished;
}
