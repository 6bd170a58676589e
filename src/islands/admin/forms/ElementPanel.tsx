/**
 * The builder's side panel: the selected element's settings (title, description, required, id,
 * type, page, every setting of its type, options, condition), or the current page's settings when
 * no element is selected. Every edit is a reducer action, so it can be undone.
 */
import { useEffect, useId, useState, type Dispatch, type ReactNode, type Ref } from 'react';
import {
  ELEMENT_TYPES,
  PHOTO_CAPTURE,
  RATING_ICONS,
  SCALE_PRESETS,
  SHORT_TEXT_FORMATS,
  isElementType,
  type ElementType,
} from '../../../shared/forms/constants.ts';
import { FORM_LIMITS } from '../../../shared/forms/constants.ts';
import type { DraftElement } from '../../../shared/forms/definition.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { findElement, isLocked, unavailableIds, type BuilderAction, type BuilderState, type DraftPage } from './builder-state.ts';
import { TYPE_LABELS, canHoldElementId, elementIdProblem, pageName, typeLabel, type Item } from './catalog.ts';
import { ConditionEditor } from './ConditionEditor.tsx';
import type { ConditionTarget } from './conditions.ts';
import { CheckSetting, DurationSetting, LongTextSetting, NumberSetting, SelectSetting, TextSetting, type Choice } from './fields.tsx';
import { OptionsEditor } from './OptionsEditor.tsx';
import { formatCount, formatDuration, m } from '../../../shared/i18n.ts';

export interface ElementPanelProps {
  state: BuilderState;
  dispatch: Dispatch<BuilderAction>;
  problems: Readonly<Record<string, string[]>>;
  /** YYYY-MM-DD for new date rules. */
  today: string;
  /** The panel's heading (focused when an element is opened for editing). */
  headingRef?: Ref<HTMLHeadingElement>;
  headingId: string;
  /** Says something in the builder's live region. */
  announce: (text: string) => void;
}

type Raw = Record<string, unknown>;
const str = (raw: Raw, key: string): string => (typeof raw[key] === 'string' ? raw[key] : '');
const num = (raw: Raw, key: string): number | undefined => (typeof raw[key] === 'number' ? raw[key] : undefined);
const bool = (raw: Raw, key: string): boolean => raw[key] === true;
const itemsOf = (raw: Raw, key: string): Item[] =>
  Array.isArray(raw[key])
    ? (raw[key] as unknown[]).filter(
        (item): item is Item => typeof item === 'object' && item !== null && typeof (item as Item).id === 'string' && typeof (item as Item).label === 'string',
      )
    : [];

export function ElementPanel(props: ElementPanelProps) {
  const { state } = props;
  const place = state.elementId === null ? null : findElement(state.draft, state.elementId);
  if (place) return <ElementSettings {...props} element={place.element} pageId={place.page.id} />;
  const pageIndex = state.draft.pages.findIndex((page) => page.id === state.pageId);
  const page = state.draft.pages[pageIndex];
  if (!page) {
    return (
      <h2 ref={props.headingRef} id={props.headingId} tabIndex={-1} className="text-lg font-semibold">
        {m.forms_panel_nothing_selected()}
      </h2>
    );
  }
  return <PageSettings {...props} page={page} pageIndex={pageIndex} />;
}

function Problems({ messages }: { messages: readonly string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <Alert variant="destructive" role="note" title={m.forms_panel_problems_title({ count: messages.length })}>
      <ul className="flex flex-col gap-1">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </Alert>
  );
}

function PageSettings({ problems, page, pageIndex, ...panel }: ElementPanelProps & { page: DraftPage; pageIndex: number }) {
  const update = (patch: Record<string, unknown>, key: string) => panel.dispatch({ type: 'update_page', id: page.id, patch, key: `page:${page.id}:${key}` });
  return (
    <SettingsPanel
      {...panel}
      heading={m.forms_panel_page_settings()}
      about={
        <>
          {pageName(page, pageIndex)} · {m.forms_panel_id()} <span className="font-mono">{page.id}</span> ·{' '}
          {m.forms_count_questions({ count: page.elements.length })}
        </>
      }
      problems={problems[page.id]}
      target={{ kind: 'page', id: page.id }}
      condition={page.visibleIf}
    >
      <TextSetting label={m.forms_panel_page_title()} value={page.title ?? ''} onChange={(title) => update({ title }, 'title')} />
      <DescriptionSetting
        label={m.forms_panel_page_description()}
        help={m.forms_panel_page_description_help()}
        value={str(page, 'description')}
        onChange={(description) => update({ description }, 'description')}
      />
    </SettingsPanel>
  );
}

