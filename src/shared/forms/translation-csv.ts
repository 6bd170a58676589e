/**
 * A form's translations into one language as a CSV file, for a translator's spreadsheet (the
 * builder's translation editor; decision 035): columns `key`, `kind`, `source`, `translation`,
 * one row per translatable text (`translatableTexts`), UTF-8 with a byte order mark (so Excel
 * reads accents and Arabic right), CRLF, every cell quoted and made formula-safe by the one guard
 * of every CSV we write (`csvText`, ../export-text.ts).
 *
 * Reading one back (`parseTranslationCsv`, then `applyTranslationCsv`) matches rows by `key`:
 * a key the form does not have, a row whose `source` is no longer the form's source text (it
 * changed since the export: the translation may be wrong), a key twice — each is reported and
 * never applied. A blank translation is skipped (it never deletes one). A cell the guard marked
 * reads back as it was written (`'=x` → `=x`). The separator may be `,` `;` or a tab (Excel saves
 * with the reader's list separator). Pure functions: no DOM, no messages (the editor words them).
 */
import { fileNameSlug } from '../file-name.ts';
import Papa from 'papaparse';
import type { Language } from '../languages.ts';
import { csvText } from '../export-text.ts';
import { translatableTexts, translationOf, translationState, withTranslation, type TranslatableText } from './translations.ts';

export const TRANSLATION_CSV_COLUMNS = ['key', 'kind', 'source', 'translation'] as const;

/** The largest translation CSV read, in characters (a form's texts are far below it). */
export const TRANSLATION_CSV_MAX_CHARS = 5_000_000;

const BOM = '\ufeff';

const quoted = (cell: string): string => `"${csvText(cell).replace(/"/g, '""')}"`;

/** The CSV of a definition's texts and their translations into `language` (blank when missing). */
export function translationCsv(definition: unknown, language: Language): string {
  const rows = translatableTexts(definition).map((text) => [text.key, text.kind, text.source, translationOf(definition, text.key, language) ?? '']);
  return BOM + [[...TRANSLATION_CSV_COLUMNS], ...rows].map((row) => row.map(quoted).join(',')).join('\r\n') + '\r\n';
}

/** The file name of a form's translation CSV: `{slug}-{language}.csv`. */
export function translationCsvFileName(title: string, language: Language): string {
  return `${fileNameSlug(title, 'form')}-${language}.csv`;
}

/** One row of a translation CSV; `line` counts the header as 1. */
export interface TranslationCsvRow {
  line: number;
  key: string;
  kind: string;
  source: string;
  translation: string;
}

/** Why a file cannot be read as a translation CSV. */
export type TranslationCsvError =
  | { code: 'empty' }
  | { code: 'too_large' }
  /** A quote opened and never closed, or text after a closing quote; `line`: the row it starts on (header = 1). */
  | { code: 'bad_quotes'; line: number }
  /** The header lacks `key` or `translation` (or `source`, needed to tell a changed source). */
  | { code: 'missing_columns'; columns: string[] };

export type TranslationCsvParsed = { ok: true; rows: TranslationCsvRow[] } | { ok: false; error: TranslationCsvError };

/** Marks the guard may have added (`'` before what starts a formula, at the start or after a separator). */
const GUARD_MARK = /(^|[,;\t\r\n])'(?=[=+\-@\uff1d\uff0b\uff0d\uff20\t\r\n])/g;

/** A cell as it was before the guard: the marks removed, when the guard gives the cell back from the result. */
export function unguardCell(cell: string): string {
  const plain = cell.replace(GUARD_MARK, '$1');
  return plain !== cell && csvText(plain) === cell ? plain : cell;
}

/** Reads a translation CSV's rows (see the module comment); a clear error when it is not one. */
export function parseTranslationCsv(text: string): TranslationCsvParsed {
  if (text.length > TRANSLATION_CSV_MAX_CHARS) return { ok: false, error: { code: 'too_large' } };
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (body.trim() === '') return { ok: false, error: { code: 'empty' } };
  const parsed = Papa.parse<string[]>(body, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const quotes = parsed.errors.find((error) => error.type === 'Quotes');
  if (quotes) return { ok: false, error: { code: 'bad_quotes', line: (quotes.row ?? 0) + 1 } };
  const [header = [], ...data] = parsed.data;
  const names = header.map((cell) => cell.trim().toLowerCase());
  const at = (name: string) => names.indexOf(name);
  const missing = ['key', 'source', 'translation'].filter((name) => at(name) === -1);
  if (missing.length > 0) return { ok: false, error: { code: 'missing_columns', columns: missing } };
  const cell = (row: readonly string[], name: string) => (at(name) === -1 ? '' : unguardCell(row[at(name)] ?? ''));
  const rows = data.map((row, index) => ({
    line: index + 2,
    key: cell(row, 'key').trim(),
    kind: cell(row, 'kind').trim(),
    source: cell(row, 'source'),
    translation: cell(row, 'translation'),
  }));
  return { ok: true, rows: rows.filter((row) => row.key !== '' || row.source !== '' || row.translation !== '') };
}

/** What reading a translation CSV into a draft did. */
export interface TranslationImport<T> {
  /** The draft with the applied translations (the same object when none applied). */
  draft: T;
  /** Rows whose translation was set (new, changed, or an outdated one saved again). */
  applied: TranslationCsvRow[];
  /** Rows whose translation was already the draft's. */
  unchanged: TranslationCsvRow[];
  /** Rows with a blank translation: skipped (a blank never deletes a translation). */
  blank: TranslationCsvRow[];
  /** Rows whose key the form does not have (or no longer has): not applied. */
  unknown: TranslationCsvRow[];
  /** Rows whose source is not the form's source text any more: not applied (the translation may be wrong). */
  sourceChanged: TranslationCsvRow[];
  /** A key seen again further down: not applied. */
  duplicate: TranslationCsvRow[];
}

/** Two source texts are the same when they differ at most in line endings and the space around them. */
const sameSource = (a: string, b: string) => a.replace(/\r\n?/g, '\n').trim() === b.replace(/\r\n?/g, '\n').trim();

/** Applies a translation CSV's rows to a draft's translations into `language` (see TranslationImport). */
export function applyTranslationCsv<T extends object>(draft: T, language: Language, rows: readonly TranslationCsvRow[]): TranslationImport<T> {
  const texts = new Map<string, TranslatableText>(translatableTexts(draft).map((text) => [text.key, text]));
  const result: TranslationImport<T> = { draft, applied: [], unchanged: [], blank: [], unknown: [], sourceChanged: [], duplicate: [] };
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.key)) {
      result.duplicate.push(row);
      continue;
    }
    seen.add(row.key);
    const text = texts.get(row.key);
    if (!text) result.unknown.push(row);
    else if (!sameSource(row.source, text.source)) result.sourceChanged.push(row);
    else if (row.translation.trim() === '') result.blank.push(row);
    else if (translationOf(result.draft, row.key, language) === row.translation && translationState(result.draft, text, language) === 'translated')
      result.unchanged.push(row);
    else {
      result.draft = withTranslation(result.draft, text, language, row.translation);
      result.applied.push(row);
    }
  }
  return result;
}
