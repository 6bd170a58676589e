/**
 * Client error reports (docs/product.md §3, §4, §8): what the browser's report queue sends to
 * `POST /api/reports` and the server stores. Both sides validate with these schemas, so the
 * browser can drop (or trim) a report the server would refuse.
 */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';

/** Limits of one call and of each field. The server answers 413 past REPORTS_MAX_BYTES. */
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

const nullableText = (max: number) => z.string({ error: MESSAGES.required }).max(max, MESSAGES.tooLong).nullable();

/** Any JSON value, but present: a missing key is not "any data". */
const anyData = () => z.unknown().refine((value) => value !== undefined, MESSAGES.required);

/** The page the report comes from: a path on this site (with its query), never a full URL. */
export const reportUrlSchema = z
  .string({ error: MESSAGES.required })
  .min(1, { error: MESSAGES.required, abort: true })
  .max(REPORT_LIMITS.url, { error: MESSAGES.tooLong, abort: true })
  .refine((url) => url.startsWith('/') && !url.startsWith('//'), 'Must be a path starting with /');

/** An action: `page_load` (null data) or `misc` (any data). */
export const reportActionSchema = z.discriminatedUnion('name', [
  z.strictObject({ name: z.literal('page_load'), data: z.null({ error: 'Must be null' }) }),
  z.strictObject({ name: z.literal('misc'), data: anyData() }),
]);

/** What an error carries: an HTTP failure (code, body, cause: name and message) or anything else. */
export const reportErrorDataSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('http'),
    code: z.number({ error: 'Must be an integer or null' }).int('Must be an integer or null').min(0).max(999).nullable(),
    body: nullableText(REPORT_LIMITS.body),
    cause: nullableText(REPORT_LIMITS.cause),
  }),
  z.strictObject({ kind: z.literal('misc'), data: anyData() }),
]);

/** A report's data: an action, or an error (uncaught or manual) with its stack trace. */
export const reportDataSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('action'), action: reportActionSchema }),
  z.strictObject({
    type: z.enum(['uncaught', 'manual']),
    stacktrace: nullableText(REPORT_LIMITS.stacktrace),
    data: reportErrorDataSchema,
  }),
]);

/** One report: the page path, the browser (or null) and the data. */
export const reportSchema = z.strictObject({
  url: reportUrlSchema,
  userAgent: nullableText(REPORT_LIMITS.userAgent),
  data: reportDataSchema,
});

/** The body of `POST /api/reports`. */
export const reportsBodySchema = z.strictObject({
  reports: z
    .array(reportSchema, { error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(REPORT_LIMITS.perCall, `At most ${REPORT_LIMITS.perCall} reports per call`),
});

export type ReportData = z.infer<typeof reportDataSchema>;
export type Report = z.infer<typeof reportSchema>;
export type ReportsBody = z.infer<typeof reportsBodySchema>;

export { canonicalJson, redactReport, reportContent } from '../report-content.ts';
