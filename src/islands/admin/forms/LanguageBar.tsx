/**
 * The builder's language bar (issue 31 §2; decision 035): the form's source language (which may
 * change while the form offers no other language), the languages offered with their counts —
 * translated, missing, outdated (`translationCounts`) — a button to translate each side by side
 * (TranslationEditor, loaded when first opened), "Add a language" and, after a confirmation,
 * removing one with its translations. Every change is a builder action (undoable, autosaved like
 * any other edit). Loaded after the builder's first paint (it is not needed for it).
 */
import { lazy, useId, useMemo, useState, type Dispatch } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import { offeredLanguages, sourceLanguageOf, translationCounts, translationOf, translatableTexts } from '../../../shared/forms/translations.ts';
import { LANGUAGES, type Language } from '../../../shared/languages.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/dropdown-menu.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Later } from '../../../components/states/Later.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { cn } from '../../../lib/utils.ts';
import type { BuilderAction } from './builder-state.ts';
import type { SaveStatus } from './use-autosave.ts';
import { languageName } from './language-names.ts';

const TranslationEditor = lazy(() => import('./TranslationEditor.tsx').then((loaded) => ({ default: loaded.TranslationEditor })));

export interface LanguageBarProps {
  draft: FormDraft;
  dispatch: Dispatch<BuilderAction>;
  announce: (text: string) => void;
  status: SaveStatus;
  disabled: boolean;
}

export function LanguageBar({ draft, dispatch, announce, status, disabled }: LanguageBarProps) {
  const headingId = useId();
  const sourceId = useId();
  const source = sourceLanguageOf(draft);
  const offered = offeredLanguages(draft);
  const others = offered.slice(1);
  const counts = useMemo(() => translationCounts(draft), [draft]);
  const addable = LANGUAGES.filter((language) => !offered.includes(language));
  const [editing, setEditing] = useState<Language | null>(null);
  const [editorLanguage, setEditorLanguage] = useState<Language | null>(null);
  const [removing, setRemoving] = useState<Language | null>(null);

  const add = (language: Language) => {
    const name = languageName(language);
    dispatch({ type: 'set_languages', languages: [...others, language], label: m.forms_history_add_language({ language: name }) });
    announce(m.forms_languages_added({ language: name }));
  };
  const remove = (language: Language) => {
    const name = languageName(language);
    dispatch({ type: 'set_languages', languages: others.filter((other) => other !== language), label: m.forms_history_remove_language({ language: name }) });
    announce(m.forms_languages_removed({ language: name }));
    setRemoving(null);
  };
  const translate = (language: Language) => {
    setEditorLanguage(language);
    setEditing(language);
  };
  const removingCount = removing ? translatableTexts(draft).filter((text) => translationOf(draft, text.key, removing) !== null).length : 0;

  return (
    <Card asChild className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-sm font-semibold">
          {m.forms_languages_label()}
        </h2>
        {others.length === 0 ? (
          <div className="flex items-center gap-2">
            <label htmlFor={sourceId} className="text-sm text-muted-foreground">
              {m.forms_languages_source_label()}
            </label>
            <Select
              value={source}
              disabled={disabled}
              onValueChange={(next) => {
                const language = next as Language;
                if (language !== source)
                  dispatch({
                    type: 'set_languages',
                    languages: [],
                    source: language,
                    label: m.forms_history_source_language({ language: languageName(language) }),
                  });
              }}
            >
              <SelectTrigger id={sourceId} className="h-9 w-auto min-w-32" title={m.forms_languages_source_hint()}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {LANGUAGES.map((language) => (
                  <SelectItem key={language} value={language}>
                    {languageName(language)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : (
          <p className="text-sm" title={m.forms_languages_source_locked()}>
            {m.forms_languages_source({ language: languageName(source) })}
          </p>
        )}
        {others.length > 0 && (
          <ul className="flex flex-wrap items-center gap-2">
            {counts.map((count) => {
              const name = languageName(count.language);
              const open = count.missing + count.outdated > 0;
              return (
                <li key={count.language} className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md border border-border py-1 ps-3 pe-1">
                  <span className="text-sm font-medium">{name}</span>
                  <span className={cn('text-xs', open ? 'text-destructive' : 'text-muted-foreground')}>
                    {m.forms_languages_counts({
                      translated: formatCount(count.translated),
                      missing: formatCount(count.missing),
                      outdated: formatCount(count.outdated),
                    })}
                  </span>
                  <Button
                    size="sm"
                    variant="outline"
                    className="h-8"
                    aria-label={m.forms_languages_translate_into({ language: name })}
                    onClick={() => translate(count.language)}
                  >
                    {m.forms_languages_translate()}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="h-8"
                    disabled={disabled}
                    aria-label={m.forms_languages_remove_language({ language: name })}
                    onClick={() => setRemoving(count.language)}
                  >
                    {m.forms_languages_remove()}
                  </Button>
                </li>
              );
            })}
          </ul>
        )}
        {others.length === 0 && <p className="text-xs text-muted-foreground">{m.forms_languages_only({ language: languageName(source) })}</p>}
        {addable.length > 0 && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild disabled={disabled}>
              <Button size="sm" variant="outline" className="h-8 lg:ms-auto">
                {m.forms_languages_add()}
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent>
              {addable.map((language) => (
                <DropdownMenuItem key={language} onSelect={() => add(language)}>
                  {languageName(language)}
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        )}

        <Dialog open={removing !== null} onOpenChange={(open) => !open && setRemoving(null)}>
          <DialogContent>
            <DialogHeader>
              <DialogTitle>{removing && m.forms_languages_remove_title({ language: languageName(removing) })}</DialogTitle>
              <DialogDescription>
                {removing && m.forms_languages_remove_body({ language: languageName(removing), count: formatCount(removingCount) })}
              </DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button variant="outline" onClick={() => setRemoving(null)}>
                {m.forms_cancel()}
              </Button>
              <Button variant="destructive" onClick={() => removing && remove(removing)}>
                {removing && m.forms_languages_remove_language({ language: languageName(removing) })}
              </Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>

        {editorLanguage && offered.includes(editorLanguage) && (
          <Later fallback={null}>
            <TranslationEditor
              open={editing !== null}
              onOpenChange={(open) => !open && setEditing(null)}
              draft={draft}
              language={editorLanguage}
              dispatch={dispatch}
              announce={announce}
              status={status}
              disabled={disabled}
            />
          </Later>
        )}
      </section>
    </Card>
  );
}
