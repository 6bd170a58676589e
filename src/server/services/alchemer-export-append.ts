/**
 * Alchemer export append (decision 016, docs/api.md "Alchemer export append"): a client's Alchemer
 * response export (CSV or XLSX) handed back untouched, with chosen Fieldwork profile fields
 * appended to each row matched by its participant reference (`pid`), rows that match nobody
 * flagged, and optionally the `Complete` rows' outcomes confirmed as Alchemer's webhook does.
 *
 * The upload is streamed to a temporary folder (`receiveExport`, busboy, its own size limit). One
 * pass reads it in batches of rows — references looked up together (`= any(array)`), completes
 * confirmed, profile fields read together — and writes the output next to it; the counts are then
 * known, and the route streams the output file (with backpressure) as the answer. Memory stays
 * bounded by a batch, whatever the file's size.
 *
 * CSV: the bytes are parsed as latin1 (one character per byte, and every CSV delimiter is ASCII,
 * so UTF-8 and Windows-1252 parse alike) and each record is re-emitted as the exact bytes it was
 * read from (csv-parse's `info.bytes` offsets into the read chunks), its line ending kept, with the
 * new cells encoded in the file's own encoding. Only the appended cells are made formula-safe.
 * XLSX: exceljs' streaming reader and writer in the tools' XLSX worker (xlsx-worker.ts: a small
 * heap, the zip's unpacked size capped), the lookups done here; the client's cells are copied
 * value for value (with their style), the appended cells written as strings.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import { parse as csvParse, type Info } from 'csv-parse';
import { sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import {
  ageBandOfBirthYear,
  ALCHEMER_APPEND_LIMITS,
  ALCHEMER_COMPLETE_STATUS,
  ALCHEMER_PID_COLUMN,
  ALCHEMER_STATUS_COLUMN,
  appendedFileName,
  appendedHeader,
  APPEND_FORM_FIELDS,
  MATCH_HEADER,
  MATCHED,
  NOT_MATCHED,
  type AppendCounts,
  type AppendField,
  type ExportColumn,
  type ExportEncoding,
  type ExportFormat,
  type ExportPreview,
} from '../../shared/alchemer-export-append.ts';
import { CSV_RECORD_MAX_BYTES, sizeText, XLSX_UNPACKED_MAX_BYTES } from '../../shared/file-limits.ts';
import type { AppendOptions } from '../../shared/schemas/alchemer-export-append.ts';
import { queryRows, type Db } from '../db/index.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from './clock.ts';
import { audit } from './audit.ts';
import { sha256Hex } from './crypto.ts';
import { csvReadProblem } from './csv.ts';
import { csvText, xlsxText } from './export-text.ts';
import { recordOutcome } from './external-surveys.ts';
import { runXlsxWorker, type XlsxRefusals } from './xlsx-worker.ts';
import { availableSql } from './points.ts';

// ---------------------------------------------------------------------------------------------
// Receiving the upload

/** An uploaded export in its temporary folder. `dispose()` removes the folder (call it in every case). */
export interface ReceivedExport {
  dir: string;
  path: string;
  fileName: string;
  bytes: number;
  format: ExportFormat;
  encoding: ExportEncoding | null;
  /** The other multipart fields (repeated names kept in order). */
  fields: Map<string, string[]>;
  dispose(): Promise<void>;
}

const HEAD_BYTES = 4096;

