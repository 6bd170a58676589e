import { formatDateTimeWithZone } from '../../shared/dates.ts';
import { m } from '../../shared/i18n.ts';
import { directionOf, isLanguage, SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';
import type { Role } from '../../shared/roles.ts';
import type { MailMessage } from './mailer.ts';

export const PRODUCT_NAME = 'Fieldwork';

/**
 * The app's teal (`--primary` of src/styles/global.css in light mode, oklch(0.47 0.09 205)) for the
 * mails' name, buttons and links: white on it, and it on white, 6.4:1 (WCAG AA asks 4.5:1).
 */
export const MAIL_ACCENT = '#006973';

/**
 * The language of a person's mails (issue 31): their account's (`preferences.language`), else the
 * one given (the language of the request that asked for the mail, for an address whose account has
 * none or that has no account), else English. The jobs read it when they run, not when queued:
 * a person who changes their language meanwhile gets the mail in the new one.
 */
export function mailLanguageOf(preferences: { language?: string | undefined } | null | undefined, fallback?: Language | null): Language {
  const preferred = preferences?.language;
  return isLanguage(preferred) ? preferred : (fallback ?? SOURCE_LANGUAGE);
}

/** Every template's input: who it goes to, and in which language (`mailLanguageOf`). */
interface Addressed {
  to: string;
  language: Language;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A message's options for a language: every text of a mail is looked up in the recipient's. */
const localeOf = (language: Language) => ({ locale: language });

/** The document's opening tag: the mail's language and direction (Arabic: right to left). */
const htmlTag = (language: Language): string => `<html lang="${language}" dir="${directionOf(language)}">`;

/** A text put in HTML with one link in it: the text escaped, `{link}` made the link (of `label`). */
function withLink(render: (link: string) => string, url: string, label: string, style: string): string {
  const marker = '\u0000';
  return escapeHtml(render(marker)).replace(marker, `<a href="${escapeHtml(url)}" style="${style}">${escapeHtml(label)}</a>`);
}

/** "Hello Sam," or "Hello," in the mail's language. */
function greetingOf(firstName: string, language: Language, max?: number): string {
  return firstName
    ? m.mail_greeting_name({ name: max === undefined ? firstName : oneLine(firstName, max) }, localeOf(language))
    : m.mail_greeting({}, localeOf(language));
}

function describeExpiry(expiresAt: Date, now: Date, language: Language): string {
  const hours = Math.round((expiresAt.getTime() - now.getTime()) / 3_600_000);
  if (hours >= 48) return m.mail_link_expires_days({ count: Math.round(hours / 24) }, localeOf(language));
  if (hours >= 2) return m.mail_link_expires_hours({ count: hours }, localeOf(language));
  return m.mail_link_expires_hour({}, localeOf(language));
}

/**
 * One mail layout: a heading, paragraphs, one button link and its expiry, in HTML and text. The
 * link is always the recipient's own link token (`recipientOwnsLinks`, see mailer.ts).
 */
export function linkMail(
  input: Addressed & {
    subject: string;
    greeting: string;
    paragraphs: string[];
    action: string;
    url: string;
    expiresAt: Date;
    now: Date;
    footer?: string;
  },
): MailMessage {
  const { language } = input;
  const expiry = describeExpiry(input.expiresAt, input.now, language);
  const footer = input.footer ?? m.mail_link_footer({}, localeOf(language));
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
${htmlTag(language)}<head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p style="margin:0 0 16px">${escapeHtml(input.greeting)}</p>
    ${input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
    <p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(input.action)}</a></p>
    <p style="margin:0 0 8px;font-size:14px;color:#52606d">${escapeHtml(m.mail_link_paste({}, localeOf(language)))} <br><a href="${escapeHtml(input.url)}" style="color:${MAIL_ACCENT};word-break:break-all">${escapeHtml(input.url)}</a></p>
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

/** The invitation's subject, by role and whether it names a project. */
function invitationSubject(role: Role, project: string, language: Language): string {
  const o = localeOf(language);
  if (role === 'participant') return project ? m.mail_invitation_subject_participant_project({ project }, o) : m.mail_invitation_subject_participant({}, o);
  if (role === 'moderator') return project ? m.mail_invitation_subject_moderator_project({ project }, o) : m.mail_invitation_subject_moderator({}, o);
  return project ? m.mail_invitation_subject_admin_project({ project }, o) : m.mail_invitation_subject_admin({}, o);
}

/** Who invites the person to what: by role, with or without the inviter's name and the project. */
function invitationSentence(role: Role, inviter: string, project: string, language: Language): string {
  const o = localeOf(language);
  const by = { inviter };
  const to = { project };
  const both = { inviter, project };
  switch (role) {
    case 'participant':
      if (project) return inviter ? m.mail_invitation_participant_project_by(both, o) : m.mail_invitation_participant_project(to, o);
      return inviter ? m.mail_invitation_participant_by(by, o) : m.mail_invitation_participant({}, o);
    case 'moderator':
      if (project) return inviter ? m.mail_invitation_moderator_project_by(both, o) : m.mail_invitation_moderator_project(to, o);
      return inviter ? m.mail_invitation_moderator_by(by, o) : m.mail_invitation_moderator({}, o);
    case 'admin':
      if (project) return inviter ? m.mail_invitation_admin_project_by(both, o) : m.mail_invitation_admin_project(to, o);
      return inviter ? m.mail_invitation_admin_by(by, o) : m.mail_invitation_admin({}, o);
  }
}

/** What each role is invited to do, in the invitation's words. */
function invitedToDo(role: Role, language: Language): string {
  const o = localeOf(language);
  if (role === 'participant') return m.mail_invitation_does_participant({}, o);
  if (role === 'moderator') return m.mail_invitation_does_moderator({}, o);
  return m.mail_invitation_does_admin({}, o);
}

/**
 * An invitation, worded for the role it gives (participant, moderator, admin), naming the project
 * the person joins and who invites them when known. Names are put in as text: escaped in the HTML
 * (linkMail) and on one line.
 */
export function invitationMail(
  input: Addressed & {
    firstName: string;
    role: Role;
    /** The project the person is added to, if any. */
    projectName?: string | null | undefined;
    /** Who invites ("Ada Lovelace"); none for the operator's CLI. */
    inviterName?: string | null | undefined;
    url: string;
    expiresAt: Date;
    now: Date;
  },
): MailMessage {
  const { language } = input;
  const project = input.projectName ? oneLine(input.projectName) : '';
  const inviter = input.inviterName ? oneLine(input.inviterName, 80) : '';
  return linkMail({
    to: input.to,
    language,
    subject: invitationSubject(input.role, project ? oneLine(project, 80) : '', language),
    greeting: greetingOf(input.firstName, language, 80),
    paragraphs: [
      invitationSentence(input.role, inviter, project, language),
      invitedToDo(input.role, language),
      m.mail_invitation_choose_password({}, localeOf(language)),
    ],
    action: m.mail_invitation_action({}, localeOf(language)),
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
  });
}

/** Registration of a new address, or of an invited one: the link to finish setting up. */
export function finishSetupMail(input: Addressed & { firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  const o = localeOf(input.language);
  return linkMail({
    to: input.to,
    language: input.language,
    subject: m.mail_finish_setup_subject({}, o),
    greeting: greetingOf(input.firstName, input.language),
    paragraphs: [m.mail_finish_setup_body({}, o)],
    action: m.mail_finish_setup_action({}, o),
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: m.mail_finish_setup_footer({}, o),
  });
}

/** Someone registered with an address that already has an account: help its owner in. */
export function alreadyRegisteredMail(input: Addressed & { firstName: string; publicUrl: string }): MailMessage {
  const { language } = input;
  const o = localeOf(language);
  const signIn = `${input.publicUrl}/login`;
  const reset = `${input.publicUrl}/forgot-password`;
  const greeting = greetingOf(input.firstName, language);
  const body = m.mail_already_registered_body({}, o);
  const footer = m.mail_already_registered_footer({}, o);
  const signInLabel = m.mail_already_registered_sign_in({}, o);
  const text = [
    greeting,
    '',
    body,
    '',
    `${signInLabel}: ${signIn}`,
    m.mail_already_registered_forgot_text({ url: reset }, o),
    '',
    footer,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const forgot = withLink(
    (link) => m.mail_already_registered_forgot_html({ link }, o),
    reset,
    m.mail_already_registered_choose_new({}, o),
    `color:${MAIL_ACCENT}`,
  );
  const html = `<!doctype html>${htmlTag(language)}<head><meta charset="utf-8"><title>${escapeHtml(m.mail_already_registered_title({}, o))}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p>${escapeHtml(greeting)}</p>
    <p style="line-height:1.5">${escapeHtml(body)}</p>
    <p style="margin:24px 0"><a href="${escapeHtml(signIn)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(signInLabel)}</a></p>
    <p style="line-height:1.5">${forgot}</p>
    <p style="font-size:14px;color:#52606d">${escapeHtml(footer)}</p>
  </div></body></html>`;
  return { to: input.to, subject: m.mail_already_registered_subject({}, o), text, html };
}

export function resetPasswordMail(input: Addressed & { firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  const o = localeOf(input.language);
  return linkMail({
    to: input.to,
    language: input.language,
    subject: m.mail_reset_password_subject({}, o),
    greeting: greetingOf(input.firstName, input.language),
    paragraphs: [m.mail_reset_password_body({}, o)],
    action: m.mail_reset_password_action({}, o),
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: m.mail_reset_password_footer({}, o),
  });
}

export function confirmEmailChangeMail(input: Addressed & { firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  const o = localeOf(input.language);
  return linkMail({
    to: input.to,
    language: input.language,
    subject: m.mail_email_change_subject({}, o),
    greeting: greetingOf(input.firstName, input.language),
    paragraphs: [m.mail_email_change_body({}, o)],
    action: m.mail_email_change_action({}, o),
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: m.mail_email_change_footer({}, o),
  });
}

/** A plain notice with no link to act on. */
function noticeMail(to: string, language: Language, subject: string, greeting: string, paragraphs: string[]): MailMessage {
  const text = [greeting, '', ...paragraphs.flatMap((p) => [p, '']), `— ${PRODUCT_NAME}`].join('\n');
  const html = `<!doctype html>${htmlTag(language)}<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p>${escapeHtml(greeting)}</p>
    ${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
  </div></body></html>`;
  return { to, subject, text, html };
}

export function emailChangedNotice(input: Addressed & { firstName: string; newEmail: string; supportUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_email_changed_subject({}, o), greetingOf(input.firstName, input.language), [
    m.mail_email_changed_body({ email: input.newEmail }, o),
    m.mail_email_changed_contact({ url: input.supportUrl }, o),
  ]);
}

export function emailInUseNotice(input: Addressed & { supportUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_email_in_use_subject({}, o), m.mail_greeting({}, o), [
    m.mail_email_in_use_body({}, o),
    m.mail_email_in_use_contact({ url: input.supportUrl }, o),
  ]);
}

/** A security notice, always sent (no preference turns it off): after a password change or a reset. */
export function passwordChangedNotice(input: Addressed & { firstName: string; supportUrl: string; resetUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_password_changed_subject({}, o), greetingOf(input.firstName, input.language), [
    m.mail_password_changed_body({}, o),
    m.mail_password_changed_not_you({ url: input.resetUrl }, o),
    m.mail_password_changed_contact({ url: input.supportUrl }, o),
  ]);
}

/**
 * A security notice, always sent (no preference turns it off): an admin reset the person's second
 * factors (issue 29; services/second-factors.ts, `resetSecondFactors`).
 */
export function secondFactorsResetNotice(input: Addressed & { firstName: string; securityUrl: string; supportUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_second_factors_reset_subject({}, o), greetingOf(input.firstName, input.language), [
    m.mail_second_factors_reset_body({}, o),
    m.mail_second_factors_reset_again({ url: input.securityUrl }, o),
    m.mail_second_factors_reset_contact({ url: input.supportUrl }, o),
  ]);
}

/**
 * A security notice, always sent (no preference turns it off): the account was signed in to from
 * a browser it was never signed in on before (issue 29 §5; services/new-sign-in.ts).
 */
export function newSignInNotice(
  input: Addressed & {
    firstName: string;
    at: Date;
    timeZone: string;
    device: string;
    ip: string | null;
    resetUrl: string;
  },
): MailMessage {
  const { language } = input;
  const o = localeOf(language);
  const where = input.ip ? m.mail_new_sign_in_where_ip({ device: oneLine(input.device), ip: input.ip }, o) : oneLine(input.device);
  return noticeMail(input.to, language, m.mail_new_sign_in_subject({}, o), greetingOf(input.firstName, language), [
    m.mail_new_sign_in_body({ where, when: formatDateTimeWithZone(input.at, input.timeZone, language) }, o),
    m.mail_new_sign_in_was_you({}, o),
    m.mail_new_sign_in_not_you({ url: input.resetUrl }, o),
  ]);
}

/**
 * To every admin (issue 32 §1; services/webhooks.ts): an outgoing webhook's endpoint whose
 * deliveries had all failed for 5 days was turned off. Names the address and since when, and
 * where to turn it on again.
 */
export function webhookDisabledNotice(
  input: Addressed & { firstName: string; endpointUrl: string; failingSince: Date; timeZone: string; manageUrl: string },
): MailMessage {
  const { language } = input;
  const o = localeOf(language);
  return noticeMail(input.to, language, m.mail_webhook_disabled_subject({}, o), greetingOf(input.firstName, language), [
    m.mail_webhook_disabled_body({ url: oneLine(input.endpointUrl, 300), since: formatDateTimeWithZone(input.failingSince, input.timeZone, language) }, o),
    m.mail_webhook_disabled_fix({ link: input.manageUrl }, o),
    m.mail_webhook_disabled_why({}, o),
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
export function confirmDataDeletionMail(input: Addressed & { firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  const o = localeOf(input.language);
  return linkMail({
    to: input.to,
    language: input.language,
    subject: m.mail_data_deletion_subject({}, o),
    greeting: greetingOf(input.firstName, input.language),
    paragraphs: [m.mail_data_deletion_body({}, o), m.mail_data_deletion_confirm({}, o)],
    action: m.mail_data_deletion_action({}, o),
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
    footer: m.mail_data_deletion_footer({}, o),
  });
}

/** Sent once a data-deletion request is confirmed. */
export function dataDeletionConfirmedNotice(input: Addressed & { firstName: string; supportUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_data_deletion_confirmed_subject({}, o), greetingOf(input.firstName, input.language), [
    m.mail_data_deletion_confirmed_body({}, o),
    m.mail_data_deletion_confirmed_contact({ url: input.supportUrl }, o),
  ]);
}

/** Sent when an admin marks a data-deletion request completed. */
export function dataDeletionCompletedNotice(input: Addressed & { supportUrl: string }): MailMessage {
  const o = localeOf(input.language);
  return noticeMail(input.to, input.language, m.mail_data_deletion_completed_subject({}, o), m.mail_greeting({}, o), [
    m.mail_data_deletion_completed_body({}, o),
    m.mail_data_deletion_completed_contact({ url: input.supportUrl }, o),
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
function notificationMail(
  input: Addressed & {
    subject: string;
    firstName: string;
    paragraphs: string[];
    list?: { text: string; url: string }[];
    action: string;
    url: string;
    preferencesUrl: string;
    why: string;
  },
): MailMessage {
  const { language } = input;
  const o = localeOf(language);
  const greeting = greetingOf(input.firstName, language);
  const footer = m.mail_notification_turn_off_text({ why: input.why, url: input.preferencesUrl }, o);
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
  // The list's indent on the side lines start from (the right, in Arabic).
  const indent = directionOf(language) === 'rtl' ? 'padding-right' : 'padding-left';
  const listHtml =
    list.length > 0
      ? `<ul style="margin:0 0 16px;${indent}:20px;line-height:1.5">${list
          .map((item) => `<li style="margin:0 0 8px"><a href="${escapeHtml(item.url)}" style="color:${MAIL_ACCENT}">${escapeHtml(item.text)}</a></li>`)
          .join('')}</ul>`
      : '';
  const turnOff = withLink(
    (link) => m.mail_notification_turn_off_html({ why: input.why, link }, o),
    input.preferencesUrl,
    m.mail_notification_preferences_link({}, o),
    `color:${MAIL_ACCENT}`,
  );
  const html = `<!doctype html>
${htmlTag(language)}<head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:${MAIL_ACCENT}">${PRODUCT_NAME}</p>
    <p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
    ${input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
    ${listHtml}
    <p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:${MAIL_ACCENT};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(input.action)}</a></p>
    <p style="margin:0 0 8px;font-size:14px;color:#52606d">${escapeHtml(m.mail_link_paste({}, o))} <br><a href="${escapeHtml(input.url)}" style="color:${MAIL_ACCENT};word-break:break-all">${escapeHtml(input.url)}</a></p>
    <p style="margin:16px 0 0;font-size:14px;color:#52606d">${turnOff}</p>
  </div>
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}

/** What every notification mail needs: the person, their language, the notification's sentence and its screen. */
export interface NotificationMailInput extends Addressed {
  firstName: string;
  /** The notification's sentence (as the header menu shows it; stored in English). */
  text: string;
  /** The screen it is about (absolute). */
  url: string;
  preferencesUrl: string;
}

/** A reviewer asked for changes to an entry: edit and resubmit from the mission history. */
export function changesRequestedMail(input: NotificationMailInput): MailMessage {
  const o = localeOf(input.language);
  return notificationMail({
    ...input,
    subject: m.mail_changes_requested_subject({}, o),
    paragraphs: [input.text, m.mail_changes_requested_body({}, o)],
    action: m.mail_changes_requested_action({}, o),
    why: m.mail_changes_requested_why({}, o),
  });
}

/** An entry was rejected: the reason is on the mission history. */
export function rejectedMail(input: NotificationMailInput): MailMessage {
  const o = localeOf(input.language);
  return notificationMail({
    ...input,
    subject: m.mail_rejected_subject({}, o),
    paragraphs: [input.text, m.mail_rejected_body({}, o)],
    action: m.mail_rejected_action({}, o),
    why: m.mail_rejected_why({}, o),
  });
}

/** A moderator asked a follow-up question on an entry: answer it from the mission history. */
export function probeMail(input: NotificationMailInput): MailMessage {
  const o = localeOf(input.language);
  return notificationMail({
    ...input,
    subject: m.mail_probe_subject({}, o),
    paragraphs: [input.text, m.mail_probe_body({}, o)],
    action: m.mail_probe_action({}, o),
    why: m.mail_probe_why({}, o),
  });
}

/** A step of a reward the participant asked for (requested, approved, sent, rejected, failed, cancelled): the code itself is never mailed. */
export function rewardMail(input: NotificationMailInput): MailMessage {
  const o = localeOf(input.language);
  return notificationMail({
    ...input,
    subject: m.mail_reward_subject({}, o),
    paragraphs: [input.text, m.mail_reward_body({}, o)],
    action: m.mail_reward_action({}, o),
    why: m.mail_reward_why({}, o),
  });
}

/** Once a day at most: the entries approved since the last digest (the first ones listed, the rest counted). */
export function approvalsDigestMail(
  input: Addressed & {
    firstName: string;
    items: { text: string; url: string }[];
    /** Approvals not listed (beyond the list's length). */
    more: number;
    /** Where points and history are (`/account`). */
    url: string;
    preferencesUrl: string;
  },
): MailMessage {
  const o = localeOf(input.language);
  const count = input.items.length + input.more;
  return notificationMail({
    to: input.to,
    language: input.language,
    firstName: input.firstName,
    subject: m.mail_approvals_subject({ count }, o),
    paragraphs: [m.mail_approvals_body({ count }, o), ...(input.more > 0 ? [m.mail_approvals_latest({ count: input.items.length }, o)] : [])],
    list: input.items,
    action: m.mail_points_action({}, o),
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_approvals_why({}, o),
  });
}

/** A mission the person has not finished closes within two days. */
export function missionReminderMail(
  input: Addressed & {
    firstName: string;
    missionTitle: string;
    closesAt: Date;
    url: string;
    preferencesUrl: string;
  },
): MailMessage {
  const o = localeOf(input.language);
  const when = formatDateTimeWithZone(input.closesAt, 'UTC', input.language);
  return notificationMail({
    to: input.to,
    language: input.language,
    firstName: input.firstName,
    subject: m.mail_reminder_subject({ title: input.missionTitle.replace(/\s+/g, ' ').trim().slice(0, 120) }, o),
    paragraphs: [m.mail_reminder_body({ title: input.missionTitle, when }, o), m.mail_reminder_time({}, o)],
    action: m.mail_reminder_action({}, o),
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_reminder_why({}, o),
  });
}

/** How long something has waited, in words in a language: hours under two days, days beyond ("3 days"). */
export function waitedFor(ms: number, language: Language): string {
  const hours = Math.max(1, Math.floor(ms / 3_600_000));
  if (hours < 48) return m.mail_waited_hours({ count: hours }, localeOf(language));
  return m.mail_waited_days({ count: Math.floor(hours / 24) }, localeOf(language));
}

/** The staff's daily review digest: entries have waited for review more than a day (docs/product.md §2.5). */
export function reviewDigestMail(
  input: Addressed & {
    firstName: string;
    /** Every entry waiting for review, and how many of them for more than a day. */
    waiting: number;
    overADay: number;
    /** How long the oldest has waited, in milliseconds (written in the mail's language, `waitedFor`). */
    oldestWaitedMs: number;
    /** Waiting entries per project, most first. */
    projects: { name: string; waiting: number; url: string }[];
    /** The review inbox (`/admin/review`). */
    url: string;
    preferencesUrl: string;
  },
): MailMessage {
  const { language } = input;
  const o = localeOf(language);
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
  return notificationMail({
    to: input.to,
    language,
    firstName: input.firstName,
    subject: m.mail_review_digest_subject({ count: input.waiting }, o),
    paragraphs: [
      m.mail_review_digest_body({ count: input.waiting, over: number.format(input.overADay), oldest: waitedFor(input.oldestWaitedMs, language) }, o),
      m.mail_review_digest_by_project({}, o),
    ],
    list: input.projects.map((project) => ({ text: `${project.name}: ${number.format(project.waiting)}`, url: project.url })),
    action: m.mail_review_digest_action({}, o),
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_review_digest_why({}, o),
  });
}

/** The items of a batched notification mail (new work, points changes): the first ones listed, the rest counted. */
export interface BatchedMailInput extends Addressed {
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
  const o = localeOf(input.language);
  const count = input.items.length + input.more;
  const first = input.items[0]?.text ?? '';
  return notificationMail({
    to: input.to,
    language: input.language,
    firstName: input.firstName,
    subject: count === 1 ? subjectLine(first) : m.mail_new_work_subject({ count }, o),
    paragraphs: [
      count === 1 ? m.mail_new_work_one({}, o) : m.mail_new_work_body({ count }, o),
      ...(input.more > 0 ? [m.mail_new_work_first({ count: input.items.length }, o)] : []),
    ],
    list: input.items,
    action: m.mail_new_work_action({}, o),
    url: `${input.publicUrl}/`,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_new_work_why({}, o),
  });
}

/** Staff added or removed points (an adjustment, a bulk correction): one mail for the changes made together. */
export function pointsChangedMail(input: BatchedMailInput): MailMessage {
  const o = localeOf(input.language);
  const count = input.items.length + input.more;
  return notificationMail({
    to: input.to,
    language: input.language,
    firstName: input.firstName,
    subject: m.mail_points_subject({}, o),
    paragraphs: [
      count === 1 ? m.mail_points_one({}, o) : m.mail_points_body({ count }, o),
      ...(input.more > 0 ? [m.mail_points_first({ count: input.items.length }, o)] : []),
    ],
    list: input.items,
    action: m.mail_points_action({}, o),
    url: `${input.publicUrl}/account#points`,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_points_why({}, o),
  });
}

/**
 * A project's announcement. Its Markdown is sent as it was written (a blank line starts a
 * paragraph), as text: nothing of it is read as HTML. The announcement is in the words its team
 * wrote; the frame around it is in the recipient's language.
 */
export function announcementMail(
  input: Addressed & {
    firstName: string;
    projectName: string;
    title: string;
    /** Markdown. */
    body: string;
    url: string;
    preferencesUrl: string;
  },
): MailMessage {
  const o = localeOf(input.language);
  const paragraphs = input.body
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  return notificationMail({
    to: input.to,
    language: input.language,
    firstName: input.firstName,
    subject: subjectLine(`${input.projectName}: ${input.title}`),
    paragraphs: [m.mail_announcement_body({ project: input.projectName, title: input.title }, o), ...paragraphs],
    action: m.mail_announcement_action({}, o),
    url: input.url,
    preferencesUrl: input.preferencesUrl,
    why: m.mail_announcement_why({}, o),
  });
}
