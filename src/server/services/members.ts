/**
 * A project's members: the paginated list, adding by email (pasted or read from a CSV: unknown
 * addresses are listed, or invited), and removing one.
 */
import { and, asc, count, eq, gt, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Language } from '../../shared/languages.ts';
import type { ListPage } from '../../shared/list.ts';
import type { AddMembersResult, ProjectMember } from '../../shared/projects.ts';
import { emailSchema } from '../../shared/schemas/common.ts';
import type { memberListQuerySchema } from '../../shared/schemas/projects.ts';
import type { z } from 'zod';
import type { Db } from '../db/index.ts';
import { projectMembers, users } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Clock } from './clock.ts';
import { ApiError } from '../errors.ts';
import { countInvitationMails, inviteLater } from './invitations.ts';
import { afterCursor, countOf, cursorMoment, keysetPage, listOrder, paginate, type MomentCursor } from './list.ts';
import { containsPattern } from './search.ts';
import { recordWebhookEvents } from './webhooks.ts';

/** Addresses looked up in one query (well under PostgreSQL's parameter limit). */
const LOOKUP_CHUNK = 1000;

export type MemberListQuery = z.output<typeof memberListQuerySchema>;

/**
 * A page of members (the list contract): `q` searches email and names; sorted by `added`
 * (default, most recently added first), `email` or `name` (last, then first; A to Z).
 */
