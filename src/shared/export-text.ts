/**
 * Text written into the files people and platforms open (issue 27 §2 and §9): every CSV we write
 * (survey responses, users, points batches, review exports, the Alchemer tool's appended cells,
 * the form builder's translation CSV — hence here, shared by server and browser),
 * the XLSX files' text cells and Bazaarvoice's XML feed. Two rules, each in one place:
 *
 * **XML 1.0 characters only** (`xmlText`). XML 1.0 allows tab, LF, CR, U+0020–U+D7FF,
 * U+E000–U+FFFD and U+10000–U+10FFFF (its `Char` production); anything else — the C0 controls
 * Word and PowerPoint paste (U+000B is PowerPoint's line break, U+000C a page break), U+FFFE,
 * U+FFFF, a lone surrogate — makes the whole document unreadable to a strict parser (Bazaarvoice's
 * import, Excel). U+000B and U+000C become a line feed (what they mean in the text they were
 * pasted from); the others are dropped.
 *
 * **Never a formula** (`csvText`, `xlsxText`), after OWASP's "CSV Injection": a spreadsheet runs a
 * cell that starts with `=`, `+`, `-` or `@` (Excel also reads the full-width `＝＋－＠` of
 * Japanese input so), and tab, CR and LF before them are skipped. So:
 * 1. numbers we write as numbers (points, ids, ratings) stay numbers: `-5` is a number, not text;
 * 2. a text cell that starts with one of `= + - @ ＝ ＋ － ＠`, a tab, a CR or an LF gets a leading
 *    `'` (what spreadsheets show as "text"; the reader sees the text with one added character);
 * 3. CSV only: inside a text cell, a character a spreadsheet may split cells on — `,` or `;`
 *    (Excel splits on the list separator of the reader's locale: `;` in most of Europe, where our
 *    quoting of a comma file does not protect the cell) and tab, CR, LF (a line break ends the row
 *    there) — followed by one of `= + - @ ＝ ＋ － ＠` gets a `'` between the two, so no part of the
 *    cell can start a formula however the file is split (`x;=1+1` → `x;'=1+1`). Two followers are
 *    left alone because no formula can come of them, so ordinary text is not marked: a plain
 *    number up to the next separator (`5;-3`) and `-` or `+` before `)` (`;-)`).
 * Prefixing the whole cell instead would not do: the `'` stays in the first part, the formula in
 * another. XLSX cells are never split, so rule 3 is the CSV's alone; the XLSX writers write text as
 * string cells (never formulas), and rule 2 keeps a person who edits such a cell from turning it
 * into one.
 */

/** Characters outside XML 1.0's `Char` production (a lone surrogate too: `u` reads it as one code point). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** `text` with only characters XML 1.0 allows: U+000B and U+000C as a line feed, the others dropped. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, (char) => (char === '\u000b' || char === '\u000c' ? '\n' : ''));
}

/** What a spreadsheet reads as the start of a formula at the start of a cell. */
const CELL_START = /^[=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20]/;
/** A separator a spreadsheet may split a CSV cell on, followed by what starts a formula; the follower's place is the match's end. */
const INNER_START = /[,;\t\r\n](?=[=+\-@\uff1d\uff0b\uff0d\uff20])/g;
/** What follows a separator and can never be a formula: a plain number up to the next separator, or `-`/`+` before `)`. */
const HARMLESS_PART = /^(?:[+-]\d+(?:\.\d+)?(?=[,;\t\r\n]|$)|[+\-\uff0b\uff0d]\))/;

/** A text cell of an XLSX file: XML 1.0 characters only, a leading `'` when it starts like a formula (rule 2). */
export function xlsxText(text: string): string {
  const clean = xmlText(text);
  return CELL_START.test(clean) ? `'${clean}` : clean;
}

/** A text cell of a CSV file that no spreadsheet runs as a formula, however it splits the row (rules 2 and 3). */
export function csvText(text: string): string {
  const inner = text.replace(INNER_START, (separator, at: number) => (HARMLESS_PART.test(text.slice(at + 1)) ? separator : `${separator}'`));
  return CELL_START.test(inner) ? `'${inner}` : inner;
}
