/**
 * Matrix and ranking: the element types whose answer has structure (a row map, an order).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ElementOf } from '../../shared/forms/definition.ts';
import { isOtherAnswer, isPlainObject, setOwn } from '../../shared/forms/logic.ts';
import { displayOptions } from '../../shared/forms/order.ts';
import { cn } from '../../lib/utils.ts';
import { ChevronDownIcon } from '../icons.tsx';
import { Button } from '../ui/button.tsx';
import { nativeChoiceClasses } from './choice-controls.tsx';
import { own } from './form-utils.ts';
import type { ControlProps } from './types.ts';
import { formatCount, m } from '../../shared/i18n.ts';

type MatrixAnswer = Record<string, string | string[]>;

function matrixAnswerOf(value: unknown): MatrixAnswer {
  return isPlainObject(value) && !isOtherAnswer(value) ? (value as MatrixAnswer) : {};
}

/**
 * One fieldset per row (its legend is the row label) holding a radio — or a checkbox when
 * `multiple` — per column. On phones the rows stack, each column a labelled choice; from the
 * `md` breakpoint the same markup lines up as a table under one row of column headings.
 */
export function MatrixControl(props: ControlProps<ElementOf<'matrix'>>) {
  const { element, value, onChange, ids, invalid, ctx } = props;
  const answer = matrixAnswerOf(value);
  const multiple = element.multiple === true;
  const grid = { gridTemplateColumns: `minmax(8rem, 2fr) repeat(${element.columns.length}, minmax(3.5rem, 1fr))` };

  const set = (rowId: string, columnId: string, checked: boolean) => {
    const next: MatrixAnswer = { ...answer };
    if (multiple) {
      const cell = own(answer, rowId);
      const current = new Set(Array.isArray(cell) ? cell : []);
      if (checked) current.add(columnId);
      else current.delete(columnId);
      const list = element.columns.filter((column) => current.has(column.id)).map((column) => column.id);
      if (list.length > 0) setOwn<string | string[]>(next, rowId, list);
      else delete next[rowId];
    } else if (checked) {
      setOwn<string | string[]>(next, rowId, columnId);
    }
    onChange(Object.keys(next).length > 0 ? next : undefined);
  };

  const isChecked = (rowId: string, columnId: string) => {
    const cell = own(answer, rowId);
    return Array.isArray(cell) ? cell.includes(columnId) : cell === columnId;
  };

  return (
    <div className="md:overflow-x-auto">
      <div className="flex flex-col gap-3 md:min-w-fit md:gap-0">
        <div aria-hidden="true" className="hidden items-end gap-2 border-b border-border pb-2 text-xs font-medium text-muted-foreground md:grid" style={grid}>
          <span />
          {element.columns.map((column) => (
            <span key={column.id} className="text-center break-words">
              {column.label}
            </span>
          ))}
        </div>
        {element.rows.map((row) => (
          <fieldset
            key={row.id}
            className="rounded-md border border-border p-3 md:grid md:items-center md:gap-2 md:rounded-none md:border-0 md:border-b md:px-0 md:py-1"
            style={grid}
          >
            {/* Floated, the legend is an ordinary grid item from md up (and sits above the choices below). */}
            <legend className="float-start w-full pb-2 text-sm font-medium break-words md:w-auto md:pb-0 md:font-normal">{row.label}</legend>
            <div className="clear-start grid gap-2 md:contents">
              {element.columns.map((column) => {
                const id = `${ids.control}-${row.id}-${column.id}`;
                return (
                  <label
                    key={column.id}
                    htmlFor={id}
                    className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border border-border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent md:justify-center md:border-0 md:px-0 md:has-[:checked]:bg-transparent"
                  >
                    <input
                      type={multiple ? 'checkbox' : 'radio'}
                      id={id}
                      name={`${ids.control}-${row.id}`}
                      value={column.id}
                      checked={isChecked(row.id, column.id)}
                      disabled={ctx.disabled}
                      aria-invalid={invalid || undefined}
                      className={nativeChoiceClasses}
                      onChange={(event) => set(row.id, column.id, event.target.checked)}
                    />
                    <span className="md:sr-only">{column.label}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
    </div>
  );
}

/** The order shown: the answer's ids first (known ones, once), then the options it lacks. */
function rankingOrder(optionIds: readonly string[], value: unknown): string[] {
  const known = new Set(optionIds);
  const ranked = Array.isArray(value) ? [...new Set(value.filter((id): id is string => typeof id === 'string' && known.has(id)))] : [];
  return [...ranked, ...optionIds.filter((id) => !ranked.includes(id))];
}

/**
 * An ordered list with "Move up" / "Move down" buttons per item. Focus stays on the moved item
 * and a polite status says where it went. The list starts in display order; the answer (the
 * ids in order) is recorded once the person moves something or presses "Keep this order", so an
 * untouched list is no answer.
 */
export function RankingControl(props: ControlProps<ElementOf<'ranking'>>) {
  const { element, value, onChange, ctx } = props;
  const options = useMemo(() => displayOptions(element, ctx.seed), [element, ctx.seed]);
  const labels = new Map(options.map((option) => [option.id, option.label]));
  const order = rankingOrder(
    options.map((option) => option.id),
    value,
  );
  const answered = Array.isArray(value) && value.length > 0;
  const [message, setMessage] = useState('');
  const list = useRef<HTMLOListElement>(null);
  const focusAfterMove = useRef<{ id: string; direction: 'up' | 'down' } | null>(null);

  useEffect(() => {
    const target = focusAfterMove.current;
    if (!target) return;
    focusAfterMove.current = null;
    const button = (direction: string) => list.current?.querySelector<HTMLButtonElement>(`button[data-move="${target.id}:${direction}"]`);
    const same = button(target.direction);
    // At the top or bottom the pressed button is disabled: the other one of the item takes focus.
    (same && !same.disabled ? same : button(target.direction === 'up' ? 'down' : 'up'))?.focus();
  }, [value]);

  const move = (index: number, direction: 'up' | 'down') => {
    const to = direction === 'up' ? index - 1 : index + 1;
    const id = order[index];
    if (id === undefined || to < 0 || to >= order.length) return;
    const next = order.slice();
    next[index] = next[to] as string;
    next[to] = id;
    focusAfterMove.current = { id, direction };
    setMessage(m.participant_form_moved_to({ label: labels.get(id) ?? id, position: formatCount(to + 1) }));
    onChange(next);
  };

  return (
    <>
      <ol ref={list} className="flex flex-col gap-2">
        {order.map((id, index) => {
          const label = labels.get(id) ?? id;
          return (
            <li key={id} className="flex min-h-11 items-center gap-2 rounded-md border border-border bg-card py-1 ps-3 pe-1 text-sm">
              <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-muted text-xs font-semibold tabular-nums">
                {formatCount(index + 1)}
              </span>
              <span className="min-w-0 flex-1 break-words">{label}</span>
              {(['up', 'down'] as const).map((direction) => (
                <button
                  key={direction}
                  type="button"
                  data-move={`${id}:${direction}`}
                  disabled={ctx.disabled || (direction === 'up' ? index === 0 : index === order.length - 1)}
                  className="inline-flex size-11 shrink-0 items-center justify-center rounded-md text-foreground hover:bg-accent disabled:opacity-30"
                  onClick={() => move(index, direction)}
                >
                  <ChevronDownIcon className={cn('size-5', direction === 'up' && 'rotate-180')} />
                  <span className="sr-only">{direction === 'up' ? m.participant_form_move_up({ label }) : m.participant_form_move_down({ label })}</span>
                </button>
              ))}
            </li>
          );
        })}
      </ol>
      {!answered && !ctx.disabled && (
        <Button
          variant="outline"
          className="min-h-11 self-start"
          onClick={() => {
            // The button goes away: focus moves to the list's first item.
            if (order[0] !== undefined) focusAfterMove.current = { id: order[0], direction: 'down' };
            setMessage(m.participant_form_order_kept());
            onChange(order);
          }}
        >
          {m.participant_form_keep_order()}
        </Button>
      )}
      <p role="status" className="sr-only">
        {message}
      </p>
    </>
  );
}
