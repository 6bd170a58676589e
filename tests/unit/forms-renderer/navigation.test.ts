// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Answers, FormDefinition } from '../../../src/shared/forms/definition.ts';
import { form, page, renderForm } from './setup.ts';

/** Three pages; the second only for dog owners; "Dog's name" only when the pet is a dog. */
const pets: FormDefinition = form(
  page('about', 'About you', [
    { id: 'name', type: 'short_text', title: 'Your name', required: true },
    { id: 'email', type: 'short_text', title: 'Email', format: 'email' },
    {
      id: 'pet',
      type: 'single_choice',
      title: 'Your pet',
      required: true,
      options: [
        { id: 'cat', label: 'Cat' },
        { id: 'dog', label: 'Dog' },
      ],
    },
    { id: 'dog_name', type: 'short_text', title: "Dog's name", required: true, visibleIf: { ref: 'pet', op: 'eq', value: 'dog' } },
  ]),
  page('dogs', 'Walks', [{ id: 'walks', type: 'number', title: 'Walks a day', required: true }], { visibleIf: { ref: 'pet', op: 'eq', value: 'dog' } }),
  page('end', 'Anything else', [{ id: 'comment', type: 'long_text', title: 'Comment' }]),
);

const heading = (name: string) => screen.getByRole('heading', { level: 2, name });
const progress = () => screen.queryByText(/^Page \d+ of \d+$/)?.textContent ?? null;

