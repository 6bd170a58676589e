/**
 * The hostile requests the fuzzer sends (docs/fuzzing.md): for one of the API's calls, as one of
 * the roles, a path with hostile ids, a query with hostile names and values, and a body that is
 * wrong in every way we could think of: wrong types, huge or odd strings, deep nesting,
 * prototype keys, numbers out of range, truncated JSON, wrong content types, broken multipart.
 */
import fc from 'fast-check';
import { API_CALLS, type ApiCall } from './calls.ts';

export const ROLES = ['anonymous', 'participant', 'moderator', 'admin'] as const;
export type FuzzRole = (typeof ROLES)[number];

export interface FuzzCase {
  role: FuzzRole;
  call: ApiCall;
  method: string;
  /** Path and query, as sent on the request line. */
  target: string;
  /** Extra headers (Content-Type, Origin, X-Forwarded-For …); the cookie is added when sending. */
  headers: Record<string, string>;
  /** The body, or null for none. */
  body: Buffer | null;
  /** Sent with `Transfer-Encoding: chunked` instead of `Content-Length`. */
  chunked: boolean;
}

/** Property names the API's schemas use (src/shared/schemas), so bodies reach the checks behind the first. */
const FIELD_NAMES = `acceptTerms active address answers archivedAt baseTags body breaking campaignId cause changes city client
closesAt code colorMode confirmBreaking confirmCompletes confirmPassword country createdAt createdBy currentPassword cursor data
decision definition description draft dryRun email emailNotifications emails endsAt entries estimatedMinutes excludeProblemRows
expectedStatus externalUrl fields firstName formId formVersion format from hasAnswers id idColumn ids instructions invite kind
language lastName latestVersion limit live mailApprovedDigest mailChangesRequested mailProbes mailRejected mailReminders
mailNewWork mailAnnouncements mailPoints mailRewards allowNegative rewardId
fulfilment providerProductId currency denominations range step countries stock imageMediaId pointsPerUnit minimumPoints
oneOpenRequest reviewFirstRedemption taxForm yearlyValue approvalAbove onFile
mailReviewDigest mapping max message min missionId missionIds name newPassword note opensAt page pageSize participant password
perDay photos pid points postalCode probes productId projectId publishedAt publishedBy q rating reason recommend reference region
reports review revision role secret stacktrace starred startsAt state states status tag tags text timeZone title to token
trustReturns type unlock unlockOn updatedAt updatedBy url usedBy userAgent userId value version versions mediaIds enabled`
  .split(/\s+/)
  .filter(Boolean);

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];

/** Odd strings: empty, control characters, lone surrogates, right-to-left marks, injections, huge. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  '\u202E\u202D',
  '\uFEFF',
  '😀'.repeat(300),
  'é'.normalize('NFD'),
  'a'.repeat(70_000),
  '<script>alert(1)</script>',
  "'; DROP TABLE users; --",
  '../../../../etc/passwd',
  '%00',
  '%',
  '\\',
  '${7*7}',
  '{{7*7}}',
  'null',
  'undefined',
  'true',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x1F',
  '2024-13-45',
  '0000-00-00T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00Z',
  'someone@example.org',
  'a@b',
  '@',
  'x'.repeat(300) + '@example.org',
  'https://example.org/',
  'javascript:alert(1)',
  'data:text/html,hi',
  '\r\nSet-Cookie: x=1',
];

/** Numbers JSON.stringify cannot make, written into the text as they are. */
const RAW_NUMBERS = ['1e309', '-1e309', '-0', '123456789012345678901234567890', '9007199254740993', '0.1e-400', '2147483648', '-2147483649', '1.5', '00012'];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()) },
  { weight: 1, arbitrary: fc.constantFrom(...FIELD_NAMES) },
);

/** A JSON text built from parts, so it can hold numbers JSON.stringify cannot write. */
type Json = { raw: string } | string | number | boolean | null | Json[] | { entries: [string, Json][] };

const leaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.integer({ min: -2_147_483_649, max: 2_147_483_649 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1, -1, 2, 10, 100) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((raw) => ({ raw })) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('json'), { maxLength: 6 }) },
    { weight: 2, arbitrary: fc.array(fc.tuple(key, tie('json')), { maxLength: 8 }).map((entries) => ({ entries })) },
  ),
}));

/** A top-level object, mostly: what every JSON call expects. */
const jsonObject: fc.Arbitrary<Json> = fc.array(fc.tuple(key, json), { minLength: 0, maxLength: 10 }).map((entries) => ({ entries }));

export function jsonText(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if ('raw' in value) return value.raw;
  return `{${value.entries.map(([name, item]) => `${JSON.stringify(name)}:${jsonText(item)}`).join(',')}}`;
}

/** Nesting deeper than any parser or database wants: `[[[…]]]` or `{"a":{"a":…}}`. */
const deepJson: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(100, 1_000, 10_000, 100_000), fc.constantFrom(...FIELD_NAMES), fc.boolean())
  .map(([depth, name, arrays]) => (arrays ? `{"${name}":${'['.repeat(depth)}${']'.repeat(depth)}}` : `${`{"${name}":`.repeat(depth)}1${'}'.repeat(depth)}`));

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json, text/plain',
];
const WRONG_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'text/csv',
  'application/xml',
  'application/octet-stream',
  '',
  'multipart/form-data',
  '*/*',
  'application/jsonx',
  'image/png',
];

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  content: Uint8Array;
}

const PNG_HEAD = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0x7f, 0xff, 0, 0, 0x7f, 0xff, 8, 2, 0, 0, 0,
]);
const JPEG_HEAD = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);

const partContent: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 2_000 }),
  fc.constantFrom(PNG_HEAD, JPEG_HEAD, new Uint8Array(0)),
  fc
    .array(fc.array(hostileString, { minLength: 1, maxLength: 5 }), { maxLength: 8 })
    .map((rows) => new TextEncoder().encode(['participant,points,reason,reference,email,id', ...rows.map((row) => row.join(','))].join('\n'))),
  fc.tuple(fc.constantFrom(PNG_HEAD, JPEG_HEAD), fc.uint8Array({ maxLength: 500 })).map(([head, rest]) => new Uint8Array([...head, ...rest])),
);

const part: fc.Arbitrary<Part> = fc.record({
  name: fc.oneof(fc.constantFrom('file', 'idColumn', 'fields[]', 'confirmCompletes', 'secret', 'status', 'dryRun'), hostileString),
  filename: fc.option(fc.oneof(fc.constantFrom('photo.png', 'a.jpg', 'list.csv', '../../x.png', '', 'a"b.png', 'ü.heic'), hostileString)),
  type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'text/csv', 'application/octet-stream', 'text/plain', 'image/svg+xml', 'x/y; a=b', '')),
  content: partContent,
});

