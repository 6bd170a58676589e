/**
 * Turning API failures into what a form shows: field messages beside their fields
 * (react-hook-form `setError`) and one message for the alert at the top of the form.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../platform/api.ts';

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** "Too many attempts. Try again in N minutes/seconds." from Retry-After seconds. */
export function tooManyAttemptsMessage(retryAfter: number | null): string {
  if (retryAfter === null) return 'Too many attempts. Try again in a few minutes.';
  const seconds = Math.max(1, Math.ceil(retryAfter));
  const wait = seconds < 60 ? plural(seconds, 'second') : plural(Math.ceil(seconds / 60), 'minute');
  return `Too many attempts. Try again in ${wait}.`;
}

/** One sentence for the alert of a form or screen. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 429) return tooManyAttemptsMessage(error.retryAfter);
    return error.message;
  }
  return 'Something went wrong. Please try again.';
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
    setError(field, { type: 'server', message: messages.join(' ') }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  if (placed > 0 && unplaced === 0 && error.status === 400) return null;
  return errorMessage(error);
}
