/**
 * API tokens (issue 32 §2; docs/api.md "API tokens and /api/v1"; decision 037): what a token is,
 * its scopes and the admin calls' answers, for the browser and the server (zod-free; the calls'
 * schemas: `schemas/api-tokens.ts`). Not the e-mail link tokens of `tokens.ts`.
 *
 * A token is `fw_` + 30 random base62 characters + a 6-character checksum: the base62 CRC32 of
 * the 33 characters before it (`fw_` and the random part), as GitHub's tokens carry one, so a
 * secret scanner recognises one of ours offline and a mistyped token is refused without a lookup.
 */

/** What a token may do: each `/api/v1/` call names the scope it needs (403 `insufficient_scope` without it). */
export const API_TOKEN_SCOPES = ['responses:read', 'entries:read', 'participants:read', 'points:read', 'points:write', 'webhooks:manage'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** What each scope allows, in words (the admin screen and the OpenAPI description). */
export const API_TOKEN_SCOPE_TEXT: Readonly<Record<ApiTokenScope, string>> = {
  'responses:read': "Read a survey's responses",
  'entries:read': "Read a mission's entries",
  'participants:read': "Read a project's participants: names, e-mail addresses and countries",
  'points:read': "Read a participant's points",
  'points:write': 'Credit or take away points (idempotent by reference)',
  'webhooks:manage': 'Manage outgoing webhooks',
};

export const API_TOKEN_PREFIX = 'fw_';
/** The random part: 30 base62 characters (about 178 bits). */
export const API_TOKEN_RANDOM_LENGTH = 30;
export const API_TOKEN_CHECKSUM_LENGTH = 6;
/** `fw_` + 30 + 6. */
export const API_TOKEN_LENGTH = API_TOKEN_PREFIX.length + API_TOKEN_RANDOM_LENGTH + API_TOKEN_CHECKSUM_LENGTH;
/** How many of a token's first characters are kept and shown to tell tokens apart (`fw_` and 7 random ones). */
export const API_TOKEN_DISPLAY_PREFIX_LENGTH = 10;

export const API_TOKEN_LIMITS = {
  nameMax: 100,
  /** Days a new token lives unless told otherwise, and at most. */
  expiresInDaysDefault: 90,
  expiresInDaysMax: 365,
  /** Requests a token may make a minute (`RATE_LIMITS.apiTokenRequests`; 429 with `Retry-After` beyond). */
  requestsPerMinute: 600,
} as const;

/** `0-9A-Za-z`, GitHub's order. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const CRC32_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zlib's) of a text's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = (CRC32_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A number in base62, left-padded with `0` to `width` characters. */
export function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62_ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}

/** The 6-character checksum of a token's first 33 characters (`fw_` and the random part). */
export function apiTokenChecksum(body: string): string {
  return base62(crc32(body), API_TOKEN_CHECKSUM_LENGTH);
}

const TOKEN_SHAPE = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${API_TOKEN_RANDOM_LENGTH + API_TOKEN_CHECKSUM_LENGTH}}$`);

/** Whether a text is one of our tokens: the prefix, 36 base62 characters, and a checksum that matches (no lookup needed to refuse one). */
export function isWellFormedApiToken(token: string): boolean {
  if (token.length !== API_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return false;
  const body = token.slice(0, API_TOKEN_LENGTH - API_TOKEN_CHECKSUM_LENGTH);
  return apiTokenChecksum(body) === token.slice(API_TOKEN_LENGTH - API_TOKEN_CHECKSUM_LENGTH);
}

/** A token's status as of now: `revoked` wins over `expired`. */
export const API_TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiTokenStatus = (typeof API_TOKEN_STATUSES)[number];

/** The sorts of `GET /api/admin/tokens`: `created` (newest first), `name` (A to Z), `lastUsed` (most recent first), `expires` (soonest first). */
export const API_TOKEN_LIST_SORTS = ['created', 'name', 'lastUsed', 'expires'] as const;

/** One token as `GET /api/admin/tokens` lists it (never the token itself: only its first characters). */
export interface ApiTokenListItem {
  id: number;
  name: string;
  /** The token's first 10 characters (`fw_` and 7 more), to tell it apart. */
  prefix: string;
  scopes: ApiTokenScope[];
  /** The one project it is limited to, or null: every project. */
  projectId: number | null;
  /** The admin who made it (null: the account is gone). */
  createdBy: { id: number; name: string } | null;
  createdAt: string;
  expiresAt: string;
  /** When it was last used and from which address, to within a minute (null: never). */
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  status: ApiTokenStatus;
}

/** `POST /api/admin/tokens` → 201: the token itself, shown this once (only its SHA-256 is kept). */
export interface CreatedApiToken {
  id: number;
  name: string;
  scopes: ApiTokenScope[];
  projectId: number | null;
  expiresAt: string;
  token: string;
  prefix: string;
}
