// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { Answers, FormElement } from '../../../src/shared/forms/definition.ts';
import { form, page, renderForm } from './setup.ts';

/** Renders one page with these elements and an onChange spy; `answers()` is the last change. */
function renderElements(elements: FormElement[], initialAnswers?: Answers) {
  const onChange = vi.fn<(answers: Answers, pageId: string) => void>();
  const view = renderForm(form(page('p1', 'Questions', elements)), { onChange, ...(initialAnswers ? { initialAnswers } : {}) });
  const answers = (): Answers => onChange.mock.lastCall?.[0] ?? {};
  return { ...view, onChange, answers };
}

const input = (element: HTMLElement) => element as HTMLInputElement;

describe('every element type renders with its label and role', () => {
  it('shows each type as its control', async () => {
    renderElements([
      { id: 'name', type: 'short_text', title: 'Your name', required: true },
      { id: 'email', type: 'short_text', title: 'Email', format: 'email' },
      { id: 'site', type: 'short_text', title: 'Website', format: 'url' },
      { id: 'phone', type: 'short_text', title: 'Phone', format: 'phone' },
      { id: 'story', type: 'long_text', title: 'Your story' },
      {
        id: 'fruit',
        type: 'single_choice',
        title: 'Fruit',
        options: [
          { id: 'apple', label: 'Apple' },
          { id: 'pear', label: 'Pear' },
        ],
      },
      { id: 'drinks', type: 'multiple_choice', title: 'Drinks', options: [{ id: 'tea', label: 'Tea' }], maxSelected: 3 },
      {
        id: 'country',
        type: 'dropdown',
        title: 'Country',
        options: [
          { id: 'fr', label: 'France' },
          { id: 'de', label: 'Germany' },
        ],
      },
      { id: 'stars', type: 'rating', title: 'Stars', max: 5 },
      { id: 'nps', type: 'scale', title: 'Recommend', min: 0, max: 10, minLabel: 'Not likely', maxLabel: 'Very likely', preset: 'nps' },
      { id: 'temp', type: 'scale', title: 'Temperature', min: 0, max: 100, step: 5 },
      { id: 'age', type: 'number', title: 'Age', integer: true, unit: 'years' },
      { id: 'day', type: 'date', title: 'Visit day', minDate: '2026-01-01', maxDate: 'today' },
      { id: 'shots', type: 'photo', title: 'Shelf photos', maxFiles: 3 },
      { id: 'ok', type: 'consent', title: 'Consent', statement: 'I agree to the **terms**', required: true },
      {
        id: 'grid',
        type: 'matrix',
        title: 'Grid',
        rows: [{ id: 'r1', label: 'Taste' }],
        columns: [
          { id: 'good', label: 'Good' },
          { id: 'bad', label: 'Bad' },
        ],
      },
      {
        id: 'rank',
        type: 'ranking',
        title: 'Rank',
        options: [
          { id: 'a', label: 'Alpha' },
          { id: 'b', label: 'Beta' },
        ],
      },
      { id: 'info', type: 'statement', title: 'Before you start', body: 'Read *this* first.' },
    ]);

    const name = screen.getByRole('textbox', { name: 'Your name' });
    expect(name.getAttribute('aria-required')).toBe('true');
    expect(input(screen.getByRole('textbox', { name: 'Email' })).type).toBe('email');
    expect(input(screen.getByRole('textbox', { name: 'Website' })).type).toBe('url');
    expect(input(screen.getByRole('textbox', { name: 'Phone' })).type).toBe('tel');
    expect(screen.getByRole('textbox', { name: 'Your story' }).tagName).toBe('TEXTAREA');
    expect(within(screen.getByRole('radiogroup', { name: 'Fruit' })).getAllByRole('radio')).toHaveLength(2);
    const drinks = screen.getByRole('group', { name: 'Drinks' });
    expect(within(drinks).getByRole('checkbox', { name: 'Tea' })).toBeTruthy();
    expect(within(drinks).getByText('Choose up to 3')).toBeTruthy();
    const country = screen.getByRole('combobox', { name: 'Country' });
    expect(
      within(country)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'France', 'Germany']);
    expect(within(screen.getByRole('radiogroup', { name: 'Stars' })).getAllByRole('radio')).toHaveLength(5);
    const nps = within(screen.getByRole('radiogroup', { name: 'Recommend' })).getAllByRole('radio');
    expect(nps).toHaveLength(11);
    expect(screen.getByRole('radio', { name: '0, Not likely' })).toBe(nps[0]);
    expect(screen.getByRole('radio', { name: '10, Very likely' })).toBe(nps[10]);
    expect(screen.getByRole('slider', { name: 'Temperature' })).toBeTruthy();
    const age = screen.getByRole('textbox', { name: 'Age' });
    expect(age.getAttribute('inputmode')).toBe('numeric');
    expect(age.getAttribute('aria-describedby')).toContain(screen.getByText('years').id);
    const day = input(screen.getByLabelText('Visit day'));
    expect([day.type, day.min, day.max]).toEqual(['date', '2026-01-01', '2026-05-10']);
    const photos = screen.getByRole('group', { name: 'Shelf photos' });
    // The photo control loads with the first photo field shown.
    expect((await within(photos).findByLabelText('Take a photo')).getAttribute('capture')).toBe('environment');
    expect(input(within(photos).getByLabelText('Choose from library')).multiple).toBe(true);
    expect(within(photos).getByText('Add up to 3 photos')).toBeTruthy();
    // Texts with Markdown are rendered once the parser (loaded on demand) is there.
    const consent = await screen.findByRole('checkbox', { name: 'I agree to the terms' });
    expect(consent.getAttribute('aria-required')).toBe('true');
    expect(
      within(screen.getByRole('group', { name: 'Taste' }))
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['good', 'bad']);
    const rank = screen.getByRole('group', { name: 'Rank' });
    expect(
      within(rank)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringContaining('Alpha'), expect.stringContaining('Beta')]);
    expect(screen.getByRole('heading', { level: 3, name: 'Before you start' })).toBeTruthy();
    expect((await screen.findByText('this')).tagName).toBe('EM');
  });

  it('marks required questions visibly and for assistive technology', () => {
    renderElements([
      { id: 'drinks', type: 'multiple_choice', title: 'Drinks', options: [{ id: 'tea', label: 'Tea' }], required: true },
      { id: 'fruit', type: 'single_choice', title: 'Fruit', options: [{ id: 'apple', label: 'Apple' }], required: true },
      { id: 'note', type: 'short_text', title: 'Note' },
    ]);
    expect(screen.getByRole('group', { name: 'Drinks (required)' })).toBeTruthy();
    expect(screen.getByRole('radiogroup', { name: 'Fruit' }).getAttribute('aria-required')).toBe('true');
    expect(screen.getByRole('textbox', { name: 'Note' }).getAttribute('aria-required')).toBeNull();
    // The visible star is hidden from screen readers (they hear "required" instead).
    const legend = screen.getByText('Fruit');
    expect(legend.querySelector('[aria-hidden="true"]')?.textContent).toBe('*');
  });
});

