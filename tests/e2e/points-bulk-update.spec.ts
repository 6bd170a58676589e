/**
 * Points bulk update in the browser: an admin uploads a points file with two bad lines (an unknown
 * participant, points that are not a number) and sees each by line, fixes the file, uploads it
 * again, applies it after the confirmation that says the totals, with the progress bar; the batch
 * is in the history with its results file; each participant's balance on /account shows the credit
 * and its reason. The same rows again in another order: the preview says they were credited
 * before. A file with other headers is read once the admin maps its columns. A moderator is told only admins can run the tool. axe on the screen; screenshots
 * at 1280×800 and 390×844.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, PHONE, saveCookieChoice, seriousViolations, SHOTS, sideways } from './page-helpers.ts';

const TOOL = '/admin/tools/points-bulk-update';

async function chooseFile(page: Page, buttonName: string, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: buttonName }).click();
  await (await chooser).setFiles(file);
}

test('an admin previews a points file with two bad lines, fixes it, applies it with the progress bar, and the balances show it', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? '';
  const tag = Date.now().toString(36);
  const admin = await createAccount('admin', 'Ada', 'Admin');
  const [ann, ben, cat] = await Promise.all([
    createAccount('participant', 'Ann', 'One'),
    createAccount('participant', 'Ben', 'Two'),
    createAccount('participant', 'Cat', 'Three'),
  ]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-points-'));
  const bad = path.join(dir, `panel-${tag}.csv`);
  const fixed = path.join(dir, `panel-${tag}-fixed.csv`);
  const rows = (catEmail: string, catPoints: string) =>
    [
      'Email,Points,Reason,Reference',
      `${ann.email},120,Panel thank-you ${tag},${tag}-1`,
      `${ben.email},-20,Correction of a double credit ${tag},${tag}-2`,
      `${catEmail},35,Panel thank-you ${tag},${tag}-3`,
      `${cat.email},${catPoints},Diary bonus ${tag},${tag}-4`,
    ].join('\r\n');
  fs.writeFileSync(bad, rows(`nobody-${tag}@example.org`, 'lots'));
  fs.writeFileSync(fixed, rows(cat.email, '15'));

  await saveCookieChoice(page);
  await signIn(page, origin, admin);
  // Ben has 50 points for the file's correction to take 20 from (a file never takes available points below zero unasked).
  const found = (await (await page.request.get(`/api/admin/users?q=${encodeURIComponent(ben.email)}`)).json()) as { items: { id: number }[] };
  const given = await page.request.post(`/api/admin/users/${found.items[0]?.id ?? 0}/points`, {
    headers: { Origin: origin, 'Content-Type': 'application/json' },
    data: { points: 50, reason: `Welcome ${tag}` },
  });
  expect(given.status()).toBe(201);
  await page.setViewportSize(DESKTOP);
  await page.goto(TOOL);
  await expect(page.getByRole('heading', { name: 'Upload a points file' })).toBeVisible();

  // The file with two bad lines: each problem by line, nothing applied yet.
  await chooseFile(page, 'Choose a file', bad);
  await expect(page.getByRole('heading', { name: `Preview of panel-${tag}.csv` })).toBeVisible();
  const problems = page.getByRole('table', { name: 'Problems in the file, by line' });
  await expect(problems.getByRole('row')).toHaveCount(3);
  await expect(problems.getByRole('row').nth(1)).toContainText(/4\s*participant\s*Unknown participant/);
  await expect(problems.getByRole('row').nth(2)).toContainText(/5\s*points\s*Enter a whole number/);
  await expect(page.getByRole('button', { name: 'Apply clean rows only (2)' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Apply \d+ rows?$/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/points-bulk-problems-${DESKTOP.width}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(150);
  expect(await sideways(page), 'nothing sticks out sideways on a phone').toEqual({ overflow: 0, past: [] });
  await page.screenshot({ path: `${SHOTS}/points-bulk-problems-${PHONE.width}.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);

  // The fixed file: no problem; the confirmation says the totals; the bar shows the apply.
  await chooseFile(page, 'Choose another file', fixed);
  await expect(page.getByRole('heading', { name: `Preview of panel-${tag}-fixed.csv` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Problems in the file, by line' })).toHaveCount(0);
  await page.evaluate(() => {
    const seen = new MutationObserver(() => {
      if (document.querySelector('[role="progressbar"][aria-label="Applying to the points ledger"]')) document.documentElement.dataset.applyBar = 'seen';
    });
    seen.observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Apply 4 rows' }).click();
  const dialog = page.getByRole('dialog', { name: 'Apply 4 rows?' });
  await expect(dialog).toContainText('+170 points added and −20 taken away (net +150) for 3 participants');
  await page.screenshot({ path: `${SHOTS}/points-bulk-confirm-${DESKTOP.width}.png` });
  await dialog.getByRole('button', { name: 'Apply 4 rows' }).click();
  await expect(page.getByRole('status').filter({ hasText: '4 rows credited to the points ledger.' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-apply-bar', 'seen');

  // The history: the batch, applied, with its results.
  const batches = page.getByRole('table', { name: 'Points batches, newest first' });
  const batch = batches.getByRole('row').filter({ hasText: `panel-${tag}-fixed.csv` });
  await expect(batch).toContainText('Applied');
  await expect(batch).toContainText('+170 / −20');
  const download = page.waitForEvent('download');
  await batch.getByRole('link', { name: `Download results of panel-${tag}-fixed.csv` }).click();
  const results = fs.readFileSync(await (await download).path(), 'utf8');
  expect(results).toContain(`2,${ann.email},`);
  expect(results.match(/,applied,/g)).toHaveLength(4);
  await page.screenshot({ path: `${SHOTS}/points-bulk-applied-${DESKTOP.width}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(150);
  expect(await sideways(page), 'nothing sticks out sideways on a phone').toEqual({ overflow: 0, past: [] });
  await page.screenshot({ path: `${SHOTS}/points-bulk-applied-${PHONE.width}.png`, fullPage: true });

  // Each participant sees the credit and its reason.
  for (const [person, balance, reason] of [
    [ann, '120 points', `Panel thank-you ${tag}`],
    [ben, '30 points', `Correction of a double credit ${tag}`],
    [cat, '50 points', `Diary bonus ${tag}`],
  ] as const) {
    const context = await browser.newContext({ baseURL: origin });
    const own = await context.newPage();
    await saveCookieChoice(own);
    await signIn(own, origin, person);
    await own.goto('/account#points');
    await expect(own.getByText(balance, { exact: false }).first()).toBeVisible();
    await expect(own.getByText(reason).first()).toBeVisible();
    await expect(own.getByText('Points update').first()).toBeVisible();
    await context.close();
  }

  // The same rows again in another order (another file): the preview says they were credited before.
  const again = path.join(dir, `panel-${tag}-again.csv`);
  const [header = '', ...lines] = rows(cat.email, '15').split('\r\n');
  fs.writeFileSync(again, [header, ...lines.reverse()].join('\r\n'));
  await page.setViewportSize(DESKTOP);
  await chooseFile(page, 'Choose another file', again);
  await expect(page.getByRole('heading', { name: `Preview of panel-${tag}-again.csv` })).toBeVisible();
  await expect(
    page.getByText(
      '4 rows were credited before (the same reference, or the same participant, points and reason): applying leaves them as they are. Lines 2, 3, 4 and 5.',
    ),
  ).toBeVisible();

  // Headers the tool does not know: the admin maps them, and the file is read with the map.
  const odd = path.join(dir, `odd-${tag}.csv`);
  fs.writeFileSync(odd, `Member;Amount;Why\r\n${ann.email};5;Mapped ${tag}\r\n`);
  await chooseFile(page, 'Choose another file', odd);
  await expect(page.getByText('choose which columns to read')).toBeVisible();
  for (const [label, header] of [
    ['Participant', 'Member'],
    ['Points', 'Amount'],
    ['Reason', 'Why'],
  ] as const) {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: header }).click();
  }
  await page.screenshot({ path: `${SHOTS}/points-bulk-mapping-${DESKTOP.width}.png`, fullPage: true });
  await page.getByRole('button', { name: 'Read with these columns' }).click();
  await expect(page.getByRole('heading', { name: `Preview of odd-${tag}.csv` })).toBeVisible();
  await expect(page.getByText('No problems: the row can be applied.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Apply 1 row' })).toBeVisible();

  // A moderator is told the tool is for admins.
  const moderator = await createAccount('moderator', 'Mo', 'Moderator');
  const context = await browser.newContext({ baseURL: origin });
  const mod = await context.newPage();
  await saveCookieChoice(mod);
  await signIn(mod, origin, moderator);
  await mod.goto(TOOL);
  await expect(mod.getByText('Only admins can run this tool')).toBeVisible();
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
