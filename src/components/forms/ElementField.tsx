/**
 * One element of a page: its label (single controls) or fieldset and legend (groups), the
 * required mark, description, hint and errors, wired to the control with aria-describedby, and
 * the control of its type.
 */
import { createElement, lazy, Suspense, type ComponentType, type FocusEvent, type ReactNode } from 'react';
import type { AnswerValue, FormDefinition, FormElement } from '../../shared/forms/definition.ts';
import { SCALE_DEFAULT_STEP } from '../../shared/forms/constants.ts';
import { describedBy, FieldError } from '../ui/form-field.tsx';
import { ConsentControl, MultipleChoiceControl, RangeScaleControl, RatingControl, ScaleControl, SingleChoiceControl } from './choice-controls.tsx';
import { choiceHint, fieldIds, photoHint, SCALE_MAX_RADIOS, scalePoints, videoHint } from './form-utils.ts';
import { Markdown } from './Markdown.tsx';

import { DateControl, DropdownControl, LongTextControl, NumberControl, ShortTextControl } from './text-controls.tsx';
import type { ControlProps, FieldContext } from './types.ts';
import { m } from '../../shared/i18n.ts';

/**
 * Controls few forms use, each group in a chunk of its own, loaded with the first form asking for
 * one: photos and videos (the pickers, the rows, the recorder) and the matrix and ranking.
 */
interface ControlGroups {
  media: typeof import('./media-controls.ts');
  structured: typeof import('./structured-controls.tsx');
}
const importers: { [G in keyof ControlGroups]: () => Promise<ControlGroups[G]> } = {
  media: () => import('./media-controls.ts'),
  structured: () => import('./structured-controls.tsx'),
};
const loadedGroups: Partial<ControlGroups> = {};

function loadGroup<G extends keyof ControlGroups>(group: G): Promise<ControlGroups[G]> {
  return importers[group]().then((module) => (loadedGroups[group] = module));
}

function groupOf(type: FormElement['type']): keyof ControlGroups | null {
  if (type === 'photo' || type === 'video') return 'media';
  if (type === 'matrix' || type === 'ranking') return 'structured';
  return null;
}

/** The control groups a form needs that are not loaded yet. */
export function controlsToLoad(definition: FormDefinition): (keyof ControlGroups)[] {
  const groups = new Set(definition.pages.flatMap((page) => page.elements.map((element) => groupOf(element.type))));
  return [...groups].filter((group): group is keyof ControlGroups => group !== null && loadedGroups[group] === undefined);
}

/** Loads the controls a form needs; a screen that awaits it before showing the form shows them at once (no gap, no layout shift). */
export async function loadControls(definition: FormDefinition): Promise<void> {
  await Promise.all(controlsToLoad(definition).map((group) => loadGroup(group)));
}

/** A control of a group: the loaded one, or one that suspends until its group has loaded (a screen that did not wait). */
function lazyControl<G extends keyof ControlGroups, K extends keyof ControlGroups[G]>(group: G, name: K) {
  const Lazy = lazy(() => loadGroup(group).then((module) => ({ default: module[name] as ComponentType<ControlProps> })));
  return (props: ControlProps) => {
    const Control = ((loadedGroups[group] as ControlGroups[G] | undefined)?.[name] as ComponentType<ControlProps> | undefined) ?? Lazy;
    return (
      <Suspense fallback={null}>
        <Control {...props} />
      </Suspense>
    );
  };
}

const PhotoControl = lazyControl('media', 'PhotoControl');
const VideoControl = lazyControl('media', 'VideoControl');
const MatrixControl = lazyControl('structured', 'MatrixControl');
const RankingControl = lazyControl('structured', 'RankingControl');

/** How an element is labelled: one control with a <label>, or a fieldset (a radio group when its answer is one radio). */
export function layoutOf(element: FormElement): 'control' | 'group' | 'radiogroup' {
  switch (element.type) {
    case 'single_choice':
    case 'rating':
      return 'radiogroup';
    case 'scale':
      return scalePoints(element.min, element.max, element.step ?? SCALE_DEFAULT_STEP).length > SCALE_MAX_RADIOS ? 'control' : 'radiogroup';
    case 'multiple_choice':
    case 'matrix':
    case 'ranking':
    case 'photo':
    case 'video':
    case 'consent':
      return 'group';
    default:
      return 'control';
  }
}

/** The hint under the question: how many to choose, how many photos or videos (and how long), how to rank. */
export function hintOf(element: FormElement): string | null {
  switch (element.type) {
    case 'multiple_choice':
      return choiceHint(element.minSelected, element.maxSelected);
    case 'photo':
      return photoHint(element.minFiles, element.maxFiles);
    case 'video':
      return videoHint(element.minFiles, element.maxFiles, element.maxSeconds);
    case 'ranking':
      return m.participant_form_hint_ranking();
    case 'matrix': {
      const parts = [
        element.multiple ? m.participant_form_hint_matrix_multiple() : null,
        element.allRowsRequired ? m.participant_form_hint_matrix_all_rows() : null,
      ];
      return parts.filter(Boolean).join(' ') || null;
    }
    default:
      return null;
  }
}

