/**
 * The Content-Security-Policy of every page: our own origin only, plus the hashes of the inline
 * scripts the build found. The Node server (src/server/static.ts) and `_headers` (written by
 * builds/integration.ts) send the same.
 */

/**
 * What Google Analytics 4 (gtag.js) needs, allowed only when a measurement id is configured
 * (PUBLIC_GA_ID). Consent still decides whether the browser loads it at all.
 */
export const ANALYTICS_CSP_SOURCES = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://www.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
} as const;

export interface PageCspOptions {
  /** The Google Analytics 4 measurement id (PUBLIC_GA_ID); without it, no analytics host is allowed. */
  analyticsId?: string | undefined;
  /** Where photos may also load from: the photo store's origin when the API redirects to signed links (docs/deploy.md). */
  imgSrc?: readonly string[] | undefined;
  /** Where videos may also play from: the media store's origin when the API redirects to signed links. */
  mediaSrc?: readonly string[] | undefined;
}

export function pageCsp(scriptHashes: readonly string[], extraConnect: readonly string[] = [], options: PageCspOptions = {}): string {
  const analytics = options.analyticsId ? ANALYTICS_CSP_SOURCES : { script: [], connect: [], img: [] };
  const scripts = ["'self'", ...scriptHashes.map((h) => `'${h}'`), ...analytics.script].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...(options.imgSrc ?? []), ...analytics.img].join(' '),
    // Videos: the API's (same origin), a recording not sent yet (blob:), the store's signed links.
    ["media-src 'self' blob:", ...(options.mediaSrc ?? [])].join(' '),
    "font-src 'self'",
    // The participants' service worker (/sw.js, issue 33 §2); no other worker.
    "worker-src 'self'",
    ["connect-src 'self'", ...extraConnect, ...analytics.connect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The service worker's own CSP (`/sw.js`, issue 33 §2): it fetches pages, files and the API of its
 * own origin, and nothing else. Sent by the Node server (src/server/static.ts), whose other files
 * carry the API's `default-src 'none'`, which would stop every fetch the worker makes; static hosts
 * send the page CSP on it, which allows the same.
 */
export const SERVICE_WORKER_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'";
