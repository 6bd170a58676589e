/**
 * The participant's mail preferences in words, as the account overview sums them up. Pure and
 * zod-free, unit-tested.
 */
import { MAIL_PREFERENCE_KEYS } from '../../shared/notifications.ts';

/**
 * What the account overview says of email notifications: "Off" (the master switch), "On" (every
 * kind on; never set counts as on), "On for 3 of 5 kinds", or "On, every kind off".
 */
export function mailSummary(
  preferences: { emailNotifications: boolean } & Partial<Record<(typeof MAIL_PREFERENCE_KEYS)[keyof typeof MAIL_PREFERENCE_KEYS], boolean>>,
): string {
  if (!preferences.emailNotifications) return 'Off';
  const kinds = Object.values(MAIL_PREFERENCE_KEYS);
  const on = kinds.filter((key) => preferences[key] !== false).length;
  if (on === kinds.length) return 'On';
  return on === 0 ? 'On, every kind off' : `On for ${on} of ${kinds.length} kinds`;
}
