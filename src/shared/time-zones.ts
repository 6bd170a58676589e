/**
 * Time zones (IANA names) as the platform knows them, the same in the browser and on the server.
 * A participant's zone is one of their preferences: it decides the calendar day a diary entry
 * counts on (`docs/api.md`, "Taking part"). Zod-free: the onboarding screen loads it eagerly.
 */

/** Longest zone name accepted (the longest IANA names are about 30 characters). */
export const TIME_ZONE_MAX = 64;

/** The platform's canonical spelling of a zone (`asia/tokyo` → `Asia/Tokyo`), or null when it knows no such zone. */
export function canonicalTimeZone(name: string | null | undefined): string | null {
  if (!name || name.length > TIME_ZONE_MAX) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The browser's (or the process's) own zone; UTC when it cannot say. */
export function deviceTimeZone(): string {
  try {
    return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the platform lists, UTC first, then by name; `extra` ones (a stored zone, this device's alias) are kept when missing. */
export function timeZoneNames(...extra: (string | null | undefined)[]): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = new Set<string>(['UTC', ...listed]);
  for (const name of extra) if (name) names.add(name);
  return ['UTC', ...[...names].filter((name) => name !== 'UTC').sort()];
}

/** `UTC+02:00`-style offset of a zone at an instant (for labels). */
export function utcOffsetLabel(timeZone: string, at: Date = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(at).find((each) => each.type === 'timeZoneName');
    const text = part?.value ?? 'GMT';
    return text === 'GMT' ? 'UTC' : text.replace('GMT', 'UTC');
  } catch {
    return 'UTC';
  }
}
