import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { MailSwitches } from '../../../shared/notifications.ts';
import { ROLES, USER_STATUSES } from '../../../shared/roles.ts';

export interface Address {
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode: string;
  country: string;
}

/** A user's preferences, with the mail per notification kind (`MailSwitches`, shared/notifications.ts; absent means on). */
export interface Preferences extends MailSwitches {
  /** Every notification mail (the per-kind switches apply under it). */
  emailNotifications?: boolean;
  language?: string;
  colorMode?: 'system' | 'light' | 'dark';
  /** IANA time zone (canonical spelling): the calendar day the participant's diary entries count on. */
  timeZone?: string;
  /** Moderators and admins: the daily review digest (off unless set to true). */
  mailReviewDigest?: boolean;
}

/** People: participants, moderators and admins. Emails are stored trimmed and lower-cased. */
export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    /** argon2id (PHC string); null until the account is onboarded. */
    passwordHash: text('password_hash'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    role: text('role', { enum: ROLES }).notNull().default('participant'),
    status: text('status', { enum: USER_STATUSES }).notNull().default('invited'),
    address: jsonb('address').$type<Address>(),
    /** Optional year of birth (the profile's "Year of birth"): only ever used as an age band (Alchemer export append). */
    birthYear: integer('birth_year'),
    preferences: jsonb('preferences').$type<Preferences>().notNull().default({}),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    /** The last sign-in or session renewal (at most a day old while they use the app): "active" on the dashboard. */
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }),
    /**
     * Whether the person has a second factor (a confirmed authenticator app or a passkey; issue
     * 29): kept by services/second-factors.ts in the transaction that adds or removes one, read by
     * every request's session lookup (staff without one are sent to set one up).
     */
    secondFactor: boolean('second_factor').notNull().default(false),
    /** When an admin recorded that the person's tax form was received (issue 30's yearly gate); null: none on file. */
    taxFormOnFileAt: timestamp('tax_form_on_file_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // Search by part of the email or the name, any case (`userSearchText`; pg_trgm serves prefix and contains).
    index('users_search_trgm_idx').using('gin', sql`(lower(${t.email} || ' ' || ${t.firstName} || ' ' || ${t.lastName})) gin_trgm_ops`),
    index('users_created_idx').on(t.createdAt, t.id),
    // The review queue's `sort=name` (last, then first name, case-insensitive), walked in order.
    index('users_name_idx').on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id),
    index('users_role_status_idx').on(t.role, t.status),
    index('users_last_active_idx').on(t.lastActiveAt),
    check('users_role_check', sql`${t.role} in ('participant', 'moderator', 'admin')`),
    check('users_status_check', sql`${t.status} in ('invited', 'active', 'disabled')`),
    // Loose bounds only (SQL cannot check "not in the future" statically); profileSchema checks the real range.
    check('users_birth_year_check', sql`${t.birthYear} between 1900 and 2100`),
  ],
);

export type User = typeof users.$inferSelect;

/**
 * The signed-in user as every request's session lookup reads it (services/sessions.ts): what
 * guards, routes and services need of the caller. Not the password hash, the address or the
 * dates: a call that needs the whole row reads it (`signedInAccount`, http.ts).
 */
export const sessionUserColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  status: users.status,
  preferences: users.preferences,
  secondFactor: users.secondFactor,
};
export type SessionUser = Pick<User, keyof typeof sessionUserColumns>;

/** What the users search looks in: email, first and last name, lower-cased (the expression of `users_search_trgm_idx`, which a query must repeat exactly). */
export const userSearchText = sql`lower(${users.email} || ' ' || ${users.firstName} || ' ' || ${users.lastName})`;
export type NewUser = typeof users.$inferInsert;
