/**
 * The list editor of a choice element's options (and a matrix's rows and columns): rename, add,
 * remove, move up and down. Each item keeps its id when it is renamed or moved, so answers and
 * conditions that use it stay right; new items get the next free `option_N` id.
 */
import { useEffect, useId, useRef, type ComponentProps } from 'react';
import { cn } from '../../../lib/utils.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { nextItemId, type Item } from './catalog.ts';
import { formatCount, m } from '../../../shared/i18n.ts';

export interface OptionsEditorProps {
  /** "option", "row" or "column": the words of the labels and the prefix of new ids. */
  noun: 'option' | 'row' | 'column';
  items: readonly Item[];
  onChange: (items: Item[], key: string) => void;
  /** The element's id, for unique merge keys. */
  elementId: string;
  disabled?: boolean;
}

type Label = (inputs: { label: string }) => string;
type Numbered = (inputs: { number: string }) => string;

/** Each noun's words (messages, called at render). */
const NOUN_TEXTS: Readonly<
  Record<OptionsEditorProps['noun'], { legend: () => string; item: Numbered; up: Label; down: Label; remove: Label; none: () => string; add: () => string }>
> = {
  option: {
    legend: m.forms_options_legend,
    item: m.forms_default_option,
    up: m.forms_options_move_up,
    down: m.forms_options_move_down,
    remove: m.forms_options_remove,
    none: m.forms_options_none,
    add: m.forms_options_add,
  },
  row: {
    legend: m.forms_rows_legend,
    item: m.forms_default_row,
    up: m.forms_rows_move_up,
    down: m.forms_rows_move_down,
    remove: m.forms_rows_remove,
    none: m.forms_rows_none,
    add: m.forms_rows_add,
  },
  column: {
    legend: m.forms_columns_legend,
    item: m.forms_default_column,
    up: m.forms_columns_move_up,
    down: m.forms_columns_move_down,
    remove: m.forms_columns_remove,
    none: m.forms_columns_none,
    add: m.forms_columns_add,
  },
};

/** The Up and Down buttons of an item. */
const MOVES = [
  { delta: -1, way: 'up', text: m.forms_options_up },
  { delta: 1, way: 'down', text: m.forms_options_down },
] as const;

/** A small button of an item: the word people see; its name for screen readers says the item it acts on. */
function ItemButton({ text, name, className, ...props }: Omit<ComponentProps<typeof Button>, 'children'> & { text: string; name: string }) {
  return (
    <Button variant="ghost" size="sm" className={cn('h-8 px-2', className)} aria-label={name} {...props}>
      {text}
    </Button>
  );
}

export function OptionsEditor({ noun, items, onChange, elementId, disabled = false }: OptionsEditorProps) {
  const headingId = useId();
  const list = useRef<HTMLOListElement>(null);
  const focusIndex = useRef<number | null>(null);
  const focusButton = useRef<string | null>(null);
  const words = NOUN_TEXTS[noun];

  useEffect(() => {
    if (focusIndex.current !== null) {
      list.current?.querySelectorAll<HTMLInputElement>('input')[focusIndex.current]?.focus();
      focusIndex.current = null;
    }
    if (focusButton.current !== null) {
      const button = list.current?.querySelector<HTMLButtonElement>(`[data-option-focus="${focusButton.current}"]`);
      if (button && !button.disabled) button.focus();
      else list.current?.querySelector<HTMLButtonElement>(`[data-option-focus^="${focusButton.current.split(':')[0]}:"]:not(:disabled)`)?.focus();
      focusButton.current = null;
    }
  });

  const move = (index: number, delta: -1 | 1) => {
    const next = [...items];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + delta, 0, item);
    focusButton.current = `${item.id}:${delta === -1 ? 'up' : 'down'}`;
    onChange(next, `${elementId}:${noun}s:move`);
  };

  return (
    <fieldset className="flex flex-col gap-3" aria-labelledby={headingId}>
      <legend id={headingId} className="text-sm font-medium">
        {words.legend()}
      </legend>
      <ol ref={list} className="flex flex-col gap-2">
        {items.map((item, index) => {
          const number = formatCount(index + 1);
          const label = item.label.trim() || words.item({ number });
          return (
            <li key={item.id} className="flex flex-col gap-1.5 rounded-md border border-border p-2">
              <div className="flex items-center gap-2">
                <Input
                  aria-label={words.item({ number })}
                  aria-describedby={`${headingId}-${index}-id`}
                  value={item.label}
                  disabled={disabled}
                  className="h-9"
                  onChange={(event) =>
                    onChange(
                      items.map((each) => (each.id === item.id ? { ...each, label: event.target.value } : each)),
                      `${elementId}:${noun}:${item.id}:label`,
                    )
                  }
                />
              </div>
              <div className="flex flex-wrap items-center gap-1">
                <span id={`${headingId}-${index}-id`} className="me-auto font-mono text-xs text-muted-foreground">
                  {m.forms_panel_id()} {item.id}
                </span>
                {MOVES.map(({ delta, way, text }) => (
                  <ItemButton
                    key={way}
                    text={text()}
                    name={words[way]({ label })}
                    data-option-focus={`${item.id}:${way}`}
                    disabled={disabled || index + delta < 0 || index + delta >= items.length}
                    onClick={() => move(index, delta)}
                  />
                ))}
                <ItemButton
                  text={m.forms_options_remove_button()}
                  name={words.remove({ label })}
                  className="text-destructive"
                  disabled={disabled}
                  onClick={() => {
                    focusIndex.current = Math.max(0, Math.min(index, items.length - 2));
                    onChange(
                      items.filter((each) => each.id !== item.id),
                      `${elementId}:${noun}s:remove:${item.id}`,
                    );
                  }}
                />
              </div>
            </li>
          );
        })}
      </ol>
      {items.length === 0 && <p className="text-sm text-muted-foreground">{words.none()}</p>}
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        disabled={disabled}
        onClick={() => {
          const id = nextItemId(items, noun);
          focusIndex.current = items.length;
          onChange([...items, { id, label: words.item({ number: formatCount(items.length + 1) }) }], `${elementId}:${noun}s:add:${id}`);
        }}
      >
        {words.add()}
      </Button>
    </fieldset>
  );
}
