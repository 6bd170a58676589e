/**
 * Calendar days (`YYYY-MM-DD`): the UTC day, the device's day, and day arithmetic — the same in the
 * browser and on the server. Days in a participant's time zone are in time-zone.ts. Kept apart so
 * the participant's screens, which only need "today on this device", stay small.
 */

/** The calendar day (`YYYY-MM-DD`) of `instant` in UTC: the server's day. */
export function utcDate(instant: Date = new Date()): string {
  return instant.toISOString().slice(0, 10);
}

/** The first moment (00:00 UTC) of a calendar day `YYYY-MM-DD`; an invalid Date for anything else. */
export function utcMidnight(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

/** The calendar day `days` days after `day` (before, when negative). */
export function addDays(day: string, days: number): string {
  return utcDate(new Date(utcMidnight(day).getTime() + days * 86_400_000));
}

/** The calendar day (`YYYY-MM-DD`) of `instant` on this device's (the browser's or the process's) clock. */
export function deviceDate(instant: Date = new Date()): string {
  const pad2 = (n: number) => String(n).padStart(2, '0');
  return `${instant.getFullYear()}-${pad2(instant.getMonth() + 1)}-${pad2(instant.getDate())}`;
}
