/**
 * Outgoing webhooks' signatures, as the Standard Webhooks specification says
 * (https://www.standardwebhooks.com, "Signature scheme" and "Webhook headers"): a receiver checks
 * ours with any of its libraries (`new Webhook(secret).verify(body, headers)` of the
 * `standardwebhooks` package does in our tests).
 *
 * - A secret is `whsec_` + base64 of 32 random bytes (the specification asks for 24 to 64); the key
 *   is the decoded bytes, not the text.
 * - Each delivery is signed over `{webhook-id}.{webhook-timestamp}.{body}`: HMAC-SHA256, base64,
 *   written `v1,<signature>`. The id stays the same for every attempt of an event (the receiver's
 *   idempotency key); the timestamp is the attempt's (whole seconds), which the receiver holds to
 *   a tolerance (5 minutes in the libraries) so that a captured delivery cannot be replayed later.
 * - During a secret's rotation the old and the new secret both sign: `webhook-signature` holds
 *   one `v1,…` per secret, separated by a space, and the receiver accepts any that matches.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (50 characters). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** Crockford's base32 (no I, L, O, U): what a ULID is written in. */
const BASE32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new message id: `msg_` + a ULID (26 characters of Crockford base32: 48 bits of the current
 * time in milliseconds, then 80 random bits), so ids sort roughly by creation and never repeat in
 * practice. No `.` can appear in it (the signed content is `.`-delimited).
 */
export function webhookMessageId(now: number = Date.now()): string {
  let time = '';
  let rest = Math.max(0, Math.floor(now));
  for (let i = 0; i < 10; i += 1) {
    time = BASE32.charAt(rest % 32) + time;
    rest = Math.floor(rest / 32);
  }
  // 80 random bits: 16 characters of 5 bits from 10 bytes.
  const bytes = randomBytes(10);
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let random = '';
  for (let i = 0; i < 16; i += 1) {
    random = BASE32.charAt(Number(bits & 31n)) + random;
    bits >>= 5n;
  }
  return `msg_${time}${random}`;
}

/** A secret's key: the bytes base64-encoded after `whsec_`. */
function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  if (key.length === 0) throw new Error('A webhook secret must not be empty');
  return key;
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each secret
 * (the newest first, by the caller's order), separated by spaces.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) throw new Error('A webhook needs at least one secret to be signed');
  if (!Number.isSafeInteger(timestampSeconds)) throw new Error('A webhook timestamp is whole seconds');
  if (id.includes('.')) throw new Error('A webhook id must not contain a full stop');
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content, 'utf8').digest('base64')}`).join(' ');
}

/** The three Standard Webhooks headers of one delivery attempt. */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(secrets, id, timestampSeconds, body),
  };
}
