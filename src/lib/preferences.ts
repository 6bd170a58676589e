/**
 * The participant's mail preferences in words, as the account overview sums them up, and a
 * person's preferences as staff read them on their page. Pure and zod-free, unit-tested.
 */
import { formatCount, m } from '../shared/i18n.ts';
import { LANGUAGE_NAMES, isLanguage } from '../shared/languages.ts';
import { MAIL_PREFERENCE_KEYS } from '../shared/notifications.ts';
import { isElevated, type Role } from '../shared/roles.ts';
import { utcOffsetLabel } from '../shared/time-zone.ts';

/**
 * What the account overview says of email notifications: "Off" (the master switch), "On" (every
 * kind on; never set counts as on), "On for 3 of 5 kinds", or "On, every kind off".
 */
export function mailSummary(
  preferences: { emailNotifications: boolean } & Partial<Record<(typeof MAIL_PREFERENCE_KEYS)[keyof typeof MAIL_PREFERENCE_KEYS], boolean>>,
): string {
  if (!preferences.emailNotifications) return m.common_mail_off();
  const kinds = Object.values(MAIL_PREFERENCE_KEYS);
  const on = kinds.filter((key) => preferences[key] !== false).length;
  if (on === kinds.length) return m.common_mail_on();
  return on === 0 ? m.common_mail_every_kind_off() : m.common_mail_on_for_kinds({ on: formatCount(on), count: kinds.length });
}

const COLOR_MODE_WORDS: Readonly<Record<string, () => string>> = {
  system: m.common_preference_same_as_device,
  light: m.common_preference_light,
  dark: m.common_preference_dark,
};

/**
 * A person's stored preferences (only what they changed is stored) as labelled words for staff
 * (`/admin/users/{id}`): email notifications as `mailSummary` says them, the review digest for
 * moderators and admins, the language, the time zone with its offset now, the colour mode. What
 * was never set reads as its default.
 */
export function preferenceRows(preferences: Record<string, unknown>, role: Role, now: Date = new Date()): { term: string; value: string }[] {
  const flag = (key: string, fallback: boolean): boolean => (typeof preferences[key] === 'boolean' ? (preferences[key] as boolean) : fallback);
  const text = (key: string): string | null => (typeof preferences[key] === 'string' && preferences[key] !== '' ? (preferences[key] as string) : null);
  const mails = Object.fromEntries(Object.values(MAIL_PREFERENCE_KEYS).map((key) => [key, flag(key, true)]));
  const language = text('language') ?? 'en';
  const colorMode = text('colorMode') ?? 'system';
  const timeZone = text('timeZone');
  return [
    { term: m.common_preference_email_notifications(), value: mailSummary({ emailNotifications: flag('emailNotifications', true), ...mails }) },
    ...(isElevated(role)
      ? [{ term: m.common_preference_review_digest(), value: flag('mailReviewDigest', false) ? m.common_mail_on() : m.common_mail_off() }]
      : []),
    { term: m.common_preference_language(), value: isLanguage(language) ? LANGUAGE_NAMES[language] : language },
    {
      term: m.common_preference_time_zone(),
      value: timeZone ? `${timeZone.replace(/_/g, ' ')} (${utcOffsetLabel(timeZone, now)})` : m.common_preference_not_set(),
    },
    { term: m.common_preference_colour_mode(), value: Object.hasOwn(COLOR_MODE_WORDS, colorMode) ? (COLOR_MODE_WORDS[colorMode]?.() ?? colorMode) : colorMode },
  ];
}
