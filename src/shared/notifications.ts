/** Notifications (zod-free): the events participants are told about, in the header menu and by mail. */

export const NOTIFICATION_KINDS = ['changes_requested', 'rejected', 'probe', 'approved', 'reminder', 'new_work', 'announcement', 'points', 'reward'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The mail switches of `/account/edit/preferences`, one per kind (approvals come as a daily digest;
 * new work and points changes a few minutes after the first, several in one mail; each step of a
 * reward request at once).
 */
export const MAIL_PREFERENCE_KEYS = {
  changes_requested: 'mailChangesRequested',
  rejected: 'mailRejected',
  probe: 'mailProbes',
  approved: 'mailApprovedDigest',
  reminder: 'mailReminders',
  new_work: 'mailNewWork',
  announcement: 'mailAnnouncements',
  points: 'mailPoints',
  reward: 'mailRewards',
} as const satisfies Record<NotificationKind, string>;

/** The mail switches kept in a user's preferences, one per kind (`MAIL_PREFERENCE_KEYS`): absent means on. */
export type MailSwitches = { [K in (typeof MAIL_PREFERENCE_KEYS)[NotificationKind]]?: boolean };

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  text: string;
  link: string;
  createdAt: string;
  read: boolean;
}

export interface NotificationsAnswer {
  items: NotificationView[];
  unread: number;
}