/** Counts bytes, keeps the first ones and checks UTF-8 as the upload goes to disk. */
class UploadTap extends Transform {
  bytes = 0;
  head = Buffer.alloc(0);
  utf8 = true;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    if (this.utf8) {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        this.utf8 = false;
      }
    }
    callback(null, chunk);
  }
  override _flush(callback: TransformCallback): void {
    if (this.utf8) {
      try {
        this.decoder.decode();
      } catch {
        this.utf8 = false;
      }
    }
    callback();
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function tooLarge(): ApiError {
  return new ApiError(413, 'file_too_large', `The file is larger than ${megabytes(ALCHEMER_APPEND_LIMITS.maxBytes)}: export fewer responses or columns`);
}

/**
 * Streams a multipart request (its one `file` field and small text fields) to a temporary folder,
 * refusing more than `maxBytes` (413), then checks what the file is (`inspect`): 400 for an empty
 * file, a file that is neither CSV nor XLSX, UTF-16, an old `.xls`. The folder is removed on any
 * refusal; otherwise the caller disposes of it.
 */
export async function receiveExport(
  headers: Headers,
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number = ALCHEMER_APPEND_LIMITS.maxBytes,
): Promise<ReceivedExport> {
  const contentType = headers.get('content-type') ?? '';
  if (!/^multipart\/form-data/i.test(contentType) || !body)
    throw new ApiError(400, 'file_required', 'Send the Alchemer export as a file (multipart/form-data, field "file")');
  const declared = Number(headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes + 1024 * 1024) throw tooLarge();

  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'fieldwork-alchemer-'));
  const dispose = () => fs.promises.rm(dir, { recursive: true, force: true });
  const filePath = path.join(dir, 'upload');
  const fields = new Map<string, string[]>();
  const got: { fileName: string | null; tap: UploadTap | null; truncated: boolean } = { fileName: null, tap: null, truncated: false };
  let written: Promise<void> = Promise.resolve();
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { 'content-type': contentType },
          limits: { fileSize: maxBytes, files: 1, fields: 40, fieldSize: 64 * 1024, parts: 60 },
          defParamCharset: 'utf8',
        });
      } catch {
        reject(new ApiError(400, 'file_required', 'Send the Alchemer export as a file (multipart/form-data, field "file")'));
        return;
      }
      parser.on('file', (name, stream, info) => {
        if (name !== APPEND_FORM_FIELDS.file || got.fileName !== null) {
          // A body cut short errors this part too; the parser's own error answers it.
          stream.on('error', () => {});
          stream.resume();
          return;
        }
        got.fileName = info.filename || 'alchemer-export';
        const current = new UploadTap();
        got.tap = current;
        stream.on('limit', () => {
          got.truncated = true;
        });
        const out = fs.createWriteStream(filePath);
        written = new Promise<void>((done, fail) => {
          out.on('finish', () => done());
          out.on('error', fail);
          current.on('error', fail);
          stream.on('error', fail);
        });
        // Awaited once the parser is done; when the parser fails first (a body cut short), its error answers instead.
        written.catch(() => {});
        stream.pipe(current).pipe(out);
      });
      parser.on('field', (name, value) => {
        const list = fields.get(name) ?? [];
        list.push(value);
        fields.set(name, list);
      });
      parser.on('close', () => resolve());
      parser.on('error', () =>
        reject(new ApiError(400, 'invalid_multipart', 'The upload was cut short or is not valid multipart/form-data: send the file again')),
      );
      const source = Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>);
      source.on('error', () => reject(new ApiError(400, 'invalid_multipart', 'The upload was cut short: send the file again')));
      source.pipe(parser);
    });
    await written;
    if (got.truncated) throw tooLarge();
    const { fileName, tap: received } = got;
    if (fileName === null || received === null) throw new ApiError(400, 'file_required', 'Choose the Alchemer export to upload (field "file")');
    const { format, encoding } = inspect(received);
    return { dir, path: filePath, fileName, bytes: received.bytes, format, encoding, fields, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

const startsWith = (head: Buffer, bytes: readonly number[]) => bytes.every((byte, index) => head[index] === byte);

/** What the file is, from its first bytes and the UTF-8 check: 400 when it is nothing we read. */
function inspect(tap: UploadTap): { format: ExportFormat; encoding: ExportEncoding | null } {
  const { head } = tap;
  const bom = startsWith(head, [0xef, 0xbb, 0xbf]);
  const text = bom ? head.subarray(3) : head;
  if (tap.bytes === 0 || text.toString('latin1').trim() === '')
    throw new ApiError(400, 'empty_file', 'The file is empty: export the responses from Alchemer again');
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { format: 'xlsx', encoding: null };
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0]))
    throw new ApiError(400, 'unsupported_file', 'Old Excel files (.xls) cannot be read: export the responses from Alchemer as CSV or XLSX');
  if (startsWith(head, [0xff, 0xfe]) || startsWith(head, [0xfe, 0xff]))
    throw new ApiError(400, 'unsupported_encoding', 'The file is UTF-16: export it from Alchemer as CSV (UTF-8) or XLSX');
  if (head.includes(0)) throw new ApiError(400, 'unsupported_file', 'This file is neither a CSV nor an XLSX export: upload the file Alchemer exported');
  return { format: 'csv', encoding: bom ? 'utf-8-bom' : tap.utf8 ? 'utf-8' : 'windows-1252' };
}

