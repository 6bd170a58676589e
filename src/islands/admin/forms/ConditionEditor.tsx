/**
 * "Show this question when …": a condition as all/any of rows (earlier element, op, value). The
 * ops are those of the element's type (CONDITION_OPS_BY_TYPE); the value control fits the element
 * (its options, a number, a date, text). Only earlier elements are offered (for a page: elements
 * of earlier pages). A condition the editor cannot show (nested groups, `not`, from an imported
 * file) is shown as read-only JSON with "Replace with a simple rule".
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ConditionOp } from '../../../shared/forms/constants.ts';
import type { Condition, ConditionValue, FormDraft } from '../../../shared/forms/definition.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { typeLabel } from './catalog.ts';
import { currentLanguage, formatCount, m } from '../../../shared/i18n.ts';
import {
  conditionCandidates,
  fitRow,
  fromSimpleRule,
  newRow,
  opLabel,
  opsFor,
  toSimpleRule,
  type Candidate,
  type ConditionTarget,
  type RuleRow,
  type SimpleRule,
} from './conditions.ts';
import { NumberSetting, SelectSetting, TextSetting } from './fields.tsx';

export interface ConditionEditorProps {
  draft: FormDraft;
  target: ConditionTarget;
  /** The owner's `visibleIf` as the draft holds it. */
  condition: unknown;
  onChange: (condition: Condition | null, key?: string) => void;
  /** The date a new date rule starts with (YYYY-MM-DD). */
  today: string;
}

export function ConditionEditor({ draft, target, condition, onChange, today }: ConditionEditorProps) {
  const headingId = useId();
  const candidates = conditionCandidates(draft, target);
  const rule = toSimpleRule(condition);
  const keyBase = `condition:${target.kind}:${target.id}`;

  const write = (next: SimpleRule, key?: string) => onChange(fromSimpleRule(next), key);
  const first = newRow(candidates, today);

  // Buttons that disappear when used (Add a condition, Remove …) hand focus on: to the new rule's
  // first control, or back to "Add a condition".
  const root = useRef<HTMLElement>(null);
  const focusNext = useRef<{ rule: number } | 'start' | null>(null);
  useEffect(() => {
    const request = focusNext.current;
    if (request === null) return;
    focusNext.current = null;
    const target =
      request === 'start'
        ? root.current?.querySelector<HTMLElement>('[data-condition-start]')
        : root.current?.querySelectorAll<HTMLElement>('[role="group"][data-rule]')[request.rule]?.querySelector<HTMLElement>('button, input');
    (target ?? root.current?.querySelector<HTMLElement>('h3'))?.focus();
  });
  const remove = () => {
    focusNext.current = 'start';
    onChange(null);
  };
  const start = (row: RuleRow) => {
    focusNext.current = { rule: 0 };
    write({ mode: 'all', rows: [row] });
  };

  return (
    <section ref={root} aria-labelledby={headingId} className="flex flex-col gap-3">
      <h3 id={headingId} tabIndex={-1} className="text-base font-semibold">
        {target.kind === 'page' ? m.forms_condition_heading_page() : m.forms_condition_heading_question()}
      </h3>
      {rule === null && (
        <>
          <p className="text-sm text-muted-foreground">{m.forms_condition_always()}</p>
          {first ? (
            <Button variant="outline" size="sm" className="self-start" data-condition-start onClick={() => start(first)}>
              {m.forms_condition_add()}
            </Button>
          ) : (
            <p className="text-sm text-muted-foreground">{target.kind === 'page' ? m.forms_condition_none_page() : m.forms_condition_none_question()}</p>
          )}
        </>
      )}

      {rule === 'complex' && (
        <>
          <p className="text-sm text-muted-foreground">{m.forms_condition_complex()}</p>
          <pre
            // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable to scroll with the keyboard (axe: scrollable-region-focusable)
            tabIndex={0}
            aria-label={m.forms_condition_json()}
            className="max-h-60 overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs"
          >
            {JSON.stringify(condition, null, 2)}
          </pre>
          <ConditionActions addLabel={m.forms_condition_replace_simple()} onAdd={first ? () => start(first) : undefined} onRemove={remove} />
        </>
      )}

      {rule !== null && rule !== 'complex' && (
        <>
          {rule.rows.length > 1 && (
            <SelectSetting
              label={m.forms_condition_mode()}
              value={rule.mode}
              choices={[
                { value: 'all', label: m.forms_condition_mode_all() },
                { value: 'any', label: m.forms_condition_mode_any() },
              ]}
              onChange={(mode) => mode && write({ ...rule, mode })}
            />
          )}
          <ol className="flex flex-col gap-3">
            {rule.rows.map((row, index) => (
              <li key={index}>
                <RuleRowEditor
                  index={index}
                  row={row}
                  candidates={candidates}
                  today={today}
                  onChange={(next, key) =>
                    write({ ...rule, rows: rule.rows.map((each, at) => (at === index ? next : each)) }, key && `${keyBase}:${index}:${key}`)
                  }
                  onRemove={() => {
                    if (rule.rows.length === 1) focusNext.current = 'start';
                    else focusNext.current = { rule: Math.max(0, index - 1) };
                    write({ ...rule, rows: rule.rows.filter((_, at) => at !== index) });
                  }}
                />
              </li>
            ))}
          </ol>
          <ConditionActions
            addLabel={m.forms_condition_add_rule()}
            onAdd={
              first
                ? () => {
                    focusNext.current = { rule: rule.rows.length };
                    write({ ...rule, rows: [...rule.rows, first] });
                  }
                : undefined
            }
            onRemove={remove}
          />
        </>
      )}
    </section>
  );
}

