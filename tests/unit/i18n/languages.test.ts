import { describe, expect, it } from 'vitest';
import { acceptLanguageTags, directionOf, firstLanguageOf, localizedPath, relocalize, splitLanguage } from '../../../src/shared/languages.ts';

describe('languages in paths', () => {
  it('reads a prefix, and only ours', () => {
    expect(splitLanguage('/de/login')).toEqual({ language: 'de', path: '/login' });
    expect(splitLanguage('/ar')).toEqual({ language: 'ar', path: '/' });
    expect(splitLanguage('/es/')).toEqual({ language: 'es', path: '/' });
    expect(splitLanguage('/login')).toEqual({ language: 'en', path: '/login' });
    expect(splitLanguage('/en/login')).toEqual({ language: 'en', path: '/en/login' });
    expect(splitLanguage('/deals')).toEqual({ language: 'en', path: '/deals' });
  });

  it('writes one, and moves a target with its query to another', () => {
    expect(localizedPath('/login', 'de')).toBe('/de/login');
    expect(localizedPath('/', 'ar')).toBe('/ar');
    expect(localizedPath('/login', 'en')).toBe('/login');
    expect(relocalize('/de/surveys/12?page=2#q', 'es')).toBe('/es/surveys/12?page=2#q');
    expect(relocalize('/ar?x=1', 'en')).toBe('/?x=1');
  });

  it('Arabic is right to left', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });

  it('picks the first of the browser’s languages that is ours, by weight', () => {
    expect(firstLanguageOf(acceptLanguageTags('fr-CH, fr;q=0.9, de-AT;q=0.8, es;q=0.9'))).toBe('es');
    expect(firstLanguageOf(acceptLanguageTags('de;q=0, en-GB'))).toBe('en');
    expect(firstLanguageOf(acceptLanguageTags('ja'))).toBeNull();
    expect(firstLanguageOf(acceptLanguageTags(undefined))).toBeNull();
  });
});
