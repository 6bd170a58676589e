import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ApiTokenScope } from '../../../shared/api-tokens.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * API tokens (issue 32 §2; decision 037): what an integration sends as `Authorization: Bearer fw_…`
 * to the `/api/v1/` calls. Only the SHA-256 (hex) of a token is kept, with its first 10 characters
 * to tell it apart; a token is never deleted, only revoked (its audit rows keep naming it).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    /** SHA-256 of the whole token, hex: how a request finds its token. */
    tokenHash: text('token_hash').notNull(),
    /** The token's first 10 characters (`fw_` and 7 more), shown in the list. */
    prefix: text('prefix').notNull(),
    scopes: text('scopes').array().$type<ApiTokenScope[]>().notNull(),
    /** The one project it reaches (others' objects are 404); null: every project. Deleting the project ends its tokens. */
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Written at most once a minute per token (services/api-tokens.ts), never on every request. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    lastUsedIp: text('last_used_ip'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_idx').on(t.tokenHash),
    index('api_tokens_created_idx').on(t.createdAt, t.id),
    check('api_tokens_scopes_check', sql`cardinality(${t.scopes}) > 0`),
  ],
);
export type ApiToken = typeof apiTokens.$inferSelect;
