/** How a user's name is shown: initials on the avatar, the full name beside it. */
import type { Role } from '../shared/roles.ts';

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

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  participant: 'Participant',
  moderator: 'Moderator',
  admin: 'Admin',
};
