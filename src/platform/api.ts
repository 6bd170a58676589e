/**
 * The browser's one HTTP client for the Fieldwork API. Every call sends cookies; every non-GET
 * call sends a JSON body (the browser adds `Origin`, which the API checks). Failures become an
 * `ApiError` carrying the API's `{ error: { code, message, fields?, …details } }` and, when the
 * answer says, the `Retry-After` seconds. `keepalive` sends a call that must outlive the page
 * (autosave on `pagehide`): the browser finishes it after the tab is gone.
 */
import { isLanguage, type Language } from '../shared/languages.ts';
import type { MailSwitches } from '../shared/notifications.ts';
import type { Role, UserStatus } from '../shared/roles.ts';
import type { SecondFactorMethod } from '../shared/second-factors.ts';
import type { TokenType } from '../shared/tokens.ts';
import { takeEarlyResponse } from './early.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Field name → messages, as the API sends them. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer. */
  readonly status: number;
  /** The API's error code (`invalid_credentials`, `invalid_token`, …), or `network_error` / `bad_response`. */
  readonly code: string;
  readonly fields: FieldErrors;
  /** Seconds to wait before trying again (429 answers), when the API said. */
  readonly retryAfter: number | null;
  /** The answer's body as text (for client error reports), when there was one. */
  readonly body: string | null;
  /** The error object's other keys (e.g. a 409 `conflict`'s `current`); empty when none. */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: string,
    message: string,
    fields: FieldErrors = {},
    retryAfter: number | null = null,
    body: string | null = null,
    details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.retryAfter = retryAfter;
    this.body = body;
    this.details = details;
  }
}

/**
 * Browsers refuse a keepalive request whose body (with every other keepalive request still on its
 * way) passes 64 KiB; larger bodies go as normal requests, which may not outlive the page.
 */
export const KEEPALIVE_MAX_BYTES = 60 * 1024;

export interface ApiInit {
  signal?: AbortSignal;
  /** The call must outlive the page (sent on `pagehide`); falls back to a normal request above `KEEPALIVE_MAX_BYTES`. */
  keepalive?: boolean;
  /** More request headers (e.g. a retry's `Idempotency-Key`); `Accept` and `Content-Type` stay the client's. */
  headers?: Readonly<Record<string, string>>;
}

const NETWORK_MESSAGE = 'We could not reach Fieldwork. Check your connection and try again.';
const FALLBACK_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readFields(value: unknown): FieldErrors {
  if (!isRecord(value)) return {};
  const fields: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) {
      const texts = messages.filter((m): m is string => typeof m === 'string');
      if (texts.length > 0) fields[name] = texts;
    } else if (typeof messages === 'string') {
      fields[name] = [messages];
    }
  }
  return fields;
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
function readRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

async function readJson(response: Response): Promise<{ data: unknown; text: string }> {
  const text = await response.text();
  if (text === '') return { data: null, text };
  try {
    return { data: JSON.parse(text) as unknown, text };
  } catch {
    return { data: undefined, text };
  }
}

/** The UTF-8 size of a text, in bytes. */
function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The error code of a sensitive call made with a sign-in proof older than 15 minutes (403). */
export const REAUTH_REQUIRED = 'reauth_required';

/**
 * What a 403 `reauth_required` waits for: the person asked to confirm it's them (the shell's
 * dialog, `src/stores/reauth.ts`); resolves true once they did, false when they gave up.
 */
export type ReauthHandler = (error: ApiError) => Promise<boolean>;

let reauthHandler: ReauthHandler | null = null;

/** Sets (or, with null, clears) what a 403 `reauth_required` waits for; the reauth store sets it once. */
export function setReauthHandler(handler: ReauthHandler | null): void {
  reauthHandler = handler;
}

/**
 * Runs a call; when it is refused with 403 `reauth_required` and the person then confirms it's
 * them, runs it once more (what they typed in the screen stays: the call just takes longer). A
 * refusal they did not answer, or a second one, is thrown as it came. Calls of /api/auth/ (the
 * confirmation itself) are never held.
 */
export async function withReauth<T>(path: string, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    const handler = reauthHandler;
    if (!(error instanceof ApiError) || error.status !== 403 || error.code !== REAUTH_REQUIRED || !handler || path.startsWith('/api/auth/')) throw error;
    if (!(await handler(error))) throw error;
    return attempt();
  }
}

/**
 * Calls the API and returns its JSON answer typed as `T` (the API is ours; its contract is the
 * type). Throws `ApiError` for every non-2xx answer and for network failures. A sensitive call
 * refused for an old sign-in (403 `reauth_required`) waits for the person to confirm it's them
 * and is sent again (`withReauth`); a `keepalive` call (the page is going) is not held.
 */
export function api<T>(method: HttpMethod, path: string, body?: unknown, init: ApiInit = {}): Promise<T> {
  if (init.keepalive === true) return callOnce<T>(method, path, body, init);
  // The answer the page's <head> asked for early is taken once: a second attempt asks afresh.
  return withReauth(path, () => callOnce<T>(method, path, body, init));
}