export async function listMembers(db: Db, projectId: number, query: MemberListQuery): Promise<ListPage<ProjectMember>> {
  const pattern = query.q ? containsPattern(query.q) : null;
  const where = and(
    eq(projectMembers.projectId, projectId),
    pattern
      ? or(
          ilike(users.email, pattern),
          ilike(users.firstName, pattern),
          ilike(users.lastName, pattern),
          ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
        )
      : undefined,
  );
  const order = listOrder(
    query,
    {
      added: { by: projectMembers.addedAt, dir: 'desc' },
      email: { by: users.email, dir: 'asc' },
      name: { by: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`], dir: 'asc' },
    },
    projectMembers.userId,
  );
  return paginate(query, {
    rows: async (limit, offset) => {
      const rows = await db
        .select({
          userId: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          status: users.status,
          addedAt: projectMembers.addedAt,
        })
        .from(projectMembers)
        .innerJoin(users, eq(users.id, projectMembers.userId))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset);
      return rows.map((row) => ({ ...row, addedAt: row.addedAt.toISOString() }));
    },
    count: () => countOf(db.select({ value: count() }).from(projectMembers).innerJoin(users, eq(users.id, projectMembers.userId)).where(where)),
  });
}

/** Whether the user is a member of the project. */
export async function isProjectMember(db: Db, projectId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: projectMembers.userId })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** A member as the token API lists them (`GET /api/v1/projects/{id}/participants`): names, address and country. */
export interface MemberContact {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  /** The country of their postal address (ISO 3166-1 alpha-2), null when they gave none. */
  country: string | null;
  addedAt: string;
}

/**
 * A keyset page of a project's participants (its moderators and admins are members too, not
 * participants: left out), oldest member first on (added, user id) — so members added later
 * always come after a cursor an integration kept — read along `project_members_added_idx`.
 */
export async function membersAfter(
  db: Db,
  projectId: number,
  page: { cursor?: MomentCursor | undefined; limit: number },
): Promise<{ items: MemberContact[]; nextCursor: string | null }> {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      country: sql<string | null>`${users.address}->>'country'`,
      addedAt: projectMembers.addedAt,
      at: cursorMoment(projectMembers.addedAt),
    })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(users.role, 'participant'),
        page.cursor ? afterCursor(projectMembers.addedAt, projectMembers.userId, page.cursor) : undefined,
      ),
    )
    .orderBy(asc(projectMembers.addedAt), asc(projectMembers.userId))
    .limit(page.limit + 1);
  return keysetPage(
    rows,
    page.limit,
    (row) => row.id,
    ({ at: _at, addedAt, country, ...row }) => ({ ...row, country: country || null, addedAt: addedAt.toISOString() }),
  );
}

/**
 * The addresses as given, sorted into well-formed (trimmed, lower-cased, first occurrence kept)
 * and invalid ones; blank entries (empty lines) are skipped.
 */
export function normaliseEmails(emails: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const raw of emails) {
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    const parsed = emailSchema.safeParse(trimmed);
    if (parsed.success) valid.add(parsed.data);
    else invalid.add(trimmed.toLowerCase());
  }
  return { valid: [...valid], invalid: [...invalid] };
}

export interface AddMembersDeps {
  db: Db;
  clock: Clock;
  /** The invitations' mails go through the job queue. */
  jobs: JobSender;
}

/**
 * Adds the accounts of these addresses to the project. Every address given ends up in exactly
 * one list: `added`, `alreadyMembers`, `unknown` (no account), `invalid` (not an email address),
 * or, with `invite`, `invited` (an invited participant account was made, its onboarding mail
 * queued (`invitation.send`), and the account added). Disabled accounts are added like others:
 * membership does not let anyone sign in.
 */
export async function addMembers(
  deps: AddMembersDeps,
  input: { projectId: number; emails: readonly string[]; invite: boolean; actorId: number; language?: Language | null },
): Promise<AddMembersResult> {
  const { db } = deps;
  const { valid, invalid } = normaliseEmails(input.emails);
  const found = new Map<string, number>();
  for (let at = 0; at < valid.length; at += LOOKUP_CHUNK) {
    const chunk = valid.slice(at, at + LOOKUP_CHUNK);
    const rows = await db
      .select({ id: users.id, email: sql<string>`lower(${users.email})` })
      .from(users)
      .where(inArray(sql`lower(${users.email})`, chunk));
    for (const row of rows) found.set(row.email, row.id);
  }

  const unknown: string[] = [];
  const invited: string[] = [];
  if (input.invite) {
    // Every onboarding mail counts against the staff member's allowance, all of this call's at
    // once: over it, the call is refused whole (429, nothing made). The mails are jobs: they go
    // out after the answer (thousands of addresses may be pasted).
    const newcomers = valid.filter((email) => !found.has(email));
    if (newcomers.length > 0) await db.transaction((tx) => countInvitationMails(tx, deps.clock, input.actorId, newcomers.length));
    for (const email of newcomers) {
      try {
        // A member at once, in the invitation's transaction (its mail names the project).
        const { user } = await inviteLater(
          { db, jobs: deps.jobs },
          { email, role: 'participant', invitedBy: input.actorId, via: 'api', projectId: input.projectId, language: input.language },
        );
        found.set(email, user.id);
        invited.push(email);
      } catch (error) {
        // Someone made or activated the account meanwhile (a 409 of ours): it is neither invited nor added here.
        if (!(error instanceof ApiError)) throw error;
        unknown.push(email);
      }
    }
  } else {
    for (const email of valid) if (!found.has(email)) unknown.push(email);
  }

  const invitedSet = new Set(invited);
  const candidates = valid.filter((email) => found.has(email));
  const inserted = new Set<number>();
  const now = deps.clock.now();
  for (let at = 0; at < candidates.length; at += LOOKUP_CHUNK) {
    const chunk = candidates.slice(at, at + LOOKUP_CHUNK);
    const rows = await db
      .insert(projectMembers)
      .values(chunk.map((email) => ({ projectId: input.projectId, userId: found.get(email) ?? 0, addedBy: input.actorId, addedAt: now })))
      .onConflictDoNothing()
      .returning({ userId: projectMembers.userId });
    await recordWebhookEvents(
      db,
      rows.map(({ userId }) => ({ type: 'participant.joined', data: { projectId: input.projectId, userId }, projectId: input.projectId })),
    );
    for (const row of rows) inserted.add(row.userId);
  }
  const added: string[] = [];
  const alreadyMembers: string[] = [];
  for (const email of candidates) {
    if (invitedSet.has(email)) continue;
    if (inserted.has(found.get(email) ?? 0)) added.push(email);
    else alreadyMembers.push(email);
  }
  return { added, alreadyMembers, unknown, invalid, ...(input.invite ? { invited } : {}) };
}

/** Removes a member: their email, or null when the user was not one. */
export async function removeMember(db: Db, projectId: number, userId: number): Promise<{ email: string } | null> {
  const [row] = await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .returning({ userId: projectMembers.userId });
  if (!row) return null;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return { email: user?.email ?? '' };
}

/**
 * Remembers that the member submitted something in the project (a survey response, an external
 * survey's return, a mission entry) — the first time only: the dashboard's completion per project
 * counts these (`project_members_contributed_idx`). Call it in the submission's transaction.
 */
export async function recordContribution(db: Db, projectId: number, userId: number, at: Date): Promise<void> {
  await db
    .update(projectMembers)
    .set({ firstContributionAt: at })
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId), isNull(projectMembers.firstContributionAt)));
}

/** Members told per transaction by the fan-outs (new work, announcements). */
export const MEMBER_BATCH = 500;

/** The project's active members: who new work and announcements reach. */
const activeMember = (projectId: number) => and(eq(projectMembers.projectId, projectId), eq(users.status, 'active'));

/** How many active members the project has. */
export async function activeMemberCount(db: Db, projectId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projectMembers).innerJoin(users, eq(users.id, projectMembers.userId)).where(activeMember(projectId));
  return row?.n ?? 0;
}

/** The project's active members' ids, `MEMBER_BATCH` at a time in id order (keyset): a fan-out tells a batch a transaction. */
export async function* activeMemberBatches(db: Db, projectId: number): AsyncGenerator<number[]> {
  let after = 0;
  for (;;) {
    const rows = await db
      .select({ userId: projectMembers.userId })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(and(activeMember(projectId), gt(projectMembers.userId, after)))
      .orderBy(asc(projectMembers.userId))
      .limit(MEMBER_BATCH);
    const last = rows.at(-1);
    if (!last) return;
    yield rows.map((row) => row.userId);
    if (rows.length < MEMBER_BATCH) return;
    after = last.userId;
  }
}
