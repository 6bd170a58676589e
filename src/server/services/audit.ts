import type { Db } from '../db/index.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditInput {
  actorId?: number | null;
  via: 'cli' | 'api' | 'system';
  action: string;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Appends one entry to the audit log. Secrets (password hashes) never go in. */
export async function audit(db: Db, input: AuditInput): Promise<void> {
  await db.insert(auditLog).values({
    actorId: input.actorId ?? null,
    via: input.via,
    action: input.action,
    targetType: input.targetType ?? null,
    targetId: input.targetId === undefined ? null : String(input.targetId),
    before: input.before ?? null,
    after: input.after ?? null,
    ip: input.ip ?? null,
  });
}