describe('conditions', () => {
  it('shows and hides an element while the person types', async () => {
    const definition = form(
      page('p1', 'Colours', [
        { id: 'colour', type: 'short_text', title: 'Favourite colour' },
        { id: 'shade', type: 'short_text', title: 'Which blue?', visibleIf: { ref: 'colour', op: 'eq', value: 'blue' } },
      ]),
    );
    const { user } = renderForm(definition);
    const colour = screen.getByRole('textbox', { name: 'Favourite colour' });
    await user.type(colour, 'blu');
    expect(screen.queryByRole('textbox', { name: 'Which blue?' })).toBeNull();
    await user.type(colour, 'e');
    expect(screen.getByRole('textbox', { name: 'Which blue?' })).toBeTruthy();
    await user.type(colour, '{Backspace}');
    expect(screen.queryByRole('textbox', { name: 'Which blue?' })).toBeNull();
  });

  it('skips hidden pages and leaves them out of the progress count', async () => {
    const { user } = renderForm(pets);
    expect(progress()).toBe('Page 1 of 2');
    await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Ada');
    await user.click(screen.getByRole('radio', { name: 'Dog' }));
    expect(progress()).toBe('Page 1 of 3');
    await user.type(screen.getByRole('textbox', { name: "Dog's name" }), 'Rex');
    await user.click(screen.getByRole('radio', { name: 'Cat' }));
    expect(progress()).toBe('Page 1 of 2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(heading('Anything else')).toBeTruthy();
    expect(progress()).toBe('Page 2 of 2');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });
});

describe('Next, Back and validation', () => {
  it('blocks Next with a summary that takes focus and a message beside each field', async () => {
    const { user } = renderForm(pets);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(heading('About you')).toBeTruthy();
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('There are 2 problems on this page')).toBeTruthy();
    expect(document.activeElement).toBe(alert);
    const links = within(alert).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Your name: Required', 'Your pet: Required']);

    const name = screen.getByRole('textbox', { name: 'Your name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const errorId = name.getAttribute('aria-describedby');
    expect(errorId && document.getElementById(errorId)?.textContent).toBe('Required');
    expect(screen.getByRole('radiogroup', { name: 'Your pet' }).getAttribute('aria-invalid')).toBe('true');

    await user.click(links[1] as HTMLElement);
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Cat' }));
    await user.click(links[0] as HTMLElement);
    expect(document.activeElement).toBe(name);

    // Fixing a field updates its message at once; the summary lists what is left.
    await user.type(name, 'Ada');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(
      within(screen.getByRole('alert'))
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Your pet: Required']);
  });

  it('shows a field’s message once it was changed and left, not before', async () => {
    const { user } = renderForm(pets);
    const email = screen.getByRole('textbox', { name: 'Email' });
    await user.click(screen.getByRole('textbox', { name: 'Your name' }));
    await user.tab();
    expect(screen.queryByText('Required')).toBeNull();
    await user.type(email, 'not-an-email');
    expect(screen.queryByText('Invalid email')).toBeNull();
    await user.tab();
    expect(screen.getByText('Invalid email')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
  });

  it('goes forward and back keeping the answers, focusing each page’s heading', async () => {
    const onPageChange = vi.fn<(pageId: string, answers: Answers) => void>();
    const onChange = vi.fn<(answers: Answers, pageId: string) => void>();
    const { user } = renderForm(pets, { onPageChange, onChange });
    await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Ada');
    expect(onChange).toHaveBeenLastCalledWith({ name: 'Ada' }, 'about');
    await user.click(screen.getByRole('radio', { name: 'Dog' }));
    await user.type(screen.getByRole('textbox', { name: "Dog's name" }), 'Rex');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    expect(document.activeElement).toBe(heading('Walks'));
    expect(progress()).toBe('Page 2 of 3');
    expect(onPageChange).toHaveBeenLastCalledWith('dogs', { name: 'Ada', pet: 'dog', dog_name: 'Rex' });
    await user.type(screen.getByRole('textbox', { name: 'Walks a day' }), '2');
    expect(onChange).toHaveBeenLastCalledWith({ name: 'Ada', pet: 'dog', dog_name: 'Rex', walks: 2 }, 'dogs');

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(document.activeElement).toBe(heading('About you'));
    expect(onPageChange).toHaveBeenLastCalledWith('about', expect.objectContaining({ walks: 2 }));
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveProperty('value', 'Ada');
    expect(screen.getByRole('radio', { name: 'Dog' })).toHaveProperty('checked', true);
    expect(screen.getByRole('textbox', { name: "Dog's name" })).toHaveProperty('value', 'Rex');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('textbox', { name: 'Walks a day' })).toHaveProperty('value', '2');
  });

  it('moves on with Enter in a text field (the form’s submit is Next)', async () => {
    const { user } = renderForm(pets);
    await user.click(screen.getByRole('radio', { name: 'Cat' }));
    await user.type(screen.getByRole('textbox', { name: 'Your name' }), 'Ada{Enter}');
    expect(heading('Anything else')).toBeTruthy();
  });

  it('copes with element and row ids that are names of object properties', async () => {
    const definition = form(
      page('p1', 'Odd ids', [
        { id: 'constructor', type: 'short_text', title: 'Constructor', required: true },
        { id: 'tostring', type: 'matrix', title: 'Grid', rows: [{ id: 'constructor', label: 'Row' }], columns: [{ id: 'valueof', label: 'Column' }] },
      ]),
    );
    const { user, onSubmit } = renderForm(definition);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Constructor: Required' })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Constructor' }), 'x');
    await user.click(screen.getByRole('radio', { name: 'Column' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledWith({ constructor: 'x', tostring: { constructor: 'valueof' } });
  });
});

describe('submit', () => {
  it('sends the cleaned answers of visible elements only', async () => {
    const { user, onSubmit } = renderForm(pets, { submitLabel: 'Send answers' });
    await user.type(screen.getByRole('textbox', { name: 'Your name' }), '  Ada ');
    await user.click(screen.getByRole('radio', { name: 'Dog' }));
    await user.type(screen.getByRole('textbox', { name: "Dog's name" }), 'Rex');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('textbox', { name: 'Walks a day' }), '3');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    // A cat after all: the dog's name and the walks page are hidden now.
    await user.click(screen.getByRole('radio', { name: 'Cat' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(heading('Anything else')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send answers' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', pet: 'cat' });
  });

  it('shows the server’s errors beside the fields of the first page that has one', async () => {
    const onSubmit = vi.fn(async () => ({ errors: { name: ['This name is taken'], unknown_key: ['Something else is wrong'] } }));
    const { user } = renderForm(pets, { onSubmit, initialAnswers: { name: 'Ada', pet: 'cat' }, initialPageId: 'end' });
    expect(heading('Anything else')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(heading('About you')).toBeTruthy());
    const summary = within(screen.getAllByRole('alert')[0] as HTMLElement);
    expect(summary.getByRole('link', { name: 'Your name: This name is taken' })).toBeTruthy();
    expect(screen.getByText('Something else is wrong')).toBeTruthy();
    const name = screen.getByRole('textbox', { name: 'Your name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    // The server's message stays until the answer changes.
    await user.type(name, 'a');
    expect(name.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('This name is taken')).toBeNull();
  });

  it('shows a thrown error as a form-level alert and keeps everything typed', async () => {
    const onSubmit = vi.fn<(answers: Answers) => Promise<void>>().mockRejectedValueOnce(new Error('The network is down')).mockResolvedValueOnce(undefined);
    const definition = form(page('only', 'One page', [{ id: 'note', type: 'long_text', title: 'Note', required: true }]));
    const { user } = renderForm(definition, { onSubmit });
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The network is down')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Your answers were not sent');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveProperty('value', 'Hello');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(screen.queryByText('The network is down')).toBeNull());
  });

  it('does not submit while the answers have problems on an earlier page', async () => {
    const { user, onSubmit } = renderForm(pets, { initialAnswers: { pet: 'cat' }, initialPageId: 'end' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(heading('About you')).toBeTruthy();
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Your name: Required' })).toBeTruthy();
  });
});

describe('resuming and read-only', () => {
  it('starts on the saved page, or the first visible page when that one is hidden now', () => {
    const resumed = renderForm(pets, { initialAnswers: { name: 'Ada', pet: 'dog', dog_name: 'Rex' }, initialPageId: 'dogs' });
    expect(heading('Walks')).toBeTruthy();
    resumed.unmount();
    renderForm(pets, { initialAnswers: { name: 'Ada', pet: 'cat' }, initialPageId: 'dogs' });
    expect(heading('About you')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveProperty('value', 'Ada');
  });

  it('shows answers read-only when disabled: browse with Next and Back, no Submit', async () => {
    const { user, onSubmit } = renderForm(pets, { disabled: true, initialAnswers: { name: 'Ada', pet: 'cat', comment: 'Bye' } });
    expect(screen.getByRole('textbox', { name: 'Your name' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('radio', { name: 'Cat' })).toHaveProperty('disabled', true);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('textbox', { name: 'Comment' })).toHaveProperty('value', 'Bye');
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('uses the heading level asked for and unique ids per renderer', () => {
    renderForm(pets, { headingLevel: 3, idPrefix: 'review' });
    expect(screen.getByRole('heading', { level: 3, name: 'About you' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Your name' }).id).toBe('review-name');
  });
});
