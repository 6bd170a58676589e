/**
 * The choice element types: single and multiple choice (with "Other"), consent, rating and
 * scale. Native radio buttons and checkboxes: arrow keys move within a radio group, every
 * browser and screen reader knows them, and they cost no JavaScript. ElementField wraps each
 * group in a fieldset whose legend is the question.
 */
import { useMemo, useRef, type ReactNode } from 'react';
import type { AnswerValue, ElementOf, OtherAnswer } from '../../shared/forms/definition.ts';
import { FORM_LIMITS, SCALE_DEFAULT_STEP } from '../../shared/forms/constants.ts';
import { isOtherAnswer } from '../../shared/forms/logic.ts';
import { displayOptions } from '../../shared/forms/order.ts';
import { cn } from '../../lib/utils.ts';
import { Markdown } from './Markdown.tsx';
import { formatNumber, OTHER_VALUE, scalePoints } from './form-utils.ts';
import { fieldControlClasses } from '../ui/input.tsx';
import type { ControlProps } from './types.ts';
import { formatCount, m } from '../../shared/i18n.ts';

/** One choice: the whole row is the label, at least 44 px high. */
const optionRowClasses =
  'flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border bg-card px-3 py-2 text-sm leading-snug transition-colors hover:bg-accent/60 has-[:checked]:border-primary has-[:checked]:bg-accent has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-70';

/** A native radio or checkbox in the theme's colour. */
export const nativeChoiceClasses = 'size-5 shrink-0 accent-primary';

/** A tile whose input is visually hidden: the focus ring is drawn on the tile. */
const tileFocusClasses = 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring';

interface OptionRowProps {
  type: 'radio' | 'checkbox';
  id: string;
  name: string;
  value: string;
  checked: boolean;
  invalid: boolean;
  disabled: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
}

function OptionRow({ type, id, name, value, checked, invalid, disabled, onChange, children }: OptionRowProps) {
  return (
    <label htmlFor={id} className={optionRowClasses}>
      <input
        type={type}
        id={id}
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        className={nativeChoiceClasses}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="min-w-0 break-words">{children}</span>
    </label>
  );
}

