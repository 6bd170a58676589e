import { describe, expect, it } from 'vitest';
import { breakingChanges, diffDefinitions } from '../../../src/shared/forms/changes.ts';
import type { FormChange } from '../../../src/shared/forms/changes.ts';
import type { FormDefinition, FormElement } from '../../../src/shared/forms/definition.ts';
import { copy, form, formWithPages, options } from './helpers.ts';

/** The changes as [kind, elementId, breaking, message] rows, easy to compare. */
const rows = (changes: FormChange[]) => changes.map((change) => [change.kind, change.elementId ?? change.pageId ?? null, change.breaking, change.message]);

/** The diff after changing one element of a one-element form. */
function diffOne(before: FormElement, after: FormElement) {
  return rows(diffDefinitions(form(before), form(after)));
}

describe('diffDefinitions', () => {
  const base: FormDefinition = formWithPages(
    {
      id: 'p1',
      title: 'Food',
      elements: [
        { id: 'what', type: 'short_text', title: 'What did you eat?' },
        { id: 'colour', type: 'single_choice', title: 'Colour', options: options('red', 'blue') },
        { id: 'sat', type: 'scale', title: 'Satisfaction', min: 1, max: 5 },
      ],
    },
    { id: 'p2', title: 'More', elements: [{ id: 'note', type: 'long_text', title: 'Note' }] },
  );

  it('finds nothing between equal definitions', () => {
    expect(diffDefinitions(base, copy(base))).toEqual([]);
  });

  it('ignores key order and undefined vs missing', () => {
    const next = copy(base);
    next.pages[0]!.elements[0] = { title: 'What did you eat?', type: 'short_text', id: 'what', description: undefined };
    expect(diffDefinitions(base, next)).toEqual([]);
  });

  it('element_removed is breaking and names the element with its title', () => {
    const next = copy(base);
    next.pages[0]!.elements.shift();
    expect(rows(diffDefinitions(base, next))).toEqual([['element_removed', 'what', true, 'Removed "what" (What did you eat?)']]);
  });

  it('element_added is not breaking', () => {
    const next = copy(base);
    next.pages[1]!.elements.push({ id: 'age', type: 'number', title: 'Age' });
    expect(rows(diffDefinitions(base, next))).toEqual([['element_added', 'age', false, 'Added "age" (Age)']]);
  });

  it('element_moved: to another page, or out of order, but not the elements merely shifted by an insertion', () => {
    const toPage = copy(base);
    toPage.pages[1]!.elements.push(toPage.pages[0]!.elements.shift() as FormElement);
    expect(rows(diffDefinitions(base, toPage))).toEqual([['element_moved', 'what', false, 'Moved "what" (What did you eat?) to page "p2" (More)']]);

    const reordered = copy(base);
    reordered.pages[0]!.elements.reverse();
    const moved = diffDefinitions(base, reordered).filter((change) => change.kind === 'element_moved');
    expect(moved.length).toBe(2);

    const inserted = copy(base);
    inserted.pages[0]!.elements.unshift({ id: 'first', type: 'short_text', title: 'First' });
    expect(rows(diffDefinitions(base, inserted))).toEqual([['element_added', 'first', false, 'Added "first" (First)']]);
  });

  it('type_changed is breaking', () => {
    expect(diffOne({ id: 'what', type: 'short_text', title: 'What' }, { id: 'what', type: 'long_text', title: 'What' })).toEqual([
      ['type_changed', 'what', true, 'Changed "what" (What) from short text to long text'],
    ]);
  });

  it('title_changed, required_changed and condition_changed are not breaking', () => {
    const before: FormElement = { id: 'what', type: 'short_text', title: 'What?' };
    expect(diffOne(before, { ...before, title: 'What now?' })).toEqual([['title_changed', 'what', false, 'Renamed "what": "What?" → "What now?"']]);
    expect(diffOne(before, { ...before, required: true })).toEqual([['required_changed', 'what', false, '"what" (What?) is now required']]);
    expect(diffOne({ ...before, required: true }, before)).toEqual([['required_changed', 'what', false, '"what" (What?) is no longer required']]);
    // required: false is the same as no required.
    expect(diffOne(before, { ...before, required: false })).toEqual([]);

    const shown = form({ id: 'a', type: 'short_text', title: 'A' }, before);
    const conditional = copy(shown);
    conditional.pages[0]!.elements[1]!.visibleIf = { ref: 'a', op: 'answered' };
    const changed = copy(conditional);
    changed.pages[0]!.elements[1]!.visibleIf = { ref: 'a', op: 'not_answered' };
    expect(rows(diffDefinitions(shown, conditional))).toEqual([['condition_changed', 'what', false, '"what" (What?) is now shown only under a condition']]);
    expect(rows(diffDefinitions(conditional, changed))).toEqual([['condition_changed', 'what', false, 'Changed when "what" (What?) is shown']]);
    expect(rows(diffDefinitions(conditional, shown))).toEqual([['condition_changed', 'what', false, '"what" (What?) is now always shown']]);
  });

  it('options: removed is breaking; added, relabelled and reordered are not', () => {
    const before: FormElement = { id: 'colour', type: 'single_choice', title: 'Colour', options: options('red', 'blue', 'green') };
    const after: FormElement = {
      ...before,
      options: [
        { id: 'blue', label: 'Navy' },
        { id: 'red', label: 'Red' },
        { id: 'pink', label: 'Pink' },
      ],
    };
    expect(diffOne(before, after)).toEqual([
      ['option_removed', 'colour', true, 'Removed option "green" (Green) from "colour" (Colour)'],
      ['option_relabelled', 'colour', false, 'Relabelled option "blue" of "colour" (Colour): "Blue" → "Navy"'],
      ['option_added', 'colour', false, 'Added option "pink" (Pink) to "colour" (Colour)'],
      ['settings_changed', 'colour', false, 'Reordered the options of "colour" (Colour)'],
    ]);
  });

  it('turning "Other" off removes a choice (breaking); turning it on adds one', () => {
    const before: FormElement = { id: 'colour', type: 'single_choice', title: 'Colour', options: options('red'), allowOther: true };
    expect(diffOne(before, { ...before, allowOther: false })).toEqual([
      ['option_removed', 'colour', true, 'Removed the "Other" choice from "colour" (Colour)'],
    ]);
    expect(diffOne({ ...before, allowOther: false }, before)).toEqual([['option_added', 'colour', false, 'Added an "Other" choice to "colour" (Colour)']]);
  });

  it('matrix rows and columns: removed is breaking; switching to several columns per row is breaking', () => {
    const before: FormElement = { id: 'grid', type: 'matrix', title: 'Grid', rows: options('speed', 'price'), columns: options('bad', 'good') };
    expect(diffOne(before, { ...before, rows: options('speed'), columns: options('bad', 'good', 'great') })).toEqual([
      ['option_removed', 'grid', true, 'Removed row "price" (Price) from "grid" (Grid)'],
      ['option_added', 'grid', false, 'Added column "great" (Great) to "grid" (Grid)'],
    ]);
    expect(
      diffOne(before, {
        ...before,
        columns: [
          { id: 'bad', label: 'Poor' },
          { id: 'good', label: 'Good' },
        ],
      }),
    ).toEqual([['option_relabelled', 'grid', false, 'Relabelled column "bad" of "grid" (Grid): "Bad" → "Poor"']]);
    expect(diffOne(before, { ...before, multiple: true })).toEqual([['settings_changed', 'grid', true, '"grid" (Grid) now takes several columns per row']]);
  });

  it('range_changed: breaking for a scale range and a rating max, not for other limits', () => {
    expect(diffOne({ id: 'sat', type: 'scale', title: 'Sat', min: 1, max: 5 }, { id: 'sat', type: 'scale', title: 'Sat', min: 0, max: 10 })).toEqual([
      ['range_changed', 'sat', true, 'Changed the range of "sat" (Sat) from 1–5 to 0–10'],
    ]);
    expect(diffOne({ id: 'stars', type: 'rating', title: 'Stars', max: 5 }, { id: 'stars', type: 'rating', title: 'Stars', max: 7 })).toEqual([
      ['range_changed', 'stars', true, 'Changed the maximum rating of "stars" (Stars) from 5 to 7'],
    ]);
    expect(diffOne({ id: 'age', type: 'number', title: 'Age', min: 18 }, { id: 'age', type: 'number', title: 'Age', min: 16, max: 99 })).toEqual([
      ['range_changed', 'age', false, 'Changed the limits of "age" (Age) from at least 18 to 16–99'],
    ]);
    expect(diffOne({ id: 'name', type: 'short_text', title: 'Name', maxLength: 50 }, { id: 'name', type: 'short_text', title: 'Name' })).toEqual([
      ['range_changed', 'name', false, 'Changed the length limits of "name" (Name) from at most 50 to no limits'],
    ]);
    expect(diffOne({ id: 'when', type: 'date', title: 'When' }, { id: 'when', type: 'date', title: 'When', maxDate: 'today' })).toEqual([
      ['range_changed', 'when', false, 'Changed the date limits of "when" (When) from no limits to at most today'],
    ]);
  });

  it('settings_changed lists the other settings, not breaking', () => {
    expect(
      diffOne(
        { id: 'email', type: 'short_text', title: 'Email' },
        { id: 'email', type: 'short_text', title: 'Email', format: 'email', description: 'Work address' },
      ),
    ).toEqual([['settings_changed', 'email', false, 'Changed the settings of "email" (Email): format, description']]);
  });

  it('pages: added, removed, renamed, moved, condition changed; none breaking', () => {
    const next = copy(base);
    const [p1, p2] = next.pages as [FormDefinition['pages'][number], FormDefinition['pages'][number]];
    p1.title = 'Meals';
    p2.visibleIf = { ref: 'what', op: 'answered' };
    next.pages.push({ id: 'p3', title: 'Extra', elements: [] });
    expect(rows(diffDefinitions(base, next))).toEqual([
      ['page_changed', 'p1', false, 'Renamed page "p1": "Food" → "Meals"'],
      ['page_changed', 'p2', false, 'page "p2" (More) is now shown only under a condition'],
      ['page_added', 'p3', false, 'Added page "p3" (Extra)'],
    ]);

    const three = formWithPages({ id: 'a', elements: [] }, { id: 'b', elements: [] }, { id: 'c', elements: [] });
    const moved = formWithPages({ id: 'b', elements: [] }, { id: 'c', elements: [] }, { id: 'a', elements: [] });
    expect(rows(diffDefinitions(three, moved))).toEqual([['page_changed', 'a', false, 'Moved page "a"']]);

    const removed = copy(base);
    removed.pages.pop();
    expect(rows(diffDefinitions(base, removed))).toEqual([
      ['page_removed', 'p2', false, 'Removed page "p2" (More)'],
      ['element_removed', 'note', true, 'Removed "note" (Note)'],
    ]);
  });

  it("reports the form's title", () => {
    expect(rows(diffDefinitions(base, { ...copy(base), title: 'New title' }))).toEqual([
      ['title_changed', null, false, 'Renamed the form: "Test form" → "New title"'],
    ]);
  });

  it('breakingChanges keeps only the breaking ones', () => {
    const next = copy(base);
    next.pages[0]!.elements[0]!.title = 'Renamed';
    next.pages[1]!.elements = [];
    expect(breakingChanges(diffDefinitions(base, next)).map((change) => change.kind)).toEqual(['element_removed']);
  });
});
