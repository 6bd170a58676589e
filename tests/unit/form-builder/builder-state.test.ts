import { describe, expect, it } from 'vitest';
import { FORM_SCHEMA_ID } from '../../../src/shared/forms/constants.ts';
import type { FormDraft } from '../../../src/shared/forms/definition.ts';
import { checkForPublish } from '../../../src/shared/forms/publish.ts';
import {
  builderReducer,
  findElement,
  initBuilderState,
  positionText,
  sameDraft,
  type BuilderAction,
  type BuilderState,
} from '../../../src/islands/admin/forms/builder-state.ts';
import { ELEMENT_TYPES } from '../../../src/shared/forms/constants.ts';

function draft(...pages: FormDraft['pages']): FormDraft {
  return { schema: FORM_SCHEMA_ID, title: 'Pets', pages };
}

const emptyDraft = () => draft({ id: 'page_1', title: '', elements: [] });

function run(state: BuilderState, ...actions: BuilderAction[]): BuilderState {
  return actions.reduce(builderReducer, state);
}

const ids = (state: BuilderState) => state.draft.pages.map((page) => page.elements.map((element) => element.id));

describe('adding elements', () => {
  it('gives each new element a unique id from its type and selects it', () => {
    const state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'short_text' },
      { type: 'add_element', elementType: 'short_text' },
      { type: 'add_element', elementType: 'rating' },
    );
    expect(ids(state)).toEqual([['short_text_1', 'short_text_2', 'rating_1']]);
    expect(state.elementId).toBe('rating_1');
  });

  it('adds after the selected element on the current page', () => {
    let state = run(initBuilderState(emptyDraft()), { type: 'add_element', elementType: 'short_text' }, { type: 'add_element', elementType: 'number' });
    state = run(state, { type: 'select', elementId: 'short_text_1' }, { type: 'add_element', elementType: 'date' });
    expect(ids(state)).toEqual([['short_text_1', 'date_1', 'number_1']]);
  });

  it('never reuses an id of a published version, nor a page id', () => {
    const state = run(
      initBuilderState(draft({ id: 'short_text_1', title: '', elements: [] })),
      { type: 'set_reserved', ids: ['short_text_2'] },
      { type: 'add_element', elementType: 'short_text' },
    );
    expect(ids(state)).toEqual([['short_text_3']]);
  });

  it('starts every type with settings that pass the publish checks', () => {
    let state = initBuilderState(emptyDraft());
    for (const type of ELEMENT_TYPES) state = builderReducer(state, { type: 'add_element', elementType: type });
    expect(state.draft.pages[0]?.elements).toHaveLength(ELEMENT_TYPES.length);
    expect(checkForPublish(state.draft).problems).toEqual({});
    const byType = (type: string) => state.draft.pages[0]?.elements.find((element) => element.type === type) as Record<string, unknown>;
    expect(byType('single_choice').options).toHaveLength(2);
    expect(byType('rating').max).toBe(5);
    expect([byType('scale').min, byType('scale').max]).toEqual([1, 10]);
    expect(byType('photo').maxFiles).toBe(3);
    expect(byType('video')).toMatchObject({ maxFiles: 1, maxSeconds: 180 });
  });
});

