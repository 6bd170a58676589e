/**
 * Limits of the files the admin tools read (points bulk update, Alchemer export append), beside
 * each tool's upload size: what one CSV record and one XLSX workbook may grow to once read
 * (issue 27 §3 and §4; docs/api.md "Admin: tools").
 */

const MiB = 1024 * 1024;

/**
 * The largest CSV record (a row, its quoted line breaks included), in bytes as read: a quote
 * never closed would otherwise make the rest of the file one record, held in memory until the
 * end. Alchemer's longest rows (hundreds of columns, long open answers) are far below it.
 */
export const CSV_RECORD_MAX_BYTES = 4 * MiB;

/**
 * The most an XLSX workbook (a zip) may unpack to, every part counted as it is inflated, before
 * anything reads it: a few MB of zip can unpack to gigabytes. Points: 200,000 rows of a few
 * columns unpack to about 50 MB. Alchemer: the bench's export unpacks to 7 times its zip, about
 * 1 KB a response (50,000 responses: 7.3 MB → 53 MB), so 2 GB is some 1.9 million responses.
 */
export const XLSX_UNPACKED_MAX_BYTES = { points: 256 * MiB, alchemer: 2048 * MiB } as const;

/** A size as people read it: `4 MB`, `2 GB`. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * MiB ? `${Math.round(bytes / (1024 * MiB))} GB` : `${Math.round(bytes / MiB)} MB`;
}
