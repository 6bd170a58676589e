/**
 * The language of the questions (issue 31 §2; decision 035): a form version may offer its texts
 * in several languages. A participant sees them in the language their answers were last saved in,
 * else in their interface language when offered, else in the source language — never a blank.
 * When the version offers more than one, they may switch, answers kept (they are keyed by ids).
 * The answers form loads this module only for a form offering several languages (the survey
 * screen's JavaScript budget); a submitted survey's or entry's answers use `answeredIn`.
 */
import { useId, type ComponentType } from 'react';
import { ChevronDownIcon } from '../../components/icons.tsx';
import { fieldControlClasses } from '../../components/ui/input.tsx';
import { cn } from '../../lib/utils.ts';
import { contentLanguageFor, localizeDefinition, offeredLanguages } from '../../shared/forms/translations.ts';
import { currentLanguage, m } from '../../shared/i18n.ts';
import { directionOf, LANGUAGE_NAMES, type Language } from '../../shared/languages.ts';

/**
 * The language a form opens in: the one kept on this device (a switch not saved yet), else the
 * one the answers were recorded in, else the person's own when offered, else the source. Only
 * languages the definition offers count.
 */
export function openingLanguage(definition: unknown, kept: Language | null | undefined, recorded: Language | null | undefined): Language {
  const offered = offeredLanguages(definition);
  for (const language of [kept, recorded]) if (language && offered.includes(language)) return language;
  return contentLanguageFor(definition, currentLanguage());
}

/**
 * Answers read back (a submitted survey or entry): the questions in the language they were
 * answered in (`language`, else as the form would open), and the `lang` and `dir` to put around
 * them when that is not the page's language.
 */
export function answeredIn<T>(definition: T, language: Language | null | undefined): { definition: T; attrs: { lang?: Language; dir?: 'ltr' | 'rtl' } } {
  const shown = openingLanguage(definition, null, language);
  return { definition: localizeDefinition(definition, shown), attrs: shown === currentLanguage() ? {} : { lang: shown, dir: directionOf(shown) } };
}

/** What the answers form needs of the content languages (a form in one language gets a stand-in that loads none of this). */
export interface LanguageTools {
  opening(definition: unknown, kept: Language | null | undefined, recorded: Language | null | undefined): Language;
  offered(definition: unknown): Language[];
  localize<T>(definition: T, language: Language): T;
  Picker: ComponentType<{ offered: readonly Language[]; value: Language; onChange(language: Language): void }>;
}

/** "Language of the questions": a select of the languages offered, each named in its own words. */
export function ContentLanguagePicker({ offered, value, onChange }: { offered: readonly Language[]; value: Language; onChange(language: Language): void }) {
  const id = useId();
  if (offered.length < 2) return null;
  return (
    <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <label htmlFor={id} className="text-sm font-medium">
        {m.participant_form_content_language()}
      </label>
      <div className="relative sm:w-56">
        <select
          id={id}
          className={cn(fieldControlClasses, 'appearance-none pe-10')}
          value={value}
          onChange={(event) => {
            const next = offered.find((language) => language === event.target.value);
            if (next) onChange(next);
          }}
        >
          {offered.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      </div>
    </div>
  );
}

export const languageTools: LanguageTools = {
  opening: openingLanguage,
  offered: offeredLanguages,
  localize: localizeDefinition,
  Picker: ContentLanguagePicker,
};
