/**
 * Client error reports' payloads (docs/product.md §3, §4, §8): both sides validate with these
 * schemas, so the browser can drop (or trim) a report the server would refuse. The types, limits,
 * hashing and redaction (zod-free): `../client-reports.ts`; each schema here gives exactly its type.
 */
import { z } from '../zod.ts';
import { REPORT_LIMITS, type Report, type ReportAction, type ReportData, type ReportErrorData, type ReportsBody } from '../client-reports.ts';
import { MESSAGES } from '../messages.ts';

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

/** True when A and B are the same type. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** Each schema gives exactly the zod-free type of `../client-reports.ts`: `tsc` fails here when they part. */
type _SchemasGiveTheirTypes = [
  Holds<Same<z.output<typeof reportActionSchema>, ReportAction>>,
  Holds<Same<z.output<typeof reportErrorDataSchema>, ReportErrorData>>,
  Holds<Same<z.output<typeof reportDataSchema>, ReportData>>,
  Holds<Same<z.output<typeof reportSchema>, Report>>,
  Holds<Same<z.output<typeof reportsBodySchema>, ReportsBody>>,
];
