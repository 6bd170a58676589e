/**
 * Turning API failures into what a form shows: field messages beside their fields
 * (react-hook-form `setError`) and one message for the alert at the top of the form, in the
 * page's language: the API's messages are English, our validation messages among them become the
 * page's (translateValidation); lazy-resolver.ts does the same for the browser's own zod check.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../platform/api.ts';
import { currentLanguage, m } from '../shared/i18n.ts';
import { translateValidation } from '../shared/validation-words.ts';

/** "Too many attempts. Try again in N minutes/seconds." from Retry-After seconds. */
export function tooManyAttemptsMessage(retryAfter: number | null): string {
  if (retryAfter === null) return m.validation_too_many_attempts_few_minutes();
  const seconds = Math.max(1, Math.ceil(retryAfter));
  const count = seconds < 60 ? seconds : Math.ceil(seconds / 60);
  const countText = count.toLocaleString(currentLanguage());
  return seconds < 60 ? m.validation_too_many_attempts_seconds({ count, countText }) : m.validation_too_many_attempts_minutes({ count, countText });
}

/** One sentence for the alert of a form or screen. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return tooManyAttemptsMessage(error.retryAfter);
    return translateValidation(error.message);
  }
  return m.validation_something_went_wrong();
}

/**
 * Puts the API's field messages on the form's fields (the first one gets focus) and returns the
 * message for the form's alert: null when every problem is shown beside a field.
 */
export function applyApiError<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, fieldNames: readonly Path<T>[]): string | null {
  if (!(error instanceof ApiError)) return errorMessage(error);
  let placed = 0;
  let unplaced = 0;
  for (const [name, messages] of Object.entries(error.fields)) {
    const field = fieldNames.find((candidate) => candidate === name);
    if (field === undefined) {
      unplaced += 1;
      continue;
    }
    setError(field, { type: 'server', message: messages.map((message) => translateValidation(message)).join(' ') }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  if (placed > 0 && unplaced === 0 && error.status === 400) return null;
  return errorMessage(error);
}
