import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { apiTokens } from './api-tokens.ts';
import { users } from './users.ts';

/** Who did what to which object, when, with the state before and after. Append-only. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The acting user; null for the operator CLI and the system. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The acting API token (issue 32: a write through `/api/v1/`, `via` `token`); null otherwise. */
    apiTokenId: integer('api_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
    /** `cli`, `api`, `token` or `system`. */
    via: text('via').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
    // The audit log screen's filter by action (issue 29 §7).
    index('audit_log_action_idx').on(t.action, t.createdAt),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
