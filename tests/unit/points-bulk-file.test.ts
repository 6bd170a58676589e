/**
 * Reading a points bulk-update file (src/server/services/points-bulk-file.ts) and matching its
 * columns: encodings, delimiters, line numbers, XLSX cells as shown, and the header aliases.
 */
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/errors.ts';
import { cellText, decodeText, openTable, type TableRow } from '../../src/server/services/points-bulk-file.ts';
import { matchColumns } from '../../src/server/services/points-bulk-update.ts';

async function read(bytes: Buffer): Promise<{ headers: string[]; rows: TableRow[]; format: string }> {
  const table = await openTable(bytes);
  const rows: TableRow[] = [];
  for await (const row of table.rows) rows.push(row);
  return { headers: table.headers, rows, format: table.format };
}

describe('points bulk file', () => {
  it('decodes UTF-8 (with or without its mark), UTF-16 by its mark, else Windows-1252', () => {
    expect(decodeText(Buffer.from('\uFEFFcafé', 'utf8'))).toBe('café');
    expect(decodeText(Buffer.from('café', 'utf8'))).toBe('café');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('café', 'utf16le')]))).toBe('café');
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]))).toBe('café €');
  });

  it('reads a CSV: the delimiter of its header, trimmed cells, blank lines skipped with their numbers kept, quoted line breaks', async () => {
    const table = await read(Buffer.from('\n Email ; Points;Reason\r\na@x.org;5;"two\nlines"\r\n\r\nb@x.org ; -3 ;ok\r\n'));
    expect(table.format).toBe('csv');
    expect(table.headers).toEqual(['Email', 'Points', 'Reason']);
    expect(table.rows).toEqual([
      { line: 3, cells: ['a@x.org', '5', 'two\nlines'] },
      { line: 5, cells: ['b@x.org', '-3', 'ok'] },
    ]);
  });

  it('reads an XLSX: its first sheet, row numbers as lines, cells as shown (numbers, hyperlinks, rich text, formulas)', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('One');
    sheet.addRow(['participant', 'points', 'reason']);
    sheet.addRow([{ text: 'a@x.org', hyperlink: 'mailto:a@x.org' }, 10, { richText: [{ text: 'Bold ' }, { text: 'bonus' }] }]);
    sheet.addRow([]);
    sheet.addRow([42, { formula: '2*3', result: 6 }, ' Thanks ']);
    workbook.addWorksheet('Two').addRow(['ignored']);
    const table = await read(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(table.format).toBe('xlsx');
    expect(table.headers).toEqual(['participant', 'points', 'reason']);
    expect(table.rows).toEqual([
      { line: 2, cells: ['a@x.org', '10', 'Bold bonus'] },
      { line: 4, cells: ['42', '6', 'Thanks'] },
    ]);
    expect(cellText(null)).toBe('');
    expect(cellText(true)).toBe('TRUE');
  });

  it('refuses what it cannot read with 422', async () => {
    await expect(openTable(Buffer.alloc(0))).rejects.toMatchObject({ status: 422, code: 'file_empty' });
    await expect(openTable(Buffer.from('\n \n'))).rejects.toMatchObject({ status: 422, code: 'file_empty' });
    await expect(openTable(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]))).rejects.toMatchObject({ status: 422, code: 'unreadable_file' });
    await expect(read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 9, 9, 9, 9]))).rejects.toBeInstanceOf(ApiError);
  });

  it('matches columns by alias in any case, or by the map given; else 422 with the headers', () => {
    expect(matchColumns(['E-mail', 'User ID', 'POINTS', 'reason', 'Ref'], null).map).toEqual({
      participant: 'User ID',
      points: 'POINTS',
      reason: 'reason',
      reference: 'Ref',
    });
    expect(matchColumns(['Who', 'Amount', 'Why'], { participant: 'who', points: 'AMOUNT', reason: 'Why' })).toEqual({
      map: { participant: 'Who', points: 'Amount', reason: 'Why', reference: null },
      index: { participant: 0, points: 1, reason: 2, reference: null },
    });
    try {
      matchColumns(['Who', 'points'], null);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 422, code: 'columns_unmatched', details: { headers: ['Who', 'points'] } });
      expect((error as Error).message).toBe("The file's header has no participant or reason column: choose which columns to read");
    }
  });
});