/** The text box of the "Other" choice, under it. */
function OtherText({ id, text, invalid, disabled, onChange }: { id: string; text: string; invalid: boolean; disabled: boolean; onChange(text: string): void }) {
  return (
    <div className="ms-8 flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {m.participant_form_other_specify()}
      </label>
      <input
        id={id}
        type="text"
        dir="auto"
        className={fieldControlClasses}
        maxLength={FORM_LIMITS.otherTextMax}
        value={text}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** Radio answers cannot be unticked: optional questions get a way back to "no answer". */
function ClearAnswer({ show, onClear }: { show: boolean; onClear(): void }) {
  if (!show) return null;
  return (
    <button
      type="button"
      className="mt-1 min-h-11 self-start text-sm font-medium text-primary underline underline-offset-4 hover:no-underline"
      onClick={onClear}
    >
      {m.participant_form_clear_answer()}
    </button>
  );
}

export function SingleChoiceControl(props: ControlProps<ElementOf<'single_choice'>>) {
  const { element, value, onChange, ids, invalid, ctx } = props;
  const options = useMemo(() => displayOptions(element, ctx.seed), [element, ctx.seed]);
  // The "Other" text comes back when the person picks Other again.
  const otherText = useRef(isOtherAnswer(value) ? value.other : '');
  if (isOtherAnswer(value)) otherText.current = value.other;
  const selected = typeof value === 'string' ? value : isOtherAnswer(value) ? OTHER_VALUE : null;
  const row = (id: string, label: ReactNode, pick: () => void) => (
    <OptionRow
      key={id}
      type="radio"
      id={`${ids.control}-${id === OTHER_VALUE ? 'other' : id}`}
      name={ids.control}
      value={id}
      checked={selected === id}
      invalid={invalid}
      disabled={ctx.disabled}
      onChange={(checked) => checked && pick()}
    >
      {label}
    </OptionRow>
  );
  return (
    <>
      <div className="grid gap-2">
        {options.map((option) => row(option.id, option.label, () => onChange(option.id)))}
        {element.allowOther && row(OTHER_VALUE, <span {...ctx.ui}>{m.participant_form_other()}</span>, () => onChange({ other: otherText.current }))}
        {selected === OTHER_VALUE && (
          <OtherText
            id={`${ids.control}-other-text`}
            text={otherText.current}
            invalid={invalid}
            disabled={ctx.disabled}
            onChange={(text) => onChange({ other: text })}
          />
        )}
      </div>
      <ClearAnswer show={!element.required && selected !== null && !ctx.disabled} onClear={() => onChange(undefined)} />
    </>
  );
}

/**
 * Checkboxes. Exclusive options ("None of these") clear every other choice when ticked, and are
 * cleared when another choice is ticked. The answer lists option ids in display order, then
 * `{ other }`.
 */
export function MultipleChoiceControl(props: ControlProps<ElementOf<'multiple_choice'>>) {
  const { element, value, onChange, ids, invalid, ctx } = props;
  const options = useMemo(() => displayOptions(element, ctx.seed), [element, ctx.seed]);
  const list = Array.isArray(value) ? value : [];
  const chosen = new Set(list.filter((item): item is string => typeof item === 'string'));
  const other = list.find(isOtherAnswer);
  const otherText = useRef(other?.other ?? '');
  if (other) otherText.current = other.other;
  const exclusive = new Set(element.exclusive ?? []);

  const commit = (nextChosen: Set<string>, nextOther: OtherAnswer | undefined) => {
    const next: (string | OtherAnswer)[] = options.filter((option) => nextChosen.has(option.id)).map((option) => option.id);
    // Ids the options no longer have stay (the validator reports them) rather than vanish.
    for (const id of nextChosen) if (!options.some((option) => option.id === id)) next.push(id);
    if (nextOther) next.push(nextOther);
    onChange(next.length > 0 ? next : undefined);
  };

  const toggle = (id: string, checked: boolean) => {
    if (!checked) {
      const next = new Set(chosen);
      next.delete(id);
      commit(next, other);
    } else if (exclusive.has(id)) {
      commit(new Set([id]), undefined);
    } else {
      const next = new Set([...chosen].filter((item) => !exclusive.has(item)));
      next.add(id);
      commit(next, other);
    }
  };

  const toggleOther = (checked: boolean) => {
    if (!checked) commit(chosen, undefined);
    else commit(new Set([...chosen].filter((item) => !exclusive.has(item))), { other: otherText.current });
  };

  return (
    <div className="grid gap-2">
      {options.map((option) => (
        <OptionRow
          key={option.id}
          type="checkbox"
          id={`${ids.control}-${option.id}`}
          name={ids.control}
          value={option.id}
          checked={chosen.has(option.id)}
          invalid={invalid}
          disabled={ctx.disabled}
          onChange={(checked) => toggle(option.id, checked)}
        >
          {option.label}
        </OptionRow>
      ))}
      {element.allowOther && (
        <OptionRow
          type="checkbox"
          id={`${ids.control}-other`}
          name={ids.control}
          value={OTHER_VALUE}
          checked={other !== undefined}
          invalid={invalid}
          disabled={ctx.disabled}
          onChange={toggleOther}
        >
          <span {...ctx.ui}>{m.participant_form_other()}</span>
        </OptionRow>
      )}
      {other && (
        <OtherText
          id={`${ids.control}-other-text`}
          text={other.other}
          invalid={invalid}
          disabled={ctx.disabled}
          onChange={(text) => commit(chosen, { other: text })}
        />
      )}
    </div>
  );
}

/** One checkbox whose label is the (Markdown) statement; the answer is `true`, unticked removes it. */
export function ConsentControl(props: ControlProps<ElementOf<'consent'>>) {
  const { element, value, onChange, ids, invalid, required, ctx } = props;
  return (
    <label htmlFor={ids.control} className={cn(optionRowClasses, 'items-start py-3')}>
      <input
        type="checkbox"
        id={ids.control}
        checked={value === true}
        disabled={ctx.disabled}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-describedby={props.describedBy}
        className={cn(nativeChoiceClasses, 'mt-0.5')}
        onChange={(event) => onChange(event.target.checked ? true : undefined)}
      />
      <Markdown inline className="min-w-0 text-sm leading-6">
        {element.statement}
      </Markdown>
    </label>
  );
}

function StarIcon({ filled, className }: { filled: boolean; className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      className={className}
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinejoin="round"
    >
      <path d="M12 2.75l2.86 5.8 6.4.93-4.63 4.51 1.09 6.37L12 17.35l-5.72 3.01 1.09-6.37L2.74 9.48l6.4-.93z" />
    </svg>
  );
}

interface PointProps {
  name: string;
  id: string;
  /** The radio's name when it is more than the tile's text (the scale's end labels). */
  label?: string | undefined;
  point: number;
  selected: AnswerValue | undefined;
  invalid: boolean;
  disabled: boolean;
  onPick(point: number): void;
  className: string;
  children: ReactNode;
}

/** A radio button drawn as a tile (star, number): the input is visually hidden, not removed. */
function PointTile({ name, id, label, point, selected, invalid, disabled, onPick, className, children }: PointProps) {
  return (
    <label htmlFor={id} className={cn('relative cursor-pointer has-[:disabled]:cursor-not-allowed', tileFocusClasses, className)}>
      {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props -- aria-invalid is a global state in ARIA 1.2, valid on a native radio */}
      <input
        type="radio"
        id={id}
        name={name}
        value={String(point)}
        checked={selected === point}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-label={label}
        className="sr-only"
        onChange={(event) => event.target.checked && onPick(point)}
      />
      {children}
    </label>
  );
}

/** 1…max as stars or numbers; a radio group (arrow keys move and choose). */
export function RatingControl(props: ControlProps<ElementOf<'rating'>>) {
  const { element, value, onChange, ids, invalid, ctx } = props;
  const stars = (element.icon ?? 'star') === 'star';
  const points = Array.from({ length: element.max }, (_, i) => i + 1);
  const current = typeof value === 'number' ? value : 0;
  return (
    <>
      <div className="flex flex-wrap gap-1">
        {points.map((point) => (
          <PointTile
            key={point}
            name={ids.control}
            id={`${ids.control}-${point}`}
            point={point}
            selected={value}
            invalid={invalid}
            disabled={ctx.disabled}
            onPick={onChange}
            className={cn(
              'inline-flex size-11 items-center justify-center rounded-md',
              stars
                ? point <= current
                  ? 'text-primary'
                  : 'text-input hover:text-primary/70'
                : 'border border-border bg-card text-sm font-medium tabular-nums hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-primary-foreground',
            )}
          >
            {stars ? (
              <>
                <StarIcon filled={point <= current} className="size-8" />
                <span className="sr-only">{m.participant_form_stars({ count: point })}</span>
              </>
            ) : (
              formatCount(point)
            )}
          </PointTile>
        ))}
      </div>
      {stars && current > 0 && (
        <p className="text-sm text-muted-foreground" aria-hidden="true">
          {m.participant_form_value_of_max({ value: formatCount(current), max: formatCount(element.max) })}
        </p>
      )}
      <ClearAnswer show={!element.required && value !== undefined && !ctx.disabled} onClear={() => onChange(undefined)} />
    </>
  );
}

/** A point of a scale in the page's digits, ungrouped ("1000"), decimals kept ("2.5"). */
function formatPoint(point: number): string {
  return formatNumber(point, false);
}

/** Up to 11 points (NPS 0–10 included): a row of radio buttons with the end labels. */
export function ScaleControl(props: ControlProps<ElementOf<'scale'>>) {
  const { element, value, onChange, ids, invalid, ctx } = props;
  const points = scalePoints(element.min, element.max, element.step ?? SCALE_DEFAULT_STEP);
  const last = points.length - 1;
  // The end points' names carry the end labels ("0, Not at all likely"); the visible ones are under the row.
  const endLabel = (index: number) => (index === 0 ? element.minLabel : index === last ? element.maxLabel : undefined);
  return (
    <>
      <div className="grid grid-cols-[repeat(auto-fit,minmax(2.75rem,1fr))] gap-1.5">
        {points.map((point, index) => (
          <PointTile
            key={point}
            name={ids.control}
            id={`${ids.control}-${index}`}
            label={endLabel(index) ? `${formatPoint(point)}, ${endLabel(index)}` : undefined}
            point={point}
            selected={value}
            invalid={invalid}
            disabled={ctx.disabled}
            onPick={onChange}
            className="flex h-11 items-center justify-center rounded-md border border-border bg-card text-sm font-medium tabular-nums hover:bg-accent has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-primary-foreground"
          >
            {formatPoint(point)}
          </PointTile>
        ))}
      </div>
      {(element.minLabel || element.maxLabel) && (
        <div aria-hidden="true" className="flex justify-between gap-4 text-xs text-muted-foreground">
          <span>{element.minLabel}</span>
          <span className="text-end">{element.maxLabel}</span>
        </div>
      )}
      <ClearAnswer show={!element.required && value !== undefined && !ctx.disabled} onClear={() => onChange(undefined)} />
    </>
  );
}

/** More than 11 points: a native slider with its value beside it; untouched means unanswered. */
export function RangeScaleControl(props: ControlProps<ElementOf<'scale'>>) {
  const { element, value, onChange, ids, ctx } = props;
  const points = scalePoints(element.min, element.max, element.step ?? SCALE_DEFAULT_STEP);
  const answered = typeof value === 'number';
  const resting = points[Math.floor(points.length / 2)] ?? element.min;
  const outputId = `${ids.control}-output`;
  return (
    <>
      <div className="flex items-center gap-3">
        {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props -- aria-required is supported on a native range input (ARIA 1.2; the required attribute does not apply to it) */}
        <input
          type="range"
          id={ids.control}
          min={element.min}
          max={element.max}
          step={element.step ?? SCALE_DEFAULT_STEP}
          value={answered ? value : resting}
          disabled={ctx.disabled}
          aria-invalid={props.invalid || undefined}
          aria-required={props.required || undefined}
          aria-describedby={props.describedBy}
          aria-valuetext={answered ? undefined : m.participant_form_not_answered()}
          className={cn('h-11 w-full min-w-0 accent-primary', !answered && 'opacity-60')}
          onChange={(event) => onChange(Number(event.target.value))}
          // A tap on the resting value fires no change: it still answers.
          onPointerUp={(event) => !answered && onChange(Number(event.currentTarget.value))}
        />
        <output id={outputId} htmlFor={ids.control} className="min-w-24 text-end text-sm font-medium tabular-nums">
          {answered ? formatPoint(value) : m.participant_form_not_answered()}
        </output>
      </div>
      <div className="flex justify-between gap-4 text-xs text-muted-foreground">
        <span>
          {formatPoint(element.min)}
          {element.minLabel && ` – ${element.minLabel}`}
        </span>
        <span className="text-end">
          {formatPoint(element.max)}
          {element.maxLabel && ` – ${element.maxLabel}`}
        </span>
      </div>
      <ClearAnswer show={!element.required && answered && !ctx.disabled} onClear={() => onChange(undefined)} />
    </>
  );
}
