/**
 * The single-control element types: short and long text, number, date and dropdown. Each
 * receives its id and ARIA links from ElementField, which renders the label, description and
 * errors around it.
 */
import { useEffect, useRef, useState } from 'react';
import type { ElementOf } from '../../shared/forms/definition.ts';
import { FORM_LIMITS } from '../../shared/forms/constants.ts';
import { displayOptions } from '../../shared/forms/order.ts';
import { cn } from '../../lib/utils.ts';
import { ChevronDownIcon } from '../icons.tsx';
import { controlClasses, fieldControlClasses } from '../ui/input.tsx';
import { describedBy } from '../ui/form-field.tsx';
import { formatNumber, notANumberMessage, parseNumberText, resolveDateBound } from './form-utils.ts';
import type { ControlProps } from './types.ts';
import { formatCount, m } from '../../shared/i18n.ts';

function aria(props: ControlProps) {
  return {
    id: props.ids.control,
    'aria-invalid': props.invalid || undefined,
    'aria-required': props.required || undefined,
    disabled: props.ctx.disabled,
  };
}

/** "12 / 255 characters", linked to the control with aria-describedby. */
function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <p id={id} className={cn('text-end text-xs tabular-nums', length > max ? 'font-medium text-destructive' : 'text-muted-foreground')}>
      {m.participant_form_characters({ length: formatNumber(length, false), max: formatNumber(max, false) })}
    </p>
  );
}

const INPUT_TYPES = { text: 'text', email: 'email', url: 'url', phone: 'tel' } as const;
const AUTOCOMPLETE = { text: undefined, email: 'email', url: 'url', phone: 'tel' } as const;

export function ShortTextControl(props: ControlProps<ElementOf<'short_text'>>) {
  const { element, value, onChange, ids } = props;
  const text = typeof value === 'string' ? value : '';
  const format = element.format ?? 'text';
  // The counter helps where an author set a limit; the default limit is only enforced.
  const showCount = element.maxLength !== undefined;
  const max = element.maxLength ?? FORM_LIMITS.shortTextDefaultMax;
  const countId = `${ids.control}-count`;
  return (
    <>
      <input
        {...aria(props)}
        aria-describedby={describedBy(props.describedBy, showCount && countId)}
        type={INPUT_TYPES[format]}
        // Free text in either direction (an Arabic answer on an English page); addresses and numbers stay left to right.
        dir={format === 'text' ? 'auto' : 'ltr'}
        autoComplete={AUTOCOMPLETE[format]}
        autoCapitalize={format === 'text' ? undefined : 'none'}
        spellCheck={format === 'text' ? undefined : false}
        placeholder={element.placeholder}
        maxLength={max}
        className={fieldControlClasses}
        value={text}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      />
      {showCount && <CharacterCount id={countId} length={text.length} max={max} />}
    </>
  );
}

export function LongTextControl(props: ControlProps<ElementOf<'long_text'>>) {
  const { element, value, onChange, ids } = props;
  const text = typeof value === 'string' ? value : '';
  const max = element.maxLength ?? FORM_LIMITS.longTextDefaultMax;
  const countId = `${ids.control}-count`;
  return (
    <>
      <textarea
        {...aria(props)}
        aria-describedby={describedBy(props.describedBy, countId)}
        dir="auto"
        rows={5}
        placeholder={element.placeholder}
        maxLength={max}
        className={cn(controlClasses, 'h-auto min-h-32 resize-y leading-6')}
        value={text}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      />
      <CharacterCount id={countId} length={text.length} max={max} />
    </>
  );
}

/**
 * A number typed as text (no spinner, no scroll-wheel surprises; the keyboard by inputMode).
 * The answer is a number; an empty field removes it; text that is not a number keeps no answer
 * and reports "Enter a number".
 */
