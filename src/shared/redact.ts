/**
 * Secret-free text (docs/permissions.md, "Secrets: where they could be written down"). Whatever Fieldwork writes down where someone else can read it — client error reports,
 * log lines, audit rows, mails to someone other than a link's owner — passes through
 * `redactSecrets` first:
 *
 * - the token segment of every token route of the route table (`/reset-password/…`,
 *   `/onboarding/…`, `/update-email/…`), wherever it stands (a path, a full URL, a stack trace,
 *   `?r=/update-email/…`, with `%2F` for its slashes), becomes `[token]`;
 * - the value of every secret-like query parameter (`token`, `pid`, `k`, `key`, `code`,
 *   `password`, `…secret…`, `…session…`: SECRET_PARAM_SOURCE), after `?`, `&`, `#` or `;` (or
 *   `%3F`, `%26`), becomes `[redacted]`.
 *
 * `redactJson` does the same to every string (and key) of a JSON value and also replaces the
 * string or number values of secret-like keys (`password`, `token`, `pid`, …: SECRET_KEY_SOURCE).
 *
 * Both are pure, idempotent, and loaded eagerly by the browser's report queue: no zod here, and
 * nothing but the route table. The data migration of 0005_integrity.sql applies the same regular
 * expressions in SQL to stored reports; tests/api/reports.test.ts checks the two agree.
 */
import { localizedPath, splitLanguage } from './languages.ts';
import { matchRoute, ROUTES, type RouteDef } from './routes.ts';

/** What a link token's path segment becomes. */
export const TOKEN_PLACEHOLDER = '[token]';
/** What a secret value becomes. */
export const REDACTED = '[redacted]';

/**
 * Characters that end a token segment: controls and space, URL structure (`/ ? # &`), quotes and
 * brackets that surround a URL in text (`" ' \` \\ < > ( ) { } |`), and `: , ;` (a stack trace's
 * `:line:column`, lists). A link token is base64url, so none of these is ever part of it.
 */
const SEGMENT_CHAR = String.raw`[^\x00-\x20\x7f/?#&"'\x60\\<>(){}|:,;]`;
/** Characters that end a query value: as above, but `/ ? : ,` may be part of a value. */
const VALUE_CHAR = String.raw`[^\x00-\x20\x7f&#"'\x60\\<>(){}|;]`;
/** A `/`, plain or percent-encoded. */
const SLASH = '(?:/|%2F)';

/** Names of query parameters whose value is a secret (matched whole, any case). */
export const SECRET_PARAM_SOURCE =
  '[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[_-]?key|session)[A-Za-z0-9_.-]*|pid|k|key|code|pwd|pass|auth|authorization|sig|signature|otp|sid|jwt';

/**
 * Names of JSON keys whose string or number value is a secret (matched whole, any case). Narrower
 * than the query names: `code` (an HTTP status) and `key` are everyday keys in error data.
 */
export const SECRET_KEY_SOURCE =
  '[A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[_-]?key)[A-Za-z0-9_.-]*|pid|k|pwd|auth|authorization|cookie|set-cookie|session|session_?id|sid|sig|signature|otp|jwt';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The part of each token route's pattern before its (first) token parameter, as a regular
 * expression: `reset-password` for `/reset-password/:token`. Other parameters before it match any
 * segment. Longest first, so a longer prefix wins over a shorter one it starts with.
 */
export function tokenRoutePrefixes(routes: readonly RouteDef[] = ROUTES): string[] {
  const prefixes: string[] = [];
  for (const route of routes) {
    const parts = route.pattern.split('/').slice(1);
    const at = parts.findIndex((part) => part.startsWith(':') && route.params?.[part.slice(1)] === 'token');
    if (at <= 0) continue;
    prefixes.push(
      parts
        .slice(0, at)
        .map((part) => (part.startsWith(':') ? `${SEGMENT_CHAR}+` : escapeRegExp(part)))
        .join(SLASH),
    );
  }
  return [...new Set(prefixes)].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
}

/** `…/reset-password/` (group 1) and the token segment after it (not `[token]` itself). */
const TOKEN_SEGMENT = new RegExp(`(${SLASH}(?:${tokenRoutePrefixes().join('|')})${SLASH})(?!\\[token\\])${SEGMENT_CHAR}+`, 'gi');

/** `?token=` (groups 1–4: lead, spaces, name, `=`) and its value (not `[redacted]` itself). */
const SECRET_PARAM = new RegExp(`([?&#;]|%3F|%26)( *)(${SECRET_PARAM_SOURCE})(=|%3D)(?!\\[redacted\\])${VALUE_CHAR}+`, 'gi');

const SECRET_KEY = new RegExp(`^(?:${SECRET_KEY_SOURCE})$`, 'i');

/** The text with every link token and secret query value replaced (see the top of this file). */
export function redactSecrets(text: string): string {
  return text.replace(TOKEN_SEGMENT, `$1${TOKEN_PLACEHOLDER}`).replace(SECRET_PARAM, `$1$2$3$4${REDACTED}`);
}

/** True for a JSON key whose string or number value is a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * A copy of a JSON value with `redactSecrets` applied to every string and key, and the string or
 * number value of every secret-like key replaced by `[redacted]`. Other values (and objects that
 * are not plain, such as a Date) are kept as they are.
 */
export function redactJson<T>(value: T): T;
export function redactJson(value: unknown): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (Array.isArray(value)) return value.map((item: unknown) => redactJson(item));
  if (value === null || typeof value !== 'object') return value;
  // Only plain objects are walked (a Date or other class instance is kept as it is).
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  // fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return Object.fromEntries(
    Object.entries(value).map(([key, item]: [string, unknown]) => [
      redactSecrets(key),
      isSecretKey(key) && (typeof item === 'string' || typeof item === 'number') ? REDACTED : redactJson(item),
    ]),
  );
}

/**
 * The path a client report names for a page: a token route's pattern with `[token]` for the
 * token (`/reset-password/[token]`), any other path with its secrets redacted.
 */
export function reportPagePath(pathname: string): string {
  const { language, path: unprefixed } = splitLanguage(pathname);
  const match = matchRoute(unprefixed);
  const kinds = match?.route.params ?? {};
  if (!match || !Object.values(kinds).includes('token')) return redactSecrets(pathname);
  const path = match.route.pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    kinds[name] === 'token' ? TOKEN_PLACEHOLDER : encodeURIComponent(match.params[name] ?? ''),
  );
  return redactSecrets(localizedPath(path, language));
}
