/**
 * The interface languages (issue 31; docs/architecture.md, "Languages"): which there are, how a
 * URL names one, and how one is chosen. English is the source: its pages keep today's paths; the
 * others live under their prefix (`/de/login`, `/ar/surveys/12`). Browser and server use these
 * alone to read or write a language in a path.
 */

/** The account's `language` values, the source first. */
export const LANGUAGES = ['en', 'de', 'es', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language messages are written in (unprefixed paths). */
export const SOURCE_LANGUAGE: Language = 'en';

/** Each language in its own words (the switcher shows these; never translated). */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', de: 'Deutsch', es: 'Español', ar: 'العربية' };

/**
 * Each language's `Intl` locale: English is written US style (month first), as it always was
 * (src/shared/dates.ts); the others are their own language's.
 */
export const INTL_LOCALES: Readonly<Record<Language, string>> = { en: 'en-US', de: 'de', es: 'es', ar: 'ar' };

/** Languages written right to left. */
const RIGHT_TO_LEFT: ReadonlySet<Language> = new Set(['ar']);

/** The cookie that remembers a visitor's choice on the device (read by the Node server and the browser). */
export const LANGUAGE_COOKIE = 'fw_lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** `rtl` for Arabic, else `ltr`: the document's `dir`. */
export function directionOf(language: Language): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** The prefixed languages' first segments. */
const PREFIXED = LANGUAGES.filter((language) => language !== SOURCE_LANGUAGE);

/**
 * A path's language and the path without it: `/de/login` → `de`, `/login`; `/ar` → `ar`, `/`;
 * `/login` → `en`, `/login`. Only the prefixes of LANGUAGES count (`/en/login` is no language's).
 */
export function splitLanguage(pathname: string): { language: Language; path: string } {
  for (const language of PREFIXED) {
    const prefix = `/${language}`;
    if (pathname === prefix || pathname === `${prefix}/`) return { language, path: '/' };
    if (pathname.startsWith(`${prefix}/`)) return { language, path: pathname.slice(prefix.length) };
  }
  return { language: SOURCE_LANGUAGE, path: pathname };
}

/** A path (without a prefix) in a language: `/login`, `de` → `/de/login`; `/`, `ar` → `/ar`. */
export function localizedPath(path: string, language: Language): string {
  if (language === SOURCE_LANGUAGE) return path;
  return path === '/' ? `/${language}` : `/${language}${path}`;
}

/** A same-site target (path, query and hash) moved to a language: its own prefix is replaced. */
export function relocalize(target: string, language: Language): string {
  const cut = target.search(/[?#]/);
  const pathname = cut === -1 ? target : target.slice(0, cut);
  const rest = cut === -1 ? '' : target.slice(cut);
  return localizedPath(splitLanguage(pathname).path, language) + rest;
}

/**
 * The first of some language tags (an `Accept-Language` header's, `navigator.languages`) that is
 * one of ours, by its primary subtag (`de-AT` → `de`); null when none is.
 */
export function firstLanguageOf(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const primary = tag.trim().split(/[-_;]/)[0]?.toLowerCase();
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** An `Accept-Language` header's tags, most wanted first (`q=0` dropped). */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

/** What a page's language is chosen from (issue 31, "Which language"). */
export interface LanguageChoice {
  /** The language of the path opened (its prefix; none: the source language). */
  path: Language;
  /** A signed-in person's preference (the account's `language`): it wins everywhere. */
  preference?: Language | null;
  /** A visitor's choice from the switcher, remembered on the device (LANGUAGE_COOKIE). */
  remembered?: Language | null;
  /** The first of the browser's languages that is ours. */
  browser?: Language | null;
}

/**
 * The language a page is shown in: a signed-in person's preference; else a prefixed path's own
 * (a link to `/es/terms` is an explicit choice); else, on a path without a prefix, the visitor's
 * remembered choice, else their browser's languages, else English.
 */
export function languageFor(choice: LanguageChoice): Language {
  if (choice.preference) return choice.preference;
  if (choice.path !== SOURCE_LANGUAGE) return choice.path;
  return choice.remembered ?? choice.browser ?? SOURCE_LANGUAGE;
}

/** The remembered choice in a `Cookie` header (or `document.cookie`), or null. */
export function rememberedLanguage(cookieHeader: string | null | undefined): Language | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value;
  }
  return null;
}

/** The `Set-Cookie` value (or `document.cookie` assignment) that remembers a choice for a year. */
export function languageCookie(language: Language, secure: boolean): string {
  return `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=31536000; SameSite=Lax${secure ? '; Secure' : ''}`;
}
