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

/** What a notification says, as a message and its values (stored in `notifications.notice`). */
/** Said in the reader's language by the server (src/server/services/notices.ts). */
export type Notice =
  | { key: 'approved'; mission: string; points: number }
  | { key: 'changes_requested' | 'rejected'; mission: string; reason: string | null }
  | { key: 'probe'; mission: string; question: string }
  /** `closes`: the moment the mission closes (ISO); said as a day in UTC, as before. */
  | { key: 'reminder'; title: string; closes: string }
  | { key: 'new_work'; activity: 'survey' | 'mission'; title: string; project: string }
  | { key: 'announcement'; project: string; title: string }
  | { key: 'points'; points: number; reason: string }
  /** `reward`: the reward's title (null when it is gone); `value` in `currency`'s units. */
  | {
      key: 'reward_requested' | 'reward_approved' | 'reward_sent' | 'reward_rejected' | 'reward_failed';
      reward: string | null;
      value: number;
      currency: string;
    }
  | { key: 'reward_cancelled'; reward: string | null; points: number };