describe('undo and redo', () => {
  it('undoes and redoes every change, and a new change clears redo', () => {
    const start = initBuilderState(emptyDraft());
    let state = run(start, { type: 'add_element', elementType: 'short_text' }, { type: 'add_element', elementType: 'number' });
    state = run(state, { type: 'undo' });
    expect(ids(state)).toEqual([['short_text_1']]);
    expect(state.future).toHaveLength(1);
    state = run(state, { type: 'redo' });
    expect(ids(state)).toEqual([['short_text_1', 'number_1']]);
    state = run(state, { type: 'undo' }, { type: 'undo' });
    expect(sameDraft(state.draft, start.draft)).toBe(true);
    expect(run(state, { type: 'undo' })).toBe(state);
    state = run(state, { type: 'add_element', elementType: 'date' });
    expect(state.future).toEqual([]);
  });

  it('brings a deleted element back where it was, selected', () => {
    let state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'short_text' },
      { type: 'add_element', elementType: 'number' },
      { type: 'add_element', elementType: 'date' },
    );
    state = run(state, { type: 'delete_element', id: 'number_1' });
    expect(ids(state)).toEqual([['short_text_1', 'date_1']]);
    expect(state.past.at(-1)?.label).toBe('Delete “Number question”');
    state = run(state, { type: 'undo' });
    expect(ids(state)).toEqual([['short_text_1', 'number_1', 'date_1']]);
  });

  it('makes typing in one field one step', () => {
    let state = run(initBuilderState(emptyDraft()), { type: 'add_element', elementType: 'short_text' });
    for (const title of ['N', 'Na', 'Nam', 'Name'])
      state = run(state, { type: 'update_element', id: 'short_text_1', patch: { title }, key: 'short_text_1:title' });
    state = run(state, { type: 'update_element', id: 'short_text_1', patch: { description: 'Yours' }, key: 'short_text_1:description' });
    state = run(state, { type: 'undo' });
    expect(findElement(state.draft, 'short_text_1')?.element.title).toBe('Name');
    state = run(state, { type: 'undo' });
    expect(findElement(state.draft, 'short_text_1')?.element.title).toBe('Short text question');
  });

  it('removes a setting patched to undefined', () => {
    let state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'number' },
      { type: 'update_element', id: 'number_1', patch: { min: 3 } },
    );
    state = run(state, { type: 'update_element', id: 'number_1', patch: { min: undefined } });
    expect('min' in (findElement(state.draft, 'number_1')?.element ?? {})).toBe(false);
  });

  it('replacing the draft (import, a version, their version) can be undone', () => {
    let state = run(initBuilderState(emptyDraft()), { type: 'add_element', elementType: 'short_text' });
    const theirs = draft({ id: 'p', title: 'Theirs', elements: [{ id: 'q', type: 'number', title: 'Q' }] });
    state = run(state, { type: 'replace_draft', draft: theirs, label: 'Load their version' });
    expect(state.draft).toBe(theirs);
    state = run(state, { type: 'undo' });
    expect(ids(state)).toEqual([['short_text_1']]);
  });
});

describe('moving', () => {
  const three = () =>
    run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'short_text' },
      { type: 'add_element', elementType: 'number' },
      { type: 'add_element', elementType: 'date' },
    );

  it('moves up and down within a page, and across page edges', () => {
    let state = run(three(), { type: 'move_element_by', id: 'date_1', delta: -1 });
    expect(ids(state)).toEqual([['short_text_1', 'date_1', 'number_1']]);
    expect(positionText(state.draft, 'date_1')).toBe('position 2 of 3 on page 1');
    // The first element of the only page cannot go up.
    expect(run(state, { type: 'move_element_by', id: 'short_text_1', delta: -1 })).toBe(state);
    state = run(state, { type: 'add_page' }, { type: 'move_element_by', id: 'number_1', delta: 1 });
    expect(ids(state)).toEqual([['short_text_1', 'date_1'], ['number_1']]);
    state = run(state, { type: 'move_element_by', id: 'number_1', delta: -1 });
    expect(ids(state)).toEqual([['short_text_1', 'date_1', 'number_1'], []]);
  });

  it('moves an element to another page at a given place (drag and drop, "Move to page")', () => {
    let state = run(three(), { type: 'add_page' });
    const second = state.draft.pages[1]?.id ?? '';
    state = run(state, { type: 'move_element', id: 'short_text_1', toPageId: second, toIndex: 0 });
    expect(ids(state)).toEqual([['number_1', 'date_1'], ['short_text_1']]);
    expect(state.pageId).toBe(second);
    state = run(state, { type: 'move_element', id: 'date_1', toPageId: 'page_1', toIndex: 0 });
    expect(ids(state)).toEqual([['date_1', 'number_1'], ['short_text_1']]);
  });

  it('adds, moves and deletes pages; deleting a page takes its elements, undo brings them back', () => {
    let state = run(three(), { type: 'add_page' }, { type: 'add_element', elementType: 'photo' });
    expect(state.draft.pages.map((page) => page.id)).toEqual(['page_1', 'page_2']);
    state = run(state, { type: 'move_page', id: 'page_2', delta: -1 });
    expect(state.draft.pages.map((page) => page.id)).toEqual(['page_2', 'page_1']);
    state = run(state, { type: 'update_page', id: 'page_2', patch: { title: 'Photos', description: 'Your garden' } });
    expect(state.draft.pages[0]).toMatchObject({ title: 'Photos', description: 'Your garden' });
    state = run(state, { type: 'delete_page', id: 'page_2' });
    expect(ids(state)).toEqual([['short_text_1', 'number_1', 'date_1']]);
    expect(state.past.at(-1)?.label).toBe('Delete page 1 and its question');
    // The last page stays.
    expect(run(state, { type: 'delete_page', id: 'page_1' })).toBe(state);
    state = run(state, { type: 'undo' });
    expect(ids(state)).toEqual([['photo_1'], ['short_text_1', 'number_1', 'date_1']]);
  });
});