/** A page's or a question's panel: heading, what it is, its problems, its settings, then its condition. */
function SettingsPanel({
  state,
  dispatch,
  today,
  headingRef,
  headingId,
  heading,
  about,
  problems,
  target,
  condition,
  children,
}: Omit<ElementPanelProps, 'problems'> & {
  heading: string;
  about: ReactNode;
  problems: readonly string[] | undefined;
  target: ConditionTarget;
  condition: unknown;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-1">
        <h2 ref={headingRef} id={headingId} tabIndex={-1} className="text-lg font-semibold">
          {heading}
        </h2>
        <p className="text-sm text-muted-foreground">{about}</p>
      </div>
      <Problems messages={problems} />
      {children}
      <ConditionEditor
        draft={state.draft}
        target={target}
        condition={condition}
        today={today}
        onChange={(next, key) => dispatch({ type: 'set_condition', kind: target.kind, id: target.id, condition: next, ...(key ? { key } : {}) })}
      />
    </div>
  );
}

/** The Markdown text under a page's or a question's title; empty is none. */
function DescriptionSetting({
  label,
  help,
  value,
  onChange,
}: {
  label: string;
  help: string;
  value: string;
  onChange: (description: string | undefined) => void;
}) {
  return (
    <LongTextSetting
      label={label}
      description={m.forms_panel_description_help({ help })}
      value={value}
      onChange={(text) => onChange(text === '' ? undefined : text)}
    />
  );
}

function ElementSettings({ problems, element, pageId, ...panel }: ElementPanelProps & { element: DraftElement; pageId: string }) {
  const { state, dispatch, announce } = panel;
  const raw = element as Raw;
  const id = element.id;
  const locked = isLocked(state, id);
  const update = (patch: Record<string, unknown>, key: string, label?: string) =>
    dispatch({ type: 'update_element', id, patch, key: `${id}:${key}`, ...(label ? { label } : {}) });
  const [pendingType, setPendingType] = useState<ElementType | null>(null);
  useEffect(() => setPendingType(null), [id]);

  return (
    <SettingsPanel
      {...panel}
      heading={m.forms_panel_question_settings()}
      about={
        <>
          {typeLabel(element.type)} · {m.forms_panel_id()} <span className="font-mono">{id}</span>
        </>
      }
      problems={problems[id]}
      target={{ kind: 'element', id }}
      condition={raw.visibleIf}
    >
      <LongTextSetting label={m.forms_panel_question_title()} rows={2} value={element.title} onChange={(title) => update({ title }, 'title')} />
      <DescriptionSetting
        label={m.forms_panel_description()}
        help={m.forms_panel_description_question_help()}
        value={str(raw, 'description')}
        onChange={(description) => update({ description }, 'description')}
      />
      {element.type !== 'statement' && (
        <CheckSetting
          label={m.forms_panel_required()}
          description={m.forms_panel_required_help()}
          checked={bool(raw, 'required')}
          onChange={(required) => update({ required: required || undefined }, 'required')}
        />
      )}

      <IdSetting state={state} id={id} locked={locked} onRename={(newId) => dispatch({ type: 'rename_element', id, newId })} />

      <div className="flex flex-col gap-3">
        <SelectSetting<ElementType>
          label={m.forms_panel_type()}
          value={isElementType(element.type) ? element.type : undefined}
          description={locked ? m.forms_panel_type_locked() : undefined}
          choices={ELEMENT_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type]() }))}
          onChange={(type) => {
            if (!type || type === element.type) return;
            if (locked) setPendingType(type);
            else {
              dispatch({ type: 'change_type', id, elementType: type });
              announce(m.forms_panel_changed_type({ type: TYPE_LABELS[type]() }));
            }
          }}
        />
        {pendingType && (
          <div role="group" aria-label={m.forms_panel_replace()} className="flex flex-col gap-2 rounded-md border border-border bg-muted/40 p-3">
            <p className="text-sm">{m.forms_panel_replace_explained({ title: element.title.trim() || id, type: TYPE_LABELS[pendingType]() })}</p>
            <div className="flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => {
                  dispatch({ type: 'change_type', id, elementType: pendingType });
                  announce(m.forms_panel_replaced({ type: TYPE_LABELS[pendingType]() }));
                  setPendingType(null);
                }}
              >
                {m.forms_panel_replace()}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setPendingType(null)}>
                {m.forms_panel_keep()}
              </Button>
            </div>
          </div>
        )}
      </div>

      {state.draft.pages.length > 1 && (
        <SelectSetting
          label={m.forms_panel_move_to_page()}
          value={pageId}
          choices={state.draft.pages.map((page, index) => ({ value: page.id, label: pageName(page, index) }))}
          onChange={(toPageId) => {
            if (!toPageId || toPageId === pageId) return;
            const target = state.draft.pages.findIndex((page) => page.id === toPageId);
            dispatch({ type: 'move_element', id, toPageId, toIndex: state.draft.pages[target]?.elements.length ?? 0 });
            announce(m.forms_panel_moved_to_page({ page: formatCount(target + 1) }));
          }}
        />
      )}

      {isElementType(element.type) && <TypeSettings element={element} type={element.type} update={update} />}
    </SettingsPanel>
  );
}

