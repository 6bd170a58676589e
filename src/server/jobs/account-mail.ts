/**
 * The account mails that must look the address up (so the answer to the request cannot depend on
 * whether it has an account) or that carry a link token (issued here, when the mail is made, so
 * no live token waits in a job's data). Each runs as a job; a retry issues a fresh link (the
 * newest one is the only one that works).
 *
 * Each mail is in the language of the account it goes to, read when the job runs (issue 31): the
 * account's own choice, else the language of the page the request came from (`language` in the
 * job's data, for an address with no account or an account that never chose one), else English.
 */
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { users, type User } from '../db/schema/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  alreadyRegisteredMail,
  confirmDataDeletionMail,
  confirmEmailChangeMail,
  dataDeletionCompletedNotice,
  dataDeletionConfirmedNotice,
  emailChangedNotice,
  emailInUseNotice,
  finishSetupMail,
  mailLanguageOf,
  passwordChangedNotice,
  resetPasswordMail,
  secondFactorsResetNotice,
} from '../mail/templates.ts';
import { audit } from '../services/audit.ts';
import type { Clock } from '../services/clock.ts';
import { openRequest } from '../services/data-deletion.ts';
import { invitationMailFor } from '../services/invitations.ts';
import { issueLinkToken, linkUrl } from '../services/tokens.ts';
import { findUserByEmail, findUserById } from '../services/users.ts';
import type { JobDataMap } from './types.ts';

/** What these jobs use. */
export interface AccountMailDeps {
  db: Db;
  mailer: Mailer;
  clock: Clock;
  config: Config;
}

/**
 * Registration: new address → an invited account and the link to finish; invited → a fresh link
 * (what an admin set is kept); active → a mail with sign-in and reset links; disabled → nothing.
 */
export async function registerMail(deps: AccountMailDeps, input: JobDataMap['auth.register']): Promise<void> {
  const { db, clock, config } = deps;
  const now = clock.now();
  let user: User | undefined = (await findUserByEmail(db, input.email)) ?? undefined;
  if (user?.status === 'active') {
    const language = mailLanguageOf(user.preferences, input.language);
    await deps.mailer.send(alreadyRegisteredMail({ to: user.email, language, firstName: user.firstName, publicUrl: config.publicUrl }));
    return;
  }
  if (user?.status === 'disabled') return;
  if (!user) {
    [user] = await db
      .insert(users)
      .values({ email: input.email, firstName: input.firstName, lastName: input.lastName, role: 'participant', status: 'invited', termsAcceptedAt: now })
      .returning();
    if (!user) throw new Error('insert returned no row');
    await audit(db, { via: 'api', action: 'user.register', targetType: 'user', targetId: user.id, after: { email: user.email }, ip: input.ip });
  } else {
    // Invited earlier: fill what is missing, keep what an admin set.
    [user] = await db
      .update(users)
      .set({
        firstName: user.firstName || input.firstName,
        lastName: user.lastName || input.lastName,
        termsAcceptedAt: user.termsAcceptedAt ?? now,
        updatedAt: now,
      })
      .where(eq(users.id, user.id))
      .returning();
    if (!user) throw new Error('update returned no row');
  }
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'onboarding', userId: user.id });
  const url = linkUrl(config.publicUrl, 'onboarding', token);
  const language = mailLanguageOf(user.preferences, input.language);
  await deps.mailer.send(finishSetupMail({ to: user.email, language, firstName: user.firstName, url, expiresAt, now }));
}

/** Forgot password: a reset link to an active account, the setup link to an invited one, nothing otherwise. */
export async function forgotPasswordMail(deps: AccountMailDeps, input: JobDataMap['auth.forgot-password']): Promise<void> {
  const { db, clock, config } = deps;
  const user = await findUserByEmail(db, input.email);
  if (!user || user.status === 'disabled') return;
  const now = clock.now();
  const language = mailLanguageOf(user.preferences, input.language);
  if (user.status === 'invited') {
    const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'onboarding', userId: user.id });
    const url = linkUrl(config.publicUrl, 'onboarding', token);
    await deps.mailer.send(await invitationMailFor(db, { user, url, expiresAt, now, language }));
    return;
  }
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'reset-password', userId: user.id });
  const url = linkUrl(config.publicUrl, 'reset-password', token);
  await deps.mailer.send(resetPasswordMail({ to: user.email, language, firstName: user.firstName, url, expiresAt, now }));
}

