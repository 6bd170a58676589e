// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { Answers, FormElement } from '../../../src/shared/forms/definition.ts';
import type { PhotoAdapter } from '../../../src/components/forms/FormRenderer.tsx';
import { form, page, renderForm } from './setup.ts';

interface PendingUpload {
  file: File;
  signal: AbortSignal;
  progress(fraction: number): Promise<void>;
  succeed(id: string): Promise<void>;
  fail(message: string): Promise<void>;
}

/** An adapter whose uploads the test finishes by hand (inside act, as React wants). */
function fakeAdapter() {
  const uploads: PendingUpload[] = [];
  const adapter: PhotoAdapter = {
    upload: (file, { onProgress, signal }) =>
      new Promise((resolve, reject) => {
        uploads.push({
          file,
          signal,
          progress: (fraction) => act(async () => onProgress(fraction)),
          succeed: (id) => act(async () => resolve({ id, thumbnailUrl: `/media/${id}/thumb.jpg` })),
          fail: (message) => act(async () => reject(new Error(message))),
        });
      }),
    thumbnailUrl: (id) => `/media/${id}/thumb.jpg`,
  };
  return { adapter, uploads };
}

const photo = (name: string) => new File(['jpeg bytes'], name, { type: 'image/jpeg' });

const shelf: FormElement = { id: 'shelf', type: 'photo', title: 'Shelf photos', minFiles: 1, maxFiles: 2, required: true };

function renderPhotos(adapter: PhotoAdapter | undefined, initialAnswers?: Answers) {
  const onChange = vi.fn<(answers: Answers, pageId: string) => void>();
  const definition = form(page('p1', 'Photos', [shelf]), page('p2', 'Thanks', [{ id: 'note', type: 'short_text', title: 'Note' }]));
  const view = renderForm(definition, { onChange, ...(adapter ? { photos: adapter } : {}), ...(initialAnswers ? { initialAnswers } : {}) });
  const answers = (): Answers => onChange.mock.lastCall?.[0] ?? {};
  return { ...view, answers };
}

describe('photo uploads', () => {
  it('shows progress, keeps Next waiting until the upload is done, then answers with the media id', async () => {
    const { adapter, uploads } = fakeAdapter();
    const { user, answers } = renderPhotos(adapter);
    await user.upload(screen.getByLabelText('Choose from library'), photo('front.jpg'));
    expect(uploads.map((upload) => upload.file.name)).toEqual(['front.jpg']);
    await uploads[0]?.progress(0.4);
    expect(screen.getByRole('progressbar', { name: 'Uploading front.jpg' }).getAttribute('aria-valuenow')).toBe('40');
    expect(answers()).toEqual({});

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Photos' })).toBeTruthy();
    expect(within(screen.getByRole('alert')).getByRole('link', { name: 'Shelf photos: Wait for your photos to finish uploading' })).toBeTruthy();

    await uploads[0]?.succeed('m1');
    expect(answers()).toEqual({ shelf: ['m1'] });
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByText('Uploaded')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Shelf photos (required)' }).querySelector('img')?.getAttribute('src')).toBe('/media/m1/thumb.jpg');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Thanks' })).toBeTruthy();
  });

  it('shows the error of a failed upload with Retry, and Remove takes a photo out of the answer', async () => {
    const { adapter, uploads } = fakeAdapter();
    const { user, answers } = renderPhotos(adapter);
    await user.upload(screen.getByLabelText('Take a photo'), photo('side.jpg'));
    await uploads[0]?.fail('The file is too large');
    expect(screen.getByText('The file is too large')).toBeTruthy();
    expect(answers()).toEqual({});
    await user.click(screen.getByRole('button', { name: 'Retry side.jpg' }));
    expect(uploads).toHaveLength(2);
    await uploads[1]?.succeed('m2');
    expect(answers()).toEqual({ shelf: ['m2'] });
    await user.click(screen.getByRole('button', { name: 'Remove side.jpg' }));
    expect(answers()).toEqual({});
    expect(screen.queryByText('side.jpg')).toBeNull();
    // Focus is not lost: it goes to the first picker.
    expect(document.activeElement).toBe(screen.getByLabelText('Take a photo'));
  });

  it('aborts an upload that is removed while it runs', async () => {
    const { adapter, uploads } = fakeAdapter();
    const { user, answers } = renderPhotos(adapter);
    await user.upload(screen.getByLabelText('Choose from library'), photo('a.jpg'));
    await user.click(screen.getByRole('button', { name: 'Remove a.jpg' }));
    expect(uploads[0]?.signal.aborted).toBe(true);
    await uploads[0]?.succeed('late');
    expect(answers()).toEqual({});
    expect(screen.queryByText('a.jpg')).toBeNull();
  });

  it('refuses photos beyond maxFiles with a message', async () => {
    const { adapter, uploads } = fakeAdapter();
    const { user } = renderPhotos(adapter);
    await user.upload(screen.getByLabelText('Choose from library'), [photo('1.jpg'), photo('2.jpg'), photo('3.jpg')]);
    expect(uploads.map((upload) => upload.file.name)).toEqual(['1.jpg', '2.jpg']);
    expect(screen.getByText('You can add 2 photos at most: 1 photo not added.')).toBeTruthy();
    await user.upload(screen.getByLabelText('Choose from library'), photo('4.jpg'));
    expect(uploads).toHaveLength(2);
    expect(screen.getByText('You can add 2 photos at most: 1 photo not added.')).toBeTruthy();
  });

  it('shows stored photos of saved answers with the adapter’s thumbnails', () => {
    const { adapter } = fakeAdapter();
    renderPhotos(adapter, { shelf: ['m7'] });
    expect(screen.getByText('Photo 1', { selector: 'p' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Remove Photo 1' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Shelf photos (required)' }).querySelector('img')?.getAttribute('src')).toBe('/media/m7/thumb.jpg');
  });

  it('keeps photos locally with preview ids when there is no adapter (the builder’s preview)', async () => {
    const { user, answers } = renderPhotos(undefined);
    await user.upload(screen.getByLabelText('Choose from library'), [photo('x.jpg'), photo('y.jpg')]);
    expect(answers()).toEqual({ shelf: ['preview-1', 'preview-2'] });
    expect(screen.getAllByText('Added (preview)')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { name: 'Thanks' })).toBeTruthy();
  });
});
