import { formatDateTimeWithZone } from '../../shared/dates.ts';
import type { Role } from '../../shared/roles.ts';
import type { MailMessage } from './mailer.ts';

export const PRODUCT_NAME = 'Fieldwork';

/**
 * The app's teal (`--primary` of src/styles/global.css in light mode, oklch(0.47 0.09 205)) for the
 * mails' name, buttons and links: white on it, and it on white, 6.4:1 (WCAG AA asks 4.5:1).
 */
export const MAIL_ACCENT = '#006973';

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function describeExpiry(expiresAt: Date, now: Date): string {
  const hours = Math.round((expiresAt.getTime() - now.getTime()) / 3_600_000);
  if (hours >= 48) return `${Math.round(hours / 24)} days`;
  if (hours >= 2) return `${hours} hours`;
  return '1 hour';
}

/**
 * One mail layout: a heading, paragraphs, one button link and its expiry, in HTML and text. The
 * link is always the recipient's own link token (`recipientOwnsLinks`, see mailer.ts).
 */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: string;
  url: string;
  expiresAt: Date;
  now: Date;
  footer?: string;
}): MailMessage {
  const expiry = `This link works once and expires in ${describeExpiry(input.expiresAt, input.now)}.`;
  const footer = input.footer ?? `If you did not expect this email, you can ignore it.`;
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    `${input.action}: ${input.url}`,
    '',
    expiry,
    footer,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p style="margin:0 0 16px">${escapeHtml(input.greeting)}</p>
    ${input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
    <p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(input.action)}</a></p>
    <p style="margin:0 0 8px;font-size:14px;color:#52606d">Or paste this link into your browser: <br><a href="${escapeHtml(input.url)}" style="color:${MAIL_ACCENT};word-break:break-all">${escapeHtml(input.url)}</a></p>
    <p style="margin:16px 0 0;font-size:14px;color:#52606d">${escapeHtml(expiry)} ${escapeHtml(footer)}</p>
  </div>
</body></html>`;
  // The link is the recipient's own (a token issued to them): the development outbox may log it.
  return { to: input.to, subject: input.subject, text, html, recipientOwnsLinks: true };
}

/** A name or title on one line (no line breaks in a subject or a sentence), at most `max` characters. */
function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** What each role is invited to do, in the invitation's words. */
const INVITED_AS: Readonly<Record<Role, { as: string; does: string }>> = {
  participant: { as: '', does: 'You answer surveys and missions and earn points for your contributions.' },
  moderator: {
    as: ' as a moderator',
    does: 'As a moderator you run research projects and their surveys and missions, review participants’ entries and ask them follow-up questions.',
  },
  admin: { as: ' as an admin', does: 'As an admin you run research projects and review entries, and you manage accounts, points and the tools.' },
};

/**
 * An invitation, worded for the role it gives (participant, moderator, admin), naming the project
 * the person joins and who invites them when known. Names are put in as text: escaped in the HTML
 * (linkMail) and on one line.
 */
export function invitationMail(input: {
  to: string;
  firstName: string;
  role: Role;
  /** The project the person is added to, if any. */
  projectName?: string | null | undefined;
  /** Who invites ("Ada Lovelace"); none for the operator's CLI. */
  inviterName?: string | null | undefined;
  url: string;
  expiresAt: Date;
  now: Date;
}): MailMessage {
  const words = INVITED_AS[input.role];
  const project = input.projectName ? oneLine(input.projectName) : '';
  const inviter = input.inviterName ? oneLine(input.inviterName, 80) : '';
  const who = inviter ? `${inviter} invited you` : 'You have been invited';
  const where =
    input.role === 'participant'
      ? project
        ? `to take part in the research project “${project}” on ${PRODUCT_NAME}.`
        : `to take part in research on ${PRODUCT_NAME}.`
      : `to join ${PRODUCT_NAME}${words.as}${project ? `, starting with the project “${project}”` : ''}.`;
  return linkMail({
    to: input.to,
    subject:
      input.role === 'participant'
        ? project
          ? `You are invited to take part in “${oneLine(project, 80)}” on ${PRODUCT_NAME}`
          : `You are invited to ${PRODUCT_NAME}`
        : `You are invited to ${PRODUCT_NAME}${words.as}${project ? ` for “${oneLine(project, 80)}”` : ''}`,
    greeting: input.firstName ? `Hello ${oneLine(input.firstName, 80)},` : 'Hello,',
    paragraphs: [`${who} ${where}`, words.does, 'Choose your password to finish setting up your account.'],
    action: 'Set up your account',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
  });
}

/** Registration of a new address, or of an invited one: the link to finish setting up. */
export function finishSetupMail(input: { to: string; firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  return linkMail({
    to: input.to,
    subject: `Finish setting up your ${PRODUCT_NAME} account`,
    greeting: input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    paragraphs: [`Thank you for joining ${PRODUCT_NAME}. One step is left: choose your password.`],
    action: 'Choose your password',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: 'If you did not ask to join, you can ignore this email: no account is opened without it.',
  });
}

/** Someone registered with an address that already has an account: help its owner in. */
export function alreadyRegisteredMail(input: { to: string; firstName: string; publicUrl: string }): MailMessage {
  const signIn = `${input.publicUrl}/login`;
  const reset = `${input.publicUrl}/forgot-password`;
  const greeting = input.firstName ? `Hello ${input.firstName},` : 'Hello,';
  const text = [
    greeting,
    '',
    `Someone (probably you) tried to create a ${PRODUCT_NAME} account with this address, but you already have one.`,
    '',
    `Sign in: ${signIn}`,
    `Forgot your password? Choose a new one: ${reset}`,
    '',
    'If this was not you, you can ignore this email: nothing has changed.',
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>You already have an account</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p>${escapeHtml(greeting)}</p>
    <p style="line-height:1.5">Someone (probably you) tried to create a ${PRODUCT_NAME} account with this address, but you already have one.</p>
    <p style="margin:24px 0"><a href="${escapeHtml(signIn)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Sign in</a></p>
    <p style="line-height:1.5">Forgot your password? <a href="${escapeHtml(reset)}" style="color:${MAIL_ACCENT}">Choose a new one</a>.</p>
    <p style="font-size:14px;color:#52606d">If this was not you, you can ignore this email: nothing has changed.</p>
  </div></body></html>`;
  return { to: input.to, subject: `You already have a ${PRODUCT_NAME} account`, text, html };
}

