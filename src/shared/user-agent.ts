/**
 * A browser and system in words ("Chrome on macOS") from a user-agent string: a small hand-written
 * reading of the common browsers' tokens (no library: the parsers that know every device are large,
 * and ua-parser-js is AGPL). Used by the account's sessions list (`GET /api/account`'s `device`),
 * the new-sign-in mail and the admin screens. Browsers that freeze their user agent (Chrome's
 * reduced one, iPadOS's desktop one) give what they give: "Safari on macOS" for an iPad.
 */

export interface DeviceDescription {
  /** "Chrome on macOS", "Safari on iOS", "Firefox" (no system known), the string cut short, or "Unknown device". */
  label: string;
  /** A phone or tablet. */
  mobile: boolean;
}

/** Tokens in the order they must be tested: the browsers built on Chrome or Safari name themselves before them. */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b|\bOPiOS\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|Chrome\/|\bChromium\//, 'Chrome'],
  [/\bSafari\/|\b(?:iPhone|iPad|iPod)\b.*\bAppleWebKit\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
];

const SYSTEMS: readonly (readonly [RegExp, string])[] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

/** The label of an empty user agent (the browser says it in the page's language: src/lib/format.ts). */
export const UNKNOWN_DEVICE = 'Unknown device';

/** The browsers' and systems' names a label can hold (names: the same in every language). */
export const BROWSER_NAMES: ReadonlySet<string> = new Set(BROWSERS.map(([, name]) => name));
export const SYSTEM_NAMES: ReadonlySet<string> = new Set(SYSTEMS.map(([, name]) => name));

const first = (table: readonly (readonly [RegExp, string])[], userAgent: string): string | null =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;

/** A readable "Browser on System" from a user-agent string. */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return { label: UNKNOWN_DEVICE, mobile: false };
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  const mobile = /\bMobile\b|\bAndroid\b|\biPhone\b|\biPad\b|\biPod\b/.test(ua);
  if (browser && system) return { label: `${browser} on ${system}`, mobile };
  if (browser || system) return { label: browser ?? system ?? UNKNOWN_DEVICE, mobile };
  return { label: ua.length > 60 ? `${ua.slice(0, 57)}…` : ua, mobile };
}
