import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../src/shared/limits.ts';
import { MESSAGES } from '../../src/shared/messages.ts';
import { ROLES } from '../../src/shared/roles.ts';
import { registerSchema } from '../../src/shared/schemas/auth.ts';
import { emailSchema, hasAllCharacterClasses, nameSchema, passwordSchema, requiredString, roleSchema } from '../../src/shared/schemas/common.ts';

/** The messages a value gets, in order; [] when it is valid. */
function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** The parsed value, failing the test when the value is rejected. */
function parsed(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`rejected: ${result.error.issues.map((i) => i.message).join(', ')}`);
  return result.data;
}

/** A valid address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const domain = '@example.org';
  return `${'a'.repeat(length - domain.length)}${domain}`;
}

describe('messages (docs/product.md §5 wording)', () => {
  it('are word for word', () => {
    expect(MESSAGES.required).toBe('Required');
    expect(MESSAGES.tooLong).toBe('Too long');
    expect(MESSAGES.invalidEmail).toBe('Invalid email');
    expect(MESSAGES.missingRequirements).toBe('Missing requirements');
    expect(MESSAGES.passwordsDoNotMatch).toBe('Passwords do not match');
    expect(MESSAGES.invalidEnumValue).toBe('Invalid enum value');
  });

  it('limits are docs/product.md §9 ones', () => {
    expect(EMAIL_MAX_LENGTH).toBe(255);
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
  });
});

describe('emailSchema', () => {
  it('trims and lower-cases', () => {
    expect(parsed(emailSchema, '  Dana.Ortiz@Example.ORG \n')).toBe('dana.ortiz@example.org');
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['not a string', 42],
    ['empty', ''],
    ['whitespace only', '  \t '],
  ])('is Required when %s', (_case, value) => {
    expect(messagesOf(emailSchema, value)).toEqual(['Required']);
  });

  it(`accepts exactly ${EMAIL_MAX_LENGTH} characters`, () => {
    const email = emailOfLength(255);
    expect(email).toHaveLength(255);
    expect(parsed(emailSchema, email)).toBe(email);
  });

  it('is Too long past 255 characters (and says nothing else)', () => {
    expect(messagesOf(emailSchema, emailOfLength(256))).toEqual(['Too long']);
    expect(messagesOf(emailSchema, 'x'.repeat(300))).toEqual(['Too long']);
    // Registration is ours: it says the limit (issue 28 §12).
    expect(messagesOf(registerSchema.shape.email, emailOfLength(256))).toEqual([`At most ${EMAIL_MAX_LENGTH} characters`]);
  });

  it('counts the length after trimming', () => {
    expect(parsed(emailSchema, `   ${emailOfLength(255)}   `)).toBe(emailOfLength(255));
  });

  it.each(['nope', 'a@b', 'a@@example.org', 'a b@example.org', '@example.org', 'dana@', 'dana@example.'])('is Invalid email for %s', (value) => {
    expect(messagesOf(emailSchema, value)).toEqual(['Invalid email']);
  });

  it.each(['dana@example.org', 'first.last+tag@sub.example.co.uk', "o'neil@example.org"])('accepts %s', (value) => {
    expect(parsed(emailSchema, value)).toBe(value);
  });
});

describe('passwordSchema', () => {
  it('accepts a strong password unchanged', () => {
    expect(parsed(passwordSchema, 'Str0ng-password')).toBe('Str0ng-password');
  });

  it('never trims or truncates', () => {
    expect(parsed(passwordSchema, '  Str0ng-password  ')).toBe('  Str0ng-password  ');
    const longest = `Aa1-${'x'.repeat(PASSWORD_MAX_LENGTH - 4)}`;
    expect(parsed(passwordSchema, longest)).toBe(longest);
  });

  it('is Required when missing or not a string', () => {
    expect(messagesOf(passwordSchema, undefined)).toEqual(['Required']);
    expect(messagesOf(passwordSchema, null)).toEqual(['Required']);
    expect(messagesOf(passwordSchema, 12345678)).toEqual(['Required']);
  });

  it('says only Required when empty', () => {
    expect(messagesOf(passwordSchema, '')).toEqual(['Required']);
  });

  it.each([
    ['a digit', 'Strong-password'],
    ['a lower-case letter', 'STR0NG-PASSWORD'],
    ['an upper-case letter', 'str0ng-password'],
    ['a special character', 'Str0ngPassword'],
    ['a special character (a space is not one)', 'Str0ng password'],
  ])('is Missing requirements without %s', (_missing, value) => {
    expect(messagesOf(passwordSchema, value)).toEqual(['Missing requirements']);
  });

  it(`is Too short under ${PASSWORD_MIN_LENGTH} characters`, () => {
    expect(messagesOf(passwordSchema, 'Aa1-xyz')).toEqual([MESSAGES.tooShort]);
    expect(parsed(passwordSchema, 'Aa1-wxyz')).toBe('Aa1-wxyz');
  });

  it(`is Too long over ${PASSWORD_MAX_LENGTH} characters`, () => {
    expect(messagesOf(passwordSchema, `Aa1-${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`)).toEqual([MESSAGES.tooLong]);
  });

  it.each(['ÄÖÜäöü1!', 'ПАРОЛЬпароль1!', 'ÉcoleÉTÉ-2024', 'Straße-9X'])('counts unicode letters: %s', (value) => {
    expect(parsed(passwordSchema, value)).toBe(value);
  });
});

describe('hasAllCharacterClasses', () => {
  it.each([
    ['Aa1!', true],
    ['Aa1_', true],
    ['Aa1€', true],
    ['Aa1😀', true],
    ['Éé1-', true],
    ['', false],
    ['Aa1 ', false],
    ['Aa1\t', false],
    ['Aa!!', false],
    ['aa1!', false],
    ['AA1!', false],
  ])('%j → %s', (value, expected) => {
    expect(hasAllCharacterClasses(value)).toBe(expected);
  });
});

describe('roleSchema', () => {
  it.each(ROLES.map((role) => [role] as const))('accepts %s', (role) => {
    expect(parsed(roleSchema, role)).toBe(role);
  });

  it('has exactly the three roles', () => {
    expect([...ROLES].sort()).toEqual(['admin', 'moderator', 'participant']);
  });

  it.each([['Admin'], ['owner'], [''], [' admin'], [undefined], [1]])('rejects %j as Invalid enum value', (value) => {
    expect(messagesOf(roleSchema, value)).toEqual(['Invalid enum value']);
  });
});

describe('nameSchema', () => {
  it('trims', () => {
    expect(parsed(nameSchema, '  Ann Lee \n')).toBe('Ann Lee');
  });

  it.each([[undefined], [''], ['   '], [7]])('is Required for %j', (value) => {
    expect(messagesOf(nameSchema, value)).toEqual(['Required']);
  });

  it(`accepts ${NAME_MAX_LENGTH} characters and says the limit past them (issue 28 §12)`, () => {
    expect(parsed(nameSchema, 'n'.repeat(NAME_MAX_LENGTH))).toBe('n'.repeat(NAME_MAX_LENGTH));
    expect(messagesOf(nameSchema, 'n'.repeat(NAME_MAX_LENGTH + 1))).toEqual([`At most ${NAME_MAX_LENGTH} characters`]);
  });
});

describe('requiredString', () => {
  it('is Required when missing, not a string or empty', () => {
    const schema = requiredString();
    expect(messagesOf(schema, undefined)).toEqual(['Required']);
    expect(messagesOf(schema, 3)).toEqual(['Required']);
    expect(messagesOf(schema, '')).toEqual(['Required']);
    expect(parsed(schema, 'x')).toBe('x');
  });
});

describe('programme payloads report every problem at once', () => {
  it('a survey without a title and without its form names both', async () => {
    const { surveyCreateSchema } = await import('../../src/shared/schemas/surveys.ts');
    const { missionCreateSchema } = await import('../../src/shared/schemas/missions.ts');
    const survey = surveyCreateSchema.safeParse({ title: '', kind: 'native', opensAt: '2026-12-02T09:00:00Z', closesAt: '2026-12-01T09:00:00Z' });
    expect(survey.success).toBe(false);
    const paths = survey.error?.issues.map((issue) => [issue.path.join('.'), issue.message]);
    expect(paths).toEqual(
      expect.arrayContaining([
        ['title', 'Required'],
        ['formId', 'Choose a form'],
        ['closesAt', 'Must be after the opening time'],
      ]),
    );
    const external = surveyCreateSchema.safeParse({ title: 'x'.repeat(201), kind: 'external' });
    expect(external.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['title', 'externalUrl']));
    const mission = missionCreateSchema.safeParse({ title: '', formId: 3, opensAt: '2026-12-02T09:00:00Z', closesAt: '2026-12-01T09:00:00Z' });
    expect(mission.error?.issues.map((issue) => issue.path.join('.'))).toEqual(expect.arrayContaining(['title', 'closesAt']));
  });
});
