/** What several specs do to a page: a saved cookie choice, axe's serious findings, JSON calls, the screenshot sizes. */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

/** Where specs save the screenshots people look at (made on first use). */
export const SHOTS = '/tmp/shots';
fs.mkdirSync(SHOTS, { recursive: true });
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** JSON calls (same-origin Origin), failing loudly on a status other than the expected ones (200 or 201 unless told). */
export function jsonApi(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, data?: unknown, expected: readonly number[] = [200, 201]): Promise<T> => {
    const res = await request.fetch(path, {
      method,
      headers: { Origin: baseURL, 'Content-Type': 'application/json' },
      data: method === 'GET' ? undefined : (data ?? {}),
    });
    if (!expected.includes(res.status())) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/**
 * A live project of `members` with one live mission (manual review, 10 points, closing in 3 days)
 * of a published one-page form of `elements`, made through the API by the staff signed in on
 * `request`. Names carry a tag, so parallel tests never meet.
 */
export async function liveMission(
  request: APIRequestContext,
  baseURL: string,
  members: { email: string } | { email: string }[],
  elements: unknown[],
  names: { project?: string; mission?: string; page?: string; instructions?: string } = {},
) {
  const call = jsonApi(request, baseURL);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const project = await call<{ id: number }>('POST', '/api/admin/projects', {
    name: `${names.project ?? 'Field'} ${tag}`,
    client: 'Acme Foods',
    status: 'draft',
  });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [members].flat().map((member) => member.email) });
  const formTitle = `Capture ${tag}`;
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: formTitle,
    definition: { schema: 'fieldwork.form/1', title: formTitle, pages: [{ id: 'p1', title: names.page ?? 'In the shop', elements }] },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const title = `${names.mission ?? 'Shop visit'} ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title,
    instructions: names.instructions ?? 'Take photos of the shelf.',
    formId: form.id,
    points: 10,
    closesAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { projectId: project.id, missionId: mission.id, title, call };
}

/** A saved cookie choice (necessary only) before any page loads: the banner stays out of the way (it is tested in shell.spec.ts). */
export async function saveCookieChoice(page: Page): Promise<void> {
  await page.addInitScript(() =>
    localStorage.setItem('fieldwork-cookie-consent', JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false })),
  );
}

/**
 * axe-core with the WCAG 2.x A and AA rules: the serious and critical findings. With
 * `bestPractice`, axe's best-practice and experimental rules too (e.g. `label-content-name-mismatch`,
 * `p-as-heading`, `region`), and their moderate findings as well: the screens that pass it keep
 * passing it (issue 17).
 */
export async function seriousViolations(page: Page, { bestPractice = false }: { bestPractice?: boolean } = {}): Promise<string[]> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', ...(bestPractice ? ['best-practice', 'experimental'] : [])];
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  const reported = bestPractice ? ['moderate', 'serious', 'critical'] : ['serious', 'critical'];
  return results.violations
    .filter((violation) => reported.includes(violation.impact ?? ''))
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/**
 * How far the page scrolls sideways, with the elements whose right edge is past the viewport (the
 * last 8, to say which; what a scroller holds, such as a wide table, is not counted). `withoutHeader`: the admin header is hidden while measuring (a screen's
 * own test judges the screen, not the layout's header).
 */
export async function sideways(page: Page, { withoutHeader = false }: { withoutHeader?: boolean } = {}): Promise<{ overflow: number; past: string[] }> {
  return page.evaluate((hideHeader) => {
    const header = hideHeader ? document.querySelector('body > header, header.sticky') : null;
    const display = header instanceof HTMLElement ? header.style.display : '';
    if (header instanceof HTMLElement) header.style.display = 'none';
    const width = document.documentElement.clientWidth;
    const overflow = Math.max(0, document.documentElement.scrollWidth - width);
    // An element inside a box that scrolls or clips sideways (a wide table in its scroller) sticks out of nothing.
    const clipped = (element: Element): boolean => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible' && box.getBoundingClientRect().right <= width + 0.5) return true;
      }
      return false;
    };
    const past = [...document.querySelectorAll(hideHeader ? 'main *' : 'body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element))
      .slice(-8)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${String(element.getAttribute('class') ?? '').slice(0, 50)} → ${element.getBoundingClientRect().right.toFixed(1)}`,
      );
    if (header instanceof HTMLElement) header.style.display = display;
    return { overflow, past };
  }, withoutHeader);
}

/**
 * A first press on a form's submit button before the form has hydrated (`client:intent`): the
 * button is still disabled, so the press reaches the form and is replayed as a submit once React
 * is in place. Playwright's own click waits for an enabled button; this presses where it is, in
 * the middle of the window (the cookie banner stays at the bottom).
 */
export async function pressBeforeHydration(button: Locator): Promise<void> {
  await button.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await button.click({ force: true });
}

/**
 * Opens a dialog from a control of an island that may not have hydrated yet: a press before React
 * has attached its handler reaches nothing (a person presses again), so the press is repeated
 * until the dialog shows. For screens hydrated `client:load`, whose buttons are on the page before
 * their handlers (a loaded machine hydrates late: forms-builder.spec once waited 3 minutes for a
 * dialog its first click could not open).
 */
export async function openDialogWith(press: () => Promise<void>, dialog: Locator): Promise<void> {
  await expect(async () => {
    if (await dialog.isVisible()) return;
    await press();
    await expect(dialog).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/** Full-page screenshots at the phone and the desktop size into SHOTS (`<name>-390.png`, `<name>-1280.png`); the page is left at the desktop size. */
export async function screenshotsAtBothSizes(page: Page, name: string): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${size.width}.png`, fullPage: true });
  }
}