export function resetPasswordMail(input: { to: string; firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  return linkMail({
    to: input.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    paragraphs: ['We received a request to reset your password. Choose a new one with the link below; it also signs you out of every device.'],
    action: 'Choose a new password',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: 'If you did not ask for this, ignore this email: your password stays as it is.',
  });
}

export function confirmEmailChangeMail(input: { to: string; firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  return linkMail({
    to: input.to,
    subject: `Confirm your new ${PRODUCT_NAME} email address`,
    greeting: input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    paragraphs: [`Confirm that you want to use this address for your ${PRODUCT_NAME} account. You will need to be signed in.`],
    action: 'Confirm this address',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: 'If you did not ask for this, ignore this email: nothing changes without it.',
  });
}

/** A plain notice with no link to act on. */
function noticeMail(to: string, subject: string, greeting: string, paragraphs: string[]): MailMessage {
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p>${escapeHtml(greeting)}</p>
    ${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
  </div></body></html>`;
  return { to, subject, text, html };
}

export function emailChangedNotice(input: { to: string; firstName: string; newEmail: string; supportUrl: string }): MailMessage {
  return noticeMail(input.to, `Your ${PRODUCT_NAME} email address was changed`, input.firstName ? `Hello ${input.firstName},` : 'Hello,', [
    `The email address of your ${PRODUCT_NAME} account was changed to ${input.newEmail}. Mail about your account now goes there.`,
    `If you did not make this change, contact us at once: ${input.supportUrl}`,
  ]);
}

export function emailInUseNotice(input: { to: string; supportUrl: string }): MailMessage {
  return noticeMail(input.to, `Someone tried to use this address on ${PRODUCT_NAME}`, 'Hello,', [
    `Someone signed in to ${PRODUCT_NAME} asked to move their account to this address, but it already belongs to an account (perhaps yours). Nothing has changed.`,
    `If you need help, contact us: ${input.supportUrl}`,
  ]);
}

/** A security notice, always sent (no preference turns it off): after a password change or a reset. */
export function passwordChangedNotice(input: { to: string; firstName: string; supportUrl: string; resetUrl: string }): MailMessage {
  return noticeMail(input.to, `Your ${PRODUCT_NAME} password was changed`, input.firstName ? `Hello ${input.firstName},` : 'Hello,', [
    'The password of your account was just changed, and your other devices were signed out.',
    `If this was not you, someone else may know your password or have access to your email. Choose a new password at once: ${input.resetUrl}`,
    `Then contact us, so we can check your account: ${input.supportUrl}`,
  ]);
}

/**
 * A security notice, always sent (no preference turns it off): an admin reset the person's second
 * factors (issue 29; services/second-factors.ts, `resetSecondFactors`).
 */
export function secondFactorsResetNotice(input: { to: string; firstName: string; securityUrl: string; supportUrl: string }): MailMessage {
  return noticeMail(input.to, `Your ${PRODUCT_NAME} second factors were reset`, input.firstName ? `Hello ${input.firstName},` : 'Hello,', [
    'An administrator removed the second ways to sign in to your account (authenticator app, passkeys and recovery codes), and your devices were signed out.',
    `Sign in with your password, then set up a second way to sign in again: ${input.securityUrl}`,
    `If you did not ask for this, contact us at once: ${input.supportUrl}`,
  ]);
}

/**
 * A security notice, always sent (no preference turns it off): the account was signed in to from
 * a browser it was never signed in on before (issue 29 §5; services/new-sign-in.ts).
 */
export function newSignInNotice(input: {
  to: string;
  firstName: string;
  at: Date;
  timeZone: string;
  device: string;
  ip: string | null;
  resetUrl: string;
}): MailMessage {
  const where = input.ip ? `${oneLine(input.device)} (IP address ${input.ip})` : oneLine(input.device);
  return noticeMail(input.to, `New sign-in to ${PRODUCT_NAME}`, input.firstName ? `Hello ${input.firstName},` : 'Hello,', [
    `Your ${PRODUCT_NAME} account was just signed in to from a browser it was not used on before: ${where}, on ${formatDateTimeWithZone(input.at, input.timeZone)}.`,
    'If this was you, there is nothing to do.',
    `Not you? Someone may know your password: reset it at once: ${input.resetUrl}`,
  ]);
}

/** A message from the /contact form, to SUPPORT_EMAIL; replying answers the sender. */
export function contactMail(input: {
  to: string;
  name: string;
  email: string;
  message: string;
  userId: number | null;
  messageId: number;
  receivedAt: Date;
}): MailMessage {
  // One line of the name in the subject: no header tricks, nothing overlong.
  const shortName = input.name.replace(/\s+/g, ' ').trim().slice(0, 80);
  const subject = `Contact form: ${shortName}`;
  const about = [
    `From: ${input.name} <${input.email}>`,
    `Account: ${input.userId === null ? 'not signed in' : `user #${input.userId}`}`,
    `Received: ${input.receivedAt.toISOString()} (message #${input.messageId})`,
  ];
  const text = [...about, '', input.message, '', `— ${PRODUCT_NAME} contact form. Reply to this email to answer ${input.name}.`].join('\n');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:640px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME} contact form</p>
    ${about.map((line) => `<p style="margin:0 0 4px;font-size:14px;color:#52606d">${escapeHtml(line)}</p>`).join('\n    ')}
    <div style="margin:24px 0 0;white-space:pre-wrap;line-height:1.5">${escapeHtml(input.message)}</div>
    <p style="margin:24px 0 0;font-size:14px;color:#52606d">Reply to this email to answer ${escapeHtml(input.name)}.</p>
  </div></body></html>`;
  return { to: input.to, subject, text, html, replyTo: input.email };
}

/** The link that confirms a data-deletion request made without signing in. */
export function confirmDataDeletionMail(input: { to: string; firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  return linkMail({
    to: input.to,
    subject: `Confirm the deletion of your ${PRODUCT_NAME} data`,
    greeting: input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    paragraphs: [
      `We received a request to delete your ${PRODUCT_NAME} account and the data that belongs to it.`,
      'Confirm it with the link below. Once confirmed, our team deletes your data within 30 days and tells you when it is done.',
    ],
    action: 'Confirm the deletion',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: 'If you did not ask for this, ignore this email: nothing is deleted without your confirmation.',
  });
}

/** Sent once a data-deletion request is confirmed. */
export function dataDeletionConfirmedNotice(input: { to: string; firstName: string; supportUrl: string }): MailMessage {
  return noticeMail(input.to, `Your ${PRODUCT_NAME} data-deletion request is confirmed`, input.firstName ? `Hello ${input.firstName},` : 'Hello,', [
    `Your request to delete your ${PRODUCT_NAME} account and its data is confirmed. Our team deletes your data within 30 days and tells you when it is done.`,
    `If you change your mind or did not ask for this, contact us at once: ${input.supportUrl}`,
  ]);
}

/** Sent when an admin marks a data-deletion request completed. */
export function dataDeletionCompletedNotice(input: { to: string; supportUrl: string }): MailMessage {
  return noticeMail(input.to, `Your ${PRODUCT_NAME} data has been deleted`, 'Hello,', [
    `As you asked, your ${PRODUCT_NAME} account and the data that belonged to it have been deleted. This is the last email you receive from us about it.`,
    `Questions? Contact us: ${input.supportUrl}`,
  ]);
}

// ---------------------------------------------------------------------------------------------
// Notifications (changes asked, rejected, probe, approvals digest, mission reminder). Each links
// to the screen it is about and says where to turn these mails off.

/** Where a participant turns notification mails off. */
export function preferencesUrl(publicUrl: string): string {
  return `${publicUrl}/account/edit/preferences`;
}

/** A notification mail: greeting, paragraphs, a list (optional), one button, and the preferences footer. */
function notificationMail(input: {
  to: string;
  subject: string;
  firstName: string;
  paragraphs: string[];
  list?: { text: string; url: string }[];
  action: string;
  url: string;
  preferencesUrl: string;
  why: string;
}): MailMessage {
  const greeting = input.firstName ? `Hello ${input.firstName},` : 'Hello,';
  const footer = `${input.why} You can turn these emails off in your preferences: ${input.preferencesUrl}`;
  const list = input.list ?? [];
  const text = [
    greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(list.length > 0 ? [...list.map((item) => `- ${item.text}\n  ${item.url}`), ''] : []),
    `${input.action}: ${input.url}`,
    '',
    footer,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const listHtml =
    list.length > 0
      ? `<ul style="margin:0 0 16px;padding-left:20px;line-height:1.5">${list
          .map((item) => `<li style="margin:0 0 8px"><a href="${escapeHtml(item.url)}" style="color:${MAIL_ACCENT}">${escapeHtml(item.text)}</a></li>`)
          .join('')}</ul>`
      : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
    ${input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
    ${listHtml}
    <p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(input.action)}</a></p>
    <p style="margin:0 0 8px;font-size:14px;color:#52606d">Or paste this link into your browser: <br><a href="${escapeHtml(input.url)}" style="color:${MAIL_ACCENT};word-break:break-all">${escapeHtml(input.url)}</a></p>
    <p style="margin:16px 0 0;font-size:14px;color:#52606d">${escapeHtml(input.why)} You can turn these emails off in <a href="${escapeHtml(input.preferencesUrl)}" style="color:${MAIL_ACCENT}">your preferences</a>.</p>
  </div>
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}

/** What every notification mail needs: the person, the notification's sentence and its screen. */
export interface NotificationMailInput {
  to: string;
  firstName: string;
  /** The notification's sentence (as the header menu shows it). */
  text: string;
  /** The screen it is about (absolute). */
  url: string;
  preferencesUrl: string;
}

/** A reviewer asked for changes to an entry: edit and resubmit from the mission history. */
export function changesRequestedMail(input: NotificationMailInput): MailMessage {
  return notificationMail({
    ...input,
    subject: `Changes asked on your ${PRODUCT_NAME} entry`,
    paragraphs: [input.text, "Your entry is back with you: edit it and send it again. The reviewer's reason is beside it."],
    action: 'Edit your entry',
    why: 'You receive this email when a reviewer asks for changes to one of your entries.',
  });
}

/** An entry was rejected: the reason is on the mission history. */
export function rejectedMail(input: NotificationMailInput): MailMessage {
  return notificationMail({
    ...input,
    subject: `Your ${PRODUCT_NAME} entry was not accepted`,
    paragraphs: [input.text, "The reviewer's reason is beside your entry."],
    action: 'See why',
    why: 'You receive this email when one of your entries is not accepted.',
  });
}

/** A moderator asked a follow-up question on an entry: answer it from the mission history. */
export function probeMail(input: NotificationMailInput): MailMessage {
  return notificationMail({
    ...input,
    subject: `A question about your ${PRODUCT_NAME} entry`,
    paragraphs: [input.text, 'Answer it from your mission history.'],
    action: 'Answer the question',
    why: 'You receive this email when a moderator asks you about one of your entries.',
  });
}

/** A step of a reward the participant asked for (requested, approved, sent, rejected, failed, cancelled): the code itself is never mailed. */
export function rewardMail(input: NotificationMailInput): MailMessage {
  return notificationMail({
    ...input,
    subject: `Your ${PRODUCT_NAME} reward`,
    paragraphs: [input.text, 'See where it is, and when it is sent the code or link, on your rewards page.'],
    action: 'See your reward',
    why: 'You receive this email when a reward you asked for moves on.',
  });
}

/** Once a day at most: the entries approved since the last digest (the first ones listed, the rest counted). */
export function approvalsDigestMail(input: {
  to: string;
  firstName: string;
  items: { text: string; url: string }[];
  /** Approvals not listed (beyond the list's length). */
  more: number;
  /** Where points and history are (`/account`). */
  url: string;
  preferencesUrl: string;
}): MailMessage {
  const count = input.items.length + input.more;
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: count === 1 ? `1 entry approved on ${PRODUCT_NAME}` : `${count} entries approved on ${PRODUCT_NAME}`,
    paragraphs: [
      count === 1 ? 'Good news: one of your entries was approved.' : `Good news: ${count} of your entries were approved.`,
      ...(input.more > 0 ? [`The latest ${input.items.length} are listed below; your account shows them all.`] : []),
    ],
    list: input.items,
    action: 'See your points',
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive this email at most once a day when entries of yours are approved.',
  });
}

/** A mission the person has not finished closes within two days. */
export function missionReminderMail(input: {
  to: string;
  firstName: string;
  missionTitle: string;
  closesAt: Date;
  url: string;
  preferencesUrl: string;
}): MailMessage {
  const when = formatDateTimeWithZone(input.closesAt, 'UTC');
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: `Reminder: ${input.missionTitle.replace(/\s+/g, ' ').trim().slice(0, 120)} closes in less than two days`,
    paragraphs: [`The mission "${input.missionTitle}" closes on ${when}, and you have not finished it yet.`, 'There is still time to send your entries.'],
    action: 'Go to the mission',
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive one reminder for each mission you have not finished, two days before it closes.',
  });
}

/** The staff's daily review digest: entries have waited for review more than a day (docs/product.md §2.5). */
export function reviewDigestMail(input: {
  to: string;
  firstName: string;
  /** Every entry waiting for review, and how many of them for more than a day. */
  waiting: number;
  overADay: number;
  /** How long the oldest has waited, in words ("3 days"). */
  oldestAge: string;
  /** Waiting entries per project, most first. */
  projects: { name: string; waiting: number; url: string }[];
  /** The review inbox (`/admin/review`). */
  url: string;
  preferencesUrl: string;
}): MailMessage {
  const entries = (n: number) => (n === 1 ? '1 entry' : `${n} entries`);
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: `${entries(input.waiting)} waiting for review on ${PRODUCT_NAME}`,
    paragraphs: [
      `${entries(input.waiting)} ${input.waiting === 1 ? 'waits' : 'wait'} for review; ${input.overADay} for more than a day. The oldest has waited ${input.oldestAge}.`,
      'Waiting, by project:',
    ],
    list: input.projects.map((project) => ({ text: `${project.name}: ${project.waiting}`, url: project.url })),
    action: 'Open the review queue',
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive this email at most once a day, when entries have waited for review more than a day, because you asked for it.',
  });
}

/** The items of a batched notification mail (new work, points changes): the first ones listed, the rest counted. */
export interface BatchedMailInput {
  to: string;
  firstName: string;
  items: { text: string; url: string }[];
  /** Items not listed (beyond the list's length). */
  more: number;
  preferencesUrl: string;
  publicUrl: string;
}

/** A subject on one line, cut to a length mail programs show. */
const subjectLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 150);

/** Surveys or missions opened for the person: one mail for all that opened together. */
export function newWorkMail(input: BatchedMailInput): MailMessage {
  const count = input.items.length + input.more;
  const first = input.items[0]?.text ?? '';
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: count === 1 ? subjectLine(first) : `${count} new surveys and missions for you on ${PRODUCT_NAME}`,
    paragraphs: [
      count === 1 ? 'Something new is open for you:' : `${count} new surveys and missions are open for you:`,
      ...(input.more > 0 ? [`The first ${input.items.length} are listed below; your home shows them all.`] : []),
    ],
    list: input.items,
    action: 'See what to do',
    url: `${input.publicUrl}/`,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive this email when a survey or mission opens for you (several at once in one email).',
  });
}

/** Staff added or removed points (an adjustment, a bulk correction): one mail for the changes made together. */
export function pointsChangedMail(input: BatchedMailInput): MailMessage {
  const count = input.items.length + input.more;
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: `Your ${PRODUCT_NAME} points were updated`,
    paragraphs: [
      count === 1 ? 'Our team changed your points:' : `Our team made ${count} changes to your points:`,
      ...(input.more > 0 ? [`The first ${input.items.length} are listed below; your account shows them all.`] : []),
    ],
    list: input.items,
    action: 'See your points',
    url: `${input.publicUrl}/account#points`,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive this email when our team adds or removes points.',
  });
}

/**
 * A project's announcement. Its Markdown is sent as it was written (a blank line starts a
 * paragraph), as text: nothing of it is read as HTML.
 */
export function announcementMail(input: {
  to: string;
  firstName: string;
  projectName: string;
  title: string;
  /** Markdown. */
  body: string;
  url: string;
  preferencesUrl: string;
}): MailMessage {
  const paragraphs = input.body
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return notificationMail({
    to: input.to,
    firstName: input.firstName,
    subject: subjectLine(`${input.projectName}: ${input.title}`),
    paragraphs: [`An announcement from ${input.projectName}: ${input.title}`, ...paragraphs],
    action: 'Open Fieldwork',
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: 'You receive this email when the team of a project you take part in sends an announcement.',
  });
}
