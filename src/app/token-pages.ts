/**
 * The guest token pages (/onboarding/{token}, /reset-password/{token}) check their link without
 * React (`components/TokenCheck.astro`, `lib/token-check.ts`): on every page load and client-side
 * navigation that shows one, its check starts here. It lives in BaseLayout's module script for the
 * reason admin-nav.ts gives (a page's own small script would be inlined, and the ClientRouter runs
 * a newly met inline module script through a `data:` URL that the page CSP blocks); the check's
 * code loads on those pages only.
 */
document.addEventListener('astro:page-load', () => {
  const root = document.querySelector<HTMLElement>('[data-token-check]');
  if (!root) return;
  void import('../lib/token-check.ts')
    .then(({ startTokenPage }) => startTokenPage(root))
    .catch((error: unknown) => console.error('The link check could not start:', error));
});
