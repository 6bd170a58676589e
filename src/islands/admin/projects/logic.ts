/**
 * The pure rules behind the programme's admin screens: status words
 * and the project's status moves, completion, reordering a mission group's list, and the numbers
 * the survey results show. No React, no zod: unit-tested on their own.
 */
import type { EntryStatus } from '../../../shared/mission-entries.ts';
import type { ActivityStatus, ProjectStatus } from '../../../shared/projects.ts';
import { currentLanguage, m } from '../../../shared/i18n.ts';

/**
 * The status words. Getters: each reading asks for the text in the page's language (a module-level
 * text would be fixed in whatever language first loaded the module).
 */
export const PROJECT_STATUS_LABELS: Readonly<Record<ProjectStatus, string>> = {
  get draft() {
    return m.projects_status_draft();
  },
  get live() {
    return m.projects_status_live();
  },
  get closed() {
    return m.projects_status_closed();
  },
  get archived() {
    return m.projects_status_archived();
  },
};
export const ACTIVITY_STATUS_LABELS: Readonly<Record<ActivityStatus, string>> = {
  get draft() {
    return m.projects_status_draft();
  },
  get live() {
    return m.projects_status_live();
  },
  get closed() {
    return m.projects_status_closed();
  },
};
export const ENTRY_STATUS_LABELS: Readonly<Record<EntryStatus, string>> = {
  get draft() {
    return m.projects_entry_status_draft();
  },
  get submitted() {
    return m.projects_entry_status_submitted();
  },
  get approved() {
    return m.projects_entry_status_approved();
  },
  get changes_requested() {
    return m.projects_entry_status_changes_requested();
  },
  get rejected() {
    return m.projects_entry_status_rejected();
  },
};

/**
 * What a survey's or mission's status badge adds when it is live in a draft project: members do
 * not see it yet (issue 17); null otherwise.
 */
export function hiddenLiveNote(status: ActivityStatus, projectStatus: ProjectStatus | undefined): string | null {
  return status === 'live' && projectStatus === 'draft' ? m.projects_hidden_live_note() : null;
}

/** What each project status means for members, said once beside the status. */
export const PROJECT_STATUS_HELP: Readonly<Record<ProjectStatus, string>> = {
  get draft() {
    return m.projects_status_help_draft();
  },
  get live() {
    return m.projects_status_help_live();
  },
  get closed() {
    return m.projects_status_help_closed();
  },
  get archived() {
    return m.projects_status_help_archived();
  },
};

export interface StatusMove {
  to: ProjectStatus;
  /** The button's label. */
  label: string;
  /** What happens, for the confirmation. */
  effect: string;
}

/**
 * The status moves a project offers: draft → live → closed, a closed project can reopen, any
 * project can be archived, and an archived one comes back as a draft (hidden until it goes live
 * again).
 */
export function projectMoves(status: ProjectStatus): StatusMove[] {
  const archive: StatusMove = { to: 'archived', label: m.projects_move_archive(), effect: m.projects_move_archive_effect() };
  switch (status) {
    case 'draft':
      return [{ to: 'live', label: m.projects_move_go_live(), effect: m.projects_move_go_live_effect() }, archive];
    case 'live':
      return [{ to: 'closed', label: m.projects_move_close(), effect: m.projects_move_close_effect() }, archive];
    case 'closed':
      return [{ to: 'live', label: m.projects_move_reopen(), effect: m.projects_move_reopen_effect() }, archive];
    case 'archived':
      return [{ to: 'draft', label: m.projects_move_restore(), effect: m.projects_move_restore_effect() }];
  }
}

/** Submitted out of members as a whole percentage (0 when there are no members), for a completion bar. */
export function completionPercent(submitted: number, members: number): number {
  if (!(members > 0) || !(submitted > 0)) return 0;
  return Math.min(100, Math.round((submitted / members) * 100));
}

/** `items` with the one at `index` moved by `delta` places (kept inside the list); the same list when it cannot move. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length || delta === 0) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** A share as a percentage with at most one decimal ("33.3"), 0 when there is no whole. */
export function percentOf(count: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.round((count / whole) * 1000) / 10;
}

/** A number as the results show it: at most two decimals ("3.67"), a dash when missing. */
export function formatAverage(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: 2 }).format(value);
}

/** "1 member" / "3 members". */
export function plural(count: number, one: string, many: string): string {
  return `${new Intl.NumberFormat('en').format(count)} ${count === 1 ? one : many}`;
}

/** A text field of a number: '' → null (not set), else the number (NaN when not one, which validation reports). */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isNaN(value) ? Number.NaN : value;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : Number(text);
}

/** A required number field: '' and non-numbers are NaN (validation says "Required"). */
export function numberOrNaN(value: unknown): number {
  const parsed = numberOrNull(value);
  return parsed === null ? Number.NaN : parsed;
}
