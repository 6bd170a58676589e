/**
 * The side-by-side translation editor of one language (issue 31 §2; decision 035): every
 * translatable text of the draft (`translatableTexts`), grouped by the form, its pages and
 * questions, with its source text (read-only, in the source language's `lang`/`dir`) beside a
 * field for the translation (the target's `lang`/`dir`: Arabic right to left), named
 * "Spanish: <source text>". A missing translation is marked, an outdated one too (its source
 * changed since), with "Still correct" to save it again unchanged. "Only missing or outdated"
 * keeps the texts open when it was turned on (a text stays while it is being translated).
 * Every edit is a builder action: undoable and saved by the builder's one autosave.
 *
 * CSV export and import for a translator (src/shared/forms/translation-csv.ts): rows matched by
 * key; unknown keys, changed sources and repeated keys are listed and never applied.
 */
import { useId, useMemo, useRef, useState, type Dispatch } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import { sourceLanguageOf, translatableTexts, translationState, type TextKind, type TranslatableText } from '../../../shared/forms/translations.ts';
import {
  applyTranslationCsv,
  parseTranslationCsv,
  translationCsv,
  translationCsvFileName,
  type TranslationCsvError,
  type TranslationCsvRow,
} from '../../../shared/forms/translation-csv.ts';
import { directionOf, type Language } from '../../../shared/languages.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import type { BuilderAction } from './builder-state.ts';
import { typeLabel } from './catalog.ts';
import { SAVE_STATUS_TEXT, type SaveStatus } from './use-autosave.ts';
import { languageName } from './language-names.ts';

export interface TranslationEditorProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  draft: FormDraft;
  language: Language;
  dispatch: Dispatch<BuilderAction>;
  announce: (text: string) => void;
  status: SaveStatus;
  disabled: boolean;
}

const KIND_LABELS: Readonly<Record<TextKind, () => string>> = {
  title: m.forms_translate_kind_title,
  description: m.forms_translate_kind_description,
  placeholder: m.forms_translate_kind_placeholder,
  minLabel: m.forms_translate_kind_min_label,
  maxLabel: m.forms_translate_kind_max_label,
  unit: m.forms_translate_kind_unit,
  statement: m.forms_translate_kind_statement,
  body: m.forms_translate_kind_body,
  option: m.forms_translate_kind_option,
  row: m.forms_translate_kind_row,
  column: m.forms_translate_kind_column,
};

/** A source text as short as a field's name may be. */
const short = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

function csvErrorText(error: TranslationCsvError): string {
  switch (error.code) {
    case 'empty':
      return m.forms_translate_csv_empty();
    case 'too_large':
      return m.forms_translate_csv_too_large();
    case 'bad_quotes':
      return m.forms_translate_csv_bad_quotes({ line: formatCount(error.line) });
    case 'missing_columns':
      return m.forms_translate_csv_missing_columns({ columns: error.columns.join(', ') });
  }
}

type ImportReport =
  | { ok: false; file: string; message: string }
  | {
      ok: true;
      file: string;
      applied: number;
      unchanged: number;
      blank: number;
      unknown: TranslationCsvRow[];
      changed: TranslationCsvRow[];
      duplicate: TranslationCsvRow[];
    };

interface Group {
  id: string;
  heading: string;
  texts: TranslatableText[];
}

function groupsOf(draft: FormDraft, texts: readonly TranslatableText[]): Group[] {
  const groups: Group[] = [];
  const byId = new Map<string, Group>();
  const pageIndex = new Map(draft.pages.map((page, index) => [page.id, index]));
  const elements = new Map(draft.pages.flatMap((page, index) => page.elements.map((element) => [element.id, { element, index }] as const)));
  for (const text of texts) {
    const id = text.owner ?? '';
    let group = byId.get(id);
    if (!group) {
      let heading = m.forms_translate_group_form();
      const place = text.owner === null ? undefined : elements.get(text.owner);
      if (place)
        heading = m.forms_builder_problem_question({
          name: place.element.title.trim() ? m.forms_quote({ text: short(place.element.title) }) : m.forms_untitled_question_id({ id: place.element.id }),
          type: typeLabel(place.element.type),
          page: formatCount(place.index + 1),
        });
      else if (text.owner !== null) heading = m.forms_page_name({ page: formatCount((pageIndex.get(text.owner) ?? 0) + 1) });
      group = { id, heading, texts: [] };
      byId.set(id, group);
      groups.push(group);
    }
    group.texts.push(text);
  }
  return groups;
}

