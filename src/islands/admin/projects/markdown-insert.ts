/** Inserting a snippet into a text where the cursor or selection was (the Markdown editor's "Insert image"). */

export interface Inserted {
  text: string;
  /** The part of the snippet to select afterwards (e.g. the placeholder to type over). */
  selectStart: number;
  selectEnd: number;
}

/**
 * `text` with `snippet` replacing the selection `at` (clamped into the text). The snippet goes on
 * a line of its own: a line break is added before it when the text before does not end one, and
 * after it when the text after does not start one. `select` is the part of the snippet to select
 * afterwards (its first occurrence; the end of the snippet when absent).
 */
export function insertAt(text: string, at: { start: number; end: number }, snippet: string, select?: string): Inserted {
  const start = Math.max(0, Math.min(at.start, text.length));
  const end = Math.max(start, Math.min(at.end, text.length));
  const before = text.slice(0, start);
  const after = text.slice(end);
  const lead = before === '' || before.endsWith('\n') ? '' : '\n';
  const trail = after === '' || after.startsWith('\n') ? '' : '\n';
  const inserted = `${before}${lead}${snippet}${trail}${after}`;
  const snippetStart = before.length + lead.length;
  const offset = select ? snippet.indexOf(select) : -1;
  if (offset < 0 || !select) return { text: inserted, selectStart: snippetStart + snippet.length, selectEnd: snippetStart + snippet.length };
  return { text: inserted, selectStart: snippetStart + offset, selectEnd: snippetStart + offset + select.length };
}
