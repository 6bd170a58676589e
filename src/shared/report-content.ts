/**
 * The identity of a client error report (docs/product.md §4: de-duplicated by a SHA-1 of its content),
 * computed the same way by the browser's queue and the server. No zod here: the browser's queue
 * hashes every report, and only validates (with zod, loaded then) what it did not build itself.
 */
import { redactJson, redactSecrets } from './redact.ts';
import type { Report } from './schemas/reports.ts';

/**
 * JSON with object keys sorted at every level: equal content gives equal text, whatever the key
 * order. The SHA-1 of `canonicalJson({ url, userAgent, data })` identifies a report on both sides.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

/** The text whose SHA-1 de-duplicates a report. */
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
