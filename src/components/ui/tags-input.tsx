import { useId, useRef, useState } from 'react';
import type { ChangeEvent, ClipboardEvent, KeyboardEvent } from 'react';
import { XIcon } from '../icons.tsx';
import { cn } from '../../lib/utils.ts';
import { m, formatCount } from '../../shared/i18n.ts';
import { TAGS_DELIMITER, TAGS_MAX } from '../../shared/ui-constants.ts';
import { addTags, describeRejection, isUnlimited, removeLastTag, removeTagAt, takeCompleted, tooLongMessage } from '../../lib/ui-kit/tags.ts';
import type { TagRejection } from '../../lib/ui-kit/tags.ts';

export interface TagsInputProps {
  /** Controlled tags. */
  value?: string[];
  /** Initial tags when uncontrolled. */
  defaultValue?: string[];
  onChange?: (tags: string[]) => void;
  /** Called with what was not added (duplicates, over the maximum, empty parts). */
  onReject?: (rejected: TagRejection[]) => void;
  /** Maximum number of tags; 0 (default) means unlimited. */
  max?: number;
  /**
   * Most characters in one tag; 0 (default) means no limit. Typing stops there (with a counter and
   * `tooLongMessage`), and a longer pasted tag stays in the box, refused, to be shortened.
   */
  maxLength?: number;
  /** The message of a tag over `maxLength` (default "A tag is at most N characters."). */
  tooLongMessage?: string;
  allowDuplicates?: boolean;
  caseSensitive?: boolean;
  /** Default ",": typing it (or Enter) adds the text before it. */
  delimiter?: string;
  /** Add what is typed when the input loses focus. Default true. */
  addOnBlur?: boolean;
  /** The text input's id, for an outside <label htmlFor>. */
  id?: string;
  /** Accessible name when there is no <label htmlFor={id}>. */
  'aria-label'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** Form field name: a hidden input carries the tags joined by the delimiter. */
  name?: string;
  className?: string;
}

/**
 * A text input that collects tags (docs/product.md §5, §9): a comma or Enter adds what was typed
 * (several at once when pasted with commas); duplicates are refused unless allowed; at most
 * `max` tags (0 = unlimited); Backspace in the empty input removes the last tag; each tag has
 * its own labelled remove button. Refusals are announced in a polite live region.
 */
