import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A person's authenticator app (TOTP, RFC 6238; issue 29). Secrets are AES-256-GCM ciphertexts
 * (services/secret-box.ts), never stored in clear.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The confirmed secret's ciphertext; null while only a pending one exists. */
  secret: text('secret'),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The secret being set up (shown once, confirmed by a first code); a new set-up replaces it. */
  pendingSecret: text('pending_secret'),
  pendingCreatedAt: timestamp('pending_created_at', { withTimezone: true }),
  /** The last 30-second step accepted: a code of that step or an earlier one is never accepted again. */
  lastStep: bigint('last_step', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TotpFactor = typeof totpFactors.$inferSelect;

/** One-time recovery codes: stored as SHA-256 (hex) of the code; spent by a conditional update. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (passkeys), several per person, each with a name. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id (base64url), unique across everyone. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key (base64url). */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    deviceType: text('device_type'),
    backedUp: boolean('backed_up').notNull().default(false),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);
export type Passkey = typeof passkeys.$inferSelect;

export const WEBAUTHN_PURPOSES = ['registration', 'sign-in', 'second-factor', 'reauth'] as const;

/**
 * WebAuthn challenges, kept on the server: the challenge (base64url) is the key, found again from
 * the response's client data; 5 minutes; deleted when used.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose', { enum: WEBAUTHN_PURPOSES }).notNull(),
    /** The person it was made for (null for a sign-in with a passkey alone). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
    check('webauthn_challenges_purpose_check', sql`${t.purpose} in ('registration', 'sign-in', 'second-factor', 'reauth')`),
  ],
);

/**
 * A sign-in whose password was right, waiting for its second step (the pending cookie holds a
 * random token; only its SHA-256 is stored). Five wrong second steps end it.
 */
export const pendingSignIns = pgTable(
  'pending_sign_ins',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failures: integer('failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pending_sign_ins_expires_idx').on(t.expiresAt), index('pending_sign_ins_user_idx').on(t.userId)],
);

/** "Trust this browser for 30 days" (participants): a cookie token's SHA-256 per browser. */
export const trustedBrowsers = pgTable(
  'trusted_browsers',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('trusted_browsers_user_idx').on(t.userId), index('trusted_browsers_expires_idx').on(t.expiresAt)],
);
