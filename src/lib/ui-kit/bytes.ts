/** Byte sizes for people (docs/product.md §9): B, KB, MB, GB, TB in steps of 1024. */
import { currentLanguage } from '../../shared/i18n.ts';
import { BYTE_STEP, BYTE_UNITS } from '../../shared/ui-constants.ts';

export type ByteUnit = (typeof BYTE_UNITS)[number];

/**
 * "0 B", "1023 B", "1 KB", "1.5 KB", "1 TB", "2048 TB" (digits and decimal sign in the page's
 * language: "1,5 KB" in German; no grouping). At most `decimals` fraction digits
 * (default 2), trailing zeros dropped; a value that rounds up to 1024 moves to the next unit
 * (1048575 → "1 MB", not "1024 KB"). Negative sizes keep their sign; NaN and ±Infinity are a
 * programming error (RangeError).
 */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes)) throw new RangeError(`formatBytes: not a finite number: ${bytes}`);
  const digits = Number.isFinite(decimals) ? Math.min(20, Math.max(0, Math.floor(decimals))) : 2;
  const sign = bytes < 0 ? '-' : '';
  const size = Math.abs(bytes);
  const last = BYTE_UNITS.length - 1;
  let unit = size < 1 ? 0 : Math.min(last, Math.floor(Math.log(size) / Math.log(BYTE_STEP)));
  // Guard against log rounding (e.g. 1024 ** 5 giving 4.999…).
  while (unit < last && size >= BYTE_STEP ** (unit + 1)) unit += 1;
  let value = Number((size / BYTE_STEP ** unit).toFixed(digits));
  if (value >= BYTE_STEP && unit < last) {
    unit += 1;
    value = Number((size / BYTE_STEP ** unit).toFixed(digits));
  }
  const number = new Intl.NumberFormat(currentLanguage(), { maximumFractionDigits: digits, useGrouping: false }).format(value);
  return `${value === 0 ? '' : sign}${number} ${BYTE_UNITS[unit] ?? 'B'}`;
}