export function TagsInput({
  value,
  defaultValue,
  onChange,
  onReject,
  max = TAGS_MAX,
  maxLength = 0,
  tooLongMessage: tooLong,
  allowDuplicates = false,
  caseSensitive = false,
  delimiter = TAGS_DELIMITER,
  addOnBlur = true,
  id,
  placeholder,
  disabled = false,
  name,
  className,
  ...aria
}: TagsInputProps) {
  const [inner, setInner] = useState<string[]>(defaultValue ?? []);
  const tags = value ?? inner;
  const [text, setText] = useState('');
  /** Why the last input was refused: shown under the field and linked with aria-describedby. */
  const [notice, setNotice] = useState('');
  /** What screen readers hear (refusals and removals). */
  const [announcement, setAnnouncement] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const generatedId = useId();
  const inputId = id ?? `${generatedId}-input`;
  const noticeId = `${generatedId}-notice`;
  const hintId = `${generatedId}-hint`;
  const counterId = `${generatedId}-counter`;
  const limited = !isUnlimited(maxLength);
  const tooLongText = tooLong ?? tooLongMessage(maxLength);

  function commitTags(next: string[]) {
    if (value === undefined) setInner(next);
    onChange?.(next);
  }

  /** Tells why (under the field and to screen readers). */
  function say(message: string) {
    setNotice(message);
    setAnnouncement(message);
  }

  /**
   * Adds `input` (one or several tags) and reports what was refused; returns the text that stays
   * in the box: the tags refused for their length or for the maximum (never lost), not duplicates.
   */
  function add(input: string): string {
    const result = addTags(tags, input, { max, allowDuplicates, caseSensitive, delimiter, maxLength });
    if (result.tags.length !== tags.length) commitTags(result.tags);
    const meaningful = result.rejected.filter((r) => r.reason !== 'empty');
    const messages = meaningful
      .map((r) => (r.reason === 'too_long' ? tooLongText : describeRejection(r, max, maxLength)))
      .filter((text): text is string => text !== null);
    say([...new Set(messages)].join(' '));
    if (result.rejected.length > 0) onReject?.(result.rejected);
    const kept = meaningful.filter((r) => r.reason === 'too_long' || r.reason === 'max').map((r) => r.value);
    return kept.join(delimiter === '' ? ' ' : `${delimiter} `);
  }

  function onInputChange(event: ChangeEvent<HTMLInputElement>) {
    const completed = takeCompleted(event.target.value, delimiter);
    if (completed) {
      const kept = add(completed.completed);
      setText(kept && completed.rest ? `${kept}${delimiter} ${completed.rest}` : kept || completed.rest);
    } else if (limited && event.target.value.trim().length > maxLength && event.target.value.length > text.length) {
      // Typing stops at the limit, and says why (a longer text already there, refused when pasted, is kept to be shortened).
      setText(text.trim().length >= maxLength ? text : event.target.value.trimStart().slice(0, maxLength));
      say(tooLongText);
    } else {
      setText(event.target.value);
      if (notice === tooLongText) say('');
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      // An empty input lets Enter submit the form as usual.
      if (text.trim() === '') return;
      event.preventDefault();
      setText(add(text));
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      event.preventDefault();
      const last = tags[tags.length - 1];
      commitTags(removeLastTag(tags));
      setNotice('');
      setAnnouncement(last === undefined ? '' : m.shell_tags_removed({ tag: last }));
    }
  }

  function onPaste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (delimiter === '' || !pasted.includes(delimiter)) return;
    // "a, b, c" pasted: add them all at once, keeping the text around the caret.
    event.preventDefault();
    const input = event.currentTarget;
    const before = text.slice(0, input.selectionStart ?? text.length);
    const after = text.slice(input.selectionEnd ?? text.length);
    setText(add(`${before}${pasted}${after}`));
  }

  function onBlur() {
    if (addOnBlur && text.trim() !== '') setText(add(text));
  }

  function remove(index: number) {
    const removed = tags[index];
    commitTags(removeTagAt(tags, index));
    setNotice('');
    setAnnouncement(removed === undefined ? '' : m.shell_tags_removed({ tag: removed }));
    inputRef.current?.focus();
  }

  const hint = [
    delimiter === ',' ? m.shell_tags_hint_commas() : m.shell_tags_hint_delimiter({ delimiter }),
    isUnlimited(max) ? null : m.shell_tags_hint_max({ max: formatCount(Math.floor(max)) }),
    limited ? m.shell_tags_hint_max_length({ count: formatCount(Math.floor(maxLength)) }) : null,
  ]
    .filter((part) => part !== null)
    .join(' ');
  const describedBy = [aria['aria-describedby'], hintId, notice ? noticeId : undefined].filter(Boolean).join(' ');
  const typed = text.trim().length;

  return (
    <div className={cn('grid gap-1.5', className)}>
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- a pointer shortcut only: a click on the frame's empty space focuses the input, which the keyboard reaches with Tab */}
      <div
        className={cn(
          'flex min-h-10 w-full flex-wrap items-center gap-1.5 rounded-md border border-input bg-card px-2 py-1.5 text-base shadow-xs transition-colors focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-ring has-[[aria-invalid=true]]:border-destructive sm:text-sm',
          disabled && 'cursor-not-allowed opacity-60',
        )}
        onClick={(event) => {
          if (event.target === event.currentTarget) inputRef.current?.focus();
        }}
      >
        {tags.length > 0 && (
          <ul className="contents" aria-label={m.shell_tags_list()}>
            {tags.map((tag, index) => (
              <li
                // Duplicates may be allowed, so the index is part of the key.
                key={`${index}-${tag}`}
                className="inline-flex max-w-full items-center gap-1 rounded-sm bg-secondary py-0.5 pe-0.5 ps-2 text-sm text-secondary-foreground"
              >
                <span className="truncate">{tag}</span>
                <button
                  type="button"
                  disabled={disabled}
                  aria-label={m.shell_tags_remove({ tag })}
                  onClick={() => remove(index)}
                  className="inline-flex size-6 shrink-0 items-center justify-center rounded-sm text-secondary-foreground/80 hover:bg-background/60 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <XIcon className="size-3.5" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={inputRef}
          id={inputId}
          type="text"
          value={text}
          disabled={disabled}
          placeholder={tags.length === 0 ? placeholder : undefined}
          aria-label={aria['aria-label']}
          aria-describedby={describedBy}
          aria-invalid={aria['aria-invalid'] || (limited && typed > maxLength) || undefined}
          // The limit and room for the delimiter that adds a full-length tag (onInputChange stops a longer tag, and says so).
          maxLength={limited ? Math.floor(maxLength) + Math.max(1, delimiter.length) : undefined}
          autoComplete="off"
          enterKeyHint="enter"
          onChange={onInputChange}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={onBlur}
          className="h-7 min-w-[8ch] flex-1 bg-transparent px-1 text-foreground outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed"
        />
        {name !== undefined && <input type="hidden" name={name} value={tags.join(delimiter)} />}
      </div>
      <span id={hintId} className="sr-only">
        {hint}
      </span>
      {limited && typed > 0 && (
        <p id={counterId} aria-hidden="true" className={cn('text-xs tabular-nums', typed > maxLength ? 'text-destructive' : 'text-muted-foreground')}>
          {m.shell_tags_counter({ typed: formatCount(typed), max: formatCount(Math.floor(maxLength)) })}
        </p>
      )}
      {notice && (
        <p id={noticeId} className="text-sm text-destructive">
          {notice}
        </p>
      )}
      <span role="status" className="sr-only">
        {announcement}
      </span>
    </div>
  );
}