function renderControl(props: ControlProps): ReactNode {
  const { element } = props;
  // Each branch narrows `element`; the control receives the same props with it.
  switch (element.type) {
    case 'short_text':
      return <ShortTextControl {...props} element={element} />;
    case 'long_text':
      return <LongTextControl {...props} element={element} />;
    case 'number':
      return <NumberControl {...props} element={element} />;
    case 'date':
      return <DateControl {...props} element={element} />;
    case 'dropdown':
      return <DropdownControl {...props} element={element} />;
    case 'single_choice':
      return <SingleChoiceControl {...props} element={element} />;
    case 'multiple_choice':
      return <MultipleChoiceControl {...props} element={element} />;
    case 'consent':
      return <ConsentControl {...props} element={element} />;
    case 'rating':
      return <RatingControl {...props} element={element} />;
    case 'scale':
      return layoutOf(element) === 'control' ? <RangeScaleControl {...props} element={element} /> : <ScaleControl {...props} element={element} />;
    case 'matrix':
      return <MatrixControl {...props} element={element} />;
    case 'ranking':
      return <RankingControl {...props} element={element} />;
    case 'photo':
      return <PhotoControl {...props} element={element} />;
    case 'video':
      return <VideoControl {...props} element={element} />;
    default:
      return null;
  }
}

/** The visible required mark; assistive technology hears "required" from the control or legend instead. */
function RequiredMark() {
  return (
    <span aria-hidden="true" className="ms-1 text-destructive">
      *
    </span>
  );
}

export interface ElementFieldProps {
  element: FormElement;
  value: AnswerValue | undefined;
  /** The messages to show now ([] for none). */
  errors: string[];
  ctx: FieldContext;
  onChange(elementId: string, value: AnswerValue | undefined): void;
  onIssue(elementId: string, message: string | null): void;
  /** Focus left the element (to show its errors once it was changed). */
  onLeave(elementId: string): void;
}

/** A statement: its title as a heading one level under the page's, and its Markdown body. */
function Statement({ element, ctx }: { element: Extract<FormElement, { type: 'statement' }>; ctx: FieldContext }) {
  const ids = fieldIds(ctx.prefix, element.id);
  return (
    <div id={ids.field} className="flex flex-col gap-2">
      {element.title.trim() !== '' && createElement(`h${ctx.headingLevel + 1}`, { className: 'text-base font-semibold' }, element.title)}
      {element.description && <Markdown className="text-muted-foreground">{element.description}</Markdown>}
      <Markdown headingLevel={ctx.headingLevel + 2}>{element.body}</Markdown>
    </div>
  );
}

export function ElementField({ element, value, errors, ctx, onChange, onIssue, onLeave }: ElementFieldProps) {
  if (element.type === 'statement') return <Statement element={element} ctx={ctx} />;

  const ids = fieldIds(ctx.prefix, element.id);
  const layout = layoutOf(element);
  const required = element.required === true;
  const invalid = errors.length > 0;
  const hint = hintOf(element);
  const described = describedBy(element.description && ids.description, hint && ids.hint, invalid && ids.error);

  const props: ControlProps = {
    element,
    value,
    onChange: (next) => onChange(element.id, next),
    onIssue: (message) => onIssue(element.id, message),
    ids,
    invalid,
    describedBy: layout === 'control' || element.type === 'consent' ? described : undefined,
    required,
    ctx,
  };

  const details = (
    <>
      {element.description && (
        <Markdown id={ids.description} className="text-muted-foreground">
          {element.description}
        </Markdown>
      )}
      {hint && (
        <p id={ids.hint} className="text-sm text-muted-foreground" {...ctx.ui}>
          {hint}
        </p>
      )}
      {invalid && (
        <div id={ids.error} className="flex flex-col gap-1" {...ctx.ui}>
          {errors.map((message, index) => (
            <FieldError key={index} id={`${ids.error}-${index}`}>
              {message}
            </FieldError>
          ))}
        </div>
      )}
    </>
  );

  const leave = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onLeave(element.id);
  };

  const title = (
    <>
      {element.title}
      {required && <RequiredMark />}
    </>
  );

  if (layout === 'control') {
    return (
      <div id={ids.field} data-element={element.id} className="flex min-w-0 flex-col gap-2" onBlur={leave}>
        <label id={ids.label} htmlFor={ids.control} className="text-base leading-snug font-medium break-words">
          {title}
        </label>
        {details}
        {renderControl(props)}
      </div>
    );
  }

  const radiogroup = layout === 'radiogroup';
  return (
    <fieldset
      id={ids.control}
      data-element={element.id}
      role={radiogroup ? 'radiogroup' : undefined}
      aria-labelledby={ids.label}
      aria-required={radiogroup && required ? true : undefined}
      aria-invalid={radiogroup && invalid ? true : undefined}
      aria-describedby={element.type === 'consent' ? undefined : described}
      className="flex min-w-0 flex-col gap-2"
      onBlur={leave}
    >
      <legend id={ids.label} className="float-start w-full text-base leading-snug font-medium break-words">
        {title}
        {/* Groups other than radio groups cannot carry aria-required: the legend says it. */}
        {required && !radiogroup && element.type !== 'consent' && (
          <span className="sr-only" {...ctx.ui}>
            {' '}
            {m.participant_form_required()}
          </span>
        )}
      </legend>
      {details}
      {renderControl(props)}
    </fieldset>
  );
}
