import { desc, eq, inArray } from 'drizzle-orm';
import { INVITATION_MAIL_LIMIT } from '../../shared/invitations.ts';
import type { Language } from '../../shared/languages.ts';
import Papa from 'papaparse';
import { ROLES, type Role } from '../../shared/roles.ts';
import { emailSchema } from '../../shared/schemas/common.ts';
import { INVITE_CSV_MAX_ROWS, INVITE_CSV_REQUIRED, type BulkInviteResult, type InviteCsvProblem } from '../../shared/users.ts';
import type { Db } from '../db/index.ts';
import { projectMembers, projects, users, type User } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { invitationMail, mailLanguageOf } from '../mail/templates.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { hitRateLimit, RATE_LIMITS } from './rate-limit.ts';
import { issueLinkToken, linkUrl } from './tokens.ts';
import { findOrCreateInvitedUser, usersByEmails } from './users.ts';
import { recordWebhookEvent } from './webhooks.ts';

/** Why an existing account cannot be invited (again): active, disabled, or staff a moderator may not invite. */
export type Refusal = 'active' | 'disabled' | 'staff';

/** The account cannot be invited: the message for one invitation, `reason` for a bulk file's row. */
export class InvitationError extends Error {
  readonly reason: Refusal;
  constructor(message: string, reason: Refusal) {
    super(message);
    this.reason = reason;
  }
}

/** A bulk file's row problem for each refusal (the same words in the preview and when re-checked at sending). */
const REFUSAL_PROBLEMS: Record<Refusal, string> = {
  active: 'Already has an active account',
  disabled: 'Belongs to a disabled account',
  staff: 'An invited staff account: only admins may invite it again',
};

/** Why `inviter` (null: the operator CLI, anyone) may not invite `account` again, or null when they may. */
function refusalOf(account: Pick<User, 'status' | 'role'>, inviter: Pick<Inviter, 'role'> | null): Refusal | null {
  if (account.status === 'active') return 'active';
  if (account.status === 'disabled') return 'disabled';
  return inviter && !mayInviteAs(inviter, account.role) ? 'staff' : null;
}

// ---------------------------------------------------------------------------------------------
// How many invitation mails a staff member may send (INVITATION_MAIL_LIMIT)

/** The counter of a staff member's invitation mails (`rate_limits.key`). */
export const invitationMailsKey = (staffId: number) => `invitation-mails:user:${staffId}`;

/**
 * Counts `mails` invitation mails against the staff member's allowance, inside the transaction
 * that queues them: over it, 429 `rate_limited` saying how many can still be sent and when
 * (`Retry-After`, and `remaining`, `limit`, `resetAt` in the error), and the transaction — the
 * count with it — rolls back.
 */
