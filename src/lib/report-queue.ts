/**
 * Client error reports (docs/product.md §3, §4, §8; schema in src/shared/schemas/client-reports.ts): uncaught
 * errors, unhandled rejections, manual reports and `page_load` actions go into a queue,
 * de-duplicated by the SHA-1 of their content (the same canonical JSON the server hashes), and
 * flushed every REPORT_FLUSH_INTERVAL_MS to POST /api/reports, after which the queue is cleared.
 * A failed report call is only logged (console.warn: reporting must never raise errors itself).
 *
 * No live link token leaves the page in a report (docs/permissions.md, "Secrets"): a token route
 * is named by its pattern (`/reset-password/[token]`), and every text of a report (url, stack,
 * HTTP body and cause, any data) passes through src/shared/redact.ts before it is queued and hashed.
 */
import { REPORT_FLUSH_INTERVAL_MS } from '../shared/ui-constants.ts';
import { redactReport, REPORT_LIMITS, reportContent, type Report, type ReportData } from '../shared/client-reports.ts';
import { redactJson, redactSecrets, reportPagePath } from '../shared/redact.ts';
import { ApiError } from '../platform/api.ts';

/** Hashes remembered for this page, so a repeated error is sent once. */
const MAX_SEEN = 500;

export type ErrorLabel = 'exception' | 'promise';

export interface ReportErrorOptions {
  /** `uncaught` for the window handlers, `manual` for code that reports on purpose (default). */
  type?: 'uncaught' | 'manual';
  /** What kind of failure it was (kept with non-HTTP errors). */
  label?: ErrorLabel | 'manual';
}

const clip = (text: string | null | undefined, max: number): string | null => (text == null ? null : text.length > max ? text.slice(0, max) : text);
/** A text without its secrets, then clipped (a redacted text may be longer than the original). */
const cleanText = (text: string | null | undefined, max: number): string | null => clip(text == null ? null : redactSecrets(text), max);

/** A JSON-safe copy of any value (functions, cycles and undefined dropped). */
function jsonSafe(value: unknown): unknown {
  try {
    const seen = new WeakSet<object>();
    const text = JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === 'bigint') return item.toString();
      if (typeof item === 'object' && item !== null) {
        if (seen.has(item)) return undefined;
        seen.add(item);
      }
      return item;
    });
    return text === undefined ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** The report data of an error: HTTP errors carry code, body and cause; others stack and a type label. */
export function errorReportData(error: unknown, options: ReportErrorOptions = {}): ReportData {
  const type = options.type ?? 'manual';
  const label = options.label ?? (type === 'manual' ? 'manual' : 'exception');
  if (error instanceof ApiError) {
    return {
      type,
      stacktrace: cleanText(error.stack, REPORT_LIMITS.stacktrace),
      data: {
        kind: 'http',
        code: Number.isInteger(error.status) && error.status > 0 && error.status <= 999 ? error.status : null,
        body: cleanText(error.body, REPORT_LIMITS.body),
        cause: cleanText(`${error.name}: ${error.message}`, REPORT_LIMITS.cause),
      },
    };
  }
  if (error instanceof Error) {
    return {
      type,
      stacktrace: cleanText(error.stack ?? null, REPORT_LIMITS.stacktrace),
      data: { kind: 'misc', data: { type: label, name: redactSecrets(error.name), message: cleanText(error.message, REPORT_LIMITS.cause) } },
    };
  }
  return { type, stacktrace: null, data: { kind: 'misc', data: { type: label, value: redactJson(jsonSafe(error)) } } };
}

export interface ReportQueueDeps {
  fetch?: typeof fetch;
  /** SHA-1 hex of a text. */
  sha1?: (text: string) => Promise<string>;
  /** The page path and browser of each report (a token route's pattern for a token page). */
  pagePath?: () => string;
  userAgent?: () => string | null;
  intervalMs?: number;
  warn?: (...args: unknown[]) => void;
}

export async function sha1Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export interface ReportQueue {
  /** Queues a report (unless one with the same content is queued or was sent from this page). */
  add(data: ReportData): Promise<boolean>;
  /** Sends what is queued now (what the timer does every second). */
  flush(): Promise<void>;
  /** Reports queued and not yet sent. */
  readonly size: number;
  start(): void;
  stop(): void;
}

/**
 * The one report every page load sends — `{ type: 'action', action: { name: 'page_load', data: null } }`
 * from a same-site path (url and user agent are clipped to their limits): valid by construction.
 */
function isPlainPageLoad(report: Report): boolean {
  const { data, url } = report;
  return data.type === 'action' && data.action.name === 'page_load' && data.action.data === null && url.startsWith('/') && !url.startsWith('//');
}

