// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { Answers, FormElement } from '../../../src/shared/forms/definition.ts';
import { form, page, renderForm } from './setup.ts';

/** The photo fields with a staff preview's store (`renderForm`'s; the outbox's are in outbox-media.test.ts). */
const photo = (name: string) => new File(['jpeg bytes'], name, { type: 'image/jpeg' });

const shelf: FormElement = { id: 'shelf', type: 'photo', title: 'Shelf photos', minFiles: 1, maxFiles: 2, required: true };

function renderPhotos(initialAnswers?: Answers) {
  const onChange = vi.fn<(answers: Answers, pageId: string) => void>();
  const definition = form(page('p1', 'Photos', [shelf]), page('p2', 'Thanks', [{ id: 'note', type: 'short_text', title: 'Note' }]));
  const view = renderForm(definition, { onChange, ...(initialAnswers ? { initialAnswers } : {}) });
  const answers = (): Answers => onChange.mock.lastCall?.[0] ?? {};
  return { ...view, answers };
}

describe('photos in a preview', () => {
  it('keeps photos on the page with preview ids, so conditions and limits can be tried', async () => {
    const { user, answers } = renderPhotos();
    await user.upload(await screen.findByLabelText('Choose from library'), [photo('x.jpg'), photo('y.jpg')]);
    expect(answers()).toEqual({ shelf: ['preview-1', 'preview-2'] });
    expect(screen.getAllByText('Added (preview)')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove x.jpg' }));
    expect(answers()).toEqual({ shelf: ['preview-2'] });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Thanks' })).toBeTruthy();
  });

  it('refuses photos beyond maxFiles with a message', async () => {
    const { user, answers } = renderPhotos();
    await user.upload(await screen.findByLabelText('Choose from library'), [photo('1.jpg'), photo('2.jpg'), photo('3.jpg')]);
    expect(answers()).toEqual({ shelf: ['preview-1', 'preview-2'] });
    expect(screen.getByText('You can add 2 photos at most: 1 photo not added.')).toBeTruthy();
    await user.upload(screen.getByLabelText('Choose from library'), photo('4.jpg'));
    expect(answers()).toEqual({ shelf: ['preview-1', 'preview-2'] });
  });

  it('shows the photos of saved answers, each with Remove', async () => {
    renderPhotos({ shelf: ['m7'] });
    expect(await screen.findByText('Photo 1', { selector: 'p' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Photo 1' })).toBeTruthy();
  });
});
