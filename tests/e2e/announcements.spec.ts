/**
 * Announcements (issue 28 §15): a moderator writes one on the project page (its Markdown previewed
 * as members will see it), confirms sending it to the members, and finds it under "Sent before";
 * a member reads it on home. Screenshots of the form and of home at 1280×800 and 390×844 go to
 * /tmp/shots.
 */
import { createAccount, signIn } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS } from './page-helpers.ts';

test.beforeEach(({ page }) => saveCookieChoice(page));

test('a moderator sends an announcement from the project page; a member reads it on home', async ({ page, browser, baseURL }) => {
  // Two people, two browsers, four screenshots and two axe runs: near the default 30 s on a slow machine.
  test.slow();
  const origin = baseURL ?? '';
  const [moderator, member] = await Promise.all([createAccount('moderator'), createAccount('participant', 'Bea', 'Okafor')]);
  await signIn(page, origin, moderator);
  const api = jsonApi(page.request, origin);
  const project = await api<{ id: number }>('POST', '/api/admin/projects', { name: 'Kitchen study', status: 'live' });
  await api('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });

  await page.setViewportSize(DESKTOP);
  await page.goto(`/admin/projects/${project.id}#announcements`);
  const card = page.getByRole('region', { name: 'Announcements' });
  await card.getByRole('textbox', { name: 'Title' }).fill('Day 2 opens on Monday');
  await card.getByRole('textbox', { name: 'Text', exact: true }).fill('Thanks for **taking part**.\n\n- Charge your phone\n- Keep your diary close');
  await card.getByRole('tab', { name: 'Preview' }).click();
  await expect(card.getByRole('tabpanel').getByText('taking part')).toHaveJSProperty('tagName', 'STRONG');
  await card.screenshot({ path: `${SHOTS}/announcement-form-1280.png` });
  await page.setViewportSize(PHONE);
  await card.screenshot({ path: `${SHOTS}/announcement-form-390.png` });

  await card.getByRole('button', { name: 'Send to 1 member' }).click();
  await expect(card.getByText('Send “Day 2 opens on Monday” to 1 member? It cannot be taken back.')).toBeVisible();
  await card.getByRole('button', { name: 'Send now' }).click();
  await expect(page.getByText('Announcement sent', { exact: true })).toBeVisible();
  await expect(card.getByText('Day 2 opens on Monday')).toBeVisible();
  await expect(card.getByRole('textbox', { name: 'Title' })).toHaveValue('');
  expect(await seriousViolations(page)).toEqual([]);

  const context = await browser.newContext({ baseURL: origin, viewport: PHONE });
  const phone = await context.newPage();
  await saveCookieChoice(phone);
  await signIn(phone, origin, member);
  await phone.goto('/');
  const news = phone.getByRole('region', { name: 'News from your projects' });
  await expect(news.getByText('Day 2 opens on Monday')).toBeVisible();
  await expect(news.getByText('Charge your phone', { exact: true })).toHaveJSProperty('tagName', 'LI');
  expect(await seriousViolations(phone)).toEqual([]);
  await phone.screenshot({ path: `${SHOTS}/home-announcement-390.png`, fullPage: true });
  await phone.setViewportSize(DESKTOP);
  await phone.screenshot({ path: `${SHOTS}/home-announcement-1280.png` });
  await context.close();
});