describe('ids, duplicates and types', () => {
  it('duplicates with a new id right after the original', () => {
    const state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'single_choice' },
      { type: 'add_element', elementType: 'number' },
      { type: 'duplicate_element', id: 'single_choice_1' },
    );
    expect(ids(state)).toEqual([['single_choice_1', 'single_choice_2', 'number_1']]);
    expect(findElement(state.draft, 'single_choice_2')?.element.options).toEqual(findElement(state.draft, 'single_choice_1')?.element.options);
    expect(state.elementId).toBe('single_choice_2');
  });

  it('renames an id and the conditions that refer to it; refuses empty or taken ids and locked ones; keeps a badly formed one for publishing to refuse', () => {
    let state = run(initBuilderState(emptyDraft()), { type: 'add_element', elementType: 'consent' }, { type: 'add_element', elementType: 'short_text' });
    state = run(state, { type: 'set_condition', kind: 'element', id: 'short_text_1', condition: { ref: 'consent_1', op: 'eq', value: true } });
    state = run(state, { type: 'rename_element', id: 'consent_1', newId: 'agrees' });
    expect(ids(state)).toEqual([['agrees', 'short_text_1']]);
    expect(findElement(state.draft, 'short_text_1')?.element.visibleIf).toEqual({ ref: 'agrees', op: 'eq', value: true });
    for (const bad of ['', 'short_text_1', 'page_1', 'x'.repeat(201)]) expect(run(state, { type: 'rename_element', id: 'agrees', newId: bad })).toBe(state);
    // What the field shows is what the draft holds: a badly formed id is kept, and the publish check names it.
    const typed = run(state, { type: 'rename_element', id: 'agrees', newId: 'Bad Id!' });
    expect(ids(typed)).toEqual([['Bad Id!', 'short_text_1']]);
    expect(findElement(typed.draft, 'short_text_1')?.element.visibleIf).toEqual({ ref: 'Bad Id!', op: 'eq', value: true });
    expect(checkForPublish(typed.draft).problems).toEqual({
      'Bad Id!': ['"Bad Id!": id: Use a lower-case letter, then lower-case letters, digits or _ (64 at most)'],
    });
    const locked = run(state, { type: 'set_reserved', ids: ['agrees'] });
    expect(run(locked, { type: 'rename_element', id: 'agrees', newId: 'agreed' })).toBe(locked);
  });

  it('changes the type in place while never published, keeping title and options', () => {
    let state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'single_choice' },
      { type: 'update_element', id: 'single_choice_1', patch: { title: 'Pet', required: true } },
    );
    state = run(state, { type: 'change_type', id: 'single_choice_1', elementType: 'dropdown' });
    expect(findElement(state.draft, 'single_choice_1')?.element).toMatchObject({
      type: 'dropdown',
      title: 'Pet',
      required: true,
      options: [{ id: 'option_1' }, { id: 'option_2' }],
    });
  });

  it('replaces a published element with a new question (new id) when its type changes', () => {
    let state = run(initBuilderState(emptyDraft()), { type: 'add_element', elementType: 'short_text' }, { type: 'set_reserved', ids: ['short_text_1'] });
    state = run(state, { type: 'change_type', id: 'short_text_1', elementType: 'number' });
    expect(ids(state)).toEqual([['number_1']]);
    expect(state.elementId).toBe('number_1');
    expect(state.past.at(-1)?.label).toMatch(/^Replace “Short text question” with a new Number question$/);
  });
});

describe('conditions and the form', () => {
  it('sets, replaces and removes an element condition and a page condition', () => {
    let state = run(
      initBuilderState(emptyDraft()),
      { type: 'add_element', elementType: 'single_choice' },
      { type: 'add_element', elementType: 'short_text' },
      { type: 'add_page' },
      { type: 'add_element', elementType: 'long_text' },
    );
    state = run(state, { type: 'set_condition', kind: 'element', id: 'short_text_1', condition: { ref: 'single_choice_1', op: 'eq', value: 'option_1' } });
    state = run(state, {
      type: 'set_condition',
      kind: 'page',
      id: 'page_2',
      condition: {
        any: [
          { ref: 'short_text_1', op: 'answered' },
          { ref: 'single_choice_1', op: 'eq', value: 'option_2' },
        ],
      },
    });
    expect(checkForPublish(state.draft).problems).toEqual({});
    expect(state.draft.pages[1]?.visibleIf).toEqual({
      any: [
        { ref: 'short_text_1', op: 'answered' },
        { ref: 'single_choice_1', op: 'eq', value: 'option_2' },
      ],
    });
    state = run(state, { type: 'set_condition', kind: 'element', id: 'short_text_1', condition: null });
    expect('visibleIf' in (findElement(state.draft, 'short_text_1')?.element ?? {})).toBe(false);
    state = run(state, { type: 'undo' });
    expect(findElement(state.draft, 'short_text_1')?.element.visibleIf).toEqual({ ref: 'single_choice_1', op: 'eq', value: 'option_1' });
  });

  it('edits the form title as one step', () => {
    let state = initBuilderState(emptyDraft());
    for (const title of ['P', 'Pe', 'Pet survey']) state = run(state, { type: 'set_title', title });
    expect(state.draft.title).toBe('Pet survey');
    expect(state.past).toHaveLength(1);
  });
});

