import type { Role } from '../../shared/roles.ts';
import type { Db } from '../db/index.ts';
import type { User } from '../db/schema/index.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Mailer } from '../mail/mailer.ts';
import { invitationMail } from '../mail/templates.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { issueLinkToken, linkUrl } from './tokens.ts';
import { findOrCreateInvitedUser } from './users.ts';

export class InvitationError extends Error {}

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
  await deps.mailer.send(invitationMail({ to: user.email, firstName: user.firstName, url, expiresAt, now: clock.now() }));
  await auditInvitation(db, input, user, created);
  return { user, url, expiresAt, created };
}

/**
 * Invites someone through the job queue: the invited account exists when this returns; the
 * `invitation.send` job issues the link and mails it (so no live link waits in the queue).
 */
export async function inviteLater(
  deps: { db: Db; jobs: JobSender },
  input: { email: string; role: Role; invitedBy: number | null; via: 'cli' | 'api' },
): Promise<{ user: User; created: boolean }> {
  return deps.db.transaction(async (tx) => {
    const { user, created } = await invitableAccount(tx, input);
    await auditInvitation(tx, input, user, created);
    await deps.jobs.send('invitation.send', { userId: user.id }, { tx });
    return { user, created };
  });
}

/** The invited account for the address (made when new); active and disabled accounts are refused. */
async function invitableAccount(db: Db, input: { email: string; role: Role }): Promise<{ user: User; created: boolean }> {
  const { user, created } = await findOrCreateInvitedUser(db, { email: input.email, role: input.role });
  if (user.status === 'active') throw new InvitationError(`${user.email} already has an active account; they can sign in or reset their password.`);
  if (user.status === 'disabled') throw new InvitationError(`${user.email} belongs to a disabled account; enable it before inviting again.`);
  return { user, created };
}

async function auditInvitation(db: Db, input: { invitedBy: number | null; via: 'cli' | 'api' }, user: User, created: boolean): Promise<void> {
  await audit(db, {
    actorId: input.invitedBy,
    via: input.via,
    action: 'user.invite',
    targetType: 'user',
    targetId: user.id,
    after: { email: user.email, role: user.role, created },
  });
}