/** Under a condition: a button that adds a rule (when there is a question to use) and "Remove condition". */
function ConditionActions({ addLabel, onAdd, onRemove }: { addLabel: string; onAdd: (() => void) | undefined; onRemove: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      {onAdd && (
        <Button variant="outline" size="sm" onClick={onAdd}>
          {addLabel}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={onRemove}>
        {m.forms_condition_remove()}
      </Button>
    </div>
  );
}

/** A type's name inside a sentence: lower case, but German nouns keep their capital. */
function typeInSentence(type: string): string {
  const language = currentLanguage();
  const label = typeLabel(type);
  return language === 'de' ? label : label.toLocaleLowerCase(language);
}

function candidateLabel(candidate: Candidate): string {
  return m.forms_condition_candidate({
    name: candidate.title.trim() || candidate.id,
    page: formatCount(candidate.pageNumber),
    type: typeInSentence(candidate.type),
  });
}

function RuleRowEditor({
  index,
  row,
  candidates,
  today,
  onChange,
  onRemove,
}: {
  index: number;
  row: RuleRow;
  candidates: Candidate[];
  today: string;
  onChange: (row: RuleRow, key?: string) => void;
  onRemove: () => void;
}) {
  const candidate = candidates.find((each) => each.id === row.ref);
  const questionChoices = candidates.map((each) => ({ value: each.id, label: candidateLabel(each) }));
  if (!candidate) questionChoices.push({ value: row.ref, label: m.forms_condition_not_before({ id: row.ref }) });
  const ops = candidate ? opsFor(candidate.type) : [row.op];
  return (
    <div
      role="group"
      data-rule
      aria-label={m.forms_condition_rule({ number: formatCount(index + 1) })}
      className="flex flex-col gap-3 rounded-md border border-border bg-muted/40 p-3"
    >
      <SelectSetting
        label={m.forms_condition_question()}
        value={row.ref}
        choices={questionChoices}
        error={candidate ? undefined : m.forms_condition_question_error()}
        onChange={(ref) => {
          if (!ref) return;
          const next = candidates.find((each) => each.id === ref);
          onChange(fitRow({ ...row, ref }, next, today));
        }}
      />
      <SelectSetting
        label={m.forms_condition_comparison()}
        value={row.op}
        choices={ops.map((op) => ({ value: op, label: opLabel(op, candidate?.type) }))}
        onChange={(op) => op && onChange(fitRow({ ...row, op: op as ConditionOp }, candidate, today))}
      />
      {candidate && <ValueEditor row={row} candidate={candidate} onChange={onChange} />}
      <Button
        variant="ghost"
        size="sm"
        className="self-start"
        aria-label={m.forms_condition_remove_rule_numbered({ number: formatCount(index + 1) })}
        onClick={onRemove}
      >
        {m.forms_condition_remove_rule()}
      </Button>
    </div>
  );
}

function ValueEditor({ row, candidate, onChange }: { row: RuleRow; candidate: Candidate; onChange: (row: RuleRow, key?: string) => void }) {
  const groupId = useId();
  const set = (value: ConditionValue | undefined, key?: string) => onChange(value === undefined ? { ref: row.ref, op: row.op } : { ...row, value }, key);
  const { op } = row;
  if (op === 'answered' || op === 'not_answered') return null;
  const many = op === 'in' || op === 'includes_any' || op === 'includes_all';

  switch (candidate.type) {
    case 'single_choice':
    case 'dropdown':
    case 'multiple_choice':
    case 'ranking':
      if (many) {
        const chosen = new Set(Array.isArray(row.value) ? row.value.map(String) : []);
        return (
          <fieldset className="flex flex-col gap-2" aria-labelledby={`${groupId}-legend`}>
            <legend id={`${groupId}-legend`} className="text-sm font-medium">
              {m.forms_condition_values()}
            </legend>
            {candidate.options.map((option) => (
              <div key={option.id} className="flex items-center gap-2">
                <Checkbox
                  id={`${groupId}-${option.id}`}
                  checked={chosen.has(option.id)}
                  onCheckedChange={(checked) =>
                    set(candidate.options.map((each) => each.id).filter((id) => (id === option.id ? checked === true : chosen.has(id))))
                  }
                />
                <Label htmlFor={`${groupId}-${option.id}`} className="font-normal">
                  {option.label || option.id}
                </Label>
              </div>
            ))}
          </fieldset>
        );
      }
      return (
        <SelectSetting
          label={m.forms_condition_value()}
          value={typeof row.value === 'string' && row.value !== '' ? row.value : undefined}
          choices={candidate.options.filter((option) => option.id !== '').map((option) => ({ value: option.id, label: option.label || option.id }))}
          onChange={(value) => value && set(value)}
        />
      );
    case 'rating':
    case 'scale':
    case 'number':
      return (
        <NumberSetting
          label={m.forms_condition_value()}
          value={typeof row.value === 'number' ? row.value : undefined}
          min={candidate.min}
          max={candidate.max}
          onChange={(value) => set(value, 'value')}
        />
      );
    case 'date':
      return (
        <TextSetting
          label={m.forms_condition_value()}
          description={m.forms_condition_date_help()}
          value={typeof row.value === 'string' ? row.value : ''}
          placeholder={m.forms_date_placeholder()}
          onChange={(value) => set(value.trim(), 'value')}
        />
      );
    case 'consent':
      return (
        <SelectSetting
          label={m.forms_condition_value()}
          value={row.value === false ? 'false' : 'true'}
          choices={[
            { value: 'true', label: m.forms_condition_ticked() },
            { value: 'false', label: m.forms_condition_not_ticked() },
          ]}
          onChange={(value) => set(value !== 'false')}
        />
      );
    default:
      if (many) return <ListSetting values={Array.isArray(row.value) ? row.value.map(String) : []} onChange={(values) => set(values, 'value')} />;
      return <TextSetting label={m.forms_condition_value()} value={typeof row.value === 'string' ? row.value : ''} onChange={(value) => set(value, 'value')} />;
  }
}

/** Text values separated by commas; what is typed stays as typed ("a, ") until the values change elsewhere. */
function ListSetting({ values, onChange }: { values: string[]; onChange: (values: string[]) => void }) {
  const [text, setText] = useState(values.join(', '));
  const parse = (value: string) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  const valuesKey = values.join('\u0000');
  useEffect(() => {
    if (parse(text).join('\u0000') !== valuesKey) setText(values.join(', '));
    // Only when the values change from outside (undo).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the values' content (a new array each render); the text being typed is read, not watched
  }, [valuesKey]);
  return (
    <TextSetting
      label={m.forms_condition_values()}
      description={m.forms_condition_values_help()}
      value={text}
      onChange={(value) => {
        setText(value);
        onChange(parse(value));
      }}
    />
  );
}
