/** Building request bodies: a survey's kind-specific fields, and PATCH bodies of only what changed (so the audit log says what an admin did). */

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * The fields of `after` whose value differs from `before` (deeply: arrays and objects by their
 * content); fields `after` does not have are left out.
 */
export function changedFields<T extends object>(before: T, after: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (!same(before[key], after[key])) out[key] = after[key];
  }
  return out;
}

interface SurveyKindFields {
  kind: 'native' | 'external';
  formId: number | null;
  formVersion: number | null;
  externalUrl: string | null;
  trustReturns: boolean;
}

/**
 * A survey's values with the other kind's fields cleared: a native survey has no link and does
 * not trust returns; an external one has no form, and an empty link is null.
 */
export function normalizeSurvey<T extends SurveyKindFields>(values: T): T {
  if (values.kind === 'native') return { ...values, externalUrl: null, trustReturns: false };
  return { ...values, formId: null, formVersion: null, externalUrl: values.externalUrl?.trim() ? values.externalUrl : null };
}
