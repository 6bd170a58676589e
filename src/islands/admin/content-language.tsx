/**
 * Content in several languages on the staff screens (decision 035): the review, the gallery and a
 * survey's results read a form version's texts (question titles, option labels) in the staff
 * member's own interface language when the version offers it, else in its source language
 * (`staffContent`, the one helper all three use), and show the language each response or entry
 * was answered in as a small badge (`AnswerLanguageBadge`). Answers are ids, so they read the
 * same in every language; exports stay in the source language.
 */
import { allElements } from '../../shared/forms/constants.ts';
import { contentLanguageFor, localizeDefinition } from '../../shared/forms/translations.ts';
import { currentLanguage } from '../../shared/i18n.ts';
import { directionOf, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/languages.ts';
import { Badge } from '../../components/ui/badge.tsx';

/** `lang` and `dir` for content whose language differs from the page's (none when it is the page's). */
export interface ContentAttributes {
  lang?: Language;
  dir?: 'ltr' | 'rtl';
}

/** A definition as a staff member reads it: localized, the language it is in, and the attributes its content needs. */
export interface StaffContent<T> {
  definition: T;
  language: Language;
  attributes: ContentAttributes;
}

/**
 * A version's definition in the staff member's interface language when the version offers it,
 * else in its source language (`contentLanguageFor`, `localizeDefinition`): what the review, the
 * gallery and the results show. `attributes` are set when that language is not the page's.
 */
export function staffContent<T>(definition: T, interfaceLanguage: Language = currentLanguage()): StaffContent<T> {
  const language = contentLanguageFor(definition, interfaceLanguage);
  return {
    definition: localizeDefinition(definition, language),
    language,
    attributes: language === interfaceLanguage ? {} : { lang: language, dir: directionOf(language) },
  };
}

interface LabelledItem {
  id: string;
  label: string;
}

/** A question of a survey's results (`ElementSummary`): its title, its options' and its matrix's labels. */
interface ResultLike {
  id: string;
  title: string;
  options?: LabelledItem[] | undefined;
  rows?: (LabelledItem & { columns: LabelledItem[] })[] | undefined;
}

/**
 * A survey's results (labelled by the server in the version's source language) with the titles
 * and labels of `definition`, a definition `staffContent` localized: matched by element, option,
 * row and column id; anything the definition does not hold (another version's option, "Other",
 * a rating's number) keeps its label.
 */
export function localizedResults<R extends ResultLike>(elements: readonly R[], definition: unknown): R[] {
  const pages = (definition as { pages?: unknown } | null)?.pages;
  if (!Array.isArray(pages)) return [...elements];
  const byId = new Map<string, Record<string, unknown>>();
  for (const { element } of allElements(pages as Parameters<typeof allElements>[0])) byId.set(element.id, element as unknown as Record<string, unknown>);
  const labels = (element: Record<string, unknown> | undefined, list: 'options' | 'rows' | 'columns'): Map<string, string> => {
    const items = element?.[list];
    return new Map(Array.isArray(items) ? (items as LabelledItem[]).map((item) => [item.id, item.label] as const) : []);
  };
  const relabel = <I extends LabelledItem>(items: I[] | undefined, map: Map<string, string>): I[] | undefined =>
    items?.map((item) => {
      const label = map.get(item.id);
      return label === undefined ? item : { ...item, label };
    });
  return elements.map((summary) => {
    const element = byId.get(summary.id);
    if (!element) return summary;
    const columns = labels(element, 'columns');
    const out: R = { ...summary, title: typeof element.title === 'string' ? element.title : summary.title };
    if (summary.options) out.options = relabel(summary.options, labels(element, 'options'));
    if (summary.rows)
      out.rows = relabel(summary.rows, labels(element, 'rows'))?.map((row) => ({ ...row, columns: relabel(row.columns, columns) ?? row.columns }));
    return out;
  });
}

/** The language a response or entry was answered in: its name in its own words, marked with its language. */
export function AnswerLanguageBadge({ language, label }: { language: Language; label: string }) {
  return (
    <span className="inline-flex">
      <span className="sr-only">{label} </span>
      <Badge variant="outline" lang={language} dir={directionOf(language)} data-answer-language={language}>
        {LANGUAGE_NAMES[language]}
      </Badge>
    </span>
  );
}

/** The options of a language filter: every language (`all`), then each language in its own words. */
export function languageFilterOptions(allLabel: string): { value: Language | 'all'; label: string }[] {
  return [{ value: 'all', label: allLabel }, ...LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))];
}
