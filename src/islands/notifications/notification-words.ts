/**
 * The header's notifications in words: the bell's label and badge, and which links the menu may
 * follow. Pure and tiny (its two messages only): the bell is on every signed-in page.
 */
import { m, formatCount } from '../../shared/i18n.ts';

/** The bell's accessible name: "Notifications, 3 unread", or "Notifications" with none (or unknown). */
export function notificationsLabel(unread: number | null): string {
  return unread && unread > 0 ? m.shell_notifications_label_unread({ count: formatCount(unread) }) : m.shell_notifications_title();
}

/** The number on the bell: none at 0, "9+" beyond 9 (the label says the real count). */
export function unreadBadge(unread: number | null): string | null {
  if (!unread || unread <= 0) return null;
  return unread > 9 ? `${formatCount(9)}+` : formatCount(unread);
}

/**
 * A notification's link when it is a path on this site ("/account/mission-history/4"); null for
 * anything else (another origin, `//host`, a scheme), which the menu does not follow.
 */
export function safeLink(link: string | null | undefined): string | null {
  if (typeof link !== 'string' || !link.startsWith('/') || link.startsWith('//') || link.startsWith('/\\')) return null;
  return link;
}
