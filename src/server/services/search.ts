/** Escapes LIKE wildcards so a search is taken literally; returns the `%…%` pattern for ilike. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
