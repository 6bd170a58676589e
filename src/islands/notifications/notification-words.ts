/**
 * The header's notifications in words: the bell's label and badge, and which links the menu may
 * follow. Pure, tiny and import-free: the bell is on every signed-in page.
 */

/** The bell's accessible name: "Notifications, 3 unread", or "Notifications" with none (or unknown). */
export function notificationsLabel(unread: number | null): string {
  return unread && unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
}

/** The number on the bell: none at 0, "9+" beyond 9 (the label says the real count). */
export function unreadBadge(unread: number | null): string | null {
  if (!unread || unread <= 0) return null;
  return unread > 9 ? '9+' : String(unread);
}

/**
 * A notification's link when it is a path on this site ("/account/mission-history/4"); null for
 * anything else (another origin, `//host`, a scheme), which the menu does not follow.
 */
export function safeLink(link: string | null | undefined): string | null {
  if (typeof link !== 'string' || !link.startsWith('/') || link.startsWith('//') || link.startsWith('/\\')) return null;
  return link;
}
