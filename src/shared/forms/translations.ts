/**
 * Content in several languages (issue 31 §2; decision 035): the
 * zod-free half, used by the builder's language bar, the participant's renderer, the staff screens
 * and the server's publish checks.
 *
 * A definition's own texts are in its source `language` (absent: English, as every version
 * published before translations existed). `languages` lists the languages it offers, the source
 * first. `translations` maps each translatable text's key to a map from language code to text
 * (never a `default` key: the source text stays where it always was), and `translatedFrom` keeps,
 * per key and language, a fingerprint of the source text the translation was made from, so a
 * translation whose source changed since is "outdated". `fallback: 'source'` is recorded by a
 * publish that went ahead with missing translations: those texts show in the source language.
 *
 * Answers are keyed by element and option ids, so nothing about answers depends on the language.
 */
import { LANGUAGES, SOURCE_LANGUAGE } from '../languages.ts';
import type { Language } from '../languages.ts';

/** Per text key, per language: the translated text. */
export type TranslationMap = Record<string, Partial<Record<Language, string>>>;

/** The content-language fields a definition or draft may carry. */
export interface ContentLanguages {
  language?: Language;
  languages?: Language[];
  translations?: TranslationMap;
  translatedFrom?: TranslationMap;
  fallback?: 'source';
}

/** One translatable text of a definition: its key, its source text and where it sits. */
export interface TranslatableText {
  key: string;
  source: string;
  /** What the text is, for a translator: `title`, `description`, `option`, … */
  kind: TextKind;
  /** The element or page id it belongs to; `null` for the form's own title and description. */
  owner: string | null;
}

export type TextKind = 'title' | 'description' | 'placeholder' | 'minLabel' | 'maxLabel' | 'unit' | 'statement' | 'body' | 'option' | 'row' | 'column';

/** Element settings that hold a text a participant reads. */
const ELEMENT_TEXTS = ['title', 'description', 'placeholder', 'minLabel', 'maxLabel', 'unit', 'statement', 'body'] as const;
/** Element settings that hold a list of labelled items, and the key segment of each. */
const ELEMENT_LISTS = [
  ['options', 'option'],
  ['rows', 'row'],
  ['columns', 'column'],
] as const;

type Raw = Record<string, unknown>;
const isRaw = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';

export const formTextKey = (what: 'title' | 'description'): string => `form.${what}`;
export const pageTextKey = (pageId: string, what: 'title' | 'description'): string => `pages.${pageId}.${what}`;
export const elementTextKey = (elementId: string, what: string): string => `elements.${elementId}.${what}`;
export const itemTextKey = (elementId: string, list: 'options' | 'rows' | 'columns', itemId: string): string => `elements.${elementId}.${list}.${itemId}`;

/**
 * Every translatable text of a definition or draft, in reading order, with its key. Texts that are
 * empty in the source are left out: there is nothing to translate (and a translation of nothing
 * is refused at publishing).
 */
export function translatableTexts(definition: unknown): TranslatableText[] {
  const out: TranslatableText[] = [];
  if (!isRaw(definition)) return out;
  const push = (key: string, source: unknown, kind: TextKind, owner: string | null) => {
    if (isText(source) && source.trim() !== '') out.push({ key, source, kind, owner });
  };
  push(formTextKey('title'), definition.title, 'title', null);
  push(formTextKey('description'), definition.description, 'description', null);
  const pages = Array.isArray(definition.pages) ? definition.pages : [];
  for (const page of pages) {
    if (!isRaw(page) || !isText(page.id)) continue;
    push(pageTextKey(page.id, 'title'), page.title, 'title', page.id);
    push(pageTextKey(page.id, 'description'), page.description, 'description', page.id);
    const elements = Array.isArray(page.elements) ? page.elements : [];
    for (const element of elements) {
      if (!isRaw(element) || !isText(element.id)) continue;
      for (const setting of ELEMENT_TEXTS) push(elementTextKey(element.id, setting), element[setting], setting, element.id);
      for (const [list, kind] of ELEMENT_LISTS) {
        const items = element[list];
        if (!Array.isArray(items)) continue;
        for (const item of items) if (isRaw(item) && isText(item.id)) push(itemTextKey(element.id, list, item.id), item.label, kind, element.id);
      }
    }
  }
  return out;
}