describe('text, number and date answers', () => {
  it('counts characters against an author-set limit and of long texts', async () => {
    const { user, answers } = renderElements([
      { id: 'title', type: 'short_text', title: 'Title', maxLength: 500 },
      { id: 'plain', type: 'short_text', title: 'Plain' },
      { id: 'story', type: 'long_text', title: 'Story', maxLength: 2000 },
    ]);
    expect(screen.getByText('0 / 500 characters')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Story' }), 'Hello');
    expect(screen.getByText('5 / 2000 characters')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Story' }).getAttribute('aria-describedby')).toContain(screen.getByText('5 / 2000 characters').id);
    // No counter where the author set no limit (the default is enforced, not counted).
    expect(screen.getByRole('textbox', { name: 'Plain' }).getAttribute('aria-describedby')).toBeNull();
    expect(input(screen.getByRole('textbox', { name: 'Plain' })).maxLength).toBe(255);
    expect(answers()).toEqual({ story: 'Hello' });
    await user.clear(screen.getByRole('textbox', { name: 'Story' }));
    expect(answers()).toEqual({});
  });

  it('stores numbers as numbers; an empty field removes the answer; other text says so', async () => {
    const { user, answers } = renderElements([
      { id: 'weight', type: 'number', title: 'Weight', unit: 'kg' },
      { id: 'note', type: 'short_text', title: 'Note' },
    ]);
    const weight = screen.getByRole('textbox', { name: 'Weight' });
    expect(weight.getAttribute('inputmode')).toBe('decimal');
    await user.type(weight, '3,5');
    expect(answers()).toEqual({ weight: 3.5 });
    await user.clear(weight);
    expect(answers()).toEqual({});
    await user.type(weight, '12abc');
    expect(answers()).toEqual({});
    await user.tab();
    expect(screen.getByText('Enter a number')).toBeTruthy();
    expect(weight.getAttribute('aria-invalid')).toBe('true');
  });

  it('keeps a date as YYYY-MM-DD', async () => {
    const { user, answers } = renderElements([{ id: 'day', type: 'date', title: 'Day' }]);
    await user.type(screen.getByLabelText('Day'), '2026-04-01');
    expect(answers()).toEqual({ day: '2026-04-01' });
  });

  it('keeps the chosen dropdown option id', async () => {
    const { user, answers } = renderElements([
      {
        id: 'country',
        type: 'dropdown',
        title: 'Country',
        options: [
          { id: 'fr', label: 'France' },
          { id: 'de', label: 'Germany' },
        ],
      },
    ]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'Germany');
    expect(answers()).toEqual({ country: 'de' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Country' }), 'Choose…');
    expect(answers()).toEqual({});
  });

  it('narrows a searchable dropdown with a search box; Enter picks the only match', async () => {
    const options = ['Austria', 'Belgium', 'Côte d’Ivoire', 'Croatia', 'Cyprus'].map((label, i) => ({ id: `c${i}`, label }));
    const { user, answers, onSubmit } = renderElements([{ id: 'country', type: 'dropdown', title: 'Country', searchable: true, options }]);
    const select = screen.getByRole('combobox', { name: 'Country' });
    const search = screen.getByRole('searchbox', { name: 'Search the list of Country' });
    await user.type(search, 'co');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'Côte d’Ivoire']);
    expect(screen.getByText('1 of 5 options match')).toBeTruthy();
    await user.type(search, '{Enter}');
    expect(answers()).toEqual({ country: 'c2' });
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(search);
    await user.type(search, 'cr');
    // The chosen option stays in the list.
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose…', 'Côte d’Ivoire', 'Croatia']);
  });
});

describe('choices', () => {
  it('answers "Other" with its text and brings the text back', async () => {
    const { user, answers } = renderElements([
      { id: 'fruit', type: 'single_choice', title: 'Fruit', allowOther: true, options: [{ id: 'apple', label: 'Apple' }] },
    ]);
    expect(screen.queryByRole('textbox', { name: 'Other (please specify)' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    expect(answers()).toEqual({ fruit: { other: '' } });
    await user.type(screen.getByRole('textbox', { name: 'Other (please specify)' }), 'Kiwi');
    expect(answers()).toEqual({ fruit: { other: 'Kiwi' } });
    await user.click(screen.getByRole('radio', { name: 'Apple' }));
    expect(answers()).toEqual({ fruit: 'apple' });
    expect(screen.queryByRole('textbox', { name: 'Other (please specify)' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Other' }));
    expect(answers()).toEqual({ fruit: { other: 'Kiwi' } });
    await user.click(screen.getByRole('button', { name: 'Clear answer' }));
    expect(answers()).toEqual({});
  });

  it('clears the other choices when an exclusive option is ticked, and the exclusive one when another is', async () => {
    const { user, answers } = renderElements([
      {
        id: 'pets',
        type: 'multiple_choice',
        title: 'Pets',
        allowOther: true,
        exclusive: ['none'],
        options: [
          { id: 'cat', label: 'Cat' },
          { id: 'dog', label: 'Dog' },
          { id: 'none', label: 'None of these' },
        ],
      },
    ]);
    const box = (name: string) => input(screen.getByRole('checkbox', { name }));
    await user.click(box('Dog'));
    await user.click(box('Cat'));
    expect(answers()).toEqual({ pets: ['cat', 'dog'] });
    await user.click(box('Other'));
    await user.type(screen.getByRole('textbox', { name: 'Other (please specify)' }), 'Eel');
    expect(answers()).toEqual({ pets: ['cat', 'dog', { other: 'Eel' }] });
    await user.click(box('None of these'));
    expect(answers()).toEqual({ pets: ['none'] });
    expect([box('Cat').checked, box('Dog').checked, box('Other').checked, box('None of these').checked]).toEqual([false, false, false, true]);
    await user.click(box('Dog'));
    expect(answers()).toEqual({ pets: ['dog'] });
    expect(box('None of these').checked).toBe(false);
    await user.click(box('Dog'));
    expect(answers()).toEqual({});
  });

  it('shows random options in the same order for the same seed', () => {
    const options = Array.from({ length: 8 }, (_, i) => ({ id: `o${i}`, label: `Option ${i}` }));
    const element: FormElement = { id: 'pick', type: 'single_choice', title: 'Pick', optionOrder: 'random', options };
    const first = renderElements([element]);
    const order = within(screen.getByRole('radiogroup', { name: 'Pick' }))
      .getAllByRole('radio')
      .map((radio) => radio.getAttribute('value'));
    first.unmount();
    renderElements([element]);
    const again = within(screen.getByRole('radiogroup', { name: 'Pick' }))
      .getAllByRole('radio')
      .map((radio) => radio.getAttribute('value'));
    expect(again).toEqual(order);
    expect(order).not.toEqual(options.map((option) => option.id));
  });

  it('records a ticked consent as true and removes it when unticked', async () => {
    const { user, answers } = renderElements([{ id: 'ok', type: 'consent', title: 'Consent', statement: 'I agree' }]);
    await user.click(screen.getByRole('checkbox', { name: 'I agree' }));
    expect(answers()).toEqual({ ok: true });
    await user.click(screen.getByRole('checkbox', { name: 'I agree' }));
    expect(answers()).toEqual({});
  });
});

describe('rating and scale', () => {
  it('is a radio group the arrow keys move through', async () => {
    const { user, answers } = renderElements([{ id: 'stars', type: 'rating', title: 'How was it?', max: 5 }]);
    const group = screen.getByRole('radiogroup', { name: 'How was it?' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('name')),
    ).toEqual(Array(5).fill(within(group).getAllByRole('radio')[0]?.getAttribute('name')));
    await user.click(screen.getByRole('radio', { name: '2 stars' }));
    expect(answers()).toEqual({ stars: 2 });
    expect(screen.getByRole('radio', { name: '2 stars' })).toBe(document.activeElement);
    await user.keyboard('{ArrowRight}');
    expect(input(screen.getByRole('radio', { name: '3 stars' })).checked).toBe(true);
    expect(answers()).toEqual({ stars: 3 });
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(answers()).toEqual({ stars: 1 });
    expect(screen.getByRole('radio', { name: '1 star' })).toBe(document.activeElement);
  });

  it('shows numbers when the icon is "number"', async () => {
    const { user, answers } = renderElements([{ id: 'score', type: 'rating', title: 'Score', max: 4, icon: 'number' }]);
    await user.click(screen.getByRole('radio', { name: '4' }));
    expect(answers()).toEqual({ score: 4 });
  });

  it('answers a scale with the chosen point, by step', async () => {
    const { user, answers } = renderElements([{ id: 'half', type: 'scale', title: 'Half steps', min: 1, max: 3, step: 0.5 }]);
    expect(
      within(screen.getByRole('radiogroup', { name: 'Half steps' }))
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['1', '1.5', '2', '2.5', '3']);
    await user.click(screen.getByRole('radio', { name: '2.5' }));
    expect(answers()).toEqual({ half: 2.5 });
  });

  it('uses a slider with its value shown for more than 11 points, unanswered until moved', async () => {
    const { answers, onChange } = renderElements([{ id: 'temp', type: 'scale', title: 'Temperature', min: 0, max: 100, step: 5 }]);
    const slider = screen.getByRole('slider', { name: 'Temperature' });
    expect(screen.getByText('Not answered')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    // (user-event does not drive sliders with arrow keys: the browser's change event stands in.)
    fireEvent.change(slider, { target: { value: '55' } });
    expect(answers()).toEqual({ temp: 55 });
    expect(screen.getByText('55', { selector: 'output' })).toBeTruthy();
  });
});

describe('matrix', () => {
  const rows = [
    { id: 'taste', label: 'Taste' },
    { id: 'price', label: 'Price' },
  ];
  const columns = [
    { id: 'good', label: 'Good' },
    { id: 'bad', label: 'Bad' },
  ];

  it('answers each row (a fieldset named by the row) with one column', async () => {
    const { user, answers } = renderElements([{ id: 'grid', type: 'matrix', title: 'Rate these', rows, columns }]);
    expect(screen.getByRole('group', { name: 'Rate these' })).toBeTruthy();
    await user.click(within(screen.getByRole('group', { name: 'Taste' })).getByRole('radio', { name: 'Good' }));
    await user.click(within(screen.getByRole('group', { name: 'Price' })).getByRole('radio', { name: 'Bad' }));
    expect(answers()).toEqual({ grid: { taste: 'good', price: 'bad' } });
  });

  it('answers with several columns per row when multiple', async () => {
    const { user, answers } = renderElements([{ id: 'grid', type: 'matrix', title: 'Tick', rows, columns, multiple: true }]);
    const taste = within(screen.getByRole('group', { name: 'Taste' }));
    await user.click(taste.getByRole('checkbox', { name: 'Bad' }));
    await user.click(taste.getByRole('checkbox', { name: 'Good' }));
    expect(answers()).toEqual({ grid: { taste: ['good', 'bad'] } });
    await user.click(taste.getByRole('checkbox', { name: 'Good' }));
    await user.click(taste.getByRole('checkbox', { name: 'Bad' }));
    expect(answers()).toEqual({});
  });
});

describe('ranking', () => {
  const ranking: FormElement = {
    id: 'rank',
    type: 'ranking',
    title: 'Order these',
    options: [
      { id: 'a', label: 'Apple' },
      { id: 'b', label: 'Banana' },
      { id: 'c', label: 'Cherry' },
    ],
  };
  const items = () =>
    within(screen.getByRole('group', { name: 'Order these' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('span.flex-1')?.textContent);

  it('moves items with the keyboard, keeps focus on the moved item and announces its place', async () => {
    const { user, answers, onChange } = renderElements([ranking]);
    expect(onChange).not.toHaveBeenCalled();
    screen.getByRole('button', { name: 'Move Apple down' }).focus();
    await user.keyboard('{Enter}');
    expect(items()).toEqual(['Banana', 'Apple', 'Cherry']);
    expect(answers()).toEqual({ rank: ['b', 'a', 'c'] });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Apple down' }));
    expect(screen.getByRole('status').textContent).toBe('Apple moved to position 2');
    await user.keyboard('{Enter}');
    expect(items()).toEqual(['Banana', 'Cherry', 'Apple']);
    expect(screen.getByRole('status').textContent).toBe('Apple moved to position 3');
    // At the bottom "Move down" is disabled: focus goes to the item's "Move up".
    expect(screen.getByRole('button', { name: 'Move Apple down' })).toHaveProperty('disabled', true);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Apple up' }));
    await user.keyboard(' ');
    expect(items()).toEqual(['Banana', 'Apple', 'Cherry']);
    expect(answers()).toEqual({ rank: ['b', 'a', 'c'] });
  });

  it('records the shown order only when the person keeps it', async () => {
    const { user, answers, onChange } = renderElements([ranking]);
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Keep this order' }));
    expect(answers()).toEqual({ rank: ['a', 'b', 'c'] });
    expect(screen.queryByRole('button', { name: 'Keep this order' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Apple down' }));
  });

  it('starts from a saved order', () => {
    renderElements([ranking], { rank: ['c', 'a', 'b'] });
    expect(items()).toEqual(['Cherry', 'Apple', 'Banana']);
    expect(screen.queryByRole('button', { name: 'Keep this order' })).toBeNull();
  });
});
