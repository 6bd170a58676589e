/** How a user's name is shown: initials on the avatar, the full name beside it. */
import { m } from '../shared/i18n.ts';
import type { Role, UserStatus } from '../shared/roles.ts';
import { activeWindowDays, type UserActiveWindow } from '../shared/users.ts';

interface Named {
  firstName: string;
  lastName: string;
}

function firstLetter(text: string): string {
  const letter = Array.from(text.trim())[0];
  return letter ? letter.toLocaleUpperCase('en') : '';
}

/** First letters of the first and last name, upper-case ("Ada Lee" → "AL"). */
export function initialsOf(user: Named): string {
  return `${firstLetter(user.firstName)}${firstLetter(user.lastName)}` || '?';
}

export function fullNameOf(user: Named): string {
  return `${user.firstName.trim()} ${user.lastName.trim()}`.trim();
}

const ROLE_MESSAGES: Readonly<Record<Role, () => string>> = {
  participant: m.common_role_participant,
  moderator: m.common_role_moderator,
  admin: m.common_role_admin,
};

/** A role in words, in the page's language ("Participant", "Moderator", "Admin"). */
export function roleLabel(role: Role): string {
  return ROLE_MESSAGES[role]();
}

/** The roles in words, each read when shown (in that moment's language): `ROLE_LABELS[role]` is `roleLabel(role)`. */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  get participant() {
    return roleLabel('participant');
  },
  get moderator() {
    return roleLabel('moderator');
  },
  get admin() {
    return roleLabel('admin');
  },
};

/** An account's status in words, in the page's language. */
export function userStatusLabel(status: UserStatus): string {
  switch (status) {
    case 'invited':
      return m.admin_users_status_invited();
    case 'active':
      return m.admin_users_status_active();
    case 'disabled':
      return m.admin_users_status_disabled();
  }
}

/** The users list's activity filter in words (`30d` → "Active in the last 30 days"). */
export function activeWindowLabel(window: UserActiveWindow): string {
  return m.admin_users_active_in_days({ count: activeWindowDays(window) });
}
