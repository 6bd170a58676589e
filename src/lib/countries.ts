/**
 * The countries of the address form: ISO 3166-1 alpha-2 codes with their names in the page's
 * language, from the browser's (or Node's) own region names, sorted in that language. Every
 * two-letter pair is tried; codes that are not countries (user-assigned, reserved, withdrawn, or
 * groupings such as EU/UN) are left out.
 */
import { currentLanguage } from '../shared/i18n.ts';
import type { Language } from '../shared/languages.ts';

export interface Country {
  code: string;
  name: string;
}

const NOT_COUNTRIES = new Set([
  // Groupings and the unknown region.
  'EU',
  'EZ',
  'UN',
  'QO',
  'ZZ',
  // Exceptionally reserved (not assigned as countries).
  'AC',
  'CP',
  'CQ',
  'DG',
  'EA',
  'IC',
  'TA',
  // Withdrawn codes that some name tables still know.
  'AN',
  'BU',
  'CS',
  'DD',
  'DY',
  'FX',
  'HV',
  'NH',
  'NT',
  'RH',
  'SU',
  'TP',
  'UK',
  'VD',
  'YD',
  'YU',
  'ZR',
]);

/** User-assigned ranges (AA, QM–QZ, XA–XZ, ZZ); XK (Kosovo) is in common use and kept. */
function userAssigned(code: string): boolean {
  if (code === 'XK') return false;
  return code === 'AA' || code === 'ZZ' || (code[0] === 'Q' && code >= 'QM') || code[0] === 'X';
}

function build(language: Language): Country[] {
  let names: Intl.DisplayNames;
  try {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
  } catch {
    return [];
  }
  const seen = new Set<string>();
  const list: Country[] = [];
  const A = 'A'.charCodeAt(0);
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      if (NOT_COUNTRIES.has(code) || userAssigned(code)) continue;
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        continue;
      }
      if (!name || name === code || seen.has(name)) continue;
      seen.add(name);
      list.push({ code, name });
    }
  }
  return list.sort((a, b) => a.name.localeCompare(b.name, language));
}

/** Each language's list, made on first use. */
const cache = new Map<Language, Country[]>();

export function countries(): readonly Country[] {
  const language = currentLanguage();
  let list = cache.get(language);
  if (!list) {
    list = build(language);
    cache.set(language, list);
  }
  return list;
}

export function countryName(code: string): string {
  return countries().find((country) => country.code === code)?.name ?? code;
}