/** A multipart body with a boundary that may be odd, missing, mismatched, and an ending that may be cut off. */
const multipart: fc.Arbitrary<{ type: string; body: Buffer }> = fc
  .record({
    boundary: fc.oneof(fc.constantFrom('xyz', 'a'.repeat(70), 'a'.repeat(200), '', '"quoted"', 'with space', '--', 'é'), fc.string({ maxLength: 20 })),
    declared: fc.option(fc.constantFrom('other', '', 'xyz; charset=utf-8')),
    parts: fc.array(part, { maxLength: 4 }),
    ending: fc.constantFrom('proper', 'none', 'cut', 'no-crlf', 'garbage'),
    cut: fc.nat(),
  })
  .map(({ boundary, declared, parts, ending, cut }) => {
    const chunks: Buffer[] = [];
    for (const { name, filename, type, content } of parts) {
      let headers = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n`;
      if (type !== null) headers += `Content-Type: ${type}\r\n`;
      chunks.push(Buffer.from(`${headers}\r\n`), Buffer.from(content), Buffer.from('\r\n'));
    }
    if (ending === 'proper') chunks.push(Buffer.from(`--${boundary}--\r\n`));
    if (ending === 'no-crlf') chunks.push(Buffer.from(`--${boundary}--`));
    if (ending === 'garbage') chunks.push(Buffer.from(`--${boundary}-- \u0000junk\r\n--${boundary}\r\n`));
    let body = Buffer.concat(chunks);
    if (ending === 'cut' && body.length > 0) body = body.subarray(0, cut % body.length);
    const named = declared === null ? boundary : declared;
    return { type: named === '' ? 'multipart/form-data' : `multipart/form-data; boundary=${named}`, body };
  });

interface Body {
  type: string | null;
  body: Buffer | null;
}

const text =
  (type: string | null) =>
  (value: string): Body => ({ type, body: Buffer.from(value) });

/** A body for a call that reads JSON. */
const jsonBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...JSON_TYPES), jsonObject).map(([type, value]) => text(type)(jsonText(value))) },
  { weight: 2, arbitrary: json.map((value) => text('application/json')(jsonText(value))) },
  {
    weight: 2,
    arbitrary: fc.tuple(jsonObject, fc.nat()).map(([value, cut]) => {
      const full = jsonText(value);
      return text('application/json')(full.slice(0, cut % Math.max(1, full.length)));
    }),
  },
  { weight: 1, arbitrary: deepJson.map(text('application/json')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...WRONG_TYPES), jsonObject).map(([type, value]) => text(type)(jsonText(value))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'null', '[]', '""', '0', '{', '}', '{"a":}', '\uFEFF{}', '{}garbage', '{"a":1,"a":2}').map(text('application/json')),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 500 }).map((bytes) => ({ type: 'application/json', body: Buffer.from(bytes) })) },
  { weight: 1, arbitrary: multipart },
  { weight: 1, arbitrary: fc.constant<Body>({ type: null, body: null }) },
);

/** A body for a call that takes a file. */
const uploadBody: fc.Arbitrary<Body> = fc.oneof({ weight: 4, arbitrary: multipart }, { weight: 1, arbitrary: jsonBody });

/** Path parameters: ids out of range, not numbers, encoded tricks; sometimes a small real-looking id. */
const HOSTILE_SEGMENTS = [
  '-1',
  '0',
  '1e309',
  '1e3',
  '0x10',
  '1.5',
  'NaN',
  'Infinity',
  '%00',
  '%2e%2e',
  '..',
  '.',
  '%2F',
  '%2F..%2F',
  '2147483647',
  '2147483648',
  '9007199254740993',
  '99999999999999999999',
  '00001',
  '%201',
  '%E2%80%AE1',
  '%C0%AE',
  '%FF',
  '%ZZ',
  '%',
  'abc',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  '%7B%7D',
  "1'%20OR%201=1",
  'a'.repeat(5_000),
  'beta',
  'new_ui',
];

const segment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: hostileString.map((value) => encode(value.slice(0, 200))) },
);

/** Percent-encodes every byte but the unreserved ones; lone surrogates go as U+FFFD (encodeURIComponent throws on them). */
function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    out += /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Whether a string may go on the request line as it is (no space, control or non-ASCII character). */
const safeRaw = (value: string) => /^[\x21-\x7e]*$/.test(value);

const queryPair = (call: ApiCall): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        { weight: 5, arbitrary: call.query.length > 0 ? fc.constantFrom(...call.query) : fc.constantFrom('page', 'q') },
        { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS, 'page[]', 'a[b]', 'q[0]', '') },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
      ),
      fc.oneof({ weight: 4, arbitrary: hostileString }, { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) }),
      fc.boolean(),
    )
    .map(([name, value, raw]) => `${encode(name)}=${raw && safeRaw(value) ? value : encode(value)}`);

const ORIGIN_CHOICES = [...Array.from({ length: 12 }, () => 'same' as const), 'none', 'evil', 'null'] as const;
const FORWARDED_FOR = ['203.0.113.7', '::1', 'unknown', '', '1.2.3.4, 5.6.7.8', 'a'.repeat(2_000), '999.999.999.999', '%00', '\t'];

function fillTemplate(call: ApiCall, values: string[]): string {
  let i = 0;
  return call.template.replace(/\{\w+\}/g, (name) => {
    const value = values[i++] ?? '1';
    // Never turn maintenance on: it answers 503 by design (calls.ts SKIPPED).
    return name === '{key}' && call.method === 'PUT' && value.toLowerCase().includes('maintenance') ? 'beta' : value;
  });
}

/** Mostly a role the call lets through, so cases get past the guard to the input checks behind it. */
function roleFor(call: ApiCall): fc.Arbitrary<FuzzRole> {
  const admin = call.template.startsWith('/api/admin/');
  const weights: Record<FuzzRole, number> = admin
    ? { anonymous: 1, participant: 1, moderator: 2, admin: 5 }
    : { anonymous: 1, participant: 4, moderator: 1, admin: 1 };
  return fc.oneof(...ROLES.map((role) => ({ weight: weights[role], arbitrary: fc.constant(role) })));
}

/** One hostile request to one of `calls`; `origin` is the server's own. */
export function fuzzCase(origin: string, calls: readonly ApiCall[] = API_CALLS): fc.Arbitrary<FuzzCase> {
  return fc
    .constantFrom(...calls)
    .chain((call) =>
      fc.record({
        role: roleFor(call),
        call: fc.constant(call),
        segments: fc.array(segment, { minLength: call.params.length, maxLength: call.params.length }),
        query: fc.oneof({ weight: 2, arbitrary: fc.constant<string[]>([]) }, { weight: 3, arbitrary: fc.array(queryPair(call), { maxLength: 5 }) }),
        // One in ten: a trailing slash (routes are strict, so mostly a 404).
        trailingSlash: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
        body: call.method === 'GET' ? fc.constant<Body>({ type: null, body: null }) : call.body === 'upload' ? uploadBody : jsonBody,
        origin: fc.constantFrom(...ORIGIN_CHOICES),
        forwardedFor: fc.option(fc.constantFrom(...FORWARDED_FOR), { freq: 4 }),
        chunked: fc.boolean(),
      }),
    )
    .map(({ role, call, segments, query, trailingSlash, body, origin: originChoice, forwardedFor, chunked }) => {
      const path = fillTemplate(call, segments) + (trailingSlash ? '/' : '');
      const headers: Record<string, string> = {};
      if (body.type !== null) headers['Content-Type'] = body.type;
      if (originChoice === 'same') headers.Origin = origin;
      else if (originChoice === 'evil') headers.Origin = 'https://evil.example';
      else if (originChoice === 'null') headers.Origin = 'null';
      if (forwardedFor !== null && safeRaw(forwardedFor.replaceAll(' ', ''))) headers['X-Forwarded-For'] = forwardedFor;
      return {
        role,
        call,
        method: call.method,
        target: query.length > 0 ? `${path}?${query.join('&')}` : path,
        headers,
        body: body.body,
        chunked: chunked && body.body !== null,
      };
    });
}

/** The case as an HTTP request, for a failure report (bodies cut at 600 characters). */
export function describeCase(fuzz: FuzzCase): string {
  const body = fuzz.body === null ? '' : fuzz.body.toString('utf8');
  const shown = body.length > 600 ? `${body.slice(0, 600)}… (${fuzz.body?.length ?? 0} bytes)` : body;
  return [
    `as ${fuzz.role}: ${fuzz.method} ${fuzz.target.length > 400 ? `${fuzz.target.slice(0, 400)}…` : fuzz.target}`,
    ...Object.entries(fuzz.headers).map(([name, value]) => `${name}: ${value.length > 200 ? `${value.slice(0, 200)}…` : value}`),
    fuzz.chunked ? 'Transfer-Encoding: chunked' : '',
    '',
    JSON.stringify(shown),
  ]
    .filter((line, i, lines) => line !== '' || i === lines.length - 2)
    .join('\n');
}
