/**
 * Select rules (docs/product.md §5, §9): an item must not have an empty-string value (the empty value
 * means "nothing chosen": it clears the selection and shows the placeholder), and the list keeps
 * 10 px from the viewport edges. Pure checks for src/components/ui/select.tsx and for code that
 * builds item lists from data.
 */
import { SELECT_EDGE_MARGIN } from '../../shared/ui-constants.ts';

export { SELECT_EDGE_MARGIN };

export const SELECT_EMPTY_VALUE_MESSAGE = 'A <SelectItem /> must not have an empty-string value: "" clears the selection and shows the placeholder.';

export function isValidSelectItemValue(value: string): boolean {
  return value !== '';
}

/** Throws for an empty-string value (a programming error, shown at once in development). */
export function assertSelectItemValue(value: string): void {
  if (!isValidSelectItemValue(value)) throw new Error(SELECT_EMPTY_VALUE_MESSAGE);
}

export interface SelectItemProblem {
  index: number;
  value: string;
  problem: 'empty' | 'duplicate';
}

/**
 * Problems in a list of items built from data: empty-string values, and values repeated (Radix
 * would not know which of two equal items is chosen). An empty list of problems means valid.
 */
export function findSelectItemProblems(items: readonly { value: string }[]): SelectItemProblem[] {
  const problems: SelectItemProblem[] = [];
  const seen = new Set<string>();
  items.forEach(({ value }, index) => {
    if (!isValidSelectItemValue(value)) problems.push({ index, value, problem: 'empty' });
    else if (seen.has(value)) problems.push({ index, value, problem: 'duplicate' });
    seen.add(value);
  });
  return problems;
}

/** Radix Select content props that apply the edge margin (`collisionPadding`). */
export const selectContentPositioning = { position: 'popper', collisionPadding: SELECT_EDGE_MARGIN } as const;