/** The source language of a definition or draft (English when it names none). */
export function sourceLanguageOf(definition: ContentLanguages | unknown): Language {
  const language = isRaw(definition) ? definition.language : undefined;
  return (LANGUAGES as readonly unknown[]).includes(language) ? (language as Language) : SOURCE_LANGUAGE;
}

/** The languages a definition offers, the source first (just the source when it offers no others). */
export function offeredLanguages(definition: ContentLanguages | unknown): Language[] {
  const source = sourceLanguageOf(definition);
  const listed = isRaw(definition) && Array.isArray(definition.languages) ? definition.languages : [];
  const others = LANGUAGES.filter((language) => language !== source && listed.includes(language));
  return [source, ...others];
}

/** The language a person sees a definition in: theirs when it is offered, else the source. */
export function contentLanguageFor(definition: ContentLanguages | unknown, wanted: Language | null | undefined): Language {
  const offered = offeredLanguages(definition);
  return wanted && offered.includes(wanted) ? wanted : (offered[0] as Language);
}

/** A short fingerprint of a source text (FNV-1a, 32 bits, hex): what `translatedFrom` keeps. */
export function textFingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function mapOf(definition: unknown, field: 'translations' | 'translatedFrom'): TranslationMap {
  const map = isRaw(definition) ? definition[field] : undefined;
  return isRaw(map) ? (map as TranslationMap) : {};
}

/** The translation of one text into one language, or null when there is none (blank counts as none). */
export function translationOf(definition: unknown, key: string, language: Language): string | null {
  const text = mapOf(definition, 'translations')[key]?.[language];
  return isText(text) && text.trim() !== '' ? text : null;
}

export type TranslationState = 'translated' | 'missing' | 'outdated';

/** Whether one text is translated into a language, missing, or outdated (its source changed since). */
export function translationState(definition: unknown, text: TranslatableText, language: Language): TranslationState {
  if (translationOf(definition, text.key, language) === null) return 'missing';
  const from = mapOf(definition, 'translatedFrom')[text.key]?.[language];
  return isText(from) && from !== textFingerprint(text.source) ? 'outdated' : 'translated';
}

export interface TranslationCounts {
  language: Language;
  total: number;
  translated: number;
  missing: number;
  outdated: number;
}

/** Per offered language other than the source: how many texts are translated, missing, outdated. */
export function translationCounts(definition: unknown): TranslationCounts[] {
  const texts = translatableTexts(definition);
  const source = sourceLanguageOf(definition);
  return offeredLanguages(definition)
    .filter((language) => language !== source)
    .map((language) => {
      const counts: TranslationCounts = { language, total: texts.length, translated: 0, missing: 0, outdated: 0 };
      for (const text of texts) counts[translationState(definition, text, language)] += 1;
      return counts;
    });
}

/**
 * A copy of the definition with every text in `language` where it has a translation, else in the
 * source language (never a blank). Ids, settings and conditions are untouched, so answers given in
 * one language stay valid in every other.
 */
export function localizeDefinition<T>(definition: T, language: Language): T {
  if (!isRaw(definition) || language === sourceLanguageOf(definition) || !isRaw(definition.translations)) return definition;
  const translate = (key: string, source: unknown): unknown => (isText(source) ? (translationOf(definition, key, language) ?? source) : source);
  const withTexts = (raw: Raw, keyOf: (setting: string) => string, settings: readonly string[]): Raw => {
    const copy: Raw = { ...raw };
    for (const setting of settings) if (setting in raw) copy[setting] = translate(keyOf(setting), raw[setting]);
    return copy;
  };
  const copy = withTexts(definition, (setting) => `form.${setting}`, ['title', 'description']);
  if (Array.isArray(definition.pages)) {
    copy.pages = definition.pages.map((page: unknown) => {
      if (!isRaw(page) || !isText(page.id)) return page;
      const pageId = page.id;
      const localized = withTexts(page, (setting) => pageTextKey(pageId, setting as 'title'), ['title', 'description']);
      if (Array.isArray(page.elements)) {
        localized.elements = page.elements.map((element: unknown) => {
          if (!isRaw(element) || !isText(element.id)) return element;
          const elementId = element.id;
          const out = withTexts(element, (setting) => elementTextKey(elementId, setting), ELEMENT_TEXTS);
          for (const [list] of ELEMENT_LISTS) {
            const items = element[list];
            if (!Array.isArray(items)) continue;
            out[list] = items.map((item: unknown) =>
              isRaw(item) && isText(item.id) ? { ...item, label: translate(itemTextKey(elementId, list, item.id), item.label) } : item,
            );
          }
          return out;
        });
      }
      return localized;
    });
  }
  return copy as T;
}

