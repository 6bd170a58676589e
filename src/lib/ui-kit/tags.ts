/**
 * Tags input rules (docs/product.md §5, §9): values split on a comma, trimmed, empties ignored; a
 * maximum count where 0 means unlimited; duplicates rejected unless allowed; optionally a maximum
 * length of one tag (0 = none). Pure.
 */
import { m } from '../../shared/i18n.ts';
import { TAGS_DELIMITER, TAGS_MAX } from '../../shared/ui-constants.ts';

export interface TagsOptions {
  /** Maximum number of tags; 0 (the default) means unlimited. */
  max?: number;
  allowDuplicates?: boolean;
  /** Compare case-sensitively when looking for duplicates. Default false: "Photo" = "photo". */
  caseSensitive?: boolean;
  delimiter?: string;
  /** Most characters in one tag (after trimming); 0 (the default) means no limit. */
  maxLength?: number;
}

export type TagRejectReason = 'duplicate' | 'max' | 'empty' | 'too_long';

export interface TagRejection {
  value: string;
  reason: TagRejectReason;
}

export interface AddTagsResult {
  tags: string[];
  rejected: TagRejection[];
}

/** Splits on the delimiter and trims each part (empty parts stay, as ''). */
export function splitTags(input: string, delimiter: string = TAGS_DELIMITER): string[] {
  return (delimiter === '' ? [input] : input.split(delimiter)).map((part) => part.trim());
}

/** 0, negative or non-finite means unlimited. */
export function isUnlimited(max: number | undefined): boolean {
  return max === undefined || !Number.isFinite(max) || max <= 0;
}

export function canAddMore(tags: readonly string[], max: number = TAGS_MAX): boolean {
  return isUnlimited(max) || tags.length < Math.floor(max);
}

/**
 * Adds every tag in `input` (one or several, separated by the delimiter) to `current`, in
 * order. Each part is trimmed; an empty part is rejected as 'empty', one longer than `maxLength`
 * as 'too_long', one already present (in `current` or earlier in `input`) as 'duplicate' unless
 * duplicates are allowed, and one beyond the maximum as 'max'. `current` is not changed.
 */
export function addTags(current: readonly string[], input: string, options: TagsOptions = {}): AddTagsResult {
  const { max = TAGS_MAX, allowDuplicates = false, caseSensitive = false, delimiter = TAGS_DELIMITER, maxLength = 0 } = options;
  const key = (value: string) => (caseSensitive ? value : value.toLocaleLowerCase());
  const tags = [...current];
  const seen = new Set(tags.map(key));
  const rejected: TagRejection[] = [];
  for (const value of splitTags(input, delimiter)) {
    if (value === '') rejected.push({ value, reason: 'empty' });
    else if (!isUnlimited(maxLength) && value.length > maxLength) rejected.push({ value, reason: 'too_long' });
    else if (!allowDuplicates && seen.has(key(value))) rejected.push({ value, reason: 'duplicate' });
    else if (!canAddMore(tags, max)) rejected.push({ value, reason: 'max' });
    else {
      tags.push(value);
      seen.add(key(value));
    }
  }
  return { tags, rejected };
}

export function removeTagAt(tags: readonly string[], index: number): string[] {
  return tags.filter((_, i) => i !== index);
}

/** Backspace in an empty input: the last tag goes. */
export function removeLastTag(tags: readonly string[]): string[] {
  return tags.slice(0, -1);
}

/**
 * While typing: once the text holds a delimiter, everything before the last one is ready to
 * add and the rest stays in the input ("red, gre" → add "red", keep "gre"). Null when there
 * is no delimiter yet.
 */
export function takeCompleted(text: string, delimiter: string = TAGS_DELIMITER): { completed: string; rest: string } | null {
  if (delimiter === '') return null;
  const at = text.lastIndexOf(delimiter);
  if (at === -1) return null;
  return { completed: text.slice(0, at), rest: text.slice(at + delimiter.length).trimStart() };
}

/** The message of a tag longer than `maxLength` (unless the widget is given its own). */
export function tooLongMessage(maxLength: number): string {
  return m.common_tag_too_long({ count: Math.floor(maxLength) });
}

/** A short message for a rejection, for the widget's live region. */
export function describeRejection({ value, reason }: TagRejection, max: number = TAGS_MAX, maxLength = 0): string | null {
  if (reason === 'duplicate') return m.common_tag_duplicate({ value });
  if (reason === 'max') return m.common_tag_max({ count: Math.floor(max) });
  if (reason === 'too_long') return tooLongMessage(maxLength);
  return null;
}
