/** The formula guard and XML 1.0 text of every file we write: moved to src/shared/export-text.ts (the builder's translation CSV uses it too). */
export { csvText, xlsxText, xmlText } from '../../shared/export-text.ts';
