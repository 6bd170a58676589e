/**
 * Reading a points bulk-update file (decision 015): a CSV (csv-parse, streamed) or an XLSX
 * (exceljs's streaming WorkbookReader, first worksheet), told apart by their bytes, not their
 * name. Rows come out one at a time with their line (the header is line 1; for an XLSX the
 * sheet's row number, for a CSV the record's number, which is the file's line unless a cell
 * holds a line break), their cells as trimmed text, and progress in bytes read.
 */
import { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { ApiError } from '../errors.ts';

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

const unreadable = (message: string) => new ApiError(422, 'unreadable_file', message);

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

/** A cell of exceljs as the text a person sees. */
export function cellText(value: ExcelJS.CellValue | undefined): string {
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
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ('text' in value && typeof value.text === 'string') return value.text.trim();
  if ('error' in value) return String(value.error);
  return '';
}

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
    const where = error instanceof Error && 'lines' in error && typeof error.lines === 'number' ? ` near line ${error.lines}` : '';
    throw unreadable(`The CSV could not be read${where}: ${error instanceof Error ? error.message.replace(/^Invalid [^:]+: /, '') : 'invalid file'}`);
  }
}

async function* xlsxRows(bytes: Buffer, onProgress: Progress): AsyncGenerator<TableRow, void, undefined> {
  let read = 0;
  const chunkBytes = 256 * 1024;
  const source = Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += chunkBytes) {
        const chunk = bytes.subarray(at, at + chunkBytes);
        read += chunk.length;
        yield chunk;
      }
    })(),
  );
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let sheets = 0;
  try {
    for await (const sheet of reader) {
      sheets += 1;
      if (sheets > 1) continue; // the first worksheet only (later ones are read past, not used)
      for await (const row of sheet) {
        const values = Array.isArray(row.values) ? (row.values as ExcelJS.CellValue[]) : [];
        // exceljs's row values start at index 1 (column A).
        yield { line: row.number, cells: values.slice(1).map((value) => cellText(value)) };
        onProgress(read);
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreadable('The XLSX file could not be read: save it again from your spreadsheet, or as a CSV');
  } finally {
    source.destroy();
  }
  onProgress(bytes.length);
  if (sheets === 0) throw unreadable('The XLSX file has no worksheet');
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
