/**
 * The most common passwords (issue 29 §6): a new password that is one of them is refused wherever
 * a password is chosen (onboarding, reset, change, the CLI's `user:create`), on top of the product's
 * four character classes. The list is zxcvbn-ts's common-password list
 * (`@zxcvbn-ts/language-common`, MIT; ranked, most common first, lower case), of which the first
 * `COMMON_PASSWORD_COUNT` are read once, on first use, into a set: lookups compare lower-cased.
 * Most of them already fail the character classes; those that pass them (`P@ssw0rd`) are the ones
 * this catches.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { ApiError } from '../errors.ts';

/** How many of the ranked list count as "too common". */
export const COMMON_PASSWORD_COUNT = 10_000;
export const COMMON_PASSWORD_MESSAGE = 'This password is too common: choose another';

let common: ReadonlySet<string> | undefined;

function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const file = createRequire(import.meta.url).resolve('@zxcvbn-ts/language-common/src/passwords.json');
    const ranked = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (!Array.isArray(ranked) || ranked.length < COMMON_PASSWORD_COUNT) throw new Error(`${file}: not a ranked list of ${COMMON_PASSWORD_COUNT} passwords`);
    common = new Set(ranked.slice(0, COMMON_PASSWORD_COUNT).map((password) => String(password).toLowerCase()));
  }
  return common;
}

/** Whether a password is one of the 10,000 most common (any case). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/** 400 `validation_failed` on `fields.password` for a common password (a newly chosen one). */
export function assertUncommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { [field]: [COMMON_PASSWORD_MESSAGE] } });
  }
}
