/** The roles of docs/product.md §6. moderator and admin are "elevated": they reach the admin area. */
export const ROLES = ['participant', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const ELEVATED_ROLES: readonly Role[] = ['moderator', 'admin'];

export function isElevated(role: Role | null | undefined): boolean {
  return role !== null && role !== undefined && ELEVATED_ROLES.includes(role);
}

/** invited: has an onboarding link but no password yet; disabled: cannot sign in. */
export const USER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
