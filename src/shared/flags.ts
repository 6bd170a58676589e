/** Feature flags: runtime switches stored in the database, readable through the API. */
export type FlagValue = boolean | number | string | null | FlagValue[] | { [key: string]: FlagValue };

/** Flags the product itself reads. Others may be set freely (e.g. for experiments). */
export const KNOWN_FLAGS = {
  /** A truthy value shows the site-wide banner; a string value is its text. */
  banner: 'banner',
  /** While truthy, every page goes to /maintenance. */
  maintenance: 'maintenance',
} as const;

export const FLAG_KEY_PATTERN = /^[a-z][a-z0-9_.-]{0,63}$/;

/** Reads a flag value typed on a command line: JSON when it parses, else the plain string. */
export function parseFlagValue(raw: string): FlagValue {
  try {
    return JSON.parse(raw) as FlagValue;
  } catch {
    return raw;
  }
}

/** Whether a flag value counts as "on". */
export function isTruthyFlag(value: FlagValue | undefined): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}
