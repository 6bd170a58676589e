/**
 * Reading a points bulk-update file (src/server/services/points-bulk-file.ts) and matching its
 * columns: encodings, delimiters, line numbers, XLSX cells as shown, and the header aliases; the
 * limits that keep a hostile file from taking the server's memory (a quote never closed, a zip
 * bomb).
 */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ZipArchive } from 'archiver';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { CSV_RECORD_MAX_BYTES, XLSX_UNPACKED_MAX_BYTES } from '../../src/shared/file-limits.ts';
import { ApiError } from '../../src/server/errors.ts';
import { decodeText, openTable, type TableRow } from '../../src/server/services/points-bulk-file.ts';
import { matchColumns } from '../../src/server/services/points-bulk-update.ts';
import { shownText } from '../../src/server/services/xlsx-worker.ts';

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
    expect(shownText(null)).toBe('');
    expect(shownText(true)).toBe('TRUE');
  });

  it('refuses what it cannot read with 422', async () => {
    await expect(openTable(Buffer.alloc(0))).rejects.toMatchObject({ status: 422, code: 'file_empty' });
    await expect(openTable(Buffer.from('\n \n'))).rejects.toMatchObject({ status: 422, code: 'file_empty' });
    await expect(openTable(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0]))).rejects.toMatchObject({ status: 422, code: 'unreadable_file' });
    await expect(read(Buffer.from([0x50, 0x4b, 0x03, 0x04, 9, 9, 9, 9]))).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses a CSV quote never closed once its record outgrows the limit, without reading the rest', async () => {
    const bytes = Buffer.concat([Buffer.from('participant,points,reason\na@x.org,5,"never closed '), Buffer.alloc(5 * CSV_RECORD_MAX_BYTES, 'a')]);
    const progress: number[] = [];
    const reading = (async () => {
      const table = await openTable(bytes, (done) => progress.push(done));
      for await (const row of table.rows) expect.unreachable(`a row: ${row.line}`);
    })();
    await expect(reading).rejects.toMatchObject({
      status: 422,
      code: 'unreadable_file',
      message: 'The CSV could not be read: Row 2 (the header is row 1) is longer than 4 MB: a quote (") is probably never closed',
    });
    expect(Math.max(...progress)).toBeLessThan(bytes.length / 2);
  });

  it('refuses an XLSX that unpacks past its limit (a zip bomb of a few hundred KB) with 413, and reads the next workbook as usual', async () => {
    // A workbook whose shared strings unpack to just over the limit: millions of identical strings compress to almost nothing.
    const zip = new ZipArchive({ zlib: { level: 9 } });
    const done = buffer(zip);
    const part = (name: string, xml: string) => zip.append(Buffer.from(xml), { name });
    part('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    part('xl/workbook.xml', '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>');
    const strings = Buffer.from('<si><t>bomb</t></si>'.repeat(50_000));
    const count = Math.ceil(XLSX_UNPACKED_MAX_BYTES.points / strings.length) + 1;
    zip.append(
      Readable.from(
        (function* () {
          yield Buffer.from('<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">');
          for (let n = 0; n < count; n++) yield strings;
          yield Buffer.from('</sst>');
        })(),
      ),
      { name: 'xl/sharedStrings.xml' },
    );
    part(
      'xl/worksheets/sheet1.xml',
      '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>',
    );
    await zip.finalize();
    const bomb = await done;
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(openTable(bomb)).rejects.toMatchObject({
      status: 413,
      code: 'file_too_large',
      message: 'The XLSX file unpacks to more than 256 MB: save it again from your spreadsheet, or as a CSV',
    });
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('One').addRow(['participant', 'points', 'reason']);
    expect((await read(Buffer.from(await workbook.xlsx.writeBuffer()))).headers).toEqual(['participant', 'points', 'reason']);
    // Making and unpacking 256 MB takes ~4 s alone, more beside the other files of a run.
  }, 30_000);

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
