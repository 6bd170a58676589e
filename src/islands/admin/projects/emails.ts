/**
 * Email addresses as admins bring them to a project: pasted from anywhere (one a line, separated
 * by commas, semicolons, tabs or spaces, `Name <address>` from a mail client, `mailto:` links) or
 * read from a CSV file (the column of addresses is found by its header or by its content). The
 * API judges what is an address; here we only cut the text into candidates, so that a typo is
 * sent too and comes back listed as invalid instead of vanishing.
 */
import type { AddMembersResult } from '../../../shared/projects.ts';

/** Characters that wrap an address in the wild: quotes, brackets, a trailing dot or colon. */
const WRAPPERS = /^[\s"'“”‘’<>()[\]{}]+|[\s"'“”‘’<>()[\]{}.,;:]+$/g;

function clean(candidate: string): string {
  return candidate
    .replace(WRAPPERS, '')
    .replace(/^mailto:/i, '')
    .trim()
    .toLowerCase();
}

/**
 * The addresses in a pasted text, lower-cased, each once, in the order first seen. Quoted
 * display names are dropped. Within a piece (between commas, semicolons, tabs or line breaks) `Name <address>` gives the address; a
 * piece with words that contain `@` keeps those words only (names beside addresses are dropped);
 * a piece without any `@` is kept whole, so the API can report it as invalid.
 */
export function parseEmailText(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (value: string) => {
    const email = clean(value);
    if (email === '' || seen.has(email)) return;
    seen.add(email);
    out.push(email);
  };
  // Quoted display names ("Hopper, Grace" <grace@…>) may hold separators: drop them first.
  const unquoted = text.replace(/"[^"@\n]*"|“[^”@\n]*”/g, ' ');
  for (const piece of unquoted.split(/[\n\r,;\t]+/)) {
    const trimmed = piece.trim();
    if (trimmed === '') continue;
    const bracketed = [...trimmed.matchAll(/<([^<>]*@[^<>]*)>/g)].map((match) => match[1] ?? '');
    if (bracketed.length > 0) {
      bracketed.forEach(add);
      continue;
    }
    const words = trimmed.split(/\s+/);
    const withAt = words.filter((word) => word.includes('@'));
    if (withAt.length > 0) withAt.forEach(add);
    else add(trimmed);
  }
  return out;
}

/** Header names that say "this column holds email addresses". */
const EMAIL_HEADER = /^(e-?mail|e-?mail[ _-]?address(es)?|e-?mails|courriel|mail)$/i;

/** A CSV's cells as text (papaparse gives strings; anything else is stringified). */
type Rows = readonly (readonly unknown[])[];

function cellText(value: unknown): string {
  return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
}

export interface CsvEmails {
  /** The addresses found (see `parseEmailText`), each once. */
  emails: string[];
  /** The 0-based column they came from; null when no column holds addresses. */
  column: number | null;
  /** That column's header when the first row is a header. */
  header: string | null;
}

/**
 * The addresses of a parsed CSV (rows of cells): the column whose header names an email
 * (`email`, `E-mail address`, …), else the column with the most cells containing `@`. A first
 * row without an `@` in that column is taken for a header. Empty cells are skipped.
 */
export function emailsFromRows(rows: Rows): CsvEmails {
  const first = rows[0] ?? [];
  let column = first.findIndex((cell) => EMAIL_HEADER.test(cellText(cell).trim()));
  if (column < 0) {
    const counts: number[] = [];
    for (const row of rows) {
      row.forEach((cell, index) => {
        if (cellText(cell).includes('@')) counts[index] = (counts[index] ?? 0) + 1;
      });
    }
    let best = -1;
    counts.forEach((count, index) => {
      if (count > 0 && (best < 0 || count > (counts[best] ?? 0))) best = index;
    });
    column = best;
  }
  if (column < 0) return { emails: [], column: null, header: null };
  const headerCell = cellText(first[column]).trim();
  const hasHeader = rows.length > 0 && !headerCell.includes('@');
  const values = rows
    .slice(hasHeader ? 1 : 0)
    .map((row) => cellText(row[column]).trim())
    .filter((value) => value !== '');
  return { emails: parseEmailText(values.join('\n')), column, header: hasHeader ? headerCell : null };
}

/** `items` cut into slices of at most `size` (the API takes a bounded number of addresses per call). */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** The answers of several add-members calls as one. */
export function mergeAddResults(results: readonly AddMembersResult[]): AddMembersResult {
  const merged: AddMembersResult = { added: [], alreadyMembers: [], unknown: [], invalid: [] };
  for (const result of results) {
    merged.added.push(...result.added);
    merged.alreadyMembers.push(...result.alreadyMembers);
    merged.unknown.push(...result.unknown);
    merged.invalid.push(...result.invalid);
    if (result.invited) (merged.invited ??= []).push(...result.invited);
  }
  return merged;
}