export function NumberControl(props: ControlProps<ElementOf<'number'>>) {
  const { element, value, onChange, onIssue, ids } = props;
  const [text, setText] = useState(() => (typeof value === 'number' ? String(value) : ''));
  const unitId = `${ids.control}-unit`;

  // An answer changed from outside (e.g. cleared) wins over the text; runs when the answer changes.
  useEffect(() => {
    const parsed = parseNumberText(text);
    if (typeof value === 'number' && parsed !== value) setText(String(value));
    if (value === undefined && typeof parsed === 'number') setText('');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only an outside change of the answer re-syncs; the text being typed is read, not watched
  }, [value]);

  // Text that is not a number goes with the field (Back, or the element hidden).
  const issueRef = useRef(onIssue);
  issueRef.current = onIssue;
  useEffect(() => () => issueRef.current(null), []);

  return (
    <div className="flex items-center gap-2">
      <input
        {...aria(props)}
        aria-describedby={describedBy(props.describedBy, element.unit && unitId)}
        type="text"
        inputMode={element.integer ? 'numeric' : 'decimal'}
        autoComplete="off"
        className={cn(fieldControlClasses, 'max-w-48 tabular-nums')}
        value={text}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const parsed = parseNumberText(next);
          onIssue(parsed === null ? notANumberMessage() : null);
          onChange(typeof parsed === 'number' ? parsed : undefined);
        }}
      />
      {element.unit && (
        <span id={unitId} className="text-sm text-muted-foreground">
          {element.unit}
        </span>
      )}
    </div>
  );
}

export function DateControl(props: ControlProps<ElementOf<'date'>>) {
  const { element, value, onChange, ctx } = props;
  return (
    <input
      {...aria(props)}
      aria-describedby={props.describedBy}
      type="date"
      min={resolveDateBound(element.minDate, ctx.today)}
      max={resolveDateBound(element.maxDate, ctx.today)}
      className={cn(fieldControlClasses, 'max-w-56')}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}

/** Lower case without accents, for matching a search against option labels. */
function searchable(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}

/**
 * A native select: the phone's own picker, type-ahead on desktops. When `searchable`, a search
 * box above it narrows the options (the chosen one always stays); Enter picks the only match.
 */
export function DropdownControl(props: ControlProps<ElementOf<'dropdown'>>) {
  const { element, value, onChange, ctx, ids } = props;
  const options = displayOptions(element, ctx.seed);
  const [query, setQuery] = useState('');
  const selected = typeof value === 'string' ? value : '';
  const needle = element.searchable ? searchable(query) : '';
  const matches = needle === '' ? options : options.filter((option) => searchable(option.label).includes(needle));
  const shown = needle === '' ? options : options.filter((option) => option.id === selected || matches.includes(option));
  const searchId = `${ids.control}-search`;
  const countId = `${ids.control}-matches`;
  return (
    <div className="flex flex-col gap-2">
      {element.searchable && (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={searchId} className="text-sm text-muted-foreground">
            {m.participant_form_search_list()}
          </label>
          <input
            id={searchId}
            type="search"
            // The list's name with it (the visible label is short): "Search the list of Country".
            aria-label={m.participant_form_search_list_of({ title: element.title })}
            autoComplete="off"
            className={fieldControlClasses}
            value={query}
            disabled={ctx.disabled}
            aria-controls={ids.control}
            aria-describedby={countId}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter') return;
              // Enter would submit the page: here it picks the only match.
              event.preventDefault();
              if (matches.length === 1 && matches[0]) onChange(matches[0].id);
            }}
          />
          <p id={countId} role="status" className="text-xs text-muted-foreground">
            {needle === '' ? '' : m.participant_form_options_match({ matches: formatCount(matches.length), total: formatCount(options.length) })}
          </p>
        </div>
      )}
      <div className="relative">
        <select
          {...aria(props)}
          aria-describedby={props.describedBy}
          className={cn(fieldControlClasses, 'appearance-none pe-10')}
          value={selected}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
        >
          <option value="">{m.participant_form_choose()}</option>
          {shown.map((option) => (
            <option key={option.id} value={option.id}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      </div>
    </div>
  );
}
