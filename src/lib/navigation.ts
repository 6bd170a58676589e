/**
 * Navigation with the checks of docs/product.md §8: an external URL needs explicit permission
 * (`{ external: true }`), and `javascript:`, `data:` and `vbscript:` URLs are never followed.
 * Internal targets go through the client-side router; external ones are a full page load.
 */
import { navigate } from 'astro:transitions/client';
import { reportError } from './report-queue.ts';

import { resolveNavigation, type NavigateOptions, type NavigationTarget } from './navigation-target.ts';

export { resolveNavigation, type NavigateOptions, type NavigationTarget };

/** Navigates, or throws (and reports) when the target is refused. */
export async function navigateTo(target: string, options: NavigateOptions = {}): Promise<void> {
  let resolved: NavigationTarget;
  try {
    resolved = resolveNavigation(target, options);
  } catch (error) {
    reportError(error, { type: 'manual' });
    throw error;
  }
  if (resolved.kind === 'external') {
    if (options.replace) location.replace(resolved.url.href);
    else location.assign(resolved.url.href);
    return;
  }
  await navigate(resolved.url.href, options.replace ? { history: 'replace' } : undefined);
}