describe('sameDraft', () => {
  it('ignores key order (the database reorders keys)', () => {
    expect(sameDraft({ a: 1, b: [{ x: 1, y: 2 }] }, { b: [{ y: 2, x: 1 }], a: 1 })).toBe(true);
    expect(sameDraft({ a: 1 }, { a: 2 })).toBe(false);
  });
});

describe('languages and translations (issue 31 §2)', () => {
  const withQuestion = () => draft({ id: 'page_1', title: '', elements: [{ id: 'age', type: 'number', title: 'Your age?' }] });
  const title = { key: 'elements.age.title', source: 'Your age?', kind: 'title' as const, owner: 'age' };

  it('adds and removes a language (its translations go; Undo brings them back), and changes the source while no other is offered', () => {
    let state = run(
      initBuilderState(withQuestion()),
      { type: 'set_languages', languages: [], source: 'de', label: 'source' },
      { type: 'set_languages', languages: ['es'], label: 'add' },
      { type: 'set_translation', text: title, language: 'es', value: '¿Tu' },
      { type: 'set_translation', text: title, language: 'es', value: '¿Tu edad?' },
    );
    expect(state.draft).toMatchObject({ language: 'de', languages: ['de', 'es'], translations: { 'elements.age.title': { es: '¿Tu edad?' } } });
    // Typing into one translation is one undo step.
    expect(state.past.map((entry) => entry.label)).toEqual(['source', 'add', 'Edit a translation']);
    state = run(state, { type: 'set_languages', languages: [], label: 'remove' });
    expect(state.draft).toMatchObject({ languages: ['de'], translations: {} });
    state = run(state, { type: 'undo' });
    expect(state.draft).toMatchObject({ languages: ['de', 'es'], translations: { 'elements.age.title': { es: '¿Tu edad?' } } });
  });
});

describe('translations follow the questions', () => {
  it('a renamed question keeps its translations; a deleted question or option takes them along (Undo brings them back)', () => {
    const start = {
      ...draft({
        id: 'page_1',
        title: '',
        elements: [
          {
            id: 'pet',
            type: 'single_choice',
            title: 'Pet?',
            options: [
              { id: 'dog', label: 'Dog' },
              { id: 'cat', label: 'Cat' },
            ],
          },
          { id: 'age', type: 'number', title: 'Age?' },
        ],
      }),
      language: 'en',
      languages: ['en', 'es'],
      translations: {
        'form.title': { es: 'Mascotas' },
        'elements.pet.title': { es: '¿Mascota?' },
        'elements.pet.options.cat': { es: 'Gato' },
        'elements.age.title': { es: '¿Edad?' },
      },
      translatedFrom: { 'elements.age.title': { es: 'x' } },
    } as FormDraft;
    let state = run(initBuilderState(start), { type: 'rename_element', id: 'pet', newId: 'animal' });
    expect(Object.keys((state.draft as { translations?: object }).translations ?? {})).toEqual([
      'form.title',
      'elements.animal.title',
      'elements.animal.options.cat',
      'elements.age.title',
    ]);
    state = run(state, { type: 'update_element', id: 'animal', patch: { options: [{ id: 'dog', label: 'Dog' }] } }, { type: 'delete_element', id: 'age' });
    expect(state.draft).toMatchObject({ translations: { 'form.title': { es: 'Mascotas' }, 'elements.animal.title': { es: '¿Mascota?' } }, translatedFrom: {} });
    expect(Object.keys((state.draft as { translations?: object }).translations ?? {})).toHaveLength(2);
    expect(checkForPublish(state.draft).problems).toEqual({});
    state = run(state, { type: 'undo' });
    expect((state.draft as { translations?: object }).translations).toHaveProperty(['elements.age.title']);
  });
});
