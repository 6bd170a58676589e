/**
 * Alchemer export append (decision 016): the client's export handed back byte for byte with the
 * chosen profile fields appended (CSV with or without BOM, Windows-1252, repeated and NBSP
 * headers, quoted multi-line cells, CRLF; XLSX in and out), unmatched rows flagged, only the
 * appended cells formula-safe, "Confirm completes" confirming once through the webhook's path (and
 * audited even when the file breaks halfway), and clear refusals for bad files (a quote never
 * closed refused once a record outgrows its limit, the rest of the file not read). The upload's
 * temporary folder is gone after every call.
 */
import fs from 'node:fs';
import os from 'node:os';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { expect, it, vi } from 'vitest';
import { auditLog, pointsLedger, surveyExternalRefs, users, type Survey } from '../../src/server/db/schema/index.ts';
import { sha256Hex } from '../../src/server/services/crypto.ts';
import { creditExternalSurvey } from '../../src/server/services/points.ts';
import { ALCHEMER_APPEND_LIMITS, type ExportPreview } from '../../src/shared/alchemer-export-append.ts';
import { CSV_RECORD_MAX_BYTES } from '../../src/shared/file-limits.ts';
import { pointReference } from '../../src/shared/points.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import { addMember, createProject, createSurvey, insertExternalRef, okJson, participant, staff } from './programme-fixtures.ts';

const PREVIEW = '/api/admin/tools/alchemer-export-append/preview';
const APPEND = '/api/admin/tools/alchemer-export-append';
const NBSP = '\u00a0';

let pidCounter = 0;
/** A reference as Fieldwork hands them out (43 base64url characters). */
const newPid = () => `${`pid${++pidCounter}x${Date.now().toString(36)}`.padEnd(43, 'A')}`;

