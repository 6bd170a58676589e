import { pino, type Logger } from 'pino';
import { isSecretKey, REDACTED, redactSecrets } from '../shared/redact.ts';

export type { Logger };

/**
 * Fields no log line keeps (pino redaction), at the places the code logs objects or may one day:
 * request and response headers (cookies, `set-cookie`, `authorization`), passwords, tokens and
 * secrets at the top level or one level down, a mail message's text and HTML (its links), and the
 * query parameters of a pg-boss "slow query" warning (`data.values`: job data, mails included).
 * See docs/permissions.md, "Secrets: where they could be written down".
 */
export const LOG_REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["set-cookie"]',
  'cookie',
  '*.cookie',
  'authorization',
  '*.authorization',
  'password',
  '*.password',
  'currentPassword',
  '*.currentPassword',
  'passwordHash',
  '*.passwordHash',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'webhookSecret',
  '*.webhookSecret',
  'returnKey',
  '*.returnKey',
  'message.text',
  'message.html',
  '*.message.text',
  '*.message.html',
  'data.values',
];

/** drizzle's failed-query message lists every parameter on a line of its own (password hashes included). */
const QUERY_PARAMS_LINE = /^params: .*$/gm;
/** An argon2 password hash, wherever it stands. */
const ARGON2_HASH = /\$argon2(?:id|i|d)\$[^\s"',]+/g;

/** A text fit for the log: no link token, secret query value, query parameters or password hash. */
export function redactLogText(text: string): string {
  return redactSecrets(text).replace(QUERY_PARAMS_LINE, `params: ${REDACTED}`).replace(ARGON2_HASH, REDACTED);
}

function scrubbed(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactLogText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => scrubbed(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]: [string, unknown]) => {
      const secret = key === 'params' || (isSecretKey(key) && (typeof item === 'string' || typeof item === 'number'));
      return [redactSecrets(key), secret ? REDACTED : scrubbed(item, depth + 1)];
    }),
  );
}

/**
 * Errors as pino's standard serializer writes them (type, message, stack, own fields, cause), then
 * scrubbed: an error's message or stack may quote a page URL, a failed query's parameters or a
 * secret-named field.
 */
export function serializeError(error: unknown): unknown {
  const serialized: unknown = error instanceof Error ? pino.stdSerializers.err(error) : error;
  return scrubbed(serialized, 0);
}

/** Structured JSON logs on stdout, one object a line. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'fieldwork' },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: serializeError },
      redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