/** A copy of a draft with one text's translation set (or removed when blank), fingerprinted against its current source. */
export function withTranslation<T extends object>(draft: T, text: TranslatableText, language: Language, value: string): T & ContentLanguages {
  const raw = draft as Raw;
  const translations = { ...mapOf(raw, 'translations') };
  const translatedFrom = { ...mapOf(raw, 'translatedFrom') };
  const texts = { ...translations[text.key] };
  const froms = { ...translatedFrom[text.key] };
  if (value.trim() === '') {
    delete texts[language];
    delete froms[language];
  } else {
    texts[language] = value;
    froms[language] = textFingerprint(text.source);
  }
  const set = (map: TranslationMap, entry: Partial<Record<Language, string>>) => {
    if (Object.keys(entry).length === 0) delete map[text.key];
    else map[text.key] = entry;
  };
  set(translations, texts);
  set(translatedFrom, froms);
  return { ...draft, translations, translatedFrom };
}

/** A copy of a draft offering `languages` (the source kept first); translations into languages no longer offered are dropped. */
export function withLanguages<T extends object>(draft: T, languages: readonly Language[]): T & ContentLanguages {
  const source = sourceLanguageOf(draft);
  const offered = [source, ...LANGUAGES.filter((language) => language !== source && languages.includes(language))];
  const keep = (map: TranslationMap): TranslationMap => {
    const out: TranslationMap = {};
    for (const [key, entry] of Object.entries(map)) {
      const kept = Object.fromEntries(Object.entries(entry).filter(([language]) => offered.includes(language as Language)));
      if (Object.keys(kept).length > 0) out[key] = kept;
    }
    return out;
  };
  const raw = draft as Raw;
  const { fallback: _fallback, ...rest } = raw;
  return {
    ...rest,
    language: source,
    languages: offered,
    translations: keep(mapOf(raw, 'translations')),
    translatedFrom: keep(mapOf(raw, 'translatedFrom')),
  } as T;
}

/**
 * The content-language problems of a draft, as the publish checks report them (key `"form"`): a
 * translation into a language it does not offer or into its source, a translation of a text the
 * source does not have (unknown language codes are the schema's to report). Missing
 * translations are not problems: publishing asks for the fallback instead (`missingTranslations`).
 */
export function translationProblems(draft: unknown): string[] {
  if (!isRaw(draft)) return [];
  const problems: string[] = [];
  const offered = offeredLanguages(draft);
  const source = offered[0] as Language;
  const keys = new Set(translatableTexts(draft).map((text) => text.key));
  for (const field of ['translations', 'translatedFrom'] as const) {
    for (const [key, entry] of Object.entries(mapOf(draft, field))) {
      if (!isRaw(entry)) continue;
      for (const language of Object.keys(entry)) {
        if (language === source)
          problems.push(`the text "${key}" has a ${field === 'translations' ? 'translation' : 'fingerprint'} in the source language ${source}`);
        else if (!offered.includes(language as Language))
          problems.push(`the text "${key}" is translated into ${JSON.stringify(language)}, which the form does not offer`);
      }
      if (field === 'translations' && !keys.has(key)) problems.push(`the text "${key}" has a translation but no text in the source language`);
    }
  }
  return problems;
}

/** Per offered language, the number of texts with no translation (only languages missing some). */
export function missingTranslations(definition: unknown): Partial<Record<Language, number>> {
  const out: Partial<Record<Language, number>> = {};
  for (const counts of translationCounts(definition)) if (counts.missing > 0) out[counts.language] = counts.missing;
  return out;
}
