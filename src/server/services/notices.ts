/**
 * A notification's sentence in the reader's language (issue 31 §1: "every … notification"). A
 * notification stores what happened as a `Notice` (which message, with which values) beside its
 * English text; the header's menu and the mails say it in the recipient's language when they are
 * read or sent, never in the language of whoever caused it. Rows written before notices existed
 * have only their English text, shown as it is.
 */
import { formatShortDay } from '../../shared/dates.ts';
import { m } from '../../shared/i18n.ts';
import { SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';
import { fromMinorUnits } from '../../shared/rewards.ts';
import type { RedemptionRow } from '../db/schema/index.ts';
import type { Notice } from '../../shared/notifications.ts';

/** Made once per language and kind: a formatter made per call was a tenth of a redemption request's own time. */
const valueFormats = new Map<string, Intl.NumberFormat>();

/** A reward's value with its currency code: `25 EUR`, `12.50 USD` (keeps its cents when it has any; digits in the language's way). */
export function rewardValueText(value: number, currency: string, language: Language): string {
  const whole = Number.isInteger(value);
  const key = `${language}:${whole ? 'whole' : 'cents'}`;
  let format = valueFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, whole ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    valueFormats.set(key, format);
  }
  return `${format.format(value)} ${currency}`;
}

/** The notice's sentence in `language`. */
export function noticeText(notice: Notice, language: Language): string {
  const o = { locale: language };
  const rewardOf = (reward: { reward: string | null; value: number; currency: string }) =>
    `${reward.reward ?? m.server_notice_your_reward({}, o)} (${rewardValueText(reward.value, reward.currency, language)})`;
  switch (notice.key) {
    case 'approved':
      return notice.points > 0
        ? m.server_notice_approved_points({ mission: notice.mission, count: notice.points }, o)
        : m.server_notice_approved({ mission: notice.mission }, o);
    case 'changes_requested':
      return notice.reason
        ? m.server_notice_changes_requested_reason({ mission: notice.mission, reason: notice.reason }, o)
        : m.server_notice_changes_requested({ mission: notice.mission }, o);
    case 'rejected':
      return notice.reason
        ? m.server_notice_rejected_reason({ mission: notice.mission, reason: notice.reason }, o)
        : m.server_notice_rejected({ mission: notice.mission }, o);
    case 'probe':
      return m.server_notice_probe({ mission: notice.mission, question: notice.question }, o);
    case 'reminder':
      return m.server_notice_reminder({ title: notice.title, day: formatShortDay(notice.closes, 'UTC', language) }, o);
    case 'new_work':
      return notice.activity === 'survey'
        ? m.server_notice_new_survey({ project: notice.project, title: notice.title }, o)
        : m.server_notice_new_mission({ project: notice.project, title: notice.title }, o);
    case 'announcement':
      // The project's name and the announcement's title, as written: nothing to translate.
      return `${notice.project}: ${notice.title}`;
    case 'points': {
      const points = new Intl.NumberFormat(language, { useGrouping: false }).format(Math.abs(notice.points));
      return notice.points < 0
        ? m.server_notice_points_removed({ points, reason: notice.reason }, o)
        : m.server_notice_points_added({ points, reason: notice.reason }, o);
    }
    case 'reward_requested':
      return m.server_notice_reward_requested({ reward: rewardOf(notice) }, o);
    case 'reward_approved':
      return m.server_notice_reward_approved({ reward: rewardOf(notice) }, o);
    case 'reward_sent':
      return m.server_notice_reward_sent({ reward: rewardOf(notice) }, o);
    case 'reward_rejected':
      return m.server_notice_reward_rejected({ reward: rewardOf(notice) }, o);
    case 'reward_failed':
      return m.server_notice_reward_failed({ reward: rewardOf(notice) }, o);
    case 'reward_cancelled':
      return m.server_notice_reward_cancelled({ reward: notice.reward ?? m.server_notice_your_reward({}, o), count: notice.points }, o);
  }
}

/** What a participant is told of their reward request (`key`), from the request's row and its reward. */
export const rewardNotice = (
  key: 'reward_approved' | 'reward_sent' | 'reward_rejected' | 'reward_failed',
  row: Pick<RedemptionRow, 'valueMinor' | 'currency'>,
  reward: { title: string } | undefined,
): Notice => ({ key, reward: reward?.title ?? null, value: fromMinorUnits(row.valueMinor), currency: row.currency });

/** The notice and its English sentence, as a notifications row stores them. */
export const noticeRow = (notice: Notice): { notice: Notice; text: string } => ({ notice, text: noticeText(notice, SOURCE_LANGUAGE) });

/** A stored notification's sentence for its reader: its notice in their language, else its text as stored. */
export function notificationText(row: { text: string; notice: Notice | null }, language: Language): string {
  return row.notice ? noticeText(row.notice, language) : row.text;
}