/**
 * The id field: editable while no published version has the element. An empty or taken id is not
 * applied; a badly formed one is (the draft holds what is shown), and both say what is wrong.
 */
function IdSetting({ state, id, locked, onRename }: { state: BuilderState; id: string; locked: boolean; onRename: (id: string) => void }) {
  const [text, setText] = useState(id);
  useEffect(() => setText(id), [id]);
  const taken = unavailableIds(state);
  taken.delete(id);
  const problem = locked ? null : elementIdProblem(text, taken);
  return (
    <TextSetting
      label={m.forms_panel_id_label()}
      description={locked ? m.forms_panel_id_locked() : m.forms_panel_id_help()}
      value={text}
      disabled={locked}
      error={problem ?? undefined}
      onChange={(value) => {
        setText(value);
        if (canHoldElementId(value, taken)) onRename(value);
      }}
    />
  );
}

function TypeSettings({
  element,
  type,
  update,
}: {
  element: DraftElement;
  type: ElementType;
  update: (patch: Record<string, unknown>, key: string, label?: string) => void;
}) {
  const raw = element as Raw;
  const setBool = (key: string) => (value: boolean) => update({ [key]: value || undefined }, key);
  // One setting per key of the element: its control reads and writes that key.
  const text = (key: string, label: string, more: { description?: string; placeholder?: string } = {}) => (
    <TextSetting label={label} {...more} value={str(raw, key)} onChange={(value) => update({ [key]: value === '' ? undefined : value }, key)} />
  );
  const number = (key: string, label: string, more: { description?: string; min?: number; max?: number; step?: number } = {}) => (
    <NumberSetting label={label} {...more} value={num(raw, key)} onChange={(value) => update({ [key]: value }, key)} />
  );
  const check = (key: string, label: string, description?: string) => (
    <CheckSetting label={label} description={description} checked={bool(raw, key)} onChange={setBool(key)} />
  );
  const select = <V extends string>(key: string, label: string, none: string, choices: readonly Choice<V>[]) => (
    <SelectSetting
      label={label}
      none={none}
      value={(str(raw, key) || undefined) as V | undefined}
      choices={choices}
      onChange={(value) => update({ [key]: value }, key)}
    />
  );
  const longText = (key: string, label: string, more: { description?: string; rows?: number } = {}) => (
    <LongTextSetting label={label} {...more} value={str(raw, key)} onChange={(value) => update({ [key]: value }, key)} />
  );
  const options = (key: 'options' | 'rows' | 'columns', noun: 'option' | 'row' | 'column') => (
    <OptionsEditor noun={noun} elementId={element.id} items={itemsOf(raw, key)} onChange={(items, mergeKey) => update({ [key]: items }, mergeKey)} />
  );
  const lengths = (defaultMax: number, hardMax: number) => (
    <>
      {number('minLength', m.forms_setting_min_length(), { min: 0, step: 1 })}
      {number('maxLength', m.forms_setting_max_length(), {
        description: m.forms_setting_when_empty({ value: formatCount(defaultMax) }),
        min: 1,
        max: hardMax,
        step: 1,
      })}
      {text('placeholder', m.forms_setting_placeholder())}
    </>
  );
  const choiceSettings = (
    <>
      {options('options', 'option')}
      <CheckSetting
        label={m.forms_setting_shuffle()}
        description={m.forms_setting_shuffle_help()}
        checked={raw.optionOrder === 'random'}
        onChange={(random) => update({ optionOrder: random ? 'random' : undefined }, 'optionOrder')}
      />
      {check('allowOther', m.forms_setting_allow_other())}
    </>
  );
  const dateHelp = { description: m.forms_setting_date_help(), placeholder: m.forms_date_placeholder() };

  const settingsOf: Readonly<Record<ElementType, () => ReactNode>> = {
    short_text: () => (
      <>
        {select(
          'format',
          m.forms_setting_format(),
          m.forms_setting_format_any(),
          SHORT_TEXT_FORMATS.filter((format) => format !== 'text').map((format) => ({
            value: format,
            label: {
              text: m.forms_setting_format_any,
              email: m.forms_setting_format_email,
              url: m.forms_setting_format_url,
              phone: m.forms_setting_format_phone,
            }[format](),
          })),
        )}
        {lengths(FORM_LIMITS.shortTextDefaultMax, FORM_LIMITS.shortTextHardMax)}
      </>
    ),
    long_text: () => lengths(FORM_LIMITS.longTextDefaultMax, FORM_LIMITS.longTextHardMax),
    single_choice: () => choiceSettings,
    multiple_choice: () => {
      const items = itemsOf(raw, 'options');
      const exclusive = new Set(Array.isArray(raw.exclusive) ? (raw.exclusive as unknown[]).map(String) : []);
      return (
        <>
          {choiceSettings}
          {number('minSelected', m.forms_setting_min_selected(), { min: 0, step: 1 })}
          {number('maxSelected', m.forms_setting_max_selected(), { min: 1, step: 1 })}
          {items.length > 0 && (
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium">{m.forms_setting_exclusive()}</legend>
              {items.map((item) => (
                <CheckSetting
                  key={item.id}
                  label={item.label || item.id}
                  checked={exclusive.has(item.id)}
                  onChange={(checked) => {
                    const next = items.map((each) => each.id).filter((each) => (each === item.id ? checked : exclusive.has(each)));
                    update({ exclusive: next.length > 0 ? next : undefined }, 'exclusive');
                  }}
                />
              ))}
            </fieldset>
          )}
        </>
      );
    },
    dropdown: () => (
      <>
        {options('options', 'option')}
        {check('searchable', m.forms_setting_searchable(), m.forms_setting_searchable_help())}
      </>
    ),
    ranking: () => (
      <>
        {options('options', 'option')}
        {check('rankAll', m.forms_setting_rank_all())}
      </>
    ),
    rating: () => (
      <>
        {number('max', m.forms_setting_rating_max(), {
          description: m.forms_setting_from_to({ min: formatCount(FORM_LIMITS.ratingMin), max: formatCount(FORM_LIMITS.ratingMax) }),
          min: FORM_LIMITS.ratingMin,
          max: FORM_LIMITS.ratingMax,
          step: 1,
        })}
        {select(
          'icon',
          m.forms_setting_rating_icon(),
          m.forms_setting_rating_icon_stars(),
          RATING_ICONS.filter((icon) => icon !== 'star').map((icon) => ({ value: icon, label: m.forms_setting_rating_icon_numbers() })),
        )}
      </>
    ),
    scale: () => (
      <>
        {number('min', m.forms_setting_scale_from())}
        {number('max', m.forms_setting_scale_to())}
        {number('step', m.forms_setting_scale_step(), { description: m.forms_setting_when_empty({ value: formatCount(1) }), min: 0 })}
        {text('minLabel', m.forms_setting_scale_min_label(), { placeholder: m.forms_setting_scale_min_label_placeholder() })}
        {text('maxLabel', m.forms_setting_scale_max_label(), { placeholder: m.forms_setting_scale_max_label_placeholder() })}
        {select(
          'preset',
          m.forms_setting_scale_preset(),
          m.forms_setting_scale_preset_none(),
          SCALE_PRESETS.map((preset) => ({
            value: preset,
            label: preset === 'nps' ? m.forms_setting_scale_preset_nps() : m.forms_setting_scale_preset_likert(),
          })),
        )}
      </>
    ),
    number: () => (
      <>
        {number('min', m.forms_setting_number_min())}
        {number('max', m.forms_setting_number_max())}
        {check('integer', m.forms_setting_integer())}
        {text('unit', m.forms_setting_unit(), { placeholder: m.forms_setting_unit_placeholder() })}
      </>
    ),
    date: () => (
      <>
        {text('minDate', m.forms_setting_min_date(), dateHelp)}
        {text('maxDate', m.forms_setting_max_date(), dateHelp)}
      </>
    ),
    photo: () => (
      <>
        {number('minFiles', m.forms_setting_min_files(), { description: m.forms_setting_min_files_help(), min: 0, max: FORM_LIMITS.photoMaxFiles, step: 1 })}
        {number('maxFiles', m.forms_setting_max_files(), {
          description: m.forms_setting_max_files_help({ max: formatCount(FORM_LIMITS.photoMaxFiles) }),
          min: 1,
          max: FORM_LIMITS.photoMaxFiles,
          step: 1,
        })}
        {select(
          'capture',
          m.forms_setting_capture(),
          m.forms_setting_capture_both(),
          PHOTO_CAPTURE.filter((capture) => capture !== 'both').map((capture) => ({
            value: capture,
            label: capture === 'camera' ? m.forms_setting_capture_camera() : m.forms_setting_capture_library(),
          })),
        )}
      </>
    ),
    video: () => (
      <>
        <DurationSetting
          label={m.forms_setting_video_max_length()}
          description={m.forms_setting_video_max_length_help({ max: formatDuration(FORM_LIMITS.videoMaxSeconds) })}
          value={num(raw, 'maxSeconds')}
          max={FORM_LIMITS.videoMaxSeconds}
          onChange={(value) => update({ maxSeconds: value }, 'maxSeconds')}
        />
        {number('minFiles', m.forms_setting_min_files(), {
          description: m.forms_setting_video_min_files_help(),
          min: 0,
          max: FORM_LIMITS.videoMaxFiles,
          step: 1,
        })}
        {number('maxFiles', m.forms_setting_max_files(), {
          description: m.forms_setting_max_files_help({ max: formatCount(FORM_LIMITS.videoMaxFiles) }),
          min: 1,
          max: FORM_LIMITS.videoMaxFiles,
          step: 1,
        })}
        {select(
          'capture',
          m.forms_setting_video_capture(),
          m.forms_setting_capture_both(),
          PHOTO_CAPTURE.filter((capture) => capture !== 'both').map((capture) => ({
            value: capture,
            label: capture === 'camera' ? m.forms_setting_capture_camera() : m.forms_setting_capture_library(),
          })),
        )}
      </>
    ),
    consent: () => longText('statement', m.forms_setting_consent_statement()),
    matrix: () => (
      <>
        {options('rows', 'row')}
        {options('columns', 'column')}
        {check('multiple', m.forms_setting_matrix_multiple())}
        {check('allRowsRequired', m.forms_setting_matrix_all_rows())}
      </>
    ),
    statement: () => longText('body', m.forms_setting_statement_body(), { description: m.forms_setting_markdown_help(), rows: 5 }),
  };
  return <Settings>{settingsOf[type]()}</Settings>;
}

/** The type's own settings, under a heading. */
function Settings({ children }: { children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 border-t border-border pt-4">
      <h3 id={id} className="text-base font-semibold">
        {m.forms_panel_answer_settings()}
      </h3>
      {children}
    </section>
  );
}