// ---------------------------------------------------------------------------------------------
// Reading the export

/** Header names compared as people read them: non-breaking spaces as spaces, runs of spaces as one, trimmed, any case. */
export function headerKey(name: string): string {
  return name
    .replace(/[\u00a0\u2007\u202f\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** A CSV record: its fields (latin1 strings: one character per byte), the bytes it was read from without its line ending, and the ending. */
interface CsvRecord {
  fields: string[];
  content: Buffer;
  ending: Buffer;
}

/** A text value of a CSV field in the file's encoding. */
function decodeField(value: string, encoding: ExportEncoding): string {
  const bytes = Buffer.from(value, 'latin1');
  return encoding === 'windows-1252' ? iconv.decode(bytes, 'win1252') : bytes.toString('utf8');
}

function encodeText(text: string, encoding: ExportEncoding): Buffer {
  return encoding === 'windows-1252' ? iconv.encode(text, 'win1252') : Buffer.from(text, 'utf8');
}

function lineEndingLength(bytes: Buffer): number {
  const last = bytes[bytes.length - 1];
  if (last === 0x0a) return bytes[bytes.length - 2] === 0x0d ? 2 : 1;
  return last === 0x0d ? 1 : 0;
}

/**
 * The records of a CSV file with the exact bytes of each: csv-parse reads the file (latin1,
 * quoted multi-line cells, any line ending, rows of any length) and says how many bytes it has
 * consumed after each record; the record's bytes are cut from the chunks read, which are let go
 * as soon as they are behind. A record may hold at most `CSV_RECORD_MAX_BYTES` (csv-parse's
 * `max_record_size`, latin1: one character a byte), so the chunks kept are bounded by it too: a
 * quote never closed is refused (400 `invalid_csv`) once that much is read, and the rest of the
 * file is not read.
 */
async function* csvRecords(filePath: string, chunkBytes = 256 * 1024): AsyncGenerator<CsvRecord> {
  const chunks: Buffer[] = [];
  let chunksStart = 0;
  let consumed = 0;
  const file = fs.createReadStream(filePath, { highWaterMark: chunkBytes });
  const keep = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback(null, chunk);
    },
  });
  const parser = csvParse({
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    bom: false,
    skip_empty_lines: false,
    encoding: 'latin1',
    max_record_size: CSV_RECORD_MAX_BYTES,
  });
  file.on('error', (error) => parser.destroy(error));
  keep.on('error', (error) => parser.destroy(error));
  file.pipe(keep).pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const end = item.info.bytes;
      const pieces: Buffer[] = [];
      let at = chunksStart;
      for (const chunk of chunks) {
        const from = Math.max(consumed, at);
        const to = Math.min(end, at + chunk.length);
        if (to > from) pieces.push(chunk.subarray(from - at, to - at));
        at += chunk.length;
        if (at >= end) break;
      }
      consumed = end;
      while (chunks.length > 0 && chunksStart + (chunks[0]?.length ?? 0) <= consumed) chunksStart += chunks.shift()?.length ?? 0;
      const raw = pieces.length === 1 ? (pieces[0] ?? Buffer.alloc(0)) : Buffer.concat(pieces);
      const endingLength = lineEndingLength(raw);
      yield { fields: item.record, content: raw.subarray(0, raw.length - endingLength), ending: raw.subarray(raw.length - endingLength) };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, 'invalid_csv', `The CSV file cannot be read: ${csvReadProblem(error)}. Export it from Alchemer again`, { cause: error });
  } finally {
    file.destroy();
    parser.destroy();
  }
}

/** The refusals of an XLSX export the tools' worker cannot read: in our words, the library's in the log. */
const XLSX_REFUSALS: XlsxRefusals = {
  invalid: (cause) => new ApiError(400, 'invalid_xlsx', 'The XLSX file cannot be read: export it from Alchemer again', { cause }),
  unpacked: () =>
    new ApiError(
      413,
      'file_too_large',
      `The XLSX file unpacks to more than ${sizeText(XLSX_UNPACKED_MAX_BYTES.alchemer)}: export fewer responses or columns, or export as CSV`,
    ),
  outOfMemory: () => new ApiError(422, 'xlsx_too_large', 'This XLSX file is too large to read here: export the responses from Alchemer as CSV'),
};

