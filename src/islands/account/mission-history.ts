/**
 * The participant's mission history in words: entry statuses and counts, entries numbered, the
 * photos of an entry in the order the form shows them, and the links between the history and the
 * mission page. Pure and zod-free, unit-tested.
 */
import { m } from '../../shared/i18n.ts';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import { isPlainObject, resolveVisibility } from '../../shared/forms/logic.ts';
import type { EntryStatus } from '../../shared/mission-entries.ts';
import type { MissionHistoryItem } from '../../shared/review.ts';

/** What the mission history says of an entry's status. */
const HISTORY_STATUS_LABELS: Readonly<Record<EntryStatus, () => string>> = {
  draft: m.account_history_status_draft,
  submitted: m.account_history_status_submitted,
  approved: m.account_history_status_approved,
  changes_requested: m.account_history_status_changes_requested,
  rejected: m.account_history_status_rejected,
};

export function historyStatusLabel(status: EntryStatus): string {
  return HISTORY_STATUS_LABELS[status]();
}

/** Entries numbered from 1 in the order they were made (the API lists them newest first); the list keeps its order. */
export function numberEntries<T extends { id: number; createdAt: string }>(entries: readonly T[]): { entry: T; number: number }[] {
  const byAge = [...entries].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const numbers = new Map(byAge.map((entry, index) => [entry.id, index + 1]));
  return entries.map((entry) => ({ entry, number: numbers.get(entry.id) ?? 0 }));
}

export type EntryCountKey = keyof MissionHistoryItem['entries'];

/** The entry counts a mission row shows, in this order, and the words for each. */
const COUNT_WORDS: readonly { key: Exclude<EntryCountKey, 'total'>; words: (inputs: { count: number }) => string; status: EntryStatus }[] = [
  { key: 'changesRequested', words: m.account_missions_count_changes_requested, status: 'changes_requested' },
  { key: 'waiting', words: m.account_missions_count_waiting, status: 'submitted' },
  { key: 'approved', words: m.account_missions_count_approved, status: 'approved' },
  { key: 'rejected', words: m.account_missions_count_rejected, status: 'rejected' },
  { key: 'drafts', words: m.account_missions_count_drafts, status: 'draft' },
];

export interface EntryCount {
  key: Exclude<EntryCountKey, 'total'>;
  status: EntryStatus;
  count: number;
  /** "2 approved", "1 draft". */
  text: string;
}

/**
 * The non-zero entry counts of a mission, the ones that need the participant first (changes
 * asked), then waiting, approved, not accepted and drafts.
 */
export function entryCounts(entries: MissionHistoryItem['entries']): EntryCount[] {
  return COUNT_WORDS.filter(({ key }) => entries[key] > 0).map(({ key, words, status }) => ({
    key,
    status,
    count: entries[key],
    text: words({ count: entries[key] }),
  }));
}

/** "1 question waiting for your answer", "2 questions …"; null with none. */
export function probesWaitingLabel(count: number): string | null {
  if (count <= 0) return null;
  return m.account_missions_questions_waiting({ count });
}

/** "3 entries", "1 entry". */
export function entriesLabel(count: number): string {
  return m.account_missions_entries({ count });
}

/**
 * The photos of an entry's answers in the order the form shows them (pages, then elements), only
 * from the questions the person saw; each id once.
 */
export function entryPhotoIds(definition: FormDefinition, answers: Answers, today?: string): string[] {
  const source: Answers = isPlainObject(answers) ? answers : {};
  const { pages, elementIds } = resolveVisibility(definition, source, today ? { today } : {});
  const ids: string[] = [];
  for (const page of pages) {
    for (const element of page.elements) {
      if (element.type !== 'photo' || !elementIds.has(element.id) || !Object.hasOwn(source, element.id)) continue;
      const value = source[element.id];
      if (!Array.isArray(value)) continue;
      for (const id of value) if (typeof id === 'string' && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** Where "Edit and resubmit" goes: the mission page, opened on that entry. */
export function editEntryHref(missionId: number, entryId: number): string {
  return `/missions/${missionId}?entry=${entryId}`;
}
