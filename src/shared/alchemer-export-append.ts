/**
 * Alchemer export append (`/admin/tools/alchemer-export-append`, docs/api.md "Alchemer export
 * append", decision 016): the profile fields that can be appended to a client's Alchemer export,
 * their labels and appended column headers, the age bands, the limits, and the answers' shapes.
 */

/** The profile fields an admin can append, in the order their columns are appended. */
export const APPEND_FIELDS = ['firstName', 'lastName', 'email', 'country', 'region', 'postcode', 'ageBand', 'projects', 'points'] as const;
export type AppendField = (typeof APPEND_FIELDS)[number];

/** What the screen calls each field (its checkbox). */
export const APPEND_FIELD_LABELS: Record<AppendField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  country: 'Country',
  region: 'Region',
  postcode: 'Postcode',
  ageBand: 'Age band',
  projects: 'Projects',
  points: 'Points',
};

/** The header of an appended column: `Fieldwork: <label>`, so the client sees which columns are ours. */
export const appendedHeader = (field: AppendField): string => `Fieldwork: ${APPEND_FIELD_LABELS[field]}`;

/** The added column that flags each row: `Matched`, or `No match` when its reference matches nobody. */
export const MATCH_HEADER = 'Fieldwork: Match';
export const MATCHED = 'Matched';
export const NOT_MATCHED = 'No match';

/** The column Alchemer writes the `pid` URL variable to: proposed first as the id column. */
export const ALCHEMER_PID_COLUMN = 'URL Variable: pid';
/** Alchemer's status column, and the status whose rows "Confirm completes" confirms. */
export const ALCHEMER_STATUS_COLUMN = 'Status';
export const ALCHEMER_COMPLETE_STATUS = 'Complete';

/**
 * Age bands, from the participant's optional year of birth (their profile; empty when not given):
 * the first band whose `max` is at or above the age.
 */
export const AGE_BANDS = [
  { label: 'Under 18', max: 17 },
  { label: '18–24', max: 24 },
  { label: '25–34', max: 34 },
  { label: '35–44', max: 44 },
  { label: '45–54', max: 54 },
  { label: '55–64', max: 64 },
  { label: '65+', max: Number.POSITIVE_INFINITY },
] as const;

/**
 * The band of a year of birth in the year of `today` (UTC), or '' when there is none. The age is
 * the one reached this year: this year minus the year of birth (Fieldwork holds the year only, so
 * someone whose birthday is still to come this year counts a year older).
 */
export function ageBandOfBirthYear(birthYear: number | null | undefined, today: Date): string {
  if (birthYear === null || birthYear === undefined || !Number.isInteger(birthYear)) return '';
  const age = today.getUTCFullYear() - birthYear;
  if (age < 0) return '';
  return AGE_BANDS.find((band) => age <= band.max)?.label ?? '';
}

export const ALCHEMER_APPEND_LIMITS = {
  /** The uploaded file, either format (413 over it). */
  maxBytes: 512 * 1024 * 1024,
  /** Data rows the preview samples per column to count matching references. */
  sampleRows: 200,
  /** Rows looked up (and confirmed) together. */
  batchRows: 1_000,
} as const;

/** The multipart field names of both calls. */
export const APPEND_FORM_FIELDS = { file: 'file', idColumn: 'idColumn', fields: 'fields[]', confirmCompletes: 'confirmCompletes' } as const;

/** The response headers carrying the append's counts (exposed to the browser). */
export const APPEND_COUNT_HEADERS = {
  rows: 'Fieldwork-Rows',
  matched: 'Fieldwork-Matched',
  unmatched: 'Fieldwork-Unmatched',
  confirmed: 'Fieldwork-Confirmed',
  alreadyConfirmed: 'Fieldwork-Already-Confirmed',
  notConfirmed: 'Fieldwork-Not-Confirmed',
} as const;
export type AppendCountName = keyof typeof APPEND_COUNT_HEADERS;
export type AppendCounts = Record<AppendCountName, number>;

export type ExportFormat = 'csv' | 'xlsx';
/** A CSV's encoding as found: UTF-8 with or without a byte order mark, or Windows-1252; null for XLSX. */
export type ExportEncoding = 'utf-8-bom' | 'utf-8' | 'windows-1252';

export const ENCODING_LABELS: Record<ExportEncoding, string> = {
  'utf-8-bom': 'UTF-8 with byte order mark',
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252',
};

/** One column of the export as the preview found it. */
export interface ExportColumn {
  /** Its position, from 0 (header names can repeat). */
  index: number;
  /** Its header as written in the file (non-breaking spaces kept). */
  name: string;
  /** Non-empty values sampled in it. */
  sampled: number;
  /** Of those, how many are a Fieldwork reference. */
  matches: number;
}

/** `POST /api/admin/tools/alchemer-export-append/preview`. */
export interface ExportPreview {
  fileName: string;
  format: ExportFormat;
  encoding: ExportEncoding | null;
  bytes: number;
  /** Data rows (the header not counted; blank lines not counted). */
  rows: number;
  columns: ExportColumn[];
  /** The proposed id column's name (the one whose values match references, `URL Variable: pid` first), or null. */
  proposedIdColumn: string | null;
  /** Whether the file has a `Status` column (needed to confirm completes). */
  hasStatus: boolean;
}

/** The name of the appended file: `<original name> (Fieldwork).<ext>`. */
export function appendedFileName(original: string, format: ExportFormat): string {
  const base = original.replace(/\.(csv|xlsx|txt)$/i, '').trim() || 'alchemer-export';
  return `${base} (Fieldwork).${format}`;
}
