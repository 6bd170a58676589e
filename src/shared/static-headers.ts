/**
 * The headers of the built site, wherever it is served from: the Node server (src/server/static.ts),
 * the Netlify-style `_headers` the build writes (builds/integration.ts) and the nginx configuration
 * `npm run cli -- deploy:nginx` prints (src/server/deploy-nginx.ts). One list, so a static host
 * sends what the Node server sends (docs/deploy.md).
 */

/** Security headers of every page and file (the page CSP is added to HTML by each host from `pageCsp`). */
export const STATIC_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // The camera and microphone for this site only: a video question's "Record here" (getUserMedia).
  'Permissions-Policy': 'camera=(self), microphone=(self), geolocation=(), interest-cohort=()',
};

/** Hashed file names never change: a year, never revalidated. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** HTML and route payloads: kept, but asked again every time (a 304 when unchanged). */
export const CACHE_REVALIDATE = 'no-cache';
/** The build pointer the build watcher polls: never kept anywhere. */
export const CACHE_NEVER = 'no-store';
/** Other public files (favicon, robots.txt, images): an hour. */
export const CACHE_HOUR = 'public, max-age=3600';

/** Folders (relative to dist/, with their trailing slash) whose files are content-hashed. */
export const IMMUTABLE_FOLDERS = ['_astro/', 'builds/meta/'] as const;
/** The file the build watcher polls (relative to dist/). */
export const LATEST_BUILD_FILE = 'builds/latest.json';
/** The service worker's script (relative to dist/; SERVICE_WORKER_PATH of src/shared/offline.ts): asked again at every check, so a new build's worker is seen. */
export const SERVICE_WORKER_FILE = 'sw.js';

/** The Cache-Control of a file of dist/ (a path relative to dist/, without a leading slash). */
export function cacheControlFor(file: string): string {
  if (IMMUTABLE_FOLDERS.some((folder) => file.startsWith(folder))) return CACHE_IMMUTABLE;
  if (file === LATEST_BUILD_FILE) return CACHE_NEVER;
  if (file === SERVICE_WORKER_FILE) return CACHE_REVALIDATE;
  if (file.endsWith('.html') || file.endsWith('_payload.json')) return CACHE_REVALIDATE;
  return CACHE_HOUR;
}
