/**
 * Client error reports (docs/product.md §3, §4, §8): what the browser's report queue sends to
 * `POST /api/reports` and the server stores, their limits, their identity (de-duplicated by a SHA-1
 * of their content, computed the same way on both sides) and their redaction. No zod here: the
 * browser's queue builds and hashes every report, and only validates (with zod, loaded then) what
 * it did not build itself. Payload schemas: `schemas/client-reports.ts`.
 */
import { canonicalJson } from './canonical-json.ts';
import { redactJson, redactSecrets } from './redact.ts';

/** Limits of one call and of each field. The server answers 413 past `maxBytes`. */
export const REPORT_LIMITS = {
  /** Reports in one call (the queue flushes every 1000 ms). */
  perCall: 20,
  /** Bytes of one request body. */
  maxBytes: 64 * 1024,
  url: 2048,
  userAgent: 512,
  stacktrace: 16 * 1024,
  body: 16 * 1024,
  cause: 2048,
} as const;

/**
 * What the "Client errors" list shows (`GET /api/admin/reports?kind=`): `error` (uncaught and
 * manual reports: the default), `action` (`page_load`, `misc`) or `all`.
 */
export const CLIENT_REPORT_KINDS = ['error', 'action', 'all'] as const;
export type ClientReportKind = (typeof CLIENT_REPORT_KINDS)[number];

/** Any JSON value, but present (not `undefined`): a missing key is not "any data". */
export type AnyData = NonNullable<unknown> | null;

/** An action: `page_load` (null data) or `misc` (any data). */
export type ReportAction = { name: 'page_load'; data: null } | { name: 'misc'; data: AnyData };

/** What an error carries: an HTTP failure (code, body, cause: name and message) or anything else. */
export type ReportErrorData = { kind: 'http'; code: number | null; body: string | null; cause: string | null } | { kind: 'misc'; data: AnyData };

/** A report's data: an action, or an error (uncaught or manual) with its stack trace. */
export type ReportData = { type: 'action'; action: ReportAction } | { type: 'uncaught' | 'manual'; stacktrace: string | null; data: ReportErrorData };

/** One report: the page path (never a full URL), the browser (or null) and the data. */
export interface Report {
  url: string;
  userAgent: string | null;
  data: ReportData;
}

/** The body of `POST /api/reports`. */
export interface ReportsBody {
  reports: Report[];
}

/** The text whose SHA-1 de-duplicates a report: `canonicalJson({ url, userAgent, data })`. */
export function reportContent(report: Report): string {
  return canonicalJson({ url: report.url, userAgent: report.userAgent, data: report.data });
}

/**
 * The report as it may be stored and shown to staff: link tokens and secrets taken out of its url,
 * browser and every string of its data (stack trace, HTTP body and cause, any `misc` data), as
 * src/shared/redact.ts does. The browser's queue and the server both apply it before hashing, so
 * a report's hash is the hash of what is stored (docs/permissions.md, "Secrets").
 */
export function redactReport(report: Report): Report {
  return {
    url: redactSecrets(report.url),
    userAgent: report.userAgent === null ? null : redactSecrets(report.userAgent),
    data: redactJson(report.data),
  };
}
