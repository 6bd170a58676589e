import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { redactSecrets } from '../../shared/redact.ts';
import type { AppEnv } from '../context.ts';
import type { Logger } from '../logger.ts';

/**
 * A child logger made on first use: most requests log nothing besides their one line, and making
 * a pino child (its bindings and redaction) on every request is a measurable share of a cheap call
 * (docs/benchmarks.md, "What each layer costs").
 */
export function lazyChildLogger(parent: Logger, bindings: Record<string, string>): Logger {
  let child: Logger | undefined;
  return new Proxy(parent, {
    get(_target, property) {
      child ??= parent.child(bindings);
      const value: unknown = Reflect.get(child, property, child);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(child) : value;
    },
  });
}

/** The request id: the caller's `X-Request-Id` (64 characters at most), else a new one. */
export function requestIdOf(header: string | undefined): string {
  return header?.slice(0, 64) || randomUUID();
}

/**
 * One structured log line per request: method, path, status, time. Never the query (it may hold
 * tokens), and the path without its link token: a page request for `/reset-password/<token>` is
 * logged as `/reset-password/[token]` (src/shared/redact.ts; docs/permissions.md, "Secrets").
 * Sets the request id (header and variable) and the request's logger now; the function returned
 * writes the line once the answer is made.
 */
export function startRequestLog(c: Context<AppEnv>): () => void {
  const started = performance.now();
  const requestId = requestIdOf(c.req.header('x-request-id'));
  const parent = c.get('deps').logger;
  const logger = lazyChildLogger(parent, { reqId: requestId });
  c.set('requestId', requestId);
  c.set('logger', logger);
  const outgoing = c.env?.outgoing;
  // Under Node, on the Node response: every answer is written with it (security-headers.ts).
  // Elsewhere before the handler: a header added to a finished answer would rebuild it.
  if (outgoing) outgoing.setHeader('X-Request-Id', requestId);
  else c.header('X-Request-Id', requestId);
  return () => {
    // An answer a handler built itself (a stream) did not take the prepared header.
    if (!outgoing && !c.res.headers.has('x-request-id')) c.res.headers.set('X-Request-Id', requestId);
    const status = c.res.status;
    if (status < 500 && !parent.isLevelEnabled('info')) return;
    const entry = { method: c.req.method, path: redactSecrets(c.req.path), status, ms: Math.round((performance.now() - started) * 10) / 10 };
    if (status >= 500) logger.error(entry, 'request');
    else logger.info(entry, 'request');
  };
}
