/**
 * The answers export (zod-free: the admin screens import it): a mission's or a project's mission
 * entries, one row per entry and one column per question, as CSV or XLSX
 * (`GET /api/admin/missions/{id}/entries/export`, `GET /api/admin/projects/{id}/entries/export`).
 * Query schema: `schemas/entry-exports.ts`; rules: `src/server/services/entry-exports.ts`.
 */
import { ENTRY_STATUSES, type EntryStatus } from './mission-entries.ts';

export const ENTRY_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type EntryExportFormat = (typeof ENTRY_EXPORT_FORMATS)[number];

export const ENTRY_EXPORT_FORMAT_LABELS: Readonly<Record<EntryExportFormat, string>> = { csv: 'CSV', xlsx: 'Excel' };

/** `all`: every status but drafts (the review queue's default); otherwise one entry status. */
export const ENTRY_EXPORT_STATUSES = ['all', ...ENTRY_STATUSES] as const;
export type EntryExportStatus = 'all' | EntryStatus;

/** What is exported: one mission's entries, or every mission's of a project. */
export type EntryExportScope = { kind: 'mission'; id: number } | { kind: 'project'; id: number };

/** The filters of an export, as the screen holds them ('' for a filter not set). */
export interface EntryExportFilters {
  format: EntryExportFormat;
  status: EntryExportStatus;
  from: string;
  to: string;
}

/** The export's address: the scope's path and the filters that are set. */
export function entryExportHref(scope: EntryExportScope, filters: EntryExportFilters): string {
  const query = new URLSearchParams({ format: filters.format });
  if (filters.status !== 'all') query.set('status', filters.status);
  if (filters.from) query.set('from', filters.from);
  if (filters.to) query.set('to', filters.to);
  return `/api/admin/${scope.kind === 'mission' ? 'missions' : 'projects'}/${scope.id}/entries/export?${query.toString()}`;
}

/** The message of a `to` day before the `from` day (the query schema's and the screen's). */
export const ENTRY_EXPORT_DAYS_MESSAGE = 'Must be on or after the “from” day';
