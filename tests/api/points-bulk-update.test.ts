/**
 * Points bulk update (docs/api.md "Points bulk update", decision 015): the preview's problems line
 * by line (CSV and XLSX, columns by alias or by map), apply all or nothing, the same content twice
 * (another name, another format), a corrected re-upload with references, the progress stream, the
 * history, and formula-safe downloads.
 */
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, pointsBatches, pointsLedger } from '../../src/server/db/schema/index.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { BulkApplyResult, BulkBatchItem, BulkPreview, BulkProgressLine } from '../../src/shared/points-bulk-update.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, type SignedIn } from './helpers.ts';
import { callAs, okJson, participant, setUserStatus, staff } from './programme-fixtures.ts';

const BASE = '/api/admin/tools/points-bulk-update';

function form(content: string | Buffer, fileName: string, columns?: unknown): FormData {
  const body = new FormData();
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content);
  body.set(
    'file',
    new File([bytes], fileName, { type: fileName.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv' }),
  );
  if (columns !== undefined) body.set('columns', JSON.stringify(columns));
  return body;
}

async function xlsx(rows: (string | number)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Points');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describeEachBackend('points bulk update API', (ctx) => {
  const as = (who: SignedIn | null) => callAs(ctx(), who);
  const preview = (c: TestContext, who: SignedIn, content: string | Buffer, fileName = 'points.csv', columns?: unknown, headers: Record<string, string> = {}) =>
    c.request(`${BASE}/preview`, { method: 'POST', headers: { Origin: ORIGIN, ...who.headers, ...headers }, body: form(content, fileName, columns) });
  const apply = (who: SignedIn, batchId: number, body: unknown = {}) => as(who)('POST', `${BASE}/${batchId}/apply`, body);
  const bulkLedger = (userId: number) =>
    ctx()
      .database.db.select()
      .from(pointsLedger)
      .where(and(eq(pointsLedger.userId, userId), eq(pointsLedger.source, 'bulk')))
      .orderBy(pointsLedger.id);
  /** Points a participant has before a file takes some away (files never take available points below zero unasked). */
  const give = (userId: number, points: number) =>
    ctx()
      .database.db.insert(pointsLedger)
      .values({ userId, points, state: 'available', reason: 'Earlier', source: 'adjustment', reference: `earlier:${userId}:${points}` });
  const balanceOf = async (userId: number) => (await bulkLedger(userId)).reduce((sum, row) => sum + row.points, 0);
  const csvOf = async (who: SignedIn, path: string) => {
    const res = await ctx().request(path, { headers: who.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    return (await res.text()).replace(/^\uFEFF/, '');
  };

  it('the preview lists every problem by line (the header is line 1; blank lines keep their number), counts and totals; nothing is credited', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const [ann, bob, off] = [await participant(c), await participant(c), await participant(c)];
    await setUserStatus(c, off.id, 'disabled');
    await give(bob.id, 20);
    const text = [
      ' Email ,POINTS,Reason,Ref',
      `${ann.email.toUpperCase()},50,Welcome bonus,a-1`, // 2: ok (email any case)
      `${bob.id},-20,Correction,a-2`, // 3: ok (id)
      'nobody@example.org,10,Gift,a-3', // 4: unknown
      '',
      `${off.email},10,Gift,a-4`, // 6: disabled
      `${ann.id},1.5,Half,a-5`, // 7: not whole
      `${ann.id},0,Nothing,a-6`, // 8: zero
      `${ann.id},2000000,Too much,`, // 9: out of range
      `${bob.id},5,,a-7`, // 10: no reason
      `${bob.id},5,Again,a-1`, // 11: duplicate reference of line 2
      `not-a-person,abc,Bad,a-8`, // 12: two problems
    ].join('\r\n');
    const result = await okJson<BulkPreview>(await preview(c, admin, text));
    expect(result).toMatchObject({
      status: 'previewed',
      fileName: 'points.csv',
      columns: { participant: 'Email', points: 'POINTS', reason: 'Reason', reference: 'Ref' },
      rows: 10,
      matched: 7,
      cleanRows: 2,
      problemRows: 8,
      problemCount: 9,
      counts: { unknownParticipants: 2, disabledAccounts: 1, invalidPoints: 4, invalidReasons: 1, duplicateReferences: 1 },
      totals: { positive: 50, negative: -20, net: 30, participants: 2 },
      appliedAt: null,
    });
    expect(result.problems).toEqual([
      { line: 4, column: 'participant', message: 'Unknown participant' },
      { line: 6, column: 'participant', message: 'Disabled account' },
      { line: 7, column: 'points', message: 'Enter a whole number, e.g. 50 or -20' },
      { line: 8, column: 'points', message: 'Enter a number other than 0' },
      { line: 9, column: 'points', message: 'At most 1,000,000 either way' },
      { line: 10, column: 'reason', message: 'Required' },
      { line: 11, column: 'reference', message: 'Same reference as line 2' },
      { line: 12, column: 'participant', message: 'Enter an email or a Fieldwork id' },
      { line: 12, column: 'points', message: 'Enter a whole number, e.g. 50 or -20' },
    ]);
    expect(await bulkLedger(ann.id)).toEqual([]);

    const problems = await csvOf(admin, `${BASE}/${result.batchId}/problems.csv`);
    expect(problems.split('\r\n')).toEqual([
      'line,column,problem',
      '4,participant,Unknown participant',
      '6,participant,Disabled account',
      '7,points,"Enter a whole number, e.g. 50 or -20"',
      '8,points,Enter a number other than 0',
      '9,points,"At most 1,000,000 either way"',
      '10,reason,Required',
      '11,reference,Same reference as line 2',
      '12,participant,Enter an email or a Fieldwork id',
      '12,points,"Enter a whole number, e.g. 50 or -20"',
      '',
    ]);

    // Refused with problems; the clean rows only when asked.
    expect((await errorOf(await apply(admin, result.batchId), 422)).code).toBe('batch_has_problems');
    expect(await bulkLedger(ann.id)).toEqual([]);
    const done = await okJson<BulkApplyResult>(await apply(admin, result.batchId, { excludeProblemRows: true }));
    expect(done).toMatchObject({
      applied: 2,
      alreadyApplied: false,
      alreadyCredited: 0,
      skipped: 8,
      batch: { status: 'applied', excludedProblemRows: true, appliedRows: 2 },
    });
    expect(await bulkLedger(ann.id)).toMatchObject([
      { points: 50, state: 'available', reason: 'Welcome bonus', reference: 'bulk:ref:a-1', createdBy: admin.id },
    ]);
    expect(await bulkLedger(bob.id)).toMatchObject([{ points: -20, reason: 'Correction', reference: 'bulk:ref:a-2' }]);
    const [entry] = await c.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'points.bulk_apply'), eq(auditLog.targetId, String(result.batchId))));
    expect(entry).toMatchObject({ actorId: admin.id, targetType: 'points_batch', after: { applied: 2, skipped: 8, totalPositive: 50, totalNegative: -20 } });
  });

  it('a file with formula-like cells: downloads keep them as text, numbers stay numbers', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const ann = await participant(c);
    const text = `participant,points,reason,reference\r\n${ann.id},-5,"=HYPERLINK(""http://x"")",@ref\r\n${ann.id},7,+bonus,-ref\r\nnobody@example.org,1,=1+1,\r\n`;
    const result = await okJson<BulkPreview>(await preview(c, admin, text));
    await okJson<BulkApplyResult>(await apply(admin, result.batchId, { excludeProblemRows: true }));
    const rows = await csvOf(admin, `${BASE}/${result.batchId}/rows.csv`);
    const lines = rows.split('\r\n');
    expect(lines[0]).toBe('line,participant,user id,points,reason,reference,result,problems,ledger id');
    expect(lines[1]).toMatch(new RegExp(`^2,${ann.id},${ann.id},-5,"'=HYPERLINK\\(""http://x""\\)","?'@ref"?,applied,,\\d+$`));
    expect(lines[2]).toMatch(new RegExp(`^3,${ann.id},${ann.id},7,"?'\\+bonus"?,"?'-ref"?,applied,,\\d+$`));
    expect(lines[3]).toBe(`4,nobody@example.org,,1,"'=1+1",,not applied,participant: Unknown participant,`);
    expect(await bulkLedger(ann.id)).toMatchObject([{ reason: '=HYPERLINK("http://x")' }, { reason: '+bonus' }]);
  });

  it('apply is all or nothing: a failure on the last row leaves no credit and the batch as previewed; it applies once the failure is gone', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const people = [await participant(c), await participant(c), await participant(c)];
    const rows = people.map((p, i) => `${p.email},${10 + i},Thanks,`);
    const text = ['participant,points,reason', ...rows, `${people[0]?.id},1,BOOM`].join('\n');
    const result = await okJson<BulkPreview>(await preview(c, admin, text));
    expect(result.cleanRows).toBe(4);
    const db = c.database.db;
    await db.execute(sql`create or replace function bulk_test_boom() returns trigger language plpgsql as $$
      begin if new.reason = 'BOOM' then raise exception 'boom'; end if; return new; end $$`);
    await db.execute(sql`create trigger bulk_test_boom before insert on points_ledger for each row execute function bulk_test_boom()`);
    try {
      const failed = await apply(admin, result.batchId);
      expect(failed.status).toBe(500);
      for (const p of people) expect(await bulkLedger(p.id)).toEqual([]);
      const [batch] = await db.select().from(pointsBatches).where(eq(pointsBatches.id, result.batchId));
      expect(batch).toMatchObject({ status: 'previewed', appliedAt: null, appliedRows: 0 });
    } finally {
      await db.execute(sql`drop trigger bulk_test_boom on points_ledger`);
      await db.execute(sql`drop function bulk_test_boom()`);
    }
    expect(await okJson<BulkApplyResult>(await apply(admin, result.batchId))).toMatchObject({ applied: 4, alreadyApplied: false });
    expect(await balanceOf(people[0]?.id ?? 0)).toBe(11);
  });

  it('the same content twice (another name, even as XLSX) is the same batch: applied once, then alreadyApplied; a participant changed since the preview is refused', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const other = await staff(c, 'admin');
    const [ann, bob] = [await participant(c), await participant(c)];
    await give(bob.id, 3);
    const text = `participant,points,reason\n${ann.email},30,Survey week 1\n${bob.id},-3,Duplicate entry\n`;
    const first = await okJson<BulkPreview>(await preview(c, admin, text, 'week1.csv'));
    const again = await okJson<BulkPreview>(await preview(c, other, text, 'copy of week1.csv'));
    expect(again.batchId).toBe(first.batchId);
    expect(again).toMatchObject({ status: 'previewed', fileName: 'copy of week1.csv' });

    const applied = await okJson<BulkApplyResult>(await apply(admin, first.batchId));
    expect(applied).toMatchObject({ applied: 2, alreadyApplied: false, alreadyCredited: 0, skipped: 0 });
    const workbook = await xlsx([
      ['Participant', 'Points', 'Reason'],
      [ann.email, 30, 'Survey week 1'],
      [bob.id, -3, 'Duplicate entry'],
    ]);
    const asXlsx = await okJson<BulkPreview>(await preview(c, other, workbook, 'week1.xlsx'));
    expect(asXlsx).toMatchObject({ batchId: first.batchId, status: 'applied', fileName: 'copy of week1.csv', rows: 2, cleanRows: 2 });
    expect(asXlsx.appliedAt).not.toBeNull();
    const twice = await okJson<BulkApplyResult>(await apply(other, first.batchId));
    expect(twice).toMatchObject({ applied: 0, alreadyApplied: true });
    expect(await balanceOf(ann.id)).toBe(30);
    expect(await balanceOf(bob.id)).toBe(-3);

    // Two applies at once: one writes, the other answers alreadyApplied.
    const cat = await participant(c);
    const racing = await okJson<BulkPreview>(await preview(c, admin, `participant,points,reason\n${cat.id},9,Race\n`));
    const answers = await Promise.all([apply(admin, racing.batchId), apply(other, racing.batchId)]);
    const bodies = await Promise.all(answers.map((res) => okJson<BulkApplyResult>(res)));
    expect(bodies.map((b) => b.alreadyApplied).sort()).toEqual([false, true]);
    expect(await balanceOf(cat.id)).toBe(9);

    // Disabled between preview and apply: refused, nothing written.
    const dan = await participant(c);
    const late = await okJson<BulkPreview>(await preview(c, admin, `participant,points,reason\n${dan.id},4,Late\n`));
    await setUserStatus(c, dan.id, 'disabled');
    expect((await errorOf(await apply(admin, late.batchId), 409)).code).toBe('participants_changed');
    expect(await bulkLedger(dan.id)).toEqual([]);
  });

  it('a corrected re-upload: rows whose reference was credited are already applied, the corrected rows are credited', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const [ann, bob] = [await participant(c), await participant(c)];
    const tag = Date.now().toString(36);
    const first = await okJson<BulkPreview>(
      await preview(c, admin, `participant,points,reason,reference\n${ann.id},10,Week 2,${tag}-1\n${bob.id},ten,Week 2,${tag}-2\n`),
    );
    expect(first.problems).toEqual([{ line: 3, column: 'points', message: 'Enter a whole number, e.g. 50 or -20' }]);
    await okJson<BulkApplyResult>(await apply(admin, first.batchId, { excludeProblemRows: true }));

    const fixed = await okJson<BulkPreview>(
      await preview(c, admin, `participant,points,reason,reference\n${ann.id},10,Week 2,${tag}-1\n${bob.id},10,Week 2,${tag}-2\n`, 'fixed.csv'),
    );
    expect(fixed.batchId).not.toBe(first.batchId);
    expect(fixed).toMatchObject({ status: 'previewed', problemCount: 0, cleanRows: 2, alreadyCredited: 1, alreadyCreditedLines: [2] });
    expect(await okJson<BulkApplyResult>(await apply(admin, fixed.batchId))).toMatchObject({ applied: 1, alreadyCredited: 1, alreadyApplied: false });
    expect(await balanceOf(ann.id)).toBe(10);
    expect(await balanceOf(bob.id)).toBe(10);
    const rows = (await csvOf(admin, `${BASE}/${fixed.batchId}/rows.csv`)).split('\r\n');
    expect(rows[1]).toContain(',already applied (credited before),');
    expect(rows[2]).toContain(',applied,');

    const history = await okJson<ListPage<BulkBatchItem>>(await as(admin)('GET', `${BASE}/batches?pageSize=2`));
    expect(history).toMatchObject({ page: 1, pageSize: 2 });
    expect(history.total).toBeGreaterThanOrEqual(2);
    expect(history.items[0]).toMatchObject({
      id: fixed.batchId,
      fileName: 'fixed.csv',
      status: 'applied',
      rows: 2,
      appliedRows: 1,
      totals: { positive: 20, negative: 0, net: 20 },
      createdBy: { id: admin.id },
      appliedBy: { id: admin.id },
    });
  });

  it('a corrected re-upload without references: rows are keyed by participant, points, reason and occurrence, so the preview finds those credited and apply credits nothing twice', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const [ann, bob, cat, dan] = [await participant(c), await participant(c), await participant(c), await participant(c)];
    const file = (...rows: string[]) => ['participant,points,reason', ...rows].join('\n');
    const first = await okJson<BulkPreview>(
      await preview(c, admin, file(`${ann.id},10,Survey May`, `${bob.id},ten,Survey May`, `${cat.email},5,Survey May`, `${cat.id},5,Survey May`)),
    );
    expect(first).toMatchObject({ cleanRows: 3, problemRows: 1, alreadyCredited: 0, alreadyCreditedLines: [] });
    expect(await okJson<BulkApplyResult>(await apply(admin, first.batchId, { excludeProblemRows: true }))).toMatchObject({ applied: 3, alreadyCredited: 0 });

    // Bob fixed, the lines moved, a third identical row for Cat, and Ann's reason written otherwise (another credit: compared as written).
    const fixed = file(
      `${bob.id},10,Survey May`,
      `${cat.id},5,Survey May`,
      `${ann.email},10,Survey May`,
      `${cat.id},5,Survey May`,
      `${cat.id},5,Survey May`,
      `${ann.id},10,survey may`,
    );
    const second = await okJson<BulkPreview>(await preview(c, admin, fixed, 'fixed.csv'));
    expect(second).toMatchObject({ status: 'previewed', cleanRows: 6, problemCount: 0, alreadyCredited: 3, alreadyCreditedLines: [3, 4, 5] });
    const before = (await csvOf(admin, `${BASE}/${second.batchId}/rows.csv`)).split('\r\n');
    expect(before.slice(1, 4).map((line) => line.split(',')[6])).toEqual([
      'not applied yet',
      'already credited (left as it is)',
      'already credited (left as it is)',
    ]);
    expect(await okJson<BulkApplyResult>(await apply(admin, second.batchId))).toMatchObject({ applied: 3, alreadyCredited: 3, alreadyApplied: false });
    expect([await balanceOf(ann.id), await balanceOf(bob.id), await balanceOf(cat.id)]).toEqual([20, 10, 15]);
    expect((await bulkLedger(cat.id)).map((row) => row.reference)).toEqual([
      expect.stringMatching(/^bulk:row:[0-9a-f]{32}:1$/),
      expect.stringMatching(/^bulk:row:[0-9a-f]{32}:2$/),
      expect.stringMatching(/^bulk:row:[0-9a-f]{32}:3$/),
    ]);
    // The same rows once more in another order (another content): all credited already.
    const third = await okJson<BulkPreview>(await preview(c, admin, ['participant,points,reason', ...fixed.split('\n').slice(1).reverse()].join('\n')));
    expect(third).toMatchObject({ cleanRows: 6, alreadyCredited: 6 });
    expect(await okJson<BulkApplyResult>(await apply(admin, third.batchId))).toMatchObject({ applied: 0, alreadyCredited: 6 });
    expect(await balanceOf(cat.id)).toBe(15);

    // An entry an earlier version keyed by file and line (kept as it was) counts as the first such row.
    await c.database.db
      .insert(pointsLedger)
      .values({ userId: dan.id, points: 7, state: 'available', reason: 'Legacy', source: 'bulk', reference: 'bulk:0123456789abcdef:2' });
    const legacy = await okJson<BulkPreview>(await preview(c, admin, file(`${dan.id},7,Legacy`, `${dan.id},7,Legacy`)));
    expect(legacy).toMatchObject({ alreadyCredited: 1, alreadyCreditedLines: [2] });
    // A batch previewed before rows had ledger references is previewed again before it is applied.
    await c.database.db.execute(sql`update points_batch_rows set ledger_reference = null where batch_id = ${legacy.batchId}`);
    expect((await errorOf(await apply(admin, legacy.batchId), 409)).code).toBe('preview_outdated');
    await okJson<BulkPreview>(await preview(c, admin, file(`${dan.id},7,Legacy`, `${dan.id},7,Legacy`)));
    expect(await okJson<BulkApplyResult>(await apply(admin, legacy.batchId))).toMatchObject({ applied: 1, alreadyCredited: 1 });
    expect(await balanceOf(dan.id)).toBe(14);
  });

  it('rows taking available points below zero (held points taken off) are problems; apply checks again under the locks; allowNegative applies them', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const [ann, bob] = [await participant(c), await participant(c)];
    await give(ann.id, 50);
    await give(bob.id, 30);
    // Ann: 50 − 40 + 10 = 20, fine whatever the order of the rows; Bob: 30 − 40 is below zero.
    const text = `participant,points,reason\n${ann.id},-40,Correction\n${ann.id},10,Bonus\n${bob.id},-40,Correction\n`;
    const checked = await okJson<BulkPreview>(await preview(c, admin, text));
    expect(checked).toMatchObject({ cleanRows: 2, problemRows: 1, counts: { insufficientPoints: 1, invalidPoints: 0 } });
    expect(checked.problems).toEqual([{ line: 4, column: 'points', message: 'Would take the participant’s available points below zero (30 available)' }]);

    // Ann's points are held by a reward request between the preview and the apply.
    await c.database.db
      .insert(pointsLedger)
      .values({ userId: ann.id, points: -45, state: 'held', reason: 'Reward', source: 'redemption', reference: 'redemption:999999' });
    const refused = await errorOf(await apply(admin, checked.batchId, { excludeProblemRows: true }), 409);
    expect(refused.code).toBe('insufficient_points');
    expect(refused.message).toBe("Line 2: This would take Robin Hale's available points below zero (5 available): take away less, or allow a negative balance");
    expect(await bulkLedger(ann.id)).toEqual([]);

    expect(await okJson<BulkApplyResult>(await apply(admin, checked.batchId, { allowNegative: true }))).toMatchObject({ applied: 3, skipped: 0 });
    expect(await balanceOf(ann.id)).toBe(-30);
    expect(await balanceOf(bob.id)).toBe(-40);
  });

  it('columns by alias or by map: unmatched headers are 422 with the headers; the map reads them', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const ann = await participant(c);
    const text = `Member,Amount,Why\n${ann.email},12,Mapped\n`;
    const unmatched = await preview(c, admin, text);
    expect(unmatched.status).toBe(422);
    const body = (await unmatched.json()) as { error: { code: string; headers: string[] } };
    expect(body.error).toMatchObject({
      code: 'columns_unmatched',
      message: "The file's header has no participant, points or reason column: choose which columns to read",
      headers: ['Member', 'Amount', 'Why'],
    });
    expect((await errorOf(await preview(c, admin, text, 'p.csv', { participant: 'Member', points: 'Nope', reason: 'Why' }), 422)).code).toBe(
      'columns_unmatched',
    );
    expect((await errorOf(await preview(c, admin, text, 'p.csv', { participant: 'Member' }), 400)).code).toBe('validation_failed');
    const mapped = await okJson<BulkPreview>(
      await preview(c, admin, text, 'p.csv', { participant: 'member', points: 'Amount', reason: 'Why', reference: null }),
    );
    expect(mapped).toMatchObject({ rows: 1, cleanRows: 1, columns: { participant: 'Member', points: 'Amount', reason: 'Why', reference: null } });

    // Semicolons and Windows-1252 (Excel's CSV on Windows) read too.
    const latin = Buffer.from(`participant;points;reason\n${ann.id};3;Caf\xe9 voucher\n`, 'latin1');
    const read = await okJson<BulkPreview>(await preview(c, admin, latin));
    expect(read).toMatchObject({ rows: 1, cleanRows: 1 });
    const rows = await csvOf(admin, `${BASE}/${read.batchId}/rows.csv`);
    expect(rows).toContain('Café voucher');
  });

  it('refuses what is not a usable file with a clear 4xx', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const ann = await participant(c);
    expect((await errorOf(await as(admin)('POST', `${BASE}/preview`, {}), 400)).code).toBe('file_required');
    expect((await errorOf(await preview(c, admin, ''), 422)).code).toBe('file_empty');
    expect((await errorOf(await preview(c, admin, '\n\n'), 422)).code).toBe('file_empty');
    expect((await errorOf(await preview(c, admin, 'participant,points,reason\n'), 422)).code).toBe('file_empty');
    expect((await errorOf(await preview(c, admin, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 1, 2]), 'old.xls'), 422)).message).toContain('.xls');
    expect((await errorOf(await preview(c, admin, Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx'), 422)).code).toBe('unreadable_file');
    const big = Buffer.alloc(31 * 1024 * 1024, 0x41);
    expect((await errorOf(await preview(c, admin, big, 'big.csv'), 413)).code).toBe('file_too_large');
    expect((await errorOf(await apply(admin, 999_999_999), 404)).code).toBe('not_found');
    expect((await errorOf(await preview(c, await staff(c, 'moderator'), `participant,points,reason\n${ann.id},1,x\n`), 403)).code).toBe('forbidden');
  });

  it('with Accept: application/x-ndjson, preview and apply stream their progress, then the answer', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const ann = await participant(c);
    const text = `participant,points,reason\n${ann.id},5,Streamed\n`;
    const lines = async (res: Response) =>
      (await res.text())
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as BulkProgressLine);
    const res = await preview(c, admin, text, 'stream.csv', undefined, { Accept: 'application/x-ndjson' });
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const previewLines = await lines(res);
    expect(previewLines.map((line) => ('phase' in line ? line.phase : 'result' in line ? 'result' : 'error'))).toEqual(
      expect.arrayContaining(['reading', 'checking', 'saving', 'result']),
    );
    const last = previewLines.at(-1) as { result: BulkPreview };
    expect(last.result).toMatchObject({ rows: 1, cleanRows: 1 });
    await okJson<BulkApplyResult>(await apply(admin, last.result.batchId));
    const streamed = await lines(
      await c.request(`${BASE}/${last.result.batchId}/apply`, {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json', Accept: 'application/x-ndjson', ...admin.headers },
        body: '{}',
      }),
    );
    expect(streamed.at(-1)).toMatchObject({ result: { alreadyApplied: true } });

    const fresh = await okJson<BulkPreview>(await preview(c, admin, `participant,points,reason\n${ann.id},6,Streamed apply\n`));
    const progress = await lines(
      await c.request(`${BASE}/${fresh.batchId}/apply`, {
        method: 'POST',
        headers: { Origin: ORIGIN, 'Content-Type': 'application/json', Accept: 'application/x-ndjson', ...admin.headers },
        body: '{}',
      }),
    );
    expect(progress[0]).toEqual({ phase: 'applying', done: 0, total: 1 });
    expect(progress.at(-1)).toMatchObject({ result: { applied: 1, alreadyApplied: false } });
    // An error after the stream began is its last line, with its status.
    const failed = await lines(
      await c.request(`${BASE}/preview`, {
        method: 'POST',
        headers: { Origin: ORIGIN, Accept: 'application/x-ndjson', ...admin.headers },
        body: form('participant,points,reason\n', 'empty.csv'),
      }),
    );
    expect(failed.at(-1)).toMatchObject({ status: 422, error: { code: 'file_empty' } });
  });
});
