/**
 * The one XLSX writer of the exports (the review export, the answers export): exceljs' streaming
 * writer, no shared strings, sheet after sheet, a page of rows at a time, written to the answer
 * as the client reads it. A page is asked for only once the one before has gone to the client
 * (bounded memory); a client that goes away stops the reading. Text cells pass `xlsxText`
 * (export-text.ts: XML 1.0 characters only, never read as a formula); numbers stay numbers, and
 * no cell is ever written as a formula.
 */
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { CsvCell } from './csv.ts';
import { xlsxText } from './export-text.ts';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One sheet: its name (`xlsxSheetName`), its header row (bold) with each column's width, and its rows a page at a time. */
export interface XlsxSheetSource {
  name: string;
  header: readonly string[];
  /** A column's width in characters (default 18). */
  width?: (header: string, index: number) => number;
  pages: AsyncIterable<readonly (readonly CsvCell[])[]> | Iterable<readonly (readonly CsvCell[])[]>;
}

/** Characters Excel refuses in a sheet name. */
const NOT_IN_SHEET_NAME = /[[\]:*?/\\]|\p{Cc}/gu;
/** The most characters of a sheet name. */
const SHEET_NAME_MAX = 31;

/** A sheet name Excel takes: `prefix` then `title` without the characters it refuses, cut to 31 characters, no `'` at either end. */
export function xlsxSheetName(prefix: string, title: string): string {
  const name = Array.from(`${prefix}${title.replace(NOT_IN_SHEET_NAME, ' ').replace(/\s+/g, ' ')}`)
    .slice(0, SHEET_NAME_MAX)
    .join('')
    .replace(/^'+|'+$/g, '')
    .trim();
  return name || 'Sheet';
}

/** A workbook written as it is read; a failure mid-way ends the answer with an error (the client sees a broken download, never a half file taken for whole). */
export function xlsxStream(sheets: Iterable<XlsxSheetSource> | AsyncIterable<XlsxSheetSource>): ReadableStream<Uint8Array> {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  // Waits while the client is behind; false once it has gone (the stream closed).
  const caughtUp = async (): Promise<boolean> => {
    if (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
    return !out.destroyed;
  };
  const write = async () => {
    for await (const source of sheets) {
      const sheet = workbook.addWorksheet(source.name);
      sheet.columns = source.header.map((header, index) => ({ header: xlsxText(header), key: String(index), width: source.width?.(header, index) ?? 18 }));
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      for await (const rows of source.pages) {
        for (const cells of rows) sheet.addRow(cells.map((cell) => (typeof cell === 'string' ? xlsxText(cell) : cell))).commit();
        if (!(await caughtUp())) return;
      }
      sheet.commit();
    }
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}