export async function countInvitationMails(tx: Db, clock: Clock, staffId: number, mails: number): Promise<void> {
  if (mails <= 0) return;
  const rule = RATE_LIMITS.invitationMailsPerUser;
  const result = await hitRateLimit(tx, clock, invitationMailsKey(staffId), rule, mails);
  if (result.allowed) return;
  const before = Math.max(0, rule.limit - (result.count - mails));
  const resetAt = new Date(clock.now().getTime() + result.retryAfterSeconds * 1000);
  const until = `${resetAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const number = (n: number) => n.toLocaleString('en-GB');
  const per = `at most ${number(rule.limit)} every ${INVITATION_MAIL_LIMIT.windowHours} hours`;
  const message =
    before === 0
      ? `Too many invitations: you can send no more until ${until} (${per}).`
      : `Too many invitations: this would send ${number(mails)}, and you can send ${number(before)} more until ${until} (${per}).`;
  throw new ApiError(429, 'rate_limited', message, {
    headers: { 'Retry-After': String(result.retryAfterSeconds) },
    details: { remaining: before, limit: rule.limit, resetAt: resetAt.toISOString() },
  });
}

/**
 * Invites someone: creates the invited account when new, issues a 7-day onboarding link (any
 * earlier one stops working) and mails it. Returns the link too, for the operator CLI.
 */
export async function inviteUser(
  deps: { db: Db; clock: Clock; mailer: Mailer; publicUrl: string },
  input: { email: string; role: Role; invitedBy: number | null; via: 'cli' | 'api' },
): Promise<{ user: User; url: string; expiresAt: Date; created: boolean }> {
  const { db, clock } = deps;
  const { user, created } = await invitableAccount(db, input);
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'onboarding', userId: user.id });
  const url = linkUrl(deps.publicUrl, 'onboarding', token);
  const language = mailLanguageOf(user.preferences);
  await deps.mailer.send(await invitationMailFor(db, { user, url, expiresAt, now: clock.now(), invitedBy: input.invitedBy, language }));
  await auditInvitation(db, input, user, created);
  return { user, url, expiresAt, created };
}

/**
 * The invitation mail of an invited account (`invitationMail`: worded by its role), naming who
 * invites (first and last name, when the inviter has them) and the project: the one given, else
 * the one the account was added to last (a resent invitation, the setup link of forgot-password).
 */
export async function invitationMailFor(
  db: Db,
  input: {
    user: Pick<User, 'id' | 'email' | 'firstName' | 'role'>;
    url: string;
    expiresAt: Date;
    now: Date;
    /** The mail's language (`mailLanguageOf`: the account's, else the request's). */
    language: Language;
    invitedBy?: number | null;
    projectId?: number | null;
  },
): Promise<MailMessage> {
  const [inviter] = input.invitedBy
    ? await db.select({ firstName: users.firstName, lastName: users.lastName }).from(users).where(eq(users.id, input.invitedBy)).limit(1)
    : [];
  const [project] = input.projectId
    ? await db.select({ name: projects.name }).from(projects).where(eq(projects.id, input.projectId)).limit(1)
    : await db
        .select({ name: projects.name })
        .from(projectMembers)
        .innerJoin(projects, eq(projects.id, projectMembers.projectId))
        .where(eq(projectMembers.userId, input.user.id))
        .orderBy(desc(projectMembers.addedAt), desc(projectMembers.projectId))
        .limit(1);
  const inviterName = inviter ? `${inviter.firstName.trim()} ${inviter.lastName.trim()}`.trim() : '';
  return invitationMail({
    to: input.user.email,
    language: input.language,
    firstName: input.user.firstName,
    role: input.user.role,
    projectName: project?.name ?? null,
    inviterName: inviterName || null,
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
  });
}

/** Who is invited through the queue: the address, the role, and optionally names and a project to join. */
export interface QueuedInvitation {
  email: string;
  role: Role;
  invitedBy: number | null;
  /** The inviter's role, checked against the account's inside the transaction (moderators: participants only); null for the CLI. */
  inviterRole?: Role | null | undefined;
  via: 'cli' | 'api';
  firstName?: string | undefined;
  lastName?: string | undefined;
  /** Made a member of this project (it must exist). */
  projectId?: number | null | undefined;
  ip?: string | undefined;
  /** The language of the inviter's page: the mail's, unless the account has chosen one by the time it is sent. */
  language?: Language | null | undefined;
}

/**
 * Invites someone through the job queue: the invited account exists when this returns; the
 * `invitation.send` job issues the link and mails it (so no live link waits in the queue). With
 * `countWith` (a clock), the mail counts against the inviter's allowance in the same transaction
 * (`countInvitationMails`: 429 refuses it, nothing made).
 */
export async function inviteLater(
  deps: { db: Db; jobs: JobSender },
  input: QueuedInvitation,
  countWith: Clock | null = null,
): Promise<{ user: User; created: boolean }> {
  return deps.db.transaction(async (tx) => {
    const done = await inviteInTransaction(tx, deps.jobs, input);
    if (countWith && input.invitedBy !== null) await countInvitationMails(tx, countWith, input.invitedBy, 1);
    return done;
  });
}

/**
 * `inviteLater`'s work inside the caller's transaction: the account (made when new, its empty
 * names filled in), the project membership, the audit row and the queued mail stand or fall together.
 */
export async function inviteInTransaction(tx: Db, jobs: JobSender, input: QueuedInvitation): Promise<{ user: User; created: boolean }> {
  const found = await invitableAccount(tx, input);
  let user = found.user;
  const firstName = input.firstName?.trim() ?? '';
  const lastName = input.lastName?.trim() ?? '';
  if ((!user.firstName && firstName) || (!user.lastName && lastName)) {
    const [named] = await tx
      .update(users)
      .set({ firstName: user.firstName || firstName, lastName: user.lastName || lastName })
      .where(eq(users.id, user.id))
      .returning();
    if (named) user = named;
  }
  if (input.projectId) {
    const [joined] = await tx
      .insert(projectMembers)
      .values({ projectId: input.projectId, userId: user.id, addedBy: input.invitedBy })
      .onConflictDoNothing()
      .returning({ userId: projectMembers.userId });
    if (joined) await recordWebhookEvent(tx, 'participant.joined', { projectId: input.projectId, userId: user.id }, input.projectId);
  }
  await auditInvitation(tx, input, user, found.created);
  // The mail names who invites and the project (`invitationMailFor`).
  const about = {
    ...(input.invitedBy ? { invitedBy: input.invitedBy } : {}),
    ...(input.projectId ? { projectId: input.projectId } : {}),
    ...(input.language ? { language: input.language } : {}),
  };
  await jobs.send('invitation.send', { userId: user.id, ...about }, { tx });
  return { user, created: found.created };
}

/**
 * Resends the invitation of an invited account (a fresh link by the `invitation.send` job: the
 * earlier one stops working); 409 `not_invited` for an account that is active or disabled. The
 * mail counts against the staff member's allowance (`countInvitationMails`).
 */
export async function resendInvitation(
  deps: { db: Db; jobs: JobSender; clock: Clock },
  input: { user: User; actorId: number; ip: string; language?: Language | null },
): Promise<void> {
  if (input.user.status !== 'invited') {
    throw new ApiError(
      409,
      'not_invited',
      input.user.status === 'disabled'
        ? 'This account is disabled: enable it first.'
        : 'This account is already active: they can sign in or reset their password.',
    );
  }
  await deps.db.transaction(async (tx) => {
    await audit(tx, { actorId: input.actorId, via: 'api', action: 'user.invite_resend', targetType: 'user', targetId: input.user.id, ip: input.ip });
    await deps.jobs.send(
      'invitation.send',
      { userId: input.user.id, invitedBy: input.actorId, ...(input.language ? { language: input.language } : {}) },
      { tx },
    );
    await countInvitationMails(tx, deps.clock, input.actorId, 1);
  });
}

/**
 * The invited account for the address (made when new); active and disabled accounts are refused,
 * and an invited staff account when the inviter is a moderator (`InvitationError`).
 */
async function invitableAccount(
  db: Db,
  input: { email: string; role: Role; inviterRole?: Role | null | undefined; firstName?: string | undefined; lastName?: string | undefined },
): Promise<{ user: User; created: boolean }> {
  const { user, created } = await findOrCreateInvitedUser(db, {
    email: input.email,
    role: input.role,
    ...(input.firstName ? { firstName: input.firstName.trim() } : {}),
    ...(input.lastName ? { lastName: input.lastName.trim() } : {}),
  });
  const refusal = refusalOf(user, input.inviterRole ? { role: input.inviterRole } : null);
  if (refusal === 'active') throw new InvitationError(`${user.email} already has an active account; they can sign in or reset their password.`, refusal);
  if (refusal === 'disabled') throw new InvitationError(`${user.email} belongs to a disabled account; enable it before inviting again.`, refusal);
  if (refusal === 'staff') throw new InvitationError('Only admins may invite moderators and admins', refusal);
  return { user, created };
}

async function auditInvitation(
  db: Db,
  input: { invitedBy: number | null; via: 'cli' | 'api'; projectId?: number | null | undefined; ip?: string | undefined },
  user: User,
  created: boolean,
): Promise<void> {
  await audit(db, {
    actorId: input.invitedBy,
    via: input.via,
    action: 'user.invite',
    targetType: 'user',
    targetId: user.id,
    after: { email: user.email, role: user.role, created, ...(input.projectId ? { projectId: input.projectId } : {}) },
    ip: input.ip ?? null,
  });
}

// ---------------------------------------------------------------------------------------------
// Many at once: a CSV file (docs/product.md §2.5)

/** A row of the file that can be invited. */
interface InviteRow {
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  projectId: number | null;
}

/** The caller of a bulk invitation: admins may invite any role, moderators participants only. */
export interface Inviter {
  id: number;
  role: Role;
}

/** Whether `inviter` may invite someone as `role` (docs/permissions.md). */
export function mayInviteAs(inviter: Pick<Inviter, 'role'>, role: Role): boolean {
  return inviter.role === 'admin' || (inviter.role === 'moderator' && role === 'participant');
}

const cellOf = (row: readonly unknown[], index: number | undefined): string => (index === undefined ? '' : String(row[index] ?? '').trim());

/**
 * Reads a bulk invitation file: the header (line 1; `email`, `first name`, `last name`, optional
 * `role` and `project`, any case and order) and every row, each checked — a well-formed address,
 * not twice in the file, a known role the caller may give, a known project (by id or name), no
 * active or disabled account — and either kept or reported as `{ line, column, message }`.
 */
export async function readInviteCsv(db: Db, inviter: Inviter, text: string): Promise<{ rows: number; valid: InviteRow[]; problems: InviteCsvProblem[] }> {
  const parsed = Papa.parse<unknown[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: false });
  const records = parsed.data;
  const problems: InviteCsvProblem[] = [];
  const header = (records[0] ?? []).map((cell) =>
    String(cell ?? '')
      .trim()
      .toLowerCase(),
  );
  const column = new Map<string, number>();
  header.forEach((name, index) => {
    if (!column.has(name)) column.set(name, index);
  });
  const missing = INVITE_CSV_REQUIRED.filter((name) => !column.has(name));
  if (records.length === 0 || missing.length > 0) {
    for (const name of missing) problems.push({ line: 1, column: name, message: `The header has no "${name}" column` });
    return { rows: Math.max(0, records.length - 1), valid: [], problems };
  }

  // Blank lines are skipped; the line numbers stay those of the file (the header is line 1).
  const lines = records
    .map((row, index) => ({ row, line: index + 1 }))
    .slice(1)
    .filter(({ row }) => row.some((cell) => String(cell ?? '').trim() !== ''));
  if (lines.length > INVITE_CSV_MAX_ROWS) {
    return { rows: lines.length, valid: [], problems: [{ line: 1, column: null, message: `At most ${INVITE_CSV_MAX_ROWS} rows in one file` }] };
  }

  const projectRows = await db.select({ id: projects.id, name: projects.name }).from(projects);
  const projectByName = new Map(projectRows.map((p) => [p.name.trim().toLowerCase(), p.id]));
  const projectIds = new Set(projectRows.map((p) => p.id));

  const seen = new Map<string, number>();
  const candidates: InviteRow[] = [];
  for (const { row, line } of lines) {
    const rowProblems: InviteCsvProblem[] = [];
    const rawEmail = cellOf(row, column.get('email'));
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) rowProblems.push({ line, column: 'email', message: rawEmail === '' ? 'Required' : 'Invalid email' });
    else if (seen.has(email.data)) rowProblems.push({ line, column: 'email', message: `Already on line ${seen.get(email.data)}` });
    else seen.set(email.data, line);
    const firstName = cellOf(row, column.get('first name'));
    const lastName = cellOf(row, column.get('last name'));
    if (firstName.length > 100) rowProblems.push({ line, column: 'first name', message: 'Too long' });
    if (lastName.length > 100) rowProblems.push({ line, column: 'last name', message: 'Too long' });
    const rawRole = cellOf(row, column.get('role')).toLowerCase();
    let role: Role = 'participant';
    if (rawRole !== '') {
      if (!(ROLES as readonly string[]).includes(rawRole))
        rowProblems.push({ line, column: 'role', message: `Unknown role "${rawRole}" (participant, moderator or admin)` });
      else {
        role = rawRole as Role;
        if (!mayInviteAs(inviter, role)) rowProblems.push({ line, column: 'role', message: 'Only admins may invite moderators and admins' });
      }
    }
    const rawProject = cellOf(row, column.get('project'));
    let projectId: number | null = null;
    if (rawProject !== '') {
      const byId = /^\d{1,10}$/.test(rawProject) && projectIds.has(Number(rawProject)) ? Number(rawProject) : undefined;
      projectId = byId ?? projectByName.get(rawProject.toLowerCase()) ?? null;
      if (projectId === null) rowProblems.push({ line, column: 'project', message: `Unknown project "${rawProject}"` });
    }
    if (rowProblems.length > 0) problems.push(...rowProblems);
    else if (email.success) candidates.push({ line, email: email.data, firstName, lastName, role, projectId });
  }

  const existing = await usersByEmails(
    db,
    candidates.map((row) => row.email),
  );
  const valid: InviteRow[] = [];
  for (const row of candidates) {
    const account = existing.get(row.email);
    const refusal = account ? refusalOf(account, inviter) : null;
    if (refusal) problems.push({ line: row.line, column: 'email', message: REFUSAL_PROBLEMS[refusal] });
    else valid.push(row);
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows: lines.length, valid, problems };
}

/**
 * `POST /api/admin/invitations/bulk`: with `dryRun`, the preview (nothing changes); else every
 * valid row is invited — accounts, memberships, audit rows and the queued `invitation.send` jobs
 * in one transaction, their mails counted against the inviter's allowance (429 refuses them all)
 * — and the rows with problems are left out (listed in the answer). Each row is checked again
 * inside the transaction: one whose account was made active, disabled or staff, or whose project
 * was deleted, since the check is reported among the problems, not invited.
 */
export async function bulkInvite(
  deps: { db: Db; jobs: JobSender; clock: Clock },
  input: { inviter: Inviter; text: string; dryRun: boolean; ip: string; language?: Language | null },
): Promise<BulkInviteResult> {
  const read = await readInviteCsv(deps.db, input.inviter, input.text);
  if (input.dryRun || read.valid.length === 0) return { rows: read.rows, valid: read.valid.length, problems: read.problems, dryRun: input.dryRun, invited: 0 };
  const { invited, late } = await deps.db.transaction(async (tx) => {
    // The projects named stay until the transaction ends (a delete waits for it).
    const named = [...new Set(read.valid.flatMap((row) => (row.projectId === null ? [] : [row.projectId])))];
    const projectsLeft = new Set(
      named.length === 0 ? [] : (await tx.select({ id: projects.id }).from(projects).where(inArray(projects.id, named)).for('key share')).map((p) => p.id),
    );
    const late: InviteCsvProblem[] = [];
    let count = 0;
    for (const row of read.valid) {
      if (row.projectId !== null && !projectsLeft.has(row.projectId)) {
        late.push({ line: row.line, column: 'project', message: 'Unknown project (deleted meanwhile)' });
        continue;
      }
      try {
        await inviteInTransaction(tx, deps.jobs, {
          email: row.email,
          role: row.role,
          firstName: row.firstName,
          lastName: row.lastName,
          projectId: row.projectId,
          invitedBy: input.inviter.id,
          inviterRole: input.inviter.role,
          via: 'api',
          ip: input.ip,
          language: input.language,
        });
        count += 1;
      } catch (error) {
        // Refused before anything of the row was written: the transaction goes on with the next row.
        if (!(error instanceof InvitationError)) throw error;
        late.push({ line: row.line, column: 'email', message: REFUSAL_PROBLEMS[error.reason] });
      }
    }
    await countInvitationMails(tx, deps.clock, input.inviter.id, count);
    return { invited: count, late };
  });
  const problems = [...read.problems, ...late].sort((a, b) => a.line - b.line);
  return { rows: read.rows, valid: invited, problems, dryRun: false, invited };
}
