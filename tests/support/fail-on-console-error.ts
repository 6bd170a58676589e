import { afterEach, beforeEach, vi } from 'vitest';

/**
 * An unexpected console.error fails the test. A test that expects one calls
 * `expectConsoleError()` first.
 */
let calls: unknown[][] = [];
let expected = 0;

export function expectConsoleError(count = 1): void {
  expected += count;
}

beforeEach(() => {
  calls = [];
  expected = 0;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    calls.push(args);
  });
});

afterEach(() => {
  vi.mocked(console.error).mockRestore();
  if (calls.length > expected) {
    const shown = calls.map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')).join('\n');
    throw new Error(`Unexpected console.error (${calls.length - expected}):\n${shown}`);
  }
});
