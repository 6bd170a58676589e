// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../../src/lib/ui-kit/bytes.ts';

describe('formatBytes (B, KB, MB, GB, TB; steps of 1024)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1024 ** 2, '1 MB'],
    [1.25 * 1024 ** 2, '1.25 MB'],
    [1024 ** 3, '1 GB'],
    [1024 ** 4, '1 TB'],
    [1024 ** 5, '1024 TB'],
    [2 * 1024 ** 6, '2097152 TB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('rounds to two decimals by default, dropping trailing zeros', () => {
    expect(formatBytes(1234)).toBe('1.21 KB');
    expect(formatBytes(1024 + 10)).toBe('1.01 KB');
    expect(formatBytes(1024 + 1)).toBe('1 KB');
  });

  it('takes the number of decimals', () => {
    expect(formatBytes(1234, 0)).toBe('1 KB');
    expect(formatBytes(1234, 1)).toBe('1.2 KB');
    expect(formatBytes(1234, 3)).toBe('1.205 KB');
    expect(formatBytes(1234, -2)).toBe('1 KB');
  });

  it('moves up a unit when rounding reaches 1024', () => {
    expect(formatBytes(1024 ** 2 - 1)).toBe('1 MB');
    expect(formatBytes(1024 ** 2 - 1, 3)).toBe('1023.999 KB');
  });

  it('keeps the sign of negative sizes', () => {
    expect(formatBytes(-1536)).toBe('-1.5 KB');
    expect(formatBytes(-0)).toBe('0 B');
  });

  it('refuses NaN and infinities', () => {
    expect(() => formatBytes(Number.NaN)).toThrow(RangeError);
    expect(() => formatBytes(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('writes the number in the page’s language: a decimal comma in German, Arabic digits in Arabic', () => {
    document.documentElement.lang = 'de';
    try {
      expect(formatBytes(1536)).toBe('1,5 KB');
      expect(formatBytes(2048 * 1024 ** 4)).toBe('2048 TB');
      document.documentElement.lang = 'ar';
      expect(formatBytes(1536)).toBe(`${new Intl.NumberFormat('ar').format(1.5)} KB`);
    } finally {
      document.documentElement.lang = 'en';
    }
  });
});
