/**
 * The admin sidebar's review count (docs/product.md §2.5): how many entries wait for review across
 * every project, on the "Review" link as a badge and in its name ("Review, 12 waiting"). Read from
 * `GET /api/admin/submissions?status=submitted&limit=1` (its `total`) after every page load and
 * client-side navigation (`admin-nav.ts`), and again when the review inbox decides
 * (`refreshReviewCount`). The badge has a fixed height at the end of the link, so its arrival moves
 * nothing; the last count is shown at once on the next page while it is asked again.
 */
import { apiGet } from '../platform/api.ts';
import { m } from '../shared/i18n.ts';

export const REVIEW_COUNT_PATH = '/api/admin/submissions?status=submitted&limit=1';

/** The badge's text: the number, "99+" beyond 99; nothing when none wait. */
export function reviewBadgeText(waiting: number): string {
  if (waiting <= 0) return '';
  return waiting > 99 ? '99+' : String(waiting);
}

/**
 * The link's accessible name in the page's language: it starts with its visible words (`label`, the
 * section's name), the badge's text right after ("99+" beyond 99, as shown: axe's
 * label-content-name-mismatch, voice control saying what it sees). Only ASCII punctuation may
 * stand between them: axe drops it when it compares, not the Arabic comma (so Arabic says
 * "المراجعة (3 بانتظار المراجعة)").
 */
export function reviewLinkLabel(label: string, waiting: number): string {
  return waiting <= 0 ? m.shell_review_link_none({ label }) : m.shell_review_link_waiting({ label, count: reviewBadgeText(waiting) });
}

let last: number | null = null;

function show(waiting: number): void {
  const link = document.querySelector<HTMLAnchorElement>('[data-review-link]');
  const badge = link?.querySelector<HTMLElement>('[data-review-count]');
  if (!link || !badge) return;
  badge.textContent = reviewBadgeText(waiting);
  badge.hidden = waiting <= 0;
  link.setAttribute('aria-label', reviewLinkLabel(link.dataset.reviewLink ?? '', waiting));
}

/** Asks for the count and shows it (on admin pages only; a failure leaves the link as it was). */
export async function refreshReviewCount(): Promise<void> {
  if (!document.querySelector('[data-review-link]')) return;
  if (last !== null) show(last);
  try {
    const { total } = await apiGet<{ total: number }>(REVIEW_COUNT_PATH);
    last = total;
    show(total);
  } catch {
    // The link works without its count; the next page asks again.
  }
}