/**
 * Email change: a 24-hour confirmation link to the new address; when that address already has an
 * account, a notice to it instead (the person asking is told nothing either way).
 */
export async function emailChangeMail(deps: AccountMailDeps, input: JobDataMap['account.email-change']): Promise<void> {
  const { db, clock, config } = deps;
  const user = await findUserById(db, input.userId);
  if (!user || user.status !== 'active') return;
  const supportUrl = `${config.publicUrl}/contact`;
  const owner = await findUserByEmail(db, input.newEmail);
  if (owner) {
    // To the address's own account: in its language (else the asker's, who wrote to it).
    await deps.mailer.send(emailInUseNotice({ to: input.newEmail, language: mailLanguageOf(owner.preferences, mailLanguageOf(user.preferences)), supportUrl }));
    return;
  }
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'update-email', userId: user.id, data: { email: input.newEmail } });
  const url = linkUrl(config.publicUrl, 'update-email', token);
  const language = mailLanguageOf(user.preferences);
  await deps.mailer.send(confirmEmailChangeMail({ to: input.newEmail, language, firstName: user.firstName, url, expiresAt, now: clock.now() }));
}

/** Data deletion asked by email: opens (or reuses) the request and mails a confirmation link, for active accounts only. */
export async function dataDeletionRequestMail(deps: AccountMailDeps, input: JobDataMap['data-deletion.request']): Promise<void> {
  const { db, clock, config } = deps;
  const account = await findUserByEmail(db, input.email);
  if (!account || account.status !== 'active') return;
  const request = await openRequest(db, clock, { user: account, status: 'pending', reason: input.reason, ip: input.ip });
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'data-deletion', userId: account.id, data: { requestId: String(request.id) } });
  await audit(db, { via: 'api', action: 'data_deletion.request', targetType: 'data_deletion_request', targetId: request.id, ip: input.ip });
  const url = linkUrl(config.publicUrl, 'data-deletion', token);
  const language = mailLanguageOf(account.preferences, input.language);
  await deps.mailer.send(confirmDataDeletionMail({ to: account.email, language, firstName: account.firstName, url, expiresAt, now: clock.now() }));
}

/** An invitation: a fresh 7-day onboarding link to an account that is still invited, worded by its role, naming who invites and the project. */
export async function invitationSendMail(deps: AccountMailDeps, input: JobDataMap['invitation.send']): Promise<void> {
  const { db, clock, config } = deps;
  const user = await findUserById(db, input.userId);
  if (!user || user.status !== 'invited') return;
  const { token, expiresAt } = await issueLinkToken(db, clock, { type: 'onboarding', userId: user.id });
  const url = linkUrl(config.publicUrl, 'onboarding', token);
  const about = { invitedBy: input.invitedBy ?? null, projectId: input.projectId ?? null };
  const language = mailLanguageOf(user.preferences, input.language);
  await deps.mailer.send(await invitationMailFor(db, { user, url, expiresAt, now: clock.now(), language, ...about }));
}

/**
 * An account notice (`account.notice`): written now, in the account's language now, to the address
 * it was queued for. Sent whatever the account's status (a security notice is always sent); a
 * deleted account's in English, without a name.
 */
export async function accountNoticeMail(deps: AccountMailDeps, input: JobDataMap['account.notice']): Promise<void> {
  const user = input.userId === null ? null : await findUserById(deps.db, input.userId);
  const language = mailLanguageOf(user?.preferences);
  const firstName = user?.firstName ?? '';
  const { publicUrl } = deps.config;
  const supportUrl = `${publicUrl}/contact`;
  const to = input.to;
  switch (input.notice) {
    case 'email-changed':
      await deps.mailer.send(emailChangedNotice({ to, language, firstName, newEmail: input.newEmail ?? user?.email ?? '', supportUrl }));
      return;
    case 'password-changed':
      await deps.mailer.send(passwordChangedNotice({ to, language, firstName, supportUrl, resetUrl: `${publicUrl}/forgot-password` }));
      return;
    case 'second-factors-reset':
      await deps.mailer.send(secondFactorsResetNotice({ to, language, firstName, securityUrl: `${publicUrl}/account/security`, supportUrl }));
      return;
    case 'data-deletion-confirmed':
      await deps.mailer.send(dataDeletionConfirmedNotice({ to, language, firstName, supportUrl }));
      return;
    case 'data-deletion-completed':
      await deps.mailer.send(dataDeletionCompletedNotice({ to, language, supportUrl }));
      return;
  }
}
