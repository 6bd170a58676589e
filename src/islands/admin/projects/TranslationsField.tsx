/**
 * The survey and mission editors' "Translations" section (issue 31 §2, decision 035): the title
 * and the description (surveys) or instructions (missions) in other languages. A language is
 * added with its button (the interface's four, minus those present) and removed with its own;
 * each text is a labelled field ("Title (Deutsch)") whose input carries the language's `lang` and
 * `dir` (Arabic right to left). Participants whose account language has a translation see it,
 * everyone else the texts as written. The value is the payload's `translations`, saved by the
 * editor's own save (blank texts are none: the API drops them). Translated instructions are plain
 * Markdown text: photos are inserted in the instructions as written.
 */
import { useId, useRef, type ReactNode } from 'react';
import { directionOf, LANGUAGE_NAMES, type Language } from '../../../shared/languages.ts';
import type { ItemTextField, ItemTranslations } from '../../../shared/projects.ts';
import { Button } from '../../../components/ui/button.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { m } from '../../../shared/i18n.ts';
import { addableLanguages, lacksSource, translationLanguages, withLanguageAdded, withLanguageRemoved, withText } from './item-translations.ts';

/** A language's name in its own words, marked as such inside a sentence of the page's language. */
const languageName = (language: Language): ReactNode => (
  <bdi lang={language} dir={directionOf(language)}>
    {LANGUAGE_NAMES[language]}
  </bdi>
);

/** Each field's label, and its help under the label. */
const FIELD_WORDS: Readonly<Record<ItemTextField, { label: (marks: { language: string }) => string; help?: () => string }>> = {
  title: { label: (marks) => m.projects_translations_title_field(marks) },
  description: { label: (marks) => m.projects_translations_description_field(marks) },
  instructions: { label: (marks) => m.projects_translations_instructions_field(marks), help: () => m.projects_translations_instructions_help() },
};

/** The error messages react-hook-form keeps under `translations` (client-side: per field and language; the API's: on the whole). */
export type TranslationsErrors = { message?: string | undefined } & Partial<
  Record<ItemTextField, { message?: string | undefined } & Partial<Record<Language, { message?: string | undefined }>>>
>;

export interface TranslationsFieldProps {
  /** The item's translatable fields, in the editor's order. */
  fields: readonly ItemTextField[];
  /** The texts as written (a translation of an empty one cannot be saved). */
  sources: Readonly<Partial<Record<ItemTextField, string>>>;
  value: ItemTranslations;
  onChange: (next: ItemTranslations) => void;
  errors?: TranslationsErrors | undefined;
}

export function TranslationsField({ fields, sources, value, onChange, errors }: TranslationsFieldProps) {
  const id = useId();
  const addGroup = useRef<HTMLDivElement>(null);
  const languages = translationLanguages(value);
  const addable = addableLanguages(value);
  const fieldId = (field: ItemTextField, language: Language) => `${id}-${field}-${language}`;
  // A problem the section words itself (a text cleared as written) is not repeated from the schema or the API.
  const ownProblem = languages.some((language) => fields.some((field) => lacksSource(sources[field] ?? '', value[field]?.[language])));
  const wholeError = errors?.message ?? fields.map((field) => errors?.[field]?.message).find(Boolean);

  function add(language: Language) {
    onChange(withLanguageAdded(value, fields, language));
    // Straight to the new language's first text.
    requestAnimationFrame(() => document.getElementById(fieldId(fields[0] ?? 'title', language))?.focus());
  }

  function remove(language: Language) {
    onChange(withLanguageRemoved(value, language));
    // To the language's own "Add" button, back where the removed section's was offered.
    requestAnimationFrame(() => addGroup.current?.querySelector<HTMLButtonElement>(`button[data-language="${language}"]`)?.focus());
  }

  return (
    <fieldset className="flex min-w-0 flex-col gap-4" aria-describedby={`${id}-help`}>
      <legend className="mb-1 text-sm font-medium">{m.projects_translations_legend()}</legend>
      <p id={`${id}-help`} className="-mt-2 text-sm text-muted-foreground">
        {languages.length > 0 ? m.projects_translations_help() : m.projects_translations_none()}
      </p>

      {languages.map((language) => {
        const marks = { language: languageName(language) };
        return (
          <section key={language} aria-labelledby={`${id}-${language}-heading`} className="flex flex-col gap-4 rounded-lg border border-border p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 id={`${id}-${language}-heading`} lang={language} dir={directionOf(language)} className="text-sm font-semibold">
                {LANGUAGE_NAMES[language]}
              </h3>
              <Button type="button" variant="ghost" size="sm" onClick={() => remove(language)}>
                <span>{withNodes((names) => m.projects_translations_remove(names), marks)}</span>
              </Button>
            </div>
            {fields.map((field) => {
              const words = FIELD_WORDS[field];
              const source = sources[field] ?? '';
              const text = value[field]?.[language] ?? '';
              const missingSource = source.trim() === '';
              const error = lacksSource(source, text) ? m.projects_translations_source_missing() : errors?.[field]?.[language]?.message;
              const help = missingSource ? m.projects_translations_source_missing() : words.help?.();
              const control = {
                lang: language,
                dir: directionOf(language),
                value: text,
                // Nothing to translate yet: the field waits for the text as written (one typed before stays editable, to be cleared).
                disabled: missingSource && text.trim() === '',
                onChange: (event: { target: { value: string } }) => onChange(withText(value, field, language, event.target.value)),
              };
              return (
                <FormField key={field} id={fieldId(field, language)} label={withNodes(words.label, marks)} description={help} error={error}>
                  {(c) =>
                    field === 'title' ? (
                      <Input {...c} {...control} autoComplete="off" />
                    ) : (
                      <Textarea {...c} {...control} rows={field === 'instructions' ? 6 : 3} />
                    )
                  }
                </FormField>
              );
            })}
          </section>
        );
      })}

      {addable.length > 0 && (
        <div ref={addGroup} role="group" aria-label={m.projects_translations_add_group()} className="flex flex-wrap gap-2">
          {addable.map((language) => (
            <Button key={language} type="button" variant="outline" size="sm" data-language={language} onClick={() => add(language)}>
              {/* One flex item: the button's gap would widen the space before the name. */}
              <span>{withNodes((names) => m.projects_translations_add(names), { language: languageName(language) })}</span>
            </Button>
          ))}
        </div>
      )}
      {wholeError && !ownProblem && <FieldError id={`${id}-error`}>{wholeError}</FieldError>}
    </fieldset>
  );
}