async function callOnce<T>(method: HttpMethod, path: string, body: unknown, init: ApiInit): Promise<T> {
  const headers: Record<string, string> = { ...init.headers, Accept: 'application/json' };
  let payload: string | undefined;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }
  const keepalive = init.keepalive === true && (payload === undefined || byteLength(payload) <= KEEPALIVE_MAX_BYTES);

  let response: Response;
  try {
    // Asked for already by the page's <head> (src/platform/early.ts): that answer, once.
    // No extra turn of the event loop when there is none (callers time their saves against fetch).
    const earlyAnswer = method === 'GET' && !keepalive ? takeEarlyResponse(path) : null;
    const early = earlyAnswer ? await earlyAnswer : null;
    if (init.signal?.aborted) throw new DOMException('The call was aborted', 'AbortError');
    response =
      early ??
      (await fetch(path, {
        method,
        headers,
        body: payload,
        credentials: 'include',
        cache: 'no-store',
        signal: init.signal,
        ...(keepalive ? { keepalive: true } : {}),
      }));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', NETWORK_MESSAGE);
  }

  const { data, text } = await readJson(response);
  if (response.ok) {
    if (data === undefined) throw new ApiError(response.status, 'bad_response', FALLBACK_MESSAGE);
    return data as T;
  }

  throw apiErrorOf(response.status, data, text, response.headers.get('Retry-After'));
}

/** The ApiError of a refused answer: its status, its parsed JSON body (undefined when not JSON), its text and Retry-After header. */
export function apiErrorOf(status: number, data: unknown, text: string, retryAfter: string | null): ApiError {
  const error = isRecord(data) && isRecord(data.error) ? data.error : {};
  const code = typeof error.code === 'string' ? error.code : `http_${status}`;
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : FALLBACK_MESSAGE;
  const { code: _code, message: _message, fields, ...details } = error;
  return new ApiError(status, code, message, readFields(fields), readRetryAfter(retryAfter), text || null, details);
}

/** The ApiError of a request that never got an answer. */
export function networkError(): ApiError {
  return new ApiError(0, 'network_error', NETWORK_MESSAGE);
}

export const apiGet = <T>(path: string, init?: { signal?: AbortSignal }): Promise<T> => api<T>('GET', path, undefined, init);

export const apiSend = <T>(
  method: Exclude<HttpMethod, 'GET'>,
  path: string,
  body: unknown = {},
  init: Pick<ApiInit, 'keepalive' | 'headers'> = {},
): Promise<T> => api<T>(method, path, body, init);

/** `path?name=value…`, each value encoded. */
export function withQuery(path: string, query: Readonly<Record<string, string>>): string {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

// ---------------------------------------------------------------------------------------------
// The shapes the API answers with.

/** GET /api/auth: the signed-in user. */
export interface CurrentUser {
  id: number | string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  status: UserStatus;
  /** The account has a second factor (an authenticator app or a passkey). Absent: not said. */
  secondFactor?: boolean;
  /** The account must have one to use the admin area (staff, while the requirement is on). Absent: not said. */
  secondFactorRequired?: boolean;
  /** The account's language (issue 31): its pages are shown in it. Absent: not said. */
  language?: Language;
}

export interface Address {
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
}

export type ColorMode = 'system' | 'light' | 'dark';

/**
 * The mail switches (`MailSwitches`) are per notification kind, under `emailNotifications`. Optional
 * in what is sent; `GET /api/account` always answers them (true when never set).
 */
export interface Preferences extends MailSwitches {
  emailNotifications: boolean;
  language: Language;
  colorMode: ColorMode;
  /** The participant's time zone (IANA); absent until the browser or the participant sets it. */
  timeZone?: string;
  /** Moderators and admins: the daily review digest (false unless turned on; never shown to participants). */
  mailReviewDigest?: boolean;
}

/** The user of GET /api/account and of the account updates. */
export interface AccountUser extends CurrentUser {
  address: Address | null;
  /** Optional year of birth (null when not given). */
  birthYear: number | null;
  preferences: Preferences;
  createdAt: string;
  pendingEmail: string | null;
}

export interface AccountSession {
  /** The session's short id (what `DELETE /api/account/sessions/{id}` takes). */
  id: number | string;
  current: boolean;
  /** "Chrome on macOS": the server's words for the user agent (absent from an older server). */
  device?: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
}

export interface AccountResponse {
  user: AccountUser;
  sessions: AccountSession[];
}

/** GET /api/tokens/verify. */
export interface TokenInfo {
  valid: true;
  type: TokenType;
  expiresAt: string;
  email: string;
  firstName: string;
  lastName: string;
  needsName: boolean;
  needsTerms: boolean;
}

export interface OkResponse {
  ok: true;
}

/** The auth-store user from any user the API returns. */
export function toCurrentUser(user: CurrentUser): CurrentUser {
  const current: CurrentUser = { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, role: user.role, status: user.status };
  if (typeof user.secondFactor === 'boolean') current.secondFactor = user.secondFactor;
  if (typeof user.secondFactorRequired === 'boolean') current.secondFactorRequired = user.secondFactorRequired;
  if (isLanguage(user.language)) current.language = user.language;
  return current;
}

// ---------------------------------------------------------------------------------------------
// Account security (issue 29).

/** POST /api/auth/login: a password that needs its second step answers this (and a short-lived pending cookie). */
export interface SecondFactorNeeded {
  ok: true;
  next: 'second_factor';
  methods: SecondFactorMethod[];
  /** Whether "Trust this browser for 30 days" is offered (participants only). */
  canTrustBrowser: boolean;
}

// GET /api/account/security, POST /api/account/totp, the recovery codes and the passkeys answer these (src/shared/schemas/).
export type { RecoveryCodesAnswer, SecurityView, TotpEnrolment } from '../shared/schemas/second-factors.ts';
export type { PasskeyView } from '../shared/schemas/passkeys.ts';