export function createReportQueue(deps: ReportQueueDeps = {}): ReportQueue {
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sha1 = deps.sha1 ?? sha1Hex;
  const pagePath = deps.pagePath ?? (() => reportPagePath(location.pathname));
  const userAgent = deps.userAgent ?? (() => (typeof navigator !== 'undefined' ? (navigator.userAgent ?? null) : null));
  const warn = deps.warn ?? ((...args: unknown[]) => console.warn(...args));
  const intervalMs = deps.intervalMs ?? REPORT_FLUSH_INTERVAL_MS;
  /** zod and the report schema: loaded only for a report the queue did not build itself. */
  let schemas: Promise<typeof import('../shared/schemas/client-reports.ts')> | null = null;

  let queue: { hash: string; report: Report }[] = [];
  const seen = new Set<string>();
  let timer: ReturnType<typeof setInterval> | null = null;

  async function add(data: ReportData): Promise<boolean> {
    // Secrets out before anything else: what is checked, hashed and sent is what the server stores.
    const report: Report = redactReport({ url: cleanText(pagePath(), REPORT_LIMITS.url) ?? '/', userAgent: clip(userAgent(), REPORT_LIMITS.userAgent), data });
    // The page_load action is fixed by construction; anything else is checked against the shared
    // schema, so one odd report cannot get a whole batch refused.
    if (!isPlainPageLoad(report)) {
      schemas ??= import('../shared/schemas/client-reports.ts');
      const checked = (await schemas).reportSchema.safeParse(report);
      if (!checked.success) {
        warn('[reports] not queued: the report does not match the schema', checked.error.issues);
        return false;
      }
    }
    const hash = await sha1(reportContent(report));
    if (seen.has(hash)) return false;
    seen.add(hash);
    if (seen.size > MAX_SEEN) seen.delete(seen.values().next().value as string);
    queue.push({ hash, report });
    return true;
  }

  async function send(reports: Report[]): Promise<void> {
    const response = await doFetch('/api/reports', {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ reports }),
      keepalive: true,
    });
    if (!response.ok) throw new Error(`POST /api/reports answered ${response.status}`);
  }

  async function flush(): Promise<void> {
    if (queue.length === 0) return;
    const batch = queue.map((item) => item.report);
    queue = [];
    // Calls of at most 20 reports and 64 KiB each.
    const calls: Report[][] = [];
    let current: Report[] = [];
    let bytes = 16;
    for (const report of batch) {
      const size = JSON.stringify(report).length + 1;
      if (current.length > 0 && (current.length >= REPORT_LIMITS.perCall || bytes + size > REPORT_LIMITS.maxBytes)) {
        calls.push(current);
        current = [];
        bytes = 16;
      }
      current.push(report);
      bytes += size;
    }
    if (current.length > 0) calls.push(current);
    for (const reports of calls) {
      try {
        await send(reports);
      } catch (error) {
        warn('[reports] could not send client reports', error);
      }
    }
  }

  return {
    add,
    flush,
    get size() {
      return queue.length;
    },
    start() {
      timer ??= setInterval(() => void flush(), intervalMs);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

let shared: ReportQueue | null = null;

/** The page's queue (created and started on first use in the browser). */
export function reportQueue(): ReportQueue {
  if (!shared) {
    shared = createReportQueue();
    shared.start();
  }
  return shared;
}

/** Reports an error: `reportError(error)` is a manual report; the window handlers pass `type: 'uncaught'`. */
export function reportError(error: unknown, options: ReportErrorOptions = { type: 'manual' }): void {
  void reportQueue()
    .add(errorReportData(error, options))
    .catch((failure: unknown) => console.warn('[reports] could not queue a report', failure));
}

/** Reports an action: `page_load` (no data) or `misc` with any data. */
export function reportAction(action: { name: 'page_load'; data: null } | { name: 'misc'; data: unknown }): void {
  const data: ReportData =
    action.name === 'page_load'
      ? { type: 'action', action: { name: 'page_load', data: null } }
      : { type: 'action', action: { name: 'misc', data: jsonSafe(action.data) as object | string | number | boolean | null } };
  void reportQueue()
    .add(data)
    .catch((failure: unknown) => console.warn('[reports] could not queue a report', failure));
}

/** window 'error' → an uncaught exception report; 'unhandledrejection' → an uncaught promise report. */
export function captureGlobalErrors(target: Pick<Window, 'addEventListener'> = window): void {
  target.addEventListener('error', (event: ErrorEvent) => {
    // Resource load errors (scripts, images) are not exceptions; the build watcher handles chunks.
    if (!(event instanceof ErrorEvent)) return;
    reportError(event.error ?? new Error(event.message || 'Script error'), { type: 'uncaught', label: 'exception' });
  });
  target.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    reportError(event.reason, { type: 'uncaught', label: 'promise' });
  });
}