/** The worker job of an XLSX export. */
const xlsxJob = (file: ReceivedExport) =>
  ({ kind: 'fieldwork-xlsx', input: file.path, dir: file.dir, maxUnpackedBytes: XLSX_UNPACKED_MAX_BYTES.alchemer }) as const;

/** The header names of a row: each column's text, the byte order mark left out. */
function headerNames(values: readonly string[]): string[] {
  return values.map((value, index) => (index === 0 ? value.replace(/^\ufeff/, '') : value));
}

// ---------------------------------------------------------------------------------------------
// Looking up references and profiles (in batches, never per row)

interface Match {
  refId: number;
  userId: number;
}

/** The reference value of a cell, or null when it cannot be one. */
function pidOf(value: string): string | null {
  const trimmed = value.trim();
  return trimmed === '' || trimmed.length > 200 ? null : trimmed;
}

/** The references of these pids (by their SHA-256), one query. */
async function matchReferences(db: Db, pids: Iterable<string>): Promise<Map<string, Match>> {
  const byHash = new Map<string, string>();
  for (const pid of pids) byHash.set(sha256Hex(pid), pid);
  const found = new Map<string, Match>();
  if (byHash.size === 0) return found;
  const rows = await queryRows<{ id: number; user_id: number; pid_hash: string }>(
    db,
    sql`select id, user_id, pid_hash from survey_external_refs where pid_hash = any(${sql.param([...byHash.keys()])}::text[])`,
  );
  for (const row of rows) {
    const pid = byHash.get(row.pid_hash);
    if (pid !== undefined) found.set(pid, { refId: Number(row.id), userId: Number(row.user_id) });
  }
  return found;
}

type Profile = Record<AppendField, string>;

