import { describe, expect, it } from 'vitest';
import { FLAG_KEY_PATTERN, KNOWN_FLAGS, isTruthyFlag, parseFlagValue } from '../../src/shared/flags.ts';
import type { FlagValue } from '../../src/shared/flags.ts';

describe('parseFlagValue', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['0', 0],
    ['42', 42],
    ['-1.5', -1.5],
    ['null', null],
    ['"quoted text"', 'quoted text'],
    ['[1,"a",true]', [1, 'a', true]],
    ['{"text":"Back soon","level":2}', { text: 'Back soon', level: 2 }],
    [' 7 ', 7],
  ] as const)('reads %s as JSON', (raw, expected) => {
    expect(parseFlagValue(raw)).toEqual(expected);
  });

  it.each([
    ['Scheduled maintenance tonight', 'Scheduled maintenance tonight'],
    ['', ''],
    ['True', 'True'],
    ['yes', 'yes'],
    ["{'a':1}", "{'a':1}"],
    ['[1,', '[1,'],
    ['12abc', '12abc'],
  ])('keeps %j as plain text', (raw, expected) => {
    expect(parseFlagValue(raw)).toBe(expected);
  });
});

describe('isTruthyFlag', () => {
  it.each<[string, FlagValue | undefined]>([
    ['false', false],
    ['0', 0],
    ['empty string', ''],
    ['null', null],
    ['undefined (flag not set)', undefined],
    ['empty array', []],
    ['empty object', {}],
  ])('%s is off', (_name, value) => {
    expect(isTruthyFlag(value)).toBe(false);
  });

  it.each<[string, FlagValue]>([
    ['true', true],
    ['a string', 'x'],
    ['the string "false"', 'false'],
    ['1', 1],
    ['a negative number', -1],
    ['a non-empty array', [1]],
    ['an array holding false', [false]],
    ['a non-empty object', { a: 1 }],
  ])('%s is on', (_name, value) => {
    expect(isTruthyFlag(value)).toBe(true);
  });

  it('agrees with parseFlagValue on command-line input', () => {
    expect(isTruthyFlag(parseFlagValue('false'))).toBe(false);
    expect(isTruthyFlag(parseFlagValue('0'))).toBe(false);
    expect(isTruthyFlag(parseFlagValue('[]'))).toBe(false);
    expect(isTruthyFlag(parseFlagValue('1'))).toBe(true);
    expect(isTruthyFlag(parseFlagValue('Back at noon'))).toBe(true);
  });
});

describe('FLAG_KEY_PATTERN', () => {
  it.each(['banner', 'maintenance', 'a', 'new-ui', 'exp.checkout_v2', 'a1', `a${'b'.repeat(63)}`])('accepts %s', (key) => {
    expect(FLAG_KEY_PATTERN.test(key)).toBe(true);
  });

  it.each(['', 'Banner', '1flag', '_flag', '-flag', '.flag', 'has space', 'new/ui', 'émoji', `a${'b'.repeat(64)}`, 'banner\n'])('rejects %j', (key) => {
    expect(FLAG_KEY_PATTERN.test(key)).toBe(false);
  });

  it('accepts the flags the product reads', () => {
    for (const key of Object.values(KNOWN_FLAGS)) expect(FLAG_KEY_PATTERN.test(key)).toBe(true);
  });
});