export function TranslationEditor({ open, onOpenChange, draft, language, dispatch, announce, status, disabled }: TranslationEditorProps) {
  const source = sourceLanguageOf(draft);
  const name = languageName(language);
  const sourceName = languageName(source);
  const texts = useMemo(() => translatableTexts(draft), [draft]);
  const [openOnly, setOpenOnly] = useState<ReadonlySet<string> | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const filterId = useId();
  const baseId = useId();

  const stateOf = (text: TranslatableText) => translationState(draft, text, language);
  const shown = openOnly ? texts.filter((text) => openOnly.has(text.key)) : texts;
  const groups = groupsOf(draft, shown);
  const translations = (draft as { translations?: Record<string, Partial<Record<Language, string>>> }).translations ?? {};

  const exportCsv = () => {
    const blob = new Blob([translationCsv(draft, language)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = translationCsvFileName(draft.title, language);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const importCsv = async (file: File) => {
    const text = await file.text().catch(() => null);
    if (text === null) {
      setReport({ ok: false, file: file.name, message: m.forms_translate_csv_unreadable() });
      return;
    }
    const parsed = parseTranslationCsv(text);
    if (!parsed.ok) {
      setReport({ ok: false, file: file.name, message: csvErrorText(parsed.error) });
      return;
    }
    const result = applyTranslationCsv(draft, language, parsed.rows);
    if (result.applied.length > 0) dispatch({ type: 'replace_draft', draft: result.draft, label: m.forms_history_import_translations({ language: name }) });
    const applied = m.forms_translate_import_applied({ count: formatCount(result.applied.length) });
    announce(applied);
    setReport({
      ok: true,
      file: file.name,
      applied: result.applied.length,
      unchanged: result.unchanged.length,
      blank: result.blank.length,
      unknown: result.unknown,
      changed: result.sourceChanged,
      duplicate: result.duplicate,
    });
  };

  const rowList = (title: string, rows: readonly TranslationCsvRow[]) =>
    rows.length > 0 && (
      <div className="mt-2">
        <p className="font-medium">{title}</p>
        <ul className="max-h-32 list-disc overflow-y-auto ps-5">
          {rows.map((row) => (
            <li key={`${row.line}`} className="break-words">
              {m.forms_translate_import_row({ line: formatCount(row.line), key: row.key || '—' })}
            </li>
          ))}
        </ul>
      </div>
    );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent variant="wide" className="gap-3 p-4 sm:p-6">
        <DialogHeader>
          <DialogTitle>{m.forms_translate_title({ language: name })}</DialogTitle>
          <DialogDescription>{m.forms_translate_description({ source: sourceName, language: name })}</DialogDescription>
        </DialogHeader>

        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <CheckboxField
            id={filterId}
            label={m.forms_translate_only_open()}
            checked={openOnly !== null}
            onCheckedChange={(checked) =>
              setOpenOnly(checked === true ? new Set(texts.filter((text) => stateOf(text) !== 'translated').map((text) => text.key)) : null)
            }
          />
          <p className="text-sm text-muted-foreground">{m.forms_translate_shown({ shown: formatCount(shown.length), total: formatCount(texts.length) })}</p>
          <p role="status" className="text-sm">
            {SAVE_STATUS_TEXT[status]()}
          </p>
          <div className="flex flex-wrap gap-2 sm:ms-auto">
            <Button size="sm" variant="outline" onClick={exportCsv} disabled={texts.length === 0}>
              {m.forms_translate_export()}
            </Button>
            <Button size="sm" variant="outline" disabled={disabled} onClick={() => fileInput.current?.click()}>
              {m.forms_translate_import()}
            </Button>
            <HiddenFileInput ref={fileInput} accept=".csv,text/csv" onFile={(file) => file && void importCsv(file)} />
          </div>
        </div>
        <p className="text-xs text-muted-foreground">{m.forms_translate_csv_hint()}</p>

        {report &&
          (report.ok ? (
            <Alert
              variant={report.unknown.length + report.changed.length + report.duplicate.length > 0 ? 'destructive' : 'success'}
              title={m.forms_translate_import_title({ file: report.file })}
            >
              <p>{m.forms_translate_import_applied({ count: formatCount(report.applied) })}</p>
              {report.unchanged > 0 && <p>{m.forms_translate_import_unchanged({ count: formatCount(report.unchanged) })}</p>}
              {report.blank > 0 && <p>{m.forms_translate_import_blank({ count: formatCount(report.blank) })}</p>}
              {rowList(m.forms_translate_import_changed(), report.changed)}
              {rowList(m.forms_translate_import_unknown(), report.unknown)}
              {rowList(m.forms_translate_import_duplicate(), report.duplicate)}
            </Alert>
          ) : (
            <Alert variant="destructive" title={m.forms_translate_import_failed()}>
              <p>{report.message}</p>
            </Alert>
          ))}

        <div className="flex shrink-0 flex-col gap-5 md:min-h-0 md:flex-1 md:shrink md:overflow-y-auto md:px-1 md:pb-1">
          {texts.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.forms_translate_no_texts()}</p>
          ) : shown.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.forms_translate_all_done()}</p>
          ) : (
            <>
              <div aria-hidden="true" className="hidden grid-cols-2 gap-4 text-xs font-semibold text-muted-foreground uppercase md:grid">
                <span>{m.forms_translate_source_column({ language: sourceName })}</span>
                <span>{m.forms_translate_target_column({ language: name })}</span>
              </div>
              {groups.map((group, groupIndex) => (
                <section key={group.id || 'form'} aria-labelledby={`${baseId}-g${groupIndex}`} className="flex flex-col gap-3">
                  <h3 id={`${baseId}-g${groupIndex}`} className="border-b border-border pb-1 text-sm font-semibold">
                    {group.heading}
                  </h3>
                  {group.texts.map((text, index) => {
                    const state = stateOf(text);
                    const rowId = `${baseId}-g${groupIndex}-${index}`;
                    const value = translations[text.key]?.[language] ?? '';
                    const multiline = text.source.length > 60 || text.source.includes('\n') || value.includes('\n');
                    return (
                      <div key={text.key} className="grid gap-2 md:grid-cols-2 md:gap-4">
                        <div className="flex flex-col gap-1">
                          <span id={`${rowId}-kind`} className="text-xs font-medium text-muted-foreground">
                            {KIND_LABELS[text.kind]()}
                          </span>
                          <p lang={source} dir={directionOf(source)} className="rounded-md bg-muted px-3 py-2 text-sm break-words whitespace-pre-wrap">
                            {text.source}
                          </p>
                        </div>
                        <div className="flex flex-col gap-1">
                          <span id={`${rowId}-state`} className="flex min-h-4 flex-wrap items-center gap-2 text-xs">
                            {state === 'missing' && (
                              <Badge variant="outline" className="border-destructive text-destructive">
                                {m.forms_translate_missing()}
                              </Badge>
                            )}
                            {state === 'outdated' && (
                              <Badge variant="outline" className="border-destructive whitespace-normal text-destructive">
                                {m.forms_translate_outdated()}
                              </Badge>
                            )}
                          </span>
                          <Textarea
                            lang={language}
                            dir={directionOf(language)}
                            rows={multiline ? 3 : 1}
                            className="min-h-10 field-sizing-content"
                            value={value}
                            disabled={disabled}
                            aria-label={m.forms_translate_field({ language: name, source: short(text.source) })}
                            aria-describedby={`${rowId}-kind ${rowId}-state`}
                            onChange={(event) => dispatch({ type: 'set_translation', text, language, value: event.target.value })}
                          />
                          {state === 'outdated' && (
                            <Button
                              size="sm"
                              variant="outline"
                              className="self-start"
                              disabled={disabled}
                              aria-label={m.forms_translate_keep_label({ source: short(text.source) })}
                              onClick={() => dispatch({ type: 'set_translation', text, language, value })}
                            >
                              {m.forms_translate_keep()}
                            </Button>
                          )}
                        </div>
                      </div>
                    );
                  })}
                </section>
              ))}
            </>
          )}
        </div>

        <DialogFooter>
          <Button onClick={() => onOpenChange(false)}>{m.forms_translate_done()}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
