import { redactJson } from '../../shared/redact.ts';
import type { Db } from '../db/index.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditInput {
  actorId?: number | null;
  /** The API token that made the change (a write through `/api/v1/`, with `via: 'token'` and no `actorId`). */
  apiTokenId?: number | null;
  via: 'cli' | 'api' | 'token' | 'system';
  action: string;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/**
 * Appends one entry to the audit log. Secrets never go in: callers pass summaries (never a user
 * row, a password or its hash, a token, a session id, a return key or webhook secret), and as a
 * last guard `before` and `after` pass through redactJson — link tokens and secret query values in
 * any text, and the value of any secret-named key (`password`, `passwordHash`, `token`, `pid`, …),
 * become `[token]` / `[redacted]` (docs/permissions.md, "Secrets").
 */
export async function audit(db: Db, input: AuditInput): Promise<void> {
  await db.insert(auditLog).values(auditRow(input));
}

/** Several entries in one statement (a bulk action's one row per thing it changed), as `audit` writes each. */
export async function auditMany(db: Db, inputs: readonly AuditInput[]): Promise<void> {
  if (inputs.length > 0) await db.insert(auditLog).values(inputs.map(auditRow));
}

function auditRow(input: AuditInput): typeof auditLog.$inferInsert {
  return {
    actorId: input.actorId ?? null,
    apiTokenId: input.apiTokenId ?? null,
    via: input.via,
    action: input.action,
    targetType: input.targetType ?? null,
    targetId: input.targetId === undefined ? null : String(input.targetId),
    before: input.before === undefined ? null : redactJson(input.before),
    after: input.after === undefined ? null : redactJson(input.after),
    ip: input.ip ?? null,
  };
}

/**
 * Runs a change and writes its audit row in one transaction, so both stand or fall together (if
 * the row cannot be written, nothing changes). `entry` describes the row from the change's result.
 */
export function withAudit<T>(db: Db, change: (tx: Db) => Promise<T>, entry: (result: T) => AuditInput): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    await audit(tx, entry(result));
    return result;
  });
}
