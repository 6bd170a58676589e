/**
 * Labelled controls for the builder's side panel: text, long text, number, checkbox and select
 * settings. Each has a visible label tied to its control, an optional description and error.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { m } from '../../../shared/i18n.ts';

interface Common {
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
}

export function TextSetting({
  disabled,
  value,
  onChange,
  placeholder,
  inputId,
  ...field
}: Common & { value: string; onChange: (value: string) => void; placeholder?: string; inputId?: string }) {
  const generated = useId();
  return (
    <FormField id={inputId ?? generated} {...field}>
      {(control) => (
        <Input {...control} value={value} disabled={disabled} placeholder={placeholder} autoComplete="off" onChange={(event) => onChange(event.target.value)} />
      )}
    </FormField>
  );
}

export function LongTextSetting({
  disabled,
  value,
  onChange,
  rows = 3,
  ...field
}: Common & { value: string; onChange: (value: string) => void; rows?: number }) {
  const id = useId();
  return (
    <FormField id={id} {...field}>
      {(control) => <Textarea {...control} rows={rows} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />}
    </FormField>
  );
}

const parseNumber = (text: string): number | undefined => {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

/**
 * A number setting: empty means "not set" (undefined). What is typed stays as typed while it is
 * not a number yet ("-", "1."), and follows the value when it changes elsewhere (undo).
 */
export function NumberSetting({
  disabled,
  value,
  onChange,
  min,
  max,
  step,
  ...field
}: Common & { value: number | undefined; onChange: (value: number | undefined) => void; min?: number; max?: number; step?: number | 'any' }) {
  const id = useId();
  const [text, setText] = useState(value === undefined ? '' : String(value));
  useEffect(() => {
    if (parseNumber(text) !== value) setText(value === undefined ? '' : String(value));
    // Only when the value changes from outside (undo, another control).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the text being typed ("-", "1.") is read, not watched, or it would be replaced while typing
  }, [value]);
  return (
    <FormField id={id} {...field}>
      {(control) => (
        <Input
          {...control}
          type="number"
          inputMode="decimal"
          value={text}
          min={min}
          max={max}
          step={step ?? 'any'}
          disabled={disabled}
          onChange={(event) => {
            setText(event.target.value);
            onChange(parseNumber(event.target.value));
          }}
        />
      )}
    </FormField>
  );
}

/**
 * A length of time as minutes and seconds (two number inputs under one legend), held as whole
 * seconds: empty both is "not set" (undefined). Used for a video question's longest video.
 */
export function DurationSetting({
  label,
  description,
  error,
  disabled,
  value,
  onChange,
  max,
}: Common & { value: number | undefined; onChange: (seconds: number | undefined) => void; max?: number }) {
  const id = useId();
  const minutes = value === undefined ? undefined : Math.floor(value / 60);
  const seconds = value === undefined ? undefined : value % 60;
  const set = (nextMinutes: number | undefined, nextSeconds: number | undefined) => {
    if (nextMinutes === undefined && nextSeconds === undefined) return onChange(undefined);
    onChange(Math.max(0, Math.round((nextMinutes ?? 0) * 60 + (nextSeconds ?? 0))));
  };
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={descriptionId}>
      <legend className="mb-1 text-sm font-medium">{label}</legend>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      <div className="flex gap-3">
        <NumberSetting
          className="w-28"
          label={m.forms_setting_minutes()}
          disabled={disabled}
          value={minutes}
          min={0}
          max={max === undefined ? undefined : Math.floor(max / 60)}
          step={1}
          onChange={(next) => set(next, seconds)}
        />
        <NumberSetting
          className="w-28"
          label={m.forms_setting_seconds()}
          disabled={disabled}
          value={seconds}
          min={0}
          max={59}
          step={1}
          onChange={(next) => set(minutes, next)}
        />
      </div>
      {error && <p className="text-sm text-destructive">{error}</p>}
    </fieldset>
  );
}

export function CheckSetting({ onChange, ...field }: Omit<Common, 'error'> & { checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return <CheckboxField id={id} {...field} onCheckedChange={(next) => onChange(next === true)} />;
}

export interface Choice<V extends string> {
  value: V;
  label: string;
}

/**
 * A select. `none` adds a first choice that stands for "not set" (the select's items cannot have
 * an empty value, docs/product.md §5): choosing it calls `onChange(undefined)`.
 */
export function SelectSetting<V extends string>({
  disabled,
  value,
  onChange,
  choices,
  none,
  triggerId,
  ...field
}: Common & { value: V | undefined; onChange: (value: V | undefined) => void; choices: readonly Choice<V>[]; none?: string; triggerId?: string }) {
  const generated = useId();
  const NONE = '__none__';
  return (
    <FormField id={triggerId ?? generated} {...field}>
      {(control) => (
        <Select
          value={value === undefined || value === '' ? (none ? NONE : '') : value}
          disabled={disabled}
          onValueChange={(next) => onChange(next === NONE ? undefined : (next as V))}
        >
          <SelectTrigger {...control}>
            <SelectValue placeholder={m.forms_select_placeholder()} />
          </SelectTrigger>
          <SelectContent>
            {none && <SelectItem value={NONE}>{none}</SelectItem>}
            {choices
              .filter((choice) => choice.value !== '')
              .map((choice) => (
                <SelectItem key={choice.value} value={choice.value as string}>
                  {choice.label}
                </SelectItem>
              ))}
          </SelectContent>
        </Select>
      )}
    </FormField>
  );
}