/** Upload folders in the temporary directory that were not there when this file started (another run's leftovers are not ours). */
const before = new Set(fs.readdirSync(os.tmpdir()));
const folders = () => fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('fieldwork-alchemer-') && !before.has(name));
/** The upload folders left (an answer's folder goes once its stream has closed: give it a moment). */
async function tempFolders(): Promise<string[]> {
  for (let tries = 0; tries < 50 && folders().length > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  return folders();
}

describeEachBackend('admin tools: Alchemer export append', (ctx) => {
  interface Person {
    user: SignedIn;
    pid: string;
    refId: number;
  }

  /** A live project with an external survey and three members with references (outcome `complete` from the browser, points pending). */
  async function setup(c: TestContext, names: { first: string; last: string; region?: string }[] = []) {
    const project = await createProject(c, { name: `Kitchen study ${++pidCounter}` });
    const survey = await createSurvey(c, project.id, { kind: 'external', points: 25 });
    const people: Person[] = [];
    for (const [index, name] of [
      { first: 'Chloé', last: 'Dubois', region: 'Île-de-France' },
      { first: 'Ben', last: 'Okafor' },
      { first: 'Ana', last: 'García' },
      ...names,
    ].entries()) {
      const user = await participant(c);
      await addMember(c, project.id, user);
      await c.database.db
        .update(users)
        .set({
          firstName: name.first,
          lastName: name.last,
          address: { line1: '1 Main St', city: 'Paris', region: name.region ?? 'Region', postalCode: `7500${index}`, country: 'FR' },
        })
        .where(eq(users.id, user.id));
      const pid = newPid();
      const ref = await insertExternalRef(c, survey.id, user.id, { outcome: 'complete', pidHash: sha256Hex(pid) });
      await creditExternalSurvey(c.database.db, c.clock, survey, user.id);
      people.push({ user, pid, refId: ref.id });
    }
    return { project, survey, people };
  }

  const admin = (c: TestContext) => staff(c, 'admin');

  function form(file: Blob | null, fileName: string, fields: Record<string, string | string[]> = {}): FormData {
    const data = new FormData();
    for (const [name, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
    if (file) data.append('file', file, fileName);
    return data;
  }
  const post = (path: string, who: SignedIn | null, body: FormData) =>
    ctx().request(path, { method: 'POST', headers: { Origin: ORIGIN, ...(who?.headers ?? {}) }, body });

  async function preview(who: SignedIn, bytes: Uint8Array, fileName = 'export.csv'): Promise<ExportPreview> {
    return okJson<ExportPreview>(await post(PREVIEW, who, form(new Blob([new Uint8Array(bytes)]), fileName)));
  }
  async function append(who: SignedIn, bytes: Uint8Array, fields: Record<string, string | string[]>, fileName = 'export.csv') {
    const res = await post(APPEND, who, form(new Blob([new Uint8Array(bytes)]), fileName, fields));
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${body.toString('utf8')} ${ctx().logs.slice(-3).join('\n')}`);
    return { res, body, count: (name: string) => Number(res.headers.get(`Fieldwork-${name}`)) };
  }

  /** An Alchemer-like CSV: records as their exact text and line ending. */
  function alchemerRows(people: Person[], ending = '\r\n') {
    const header = [
      'Response ID',
      'Time Started',
      'Date Submitted',
      'Status',
      'Contact ID',
      'Language',
      'Referer',
      'SessionID',
      'User Agent',
      'Tags',
      'IP Address',
      'Longitude',
      'Latitude',
      'Country',
      'City',
      `State/Region`,
      'Postal',
      'Breakfast:Which meals do you cook?',
      'Dinner:Which meals do you cook?',
      'Other:Which meals do you cook?',
      'Other:Which meals do you cook?',
      `How${NBSP}often?`,
      'How often?',
      'URL Variable: pid',
    ];
    const row = (id: number, status: string, pid: string, comment: string) =>
      [
        String(id),
        '"Mar 3, 2026 9:14:02 am"',
        '2026-03-03 09:20:11',
        status,
        '',
        'English',
        'https://example.org/',
        `sess${id}`,
        '"Mozilla/5.0 (X11; Linux x86_64), ""quoted"""',
        '',
        '192.0.2.1',
        '2.35',
        '48.85',
        'France',
        'Paris',
        '',
        '75001',
        'Breakfast',
        '',
        'Other',
        comment,
        'Daily',
        'Weekly',
        pid,
      ].join(',');
    const records = [
      header.join(','),
      row(1, 'Complete', people[0]?.pid ?? '', '"I cook\r\nevery day, ""really"""'),
      row(2, 'Partial', people[1]?.pid ?? '', '=1+1'),
      row(3, 'Complete', 'not-a-reference-of-anyone-here-at-all-xyz', '+SUM(A1)'),
      row(4, 'Disqualified', people[2]?.pid ?? '', '@cmd'),
    ];
    return { header, records: records.map((text) => ({ text, ending })) };
  }

  const encodeUtf8 = (records: { text: string; ending: string }[], bom: boolean) =>
    Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(records.map((r) => r.text + r.ending).join(''), 'utf8')]);

  it('previews: format, encoding, rows, columns with matching references, `URL Variable: pid` proposed', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const { header, records } = alchemerRows(people);
    const answer = await preview(who, encodeUtf8(records, true));
    expect(answer).toMatchObject({
      fileName: 'export.csv',
      format: 'csv',
      encoding: 'utf-8-bom',
      rows: 4,
      proposedIdColumn: 'URL Variable: pid',
      hasStatus: true,
    });
    expect(answer.columns.map((column) => column.name)).toEqual(header);
    expect(answer.columns.find((column) => column.name === 'URL Variable: pid')).toMatchObject({ sampled: 4, matches: 3 });
    expect(answer.columns.find((column) => column.name === 'Response ID')).toMatchObject({ sampled: 4, matches: 0 });
    expect(await tempFolders()).toEqual([]);
  });

  it('appends the chosen fields to a UTF-8 CSV with BOM: every original record byte for byte (CRLF, repeated and NBSP headers, multi-line cells), unmatched rows flagged', async () => {
    const c = ctx();
    const { people, project } = await setup(c);
    const who = await admin(c);
    const { records } = alchemerRows(people);
    const input = encodeUtf8(records, true);
    const { res, body, count } = await append(who, input, {
      idColumn: 'URL Variable: pid',
      'fields[]': ['firstName', 'lastName', 'email', 'country', 'region', 'postcode', 'ageBand', 'projects', 'points'],
    });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''export%20(Fieldwork).csv`);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect([count('Rows'), count('Matched'), count('Unmatched'), count('Confirmed')]).toEqual([4, 3, 1, 0]);
    const appended = [
      ',Fieldwork: First name,Fieldwork: Last name,Fieldwork: Email,Fieldwork: Country,Fieldwork: Region,Fieldwork: Postcode,Fieldwork: Age band,Fieldwork: Projects,Fieldwork: Points,Fieldwork: Match',
      `,Chloé,Dubois,${people[0]?.user.email},FR,Île-de-France,75000,,${project.name},0,Matched`,
      `,Ben,Okafor,${people[1]?.user.email},FR,Region,75001,,${project.name},0,Matched`,
      ',,,,,,,,,,No match',
      `,Ana,García,${people[2]?.user.email},FR,Region,75002,,${project.name},0,Matched`,
    ];
    const expected = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(records.map((record, index) => record.text + appended[index] + record.ending).join(''), 'utf8'),
    ]);
    expect(body.toString('utf8')).toBe(expected.toString('utf8'));
    expect(body.equals(expected)).toBe(true);
    expect(await tempFolders()).toEqual([]);
  });

  it('keeps a UTF-8 CSV without BOM, LF endings and no final newline as it is', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const { records } = alchemerRows(people, '\n');
    const last = records[records.length - 1];
    if (last) last.ending = '';
    const input = encodeUtf8(records, false);
    const { res, body } = await append(who, input, { idColumn: `url variable:${NBSP}pid`, 'fields[]': 'lastName' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const expected = records
      .map(
        (record, index) =>
          record.text +
          [',Fieldwork: Last name,Fieldwork: Match', ',Dubois,Matched', ',Okafor,Matched', ',,No match', ',García,Matched'][index] +
          record.ending,
      )
      .join('');
    expect(body[0]).not.toBe(0xef);
    expect(body.toString('utf8')).toBe(expected);
  });

  it('appends the age band from the year of birth in the profile: this year minus it, empty when not given', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const year = c.clock.now().getUTCFullYear();
    // Ages 30 (25–34) and 17 (Under 18) this year; the third gave no year.
    await c.database.db
      .update(users)
      .set({ birthYear: year - 30 })
      .where(eq(users.id, people[0]?.user.id ?? 0));
    await c.database.db
      .update(users)
      .set({ birthYear: year - 17 })
      .where(eq(users.id, people[1]?.user.id ?? 0));
    const { records } = alchemerRows(people, '\n');
    const { body } = await append(who, encodeUtf8(records, false), { idColumn: 'URL Variable: pid', 'fields[]': 'ageBand' });
    const appended = [',Fieldwork: Age band,Fieldwork: Match', ',25–34,Matched', ',Under 18,Matched', ',,No match', ',,Matched'];
    expect(body.toString('utf8')).toBe(records.map((record, index) => record.text + appended[index] + record.ending).join(''));
  });

  it('keeps a Windows-1252 CSV in Windows-1252, the appended cells encoded the same way', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const lines = [
      'Response ID,Status,Comment – “quoted”,URL Variable: pid',
      `1,Complete,Crème brûlée €5,${people[0]?.pid}`,
      `2,Complete,"Naïve,\r\nthing",${people[1]?.pid}`,
    ];
    const input = iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1252');
    expect(input.includes(0xe8)).toBe(true); // è as one byte: not UTF-8
    const preview1 = await preview(who, input);
    expect(preview1).toMatchObject({ encoding: 'windows-1252', rows: 2, proposedIdColumn: 'URL Variable: pid' });
    expect(preview1.columns[2]?.name).toBe('Comment – “quoted”');
    const { res, body } = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': ['firstName', 'region'] });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=windows-1252');
    const expected = iconv.encode(
      [
        `${lines[0]},Fieldwork: First name,Fieldwork: Region,Fieldwork: Match\r\n`,
        `${lines[1]},Chloé,Île-de-France,Matched\r\n`,
        `${lines[2]},Ben,Region,Matched\r\n`,
      ].join(''),
      'win1252',
    );
    expect(body.equals(expected)).toBe(true);
  });

  it('makes only the appended cells formula-safe; the client’s own formula-looking cells stay as they are', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const [first, second] = people;
    if (!first || !second) throw new Error('no people');
    await c.database.db.update(users).set({ firstName: '=HYPERLINK("http://x.example","y")', lastName: '+1' }).where(eq(users.id, first.user.id));
    await c.database.db
      .update(users)
      .set({ firstName: '@SUM(1)', lastName: '\tTab', address: { line1: 'x', city: 'y', region: '－1', postalCode: '＝1', country: '-FR' } })
      .where(eq(users.id, second.user.id));
    const input = Buffer.from(`Status,Note,URL Variable: pid\r\nComplete,=1+1,${first.pid}\r\nComplete,-2,${second.pid}\r\n`, 'utf8');
    const { body } = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': ['firstName', 'lastName', 'country', 'region', 'postcode'] });
    expect(body.toString('utf8')).toBe(
      [
        'Status,Note,URL Variable: pid,Fieldwork: First name,Fieldwork: Last name,Fieldwork: Country,Fieldwork: Region,Fieldwork: Postcode,Fieldwork: Match',
        `Complete,=1+1,${first.pid},"'=HYPERLINK(""http://x.example"",""y"")",'+1,FR,Île-de-France,75000,Matched`,
        `Complete,-2,${second.pid},'@SUM(1),'\tTab,'-FR,'－1,'＝1,Matched`,
        '',
      ].join('\r\n'),
    );
  });

  it('pads rows shorter than the header so the appended cells line up, and keeps blank lines', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const input = Buffer.from(`URL Variable: pid,Status,Extra\r\n${people[0]?.pid}\r\n\r\n${people[1]?.pid},Complete,x,y\r\n`, 'utf8');
    const { body, count } = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': 'firstName' });
    expect(body.toString('utf8')).toBe(
      `URL Variable: pid,Status,Extra,Fieldwork: First name,Fieldwork: Match\r\n${people[0]?.pid},,,Chloé,Matched\r\n\r\n${people[1]?.pid},Complete,x,y,Ben,Matched\r\n`,
    );
    expect(count('Rows')).toBe(2);
  });

  it('reads and writes XLSX: the client’s cells kept, the appended cells strings (never formulas, XML 1.0 characters only), unmatched rows flagged', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    const [first] = people;
    if (!first) throw new Error('no people');
    // U+FFFE written as it is would make the workbook unreadable (exceljs' own reader refuses it, as Excel does).
    await c.database.db.update(users).set({ firstName: '=2+2\ufffe' }).where(eq(users.id, first.user.id));
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Responses');
    sheet.addRow(['Response ID', 'Date Submitted', 'Status', 'Other:Meals', 'Other:Meals', `URL Variable:${NBSP}pid`]);
    sheet.addRow([1, new Date(Date.UTC(2026, 2, 3, 9, 20)), 'Complete', 'Other', { formula: 'SUM(1,2)', result: 3 }, first.pid]);
    sheet.addRow([2, new Date(Date.UTC(2026, 2, 4, 10, 0)), 'Partial', '', 'x', 'nobody-has-this-reference-here-0000000000']);
    const input = Buffer.from(await book.xlsx.writeBuffer());

    const seen = await preview(who, input, 'Responses.xlsx');
    expect(seen).toMatchObject({ format: 'xlsx', encoding: null, rows: 2, proposedIdColumn: `URL Variable:${NBSP}pid` });
    expect(seen.columns.find((column) => column.index === 5)).toMatchObject({ sampled: 2, matches: 1 });

    const { res, body, count } = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': ['firstName', 'points'] }, 'Responses.xlsx');
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''Responses%20(Fieldwork).xlsx`);
    expect([count('Rows'), count('Matched'), count('Unmatched')]).toEqual([2, 1, 1]);
    const out = new ExcelJS.Workbook();
    await out.xlsx.load(body as unknown as ExcelJS.Buffer);
    const result = out.worksheets[0];
    if (!result) throw new Error('no sheet');
    const values = (n: number) => (result.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual([
      'Response ID',
      'Date Submitted',
      'Status',
      'Other:Meals',
      'Other:Meals',
      `URL Variable:${NBSP}pid`,
      'Fieldwork: First name',
      'Fieldwork: Points',
      'Fieldwork: Match',
    ]);
    expect(values(2).slice(0, 6)).toEqual([1, new Date(Date.UTC(2026, 2, 3, 9, 20)), 'Complete', 'Other', { formula: 'SUM(1,2)', result: 3 }, first.pid]);
    expect(values(2).slice(6)).toEqual(["'=2+2", '0', 'Matched']);
    expect(result.getRow(2).getCell(7).type).toBe(ExcelJS.ValueType.String);
    expect(result.getRow(2).getCell(7).formula).toBeUndefined();
    expect(values(3).slice(5)).toEqual(['nobody-has-this-reference-here-0000000000', undefined, undefined, 'No match']);
    expect(await tempFolders()).toEqual([]);
  });

  it('confirms completes once through the ledger: Complete rows confirmed, Partial and Disqualified nothing, the second run "already confirmed"', async () => {
    const c = ctx();
    const { survey, people } = await setup(c);
    const who = await admin(c);
    const { records } = alchemerRows(people);
    const input = encodeUtf8(records, true);
    const creditOf = (userId: number, of: Survey) =>
      c.database.db
        .select({ state: pointsLedger.state, points: pointsLedger.points })
        .from(pointsLedger)
        .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.reference, pointReference.externalSurvey(of.id))));
    const refOf = async (refId: number) => (await c.database.db.select().from(surveyExternalRefs).where(eq(surveyExternalRefs.id, refId)))[0];

    const first = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': 'points', confirmCompletes: 'true' });
    expect([first.count('Matched'), first.count('Unmatched'), first.count('Confirmed'), first.count('Already-Confirmed')]).toEqual([3, 1, 1, 0]);
    expect(first.res.headers.get('access-control-expose-headers')).toContain('Fieldwork-Confirmed');
    const [chloe, ben, ana] = people;
    if (!chloe || !ben || !ana) throw new Error('no people');
    expect(await creditOf(chloe.user.id, survey)).toEqual([{ state: 'available', points: 25 }]);
    expect((await refOf(chloe.refId))?.confirmedAt).not.toBeNull();
    // Partial and Disqualified rows confirm nothing.
    expect(await creditOf(ben.user.id, survey)).toEqual([{ state: 'pending', points: 25 }]);
    expect(await creditOf(ana.user.id, survey)).toEqual([{ state: 'pending', points: 25 }]);
    expect((await refOf(ben.refId))?.confirmedAt).toBeNull();
    expect((await refOf(ana.refId))?.confirmedAt).toBeNull();
    // The appended points are the balance after the confirmation.
    expect(first.body.toString('utf8')).toContain(`${chloe.pid},25,Matched\r\n`);

    const second = await append(who, input, { idColumn: 'URL Variable: pid', 'fields[]': 'points', confirmCompletes: 'true' });
    expect([second.count('Confirmed'), second.count('Already-Confirmed'), second.count('Unmatched')]).toEqual([0, 1, 1]);
    expect(await creditOf(chloe.user.id, survey)).toEqual([{ state: 'available', points: 25 }]);

    // Without the box nothing is confirmed.
    const third = await append(who, input, { idColumn: 'URL Variable: pid', confirmCompletes: 'false' });
    expect([third.count('Confirmed'), third.count('Already-Confirmed')]).toEqual([0, 0]);
  });

  it('audits confirmed completes even when the file breaks halfway: the counts reached, `completed: false`', async () => {
    const c = ctx();
    const { people } = await setup(c);
    const who = await admin(c);
    // A first batch whose Complete rows are confirmed (three of them people's), then a row that breaks the file.
    const lines = ['Status,URL Variable: pid', ...people.map((person) => `Complete,${person.pid}`)];
    while (lines.length <= ALCHEMER_APPEND_LIMITS.batchRows) lines.push(`Complete,nobody-has-this-reference-${lines.length}`);
    lines.push('Complete,"a quote never closed');
    const res = await post(APPEND, who, form(new Blob([lines.join('\r\n')]), 'broken.csv', { idColumn: 'URL Variable: pid', confirmCompletes: 'true' }));
    expect(await errorOf(res, 400)).toMatchObject({ code: 'invalid_csv' });
    const states = await c.database.db
      .select({ state: pointsLedger.state })
      .from(pointsLedger)
      .where(eq(pointsLedger.userId, people[0]?.user.id ?? 0));
    expect(states).toEqual([{ state: 'available' }]);
    const rows = await c.database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alchemer_export.confirm_completes'), eq(auditLog.actorId, who.id)));
    expect(rows).toEqual([
      {
        after: {
          fileName: 'broken.csv',
          rows: ALCHEMER_APPEND_LIMITS.batchRows,
          matched: 3,
          unmatched: ALCHEMER_APPEND_LIMITS.batchRows - 3,
          confirmed: 3,
          alreadyConfirmed: 0,
          notConfirmed: 0,
          completed: false,
        },
      },
    ]);
    expect(await tempFolders()).toEqual([]);
  });

  it('refuses a quote never closed once its record outgrows the limit, in our words, without reading the rest of the file', async () => {
    const c = ctx();
    const who = await admin(c);
    const input = Buffer.concat([Buffer.from('URL Variable: pid,Status,Comment\r\nabc,Complete,"never closed '), Buffer.alloc(3 * CSV_RECORD_MAX_BYTES, 'a')]);
    const reads = vi.spyOn(fs, 'createReadStream');
    try {
      const res = await post(APPEND, who, form(new Blob([input]), 'export.csv', { idColumn: 'URL Variable: pid' }));
      const error = await errorOf(res, 400);
      expect(error).toEqual({
        code: 'invalid_csv',
        message:
          'The CSV file cannot be read: Row 2 (the header is row 1) is longer than 4 MB: a quote (") is probably never closed. Export it from Alchemer again',
      });
      // csv-parse's own words are for the server's log only.
      expect(c.logs.some((line) => line.includes('invalid_csv') && line.includes('Max Record Size'))).toBe(true);
      // The upload was read from disk only a little past the limit (chunks of 256 KB), not to its end.
      const upload = reads.mock.results.map((result) => result.value as fs.ReadStream).find((stream) => String(stream.path).endsWith('upload'));
      expect(upload?.bytesRead).toBeGreaterThan(CSV_RECORD_MAX_BYTES);
      expect(upload?.bytesRead).toBeLessThan(CSV_RECORD_MAX_BYTES + 1024 * 1024);
    } finally {
      reads.mockRestore();
    }
    expect(await tempFolders()).toEqual([]);
  });

  it('refuses bad files and options with clear 400s, and leaves no temporary folder', async () => {
    const c = ctx();
    const who = await admin(c);
    const fields = { idColumn: 'URL Variable: pid' };
    const empty = await post(APPEND, who, form(new Blob([]), 'empty.csv', fields));
    expect(await errorOf(empty, 400)).toMatchObject({ code: 'empty_file' });
    const onlyBom = await post(PREVIEW, who, form(new Blob([new Uint8Array([0xef, 0xbb, 0xbf, 0x0d, 0x0a])]), 'bom.csv'));
    expect(await errorOf(onlyBom, 400)).toMatchObject({ code: 'empty_file' });
    const png = await post(APPEND, who, form(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])]), 'photo.png', fields));
    expect(await errorOf(png, 400)).toMatchObject({ code: 'unsupported_file' });
    const brokenZip = await post(APPEND, who, form(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5])]), 'broken.xlsx', fields));
    expect(await errorOf(brokenZip, 400)).toMatchObject({ code: 'invalid_xlsx' });
    const missing = await post(APPEND, who, form(new Blob(['Response ID,Status\r\n1,Complete\r\n']), 'export.csv', fields));
    const error = await errorOf(missing, 400);
    expect(error).toMatchObject({ code: 'id_column_missing' });
    expect(error.message).toContain('“URL Variable: pid”');
    const noFile = await post(APPEND, who, form(null, 'x', fields));
    expect(await errorOf(noFile, 400)).toMatchObject({ code: 'file_required' });
    const notMultipart = await c.request(APPEND, { method: 'POST', headers: { Origin: ORIGIN, ...who.headers, 'Content-Type': 'text/csv' }, body: 'a,b' });
    expect(notMultipart.status).toBe(415);
    const badField = await post(APPEND, who, form(new Blob(['URL Variable: pid\r\nx\r\n']), 'export.csv', { ...fields, 'fields[]': 'password' }));
    expect(await errorOf(badField, 400)).toMatchObject({ code: 'validation_failed' });
    const noColumn = await post(APPEND, who, form(new Blob(['URL Variable: pid\r\nx\r\n']), 'export.csv'));
    expect((await errorOf(noColumn, 400)).fields).toHaveProperty('idColumn');
    const unclosed = await post(APPEND, who, form(new Blob(['URL Variable: pid,Status\r\n"abc,Complete\r\n']), 'export.csv', fields));
    expect(await errorOf(unclosed, 400)).toMatchObject({ code: 'invalid_csv' });
    const huge = await c.request(APPEND, {
      method: 'POST',
      headers: { Origin: ORIGIN, ...who.headers, 'Content-Type': 'multipart/form-data; boundary=x', 'Content-Length': String(600 * 1024 * 1024) },
      body: '--x--',
    });
    expect(await errorOf(huge, 413)).toMatchObject({ code: 'file_too_large' });
    expect(await tempFolders()).toEqual([]);
  });

  it('is for admins only: moderators 403, participants 403, anonymous 401', async () => {
    const c = ctx();
    const body = () => form(new Blob(['URL Variable: pid\r\nx\r\n']), 'export.csv', { idColumn: 'URL Variable: pid' });
    expect((await post(APPEND, await staff(c, 'moderator'), body())).status).toBe(403);
    expect((await post(PREVIEW, await staff(c, 'moderator'), body())).status).toBe(403);
    expect((await post(APPEND, await participant(c), body())).status).toBe(403);
    expect((await post(PREVIEW, null, body())).status).toBe(401);
  });
});