/** The chosen fields of these people: names, email, address, age band, their projects' names, their available points. Three queries at most. */
async function profilesOf(db: Db, clock: Clock, userIds: readonly number[], fields: readonly AppendField[]): Promise<Map<number, Profile>> {
  const out = new Map<number, Profile>();
  if (userIds.length === 0) return out;
  const ids = [...new Set(userIds)];
  const wantProjects = fields.includes('projects');
  const wantPoints = fields.includes('points');
  const [people, memberships, balances] = await Promise.all([
    queryRows<{
      id: number;
      first_name: string;
      last_name: string;
      email: string;
      country: string | null;
      region: string | null;
      postcode: string | null;
      birth_year: number | null;
    }>(
      db,
      sql`select id, first_name, last_name, email, address->>'country' as country, address->>'region' as region, address->>'postalCode' as postcode, birth_year
          from users where id = any(${sql.param(ids)}::int[])`,
    ),
    wantProjects
      ? queryRows<{ user_id: number; names: string }>(
          db,
          sql`select pm.user_id, string_agg(p.name, '; ' order by p.name) as names
              from project_members pm join projects p on p.id = pm.project_id
              where pm.user_id = any(${sql.param(ids)}::int[]) group by pm.user_id`,
        )
      : Promise.resolve([]),
    wantPoints
      ? queryRows<{ user_id: number; balance: string | number }>(
          db,
          // The available balance: held points (open redemptions) taken off, as the participant sees it.
          sql`select user_id, ${availableSql('points_ledger')}::bigint as balance
              from points_ledger where user_id = any(${sql.param(ids)}::int[]) group by user_id`,
        )
      : Promise.resolve([]),
  ]);
  const projectsOf = new Map(memberships.map((row) => [Number(row.user_id), row.names]));
  const pointsOf = new Map(balances.map((row) => [Number(row.user_id), String(Number(row.balance))]));
  const today = clock.now();
  for (const person of people) {
    const id = Number(person.id);
    out.set(id, {
      firstName: person.first_name,
      lastName: person.last_name,
      email: person.email,
      country: person.country ?? '',
      region: person.region ?? '',
      postcode: person.postcode ?? '',
      // From the optional year of birth: age = this year (UTC, the clock's) minus the year of birth; empty when not given.
      ageBand: ageBandOfBirthYear(person.birth_year === null ? null : Number(person.birth_year), today),
      projects: projectsOf.get(id) ?? '',
      points: pointsOf.get(id) ?? '0',
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Preview

/** Values that could be a reference (base64url-like, 16 to 200 characters): the only ones the preview looks up. */
const PID_LIKE = /^[A-Za-z0-9_\-+/=.~]{16,200}$/;

/** The columns of the sample, with how many of their values are references, and the proposed id column. */
async function columnsOf(
  db: Db,
  names: readonly string[],
  sample: readonly (readonly string[])[],
): Promise<{ columns: ExportColumn[]; proposed: string | null }> {
  const candidates = new Set<string>();
  for (const row of sample) for (const value of row) if (PID_LIKE.test(value.trim())) candidates.add(value.trim());
  const matches = await matchReferences(db, candidates);
  const columns = names.map((name, index) => {
    let sampled = 0;
    let matched = 0;
    for (const row of sample) {
      const value = (row[index] ?? '').trim();
      if (value === '') continue;
      sampled += 1;
      if (matches.has(value)) matched += 1;
    }
    return { index, name, sampled, matches: matched };
  });
  const isPid = (column: ExportColumn) => headerKey(column.name) === headerKey(ALCHEMER_PID_COLUMN);
  const ranked = [...columns].sort((a, b) => b.matches - a.matches || Number(isPid(b)) - Number(isPid(a)) || a.index - b.index);
  const best = ranked[0];
  const proposed = best && best.matches > 0 ? best.name : (columns.find(isPid)?.name ?? null);
  return { columns, proposed };
}

/** `POST …/preview`: the file's format, encoding, data rows, and its columns with how many sampled values are Fieldwork references. */
export async function previewExport(db: Db, file: ReceivedExport): Promise<ExportPreview> {
  const sample: string[][] = [];
  let names: string[] | null = null;
  let rows = 0;
  if (file.format === 'csv') {
    const encoding = file.encoding ?? 'utf-8';
    for await (const record of csvRecords(file.path)) {
      if (record.content.length === 0) continue;
      if (names === null) {
        names = headerNames(record.fields.map((field) => decodeField(field, encoding)));
        continue;
      }
      rows += 1;
      if (sample.length < ALCHEMER_APPEND_LIMITS.sampleRows) sample.push(record.fields.map((field) => decodeField(field, encoding)));
    }
  } else {
    const read = await runXlsxWorker(
      { ...xlsxJob(file), mode: 'alchemer-preview' },
      async (message) => {
        if (message.type !== 'preview') return null;
        names = message.names === null ? null : headerNames(message.names);
        rows = message.rows;
        sample.push(...message.sample);
        return null;
      },
      XLSX_REFUSALS,
    );
    if (!read) throw new ApiError(400, 'invalid_xlsx', 'The XLSX file cannot be read: export it from Alchemer again');
  }
  if (names === null) throw new ApiError(400, 'empty_file', 'The file has no header row: export the responses from Alchemer again');
  const { columns, proposed } = await columnsOf(db, names, sample);
  return {
    fileName: file.fileName,
    format: file.format,
    encoding: file.encoding,
    bytes: file.bytes,
    rows,
    columns,
    proposedIdColumn: proposed,
    hasStatus: names.some((name) => headerKey(name) === headerKey(ALCHEMER_STATUS_COLUMN)),
  };
}

// ---------------------------------------------------------------------------------------------
// Append

/** The appended file, written next to the upload, and what was done. */
export interface AppendResult {
  outPath: string;
  bytes: number;
  fileName: string;
  contentType: string;
  counts: AppendCounts;
}

/** One data row waiting in a batch: its reference and status, and how to write it once looked up. */
interface Pending<T> {
  pid: string | null;
  complete: boolean;
  row: T;
}

/** An appended CSV cell: the formula guard of every CSV (`csvText`; a whole number of `numeric` stays a number), quoted when it holds a comma, quote or line break. */
function csvCell(text: string, numeric = false): string {
  const safe = numeric && /^-?\d+$/.test(text) ? text : csvText(text);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

class Appender {
  readonly counts: AppendCounts = { rows: 0, matched: 0, unmatched: 0, confirmed: 0, alreadyConfirmed: 0, notConfirmed: 0 };
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly options: AppendOptions;
  constructor(db: Db, clock: Clock, options: AppendOptions) {
    this.db = db;
    this.clock = clock;
    this.options = options;
  }

  /** The batch's matches and profiles; confirms its `Complete` rows when asked. */
  async resolve<T>(batch: readonly Pending<T>[]): Promise<{ match: (pid: string | null) => Match | null; profile: (userId: number) => Profile | undefined }> {
    const matches = await matchReferences(
      this.db,
      batch.flatMap((item) => (item.pid === null ? [] : [item.pid])),
    );
    for (const item of batch) {
      this.counts.rows += 1;
      const match = item.pid === null ? undefined : matches.get(item.pid);
      if (!match) {
        this.counts.unmatched += 1;
        continue;
      }
      this.counts.matched += 1;
      if (this.options.confirmCompletes && item.complete) {
        // The same confirmation as Alchemer's webhook (`recordOutcome`, source `export`): its own transaction, under the participant's lock.
        const result = await recordOutcome(this.db, this.clock, match.refId, 'complete', 'export');
        if (result.recorded && result.confirmed) this.counts.confirmed += 1;
        else if (result.confirmed && result.outcome === 'complete') this.counts.alreadyConfirmed += 1;
        else this.counts.notConfirmed += 1;
      }
    }
    // Read after the confirmations, so the points are the balance they leave.
    const profiles = await profilesOf(
      this.db,
      this.clock,
      [...matches.values()].map((match) => match.userId),
      this.options.fields,
    );
    return {
      match: (pid) => (pid === null ? null : (matches.get(pid) ?? null)),
      profile: (userId) => profiles.get(userId),
    };
  }

  /** The appended cells of a row: the chosen fields (empty when unmatched), then the match flag. */
  cells(match: Match | null, profile: Profile | undefined): string[] {
    const values = this.options.fields.map((field) => (match && profile ? profile[field] : ''));
    values.push(match ? MATCHED : NOT_MATCHED);
    return values;
  }

  headers(): string[] {
    return [...this.options.fields.map(appendedHeader), MATCH_HEADER];
  }
}

function idColumnMissing(idColumn: string, names: readonly string[]): ApiError {
  const shown = names
    .slice(0, 8)
    .map((name) => `“${name.trim()}”`)
    .join(', ');
  return new ApiError(400, 'id_column_missing', `The file has no column named “${idColumn}” (its columns start ${shown}${names.length > 8 ? ', …' : ''})`, {
    fields: { idColumn: [`No column named “${idColumn}” in this file`] },
  });
}

/** Writes to a file stream, waiting when it asks to (backpressure). */
async function writeTo(out: fs.WriteStream, data: Buffer): Promise<void> {
  if (!out.write(data)) await once(out, 'drain');
}

async function closeStream(out: fs.WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

/**
 * `POST /api/admin/tools/alchemer-export-append`: reads the upload once, in batches, and writes
 * the appended file next to it. 400 when the id column is missing; CSV and XLSX errors are 400s
 * too, all before the answer starts. With "Confirm completes", the audit row is written however
 * the run ends (`finally`): a file that breaks after its first batches has confirmed those
 * batches' completes (their points are available), and the row says so with the counts reached
 * and `completed: false`.
 */
export async function appendExport(
  db: Db,
  clock: Clock,
  file: ReceivedExport,
  options: AppendOptions,
  actor: { id: number; ip: string },
): Promise<AppendResult> {
  const outPath = path.join(file.dir, `appended.${file.format}`);
  const appender = new Appender(db, clock, options);
  let completed = false;
  try {
    if (file.format === 'csv') await appendCsv(file, outPath, appender, options);
    else await appendXlsx(file, outPath, appender, options);
    completed = true;
  } finally {
    // A run refused before its first row (a missing column, an unreadable file) looked nothing up: nothing to record.
    if (options.confirmCompletes && (completed || appender.counts.rows > 0))
      await auditConfirmedCompletes(db, actor, file.fileName, appender.counts, completed);
  }
  const { size } = await fs.promises.stat(outPath);
  return {
    outPath,
    bytes: size,
    fileName: appendedFileName(file.fileName, file.format),
    contentType:
      file.format === 'csv'
        ? `text/csv; charset=${file.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8'}`
        : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    counts: appender.counts,
  };
}

interface CsvRow {
  record: CsvRecord;
  /** Empty cells to add so the appended cells line up under their headers (a row shorter than the header). */
  pad: number;
}

/** The header's positions from its names: 400 when the id column is missing. */
function headerOf(names: readonly string[], idColumn: string): { width: number; id: number; status: number } {
  const id = names.findIndex((name) => headerKey(name) === headerKey(idColumn));
  if (id < 0) throw idColumnMissing(idColumn, names);
  const status = names.findIndex((name) => headerKey(name) === headerKey(ALCHEMER_STATUS_COLUMN));
  return { width: names.length, id, status };
}

async function appendCsv(file: ReceivedExport, outPath: string, appender: Appender, options: AppendOptions): Promise<void> {
  const encoding = file.encoding ?? 'utf-8';
  const out = fs.createWriteStream(outPath);
  const outClosed = once(out, 'close').catch(() => undefined);
  try {
    let header: { width: number; id: number; status: number } | null = null;
    let batch: Pending<CsvRow>[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const { match, profile } = await appender.resolve(batch);
      const parts: Buffer[] = [];
      for (const item of batch) {
        const found = match(item.pid);
        const cells = appender.cells(found, found ? profile(found.userId) : undefined);
        const tail = ','.repeat(item.row.pad) + cells.map((cell, index) => `,${csvCell(cell, options.fields[index] === 'points')}`).join('');
        parts.push(item.row.record.content, encodeText(tail, encoding), item.row.record.ending);
      }
      batch = [];
      await writeTo(out, Buffer.concat(parts));
    };
    for await (const record of csvRecords(file.path)) {
      if (record.content.length === 0) {
        // A blank line: kept as it is, in its place.
        if (batch.length > 0) await flush();
        await writeTo(out, Buffer.concat([record.content, record.ending]));
        continue;
      }
      if (header === null) {
        header = headerOf(headerNames(record.fields.map((field) => decodeField(field, encoding))), options.idColumn);
        const tail = appender
          .headers()
          .map((name) => `,${csvCell(name)}`)
          .join('');
        await writeTo(out, Buffer.concat([record.content, encodeText(tail, encoding), record.ending]));
        continue;
      }
      const idValue = record.fields[header.id];
      const statusValue = header.status >= 0 ? record.fields[header.status] : undefined;
      batch.push({
        pid: idValue === undefined ? null : pidOf(decodeField(idValue, encoding)),
        complete: statusValue !== undefined && decodeField(statusValue, encoding).trim().toLowerCase() === ALCHEMER_COMPLETE_STATUS.toLowerCase(),
        row: { record, pad: Math.max(0, header.width - record.fields.length) },
      });
      if (batch.length >= ALCHEMER_APPEND_LIMITS.batchRows) await flush();
    }
    await flush();
    if (header === null) throw new ApiError(400, 'empty_file', 'The file has no header row: export the responses from Alchemer again');
    await closeStream(out);
  } catch (error) {
    out.destroy();
    await outClosed;
    throw error;
  }
}

async function appendXlsx(file: ReceivedExport, outPath: string, appender: Appender, options: AppendOptions): Promise<void> {
  let header: { width: number; id: number; status: number } | null = null;
  let sawHeader = false;
  await runXlsxWorker(
    { ...xlsxJob(file), mode: 'alchemer-append', output: outPath },
    async (message) => {
      if (message.type === 'header') {
        header = headerOf(headerNames(message.names), options.idColumn);
        return { type: 'header', ...header, appended: appender.headers() };
      }
      if (message.type === 'batch') {
        const batch = message.rows.map((row) => ({
          pid: pidOf(row.id),
          complete: row.status.trim().toLowerCase() === ALCHEMER_COMPLETE_STATUS.toLowerCase(),
          row: null,
        }));
        const { match, profile } = await appender.resolve(batch);
        return {
          type: 'cells',
          // Text cells of an XLSX: XML 1.0 characters only, never read as a formula (export-text.ts).
          cells: batch.map((item) => {
            const found = match(item.pid);
            return appender.cells(found, found ? profile(found.userId) : undefined).map(xlsxText);
          }),
        };
      }
      if (message.type === 'done') sawHeader = message.header;
      return null;
    },
    XLSX_REFUSALS,
  );
  if (!sawHeader || header === null) throw new ApiError(400, 'empty_file', 'The file has no header row: export the responses from Alchemer again');
}

/**
 * One audit row for an append that confirmed completes (`alchemer_export.confirm_completes`):
 * who, from where, which file, the counts reached and whether the run went through the whole file
 * (`completed`). Each confirmation is its own transaction (as the webhook's), so this row follows
 * them rather than sharing one.
 */
async function auditConfirmedCompletes(db: Db, actor: { id: number; ip: string }, fileName: string, counts: AppendCounts, completed: boolean): Promise<void> {
  await audit(db, {
    actorId: actor.id,
    via: 'api',
    action: 'alchemer_export.confirm_completes',
    targetType: 'alchemer_export',
    after: { fileName, ...counts, completed },
    ip: actor.ip,
  });
}
