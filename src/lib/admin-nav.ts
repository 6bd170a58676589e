import { $auth } from '../stores/auth.ts';
import { roleLabel } from './user.ts';

/**
 * The admin layout's phone-size menu toggle. Bound after every page load and client-side
 * navigation (the ClientRouter swaps in new elements); pages without the admin sidebar are left
 * alone.
 *
 * It lives in BaseLayout's module script rather than in AdminLayout's own <script>: a script that
 * small would be inlined, and the ClientRouter runs a newly met inline module script through a
 * `data:` URL, which the page CSP (script-src 'self' + hashes) rightly blocks. The sidebar's review
 * count is asked for here too (`review-count.ts`, loaded on admin pages only), and the header's
 * badge says the signed-in person's role ("Moderator", "Admin").
 */
function bindAdminNav(): void {
  const toggle = document.querySelector<HTMLButtonElement>('[data-admin-nav-toggle]');
  const nav = document.getElementById('admin-nav');
  if (!toggle || !nav) return;
  const setOpen = (open: boolean): void => {
    toggle.setAttribute('aria-expanded', String(open));
    nav.dataset.state = open ? 'open' : 'closed';
  };
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'));
  nav.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && toggle.getAttribute('aria-expanded') === 'true') {
      setOpen(false);
      toggle.focus();
    }
  });
}

/** The header's role badge: the signed-in person's role, hidden until known; the admins' sections (the audit log) shown to admins. */
function showRole(): void {
  const state = $auth.get();
  const admin = state.status === 'authenticated' && state.user.role === 'admin';
  for (const item of document.querySelectorAll<HTMLElement>('[data-admin-only]')) {
    // Its own page keeps it (the layout shows it there), whoever reads it.
    if (!item.querySelector('[aria-current]')) item.hidden = !admin;
  }
  const badge = document.querySelector<HTMLElement>('[data-role-badge]');
  if (!badge) return;
  const label = state.status === 'authenticated' ? roleLabel(state.user.role) : '';
  if (badge.textContent !== label) badge.textContent = label;
  badge.hidden = label === '';
}

$auth.listen(showRole);

document.addEventListener('astro:page-load', () => {
  bindAdminNav();
  showRole();
  // Only admin pages have the sidebar's Review link: the count's code loads there alone, not on
  // every participant's page (the survey screen's JavaScript budget).
  if (document.querySelector('[data-review-link]')) {
    void import('./review-count.ts').then(({ refreshReviewCount }) => refreshReviewCount()).catch(() => {});
  }
});
