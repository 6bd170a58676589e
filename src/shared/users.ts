/**
 * Users as staff manage them (docs/product.md §2.5, `/admin/users` and `/admin/users/{userId}`):
 * the answers of the admin users calls and the bulk invitation CSV's columns. Zod-free; the
 * payload schemas are in `schemas/users.ts`.
 */
import type { EntryStatus } from './mission-entries.ts';
import type { PointsEntryView } from './points.ts';
import type { Role, UserStatus } from './roles.ts';

/** `GET /api/admin/users` sorts; the first is the default (kept from before the filters came). */
export const USER_LIST_SORTS = ['id', 'email', 'name', 'created', 'lastActive'] as const;
export type UserSort = (typeof USER_LIST_SORTS)[number];

/** `GET /api/admin/users?active=`: signed in or using the app within the last 7, 30 or 90 days (`users.last_active_at`). */
export const USER_ACTIVE_WINDOWS = ['7d', '30d', '90d'] as const;
export type UserActiveWindow = (typeof USER_ACTIVE_WINDOWS)[number];
/** The days of a window (`30d` → 30). */
export const activeWindowDays = (window: UserActiveWindow): number => Number(window.slice(0, -1));

/** A row of `GET /api/admin/users` (and of its CSV). */
export interface AdminUserListItem {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  status: UserStatus;
  createdAt: string;
  lastActiveAt: string | null;
}

export interface AdminUserSession {
  /** The first 12 characters of the session's hash: enough to tell sessions apart, useless as a cookie. */
  id: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastSeenAt: string;
}

export interface AdminUserProject {
  id: number;
  name: string;
  status: string;
  addedAt: string;
}

export interface AdminUserEntry {
  id: number;
  missionId: number;
  missionTitle: string;
  projectId: number;
  status: EntryStatus;
  submittedAt: string | null;
  updatedAt: string;
}

/** A points entry as the participant's own history shows it, plus who made it (null: the system). */
export interface AdminUserPointsEntry extends PointsEntryView {
  createdBy: number | null;
}

export interface AdminUserAuditEntry {
  id: number;
  action: string;
  actorId: number | null;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  /** `to`: done to this user; `by`: done by them. */
  direction: 'to' | 'by';
  before: unknown;
  after: unknown;
  createdAt: string;
}

/** `GET /api/admin/users/{id}`. */
export interface AdminUserDetail extends AdminUserListItem {
  address: { line1: string; line2?: string; city: string; region?: string; postalCode: string; country: string } | null;
  /** The participant's optional year of birth (their profile), or null. */
  birthYear: number | null;
  /** When an admin recorded their tax form (rewards, issue 30), or null. */
  taxFormOnFileAt: string | null;
  preferences: Record<string, unknown>;
  lastSignInAt: string | null;
  termsAcceptedAt: string | null;
  sessions: AdminUserSession[];
  projects: AdminUserProject[];
  /** The latest 50 entries, newest first. */
  entries: AdminUserEntry[];
  /** `balance` = `available` (held points taken off, issue 30). */
  points: { balance: number; available: number; pending: number; held: number; entries: AdminUserPointsEntry[] };
  /** The latest 50 audit rows about or by this user, newest first. */
  audit: AdminUserAuditEntry[];
}

/** The columns of the bulk invitation CSV (matched case-insensitively; `role` and `project` optional). */
export const INVITE_CSV_COLUMNS = ['email', 'first name', 'last name', 'role', 'project'] as const;
export const INVITE_CSV_REQUIRED = ['email', 'first name', 'last name'] as const;
/** Rows in one bulk invitation file, at most. */
export const INVITE_CSV_MAX_ROWS = 5000;
/** The file's size, at most (under the API's 1 MiB body limit, with room for the multipart framing). */
export const INVITE_CSV_MAX_BYTES = 1_000_000;

/** One problem of a bulk invitation file: its line (the header is line 1) and column. */
export interface InviteCsvProblem {
  line: number;
  column: string | null;
  message: string;
}

/** `POST /api/admin/invitations/bulk`: what the file holds; `invited` once applied (not on a dry run). */
export interface BulkInviteResult {
  /** Data rows read (the header left out, blank lines skipped). */
  rows: number;
  /** Rows without a problem (those that are, or would be, invited). */
  valid: number;
  problems: InviteCsvProblem[];
  dryRun: boolean;
  /** Accounts invited (mails queued); 0 on a dry run. */
  invited: number;
}

/** `POST /api/admin/invitations` and the resend call. */
export interface InvitationResult {
  user: AdminUserListItem;
  created: boolean;
}
