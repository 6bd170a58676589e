/** What several specs do to a page: a saved cookie choice, and axe's serious findings. */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** A saved cookie choice (necessary only) before any page loads: the banner stays out of the way (it is tested in shell.spec.ts). */
export async function saveCookieChoice(page: Page): Promise<void> {
  await page.addInitScript(() =>
    localStorage.setItem('fieldwork-cookie-consent', JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false })),
  );
}

/** axe-core with the WCAG 2.x A and AA rules: the serious and critical findings. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
