// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import type { Answers, FormElement } from '../../../src/shared/forms/definition.ts';
import type { MediaRow, MediaStore } from '../../../src/components/forms/types.ts';
import { videoProbe, clock, recordingType, withinLimit } from '../../../src/components/forms/VideoControl.tsx';
import { answerIds } from '../../../src/components/forms/store-uploads.ts';
import { form, mediaOf, page, renderForm } from './setup.ts';

/** A MediaStore the test drives: rows change when the test says. */
function fakeStore() {
  let rows: Record<string, MediaRow[]> = {};
  const listeners = new Set<() => void>();
  const added: { elementId: string; kind: string; files: { file: File; durationMs: number | null }[] }[] = [];
  const retried: string[] = [];
  const removed: string[] = [];
  let n = 0;
  const publish = () => act(async () => listeners.forEach((listener) => listener()));
  const store: MediaStore = {
    rows: () => rows,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async add(elementId, kind, files) {
      added.push({ elementId, kind, files });
      const fresh = files.map(({ file }): MediaRow => ({
        id: `row-${++n}`,
        elementId,
        kind,
        name: file.name,
        state: 'saved',
        progress: 0,
        mediaId: null,
        reason: null,
        retry: false,
        src: null,
      }));
      rows = { ...rows, [elementId]: [...(rows[elementId] ?? []), ...fresh] };
      listeners.forEach((listener) => listener());
    },
    retry: (id) => void retried.push(id),
    remove(id) {
      removed.push(id);
      rows = Object.fromEntries(Object.entries(rows).map(([key, list]) => [key, list.filter((row) => row.id !== id)]));
      listeners.forEach((listener) => listener());
    },
    token: (id) => `local-${id}`,
    thumbnailUrl: (id) => `/thumb/${id}`,
    notes: () => [],
  };
  const change = (id: string, changes: Partial<MediaRow>) => {
    rows = Object.fromEntries(Object.entries(rows).map(([key, list]) => [key, list.map((row) => (row.id === id ? { ...row, ...changes } : row))]));
    return publish();
  };
  return { store, added, retried, removed, change };
}

const shelf: FormElement = { id: 'shelf', type: 'photo', title: 'Shelf photos', minFiles: 1, maxFiles: 2, required: true };
const clip: FormElement = { id: 'clip', type: 'video', title: 'Show the aisle', maxFiles: 1, maxSeconds: 60, required: true };
const photo = (name: string) => new File(['jpeg bytes'], name, { type: 'image/jpeg' });
const video = (name: string) => new File(['mp4 bytes'], name, { type: 'video/mp4' });

function renderWith(element: FormElement, store: MediaStore, initialAnswers?: Answers) {
  const onChange = vi.fn<(answers: Answers, pageId: string) => void>();
  const view = renderForm(form(page('p1', 'Capture', [element])), { onChange, media: mediaOf(store), ...(initialAnswers ? { initialAnswers } : {}) });
  return { ...view, answers: (): Answers => onChange.mock.lastCall?.[0] ?? {} };
}

afterEach(() => {
  videoProbe.durationMs = async () => null;
});

describe('photos through the outbox', () => {
  it('says where each photo stands, answers with the media id once known, and submits local stand-ins before that', async () => {
    const { store, added, change } = fakeStore();
    const { user, answers, onSubmit } = renderWith(shelf, store);
    await user.upload(await screen.findByLabelText('Choose from library'), photo('front.jpg'));
    expect(added).toEqual([{ elementId: 'shelf', kind: 'photo', files: [{ file: expect.any(File), durationMs: null }] }]);
    const row = screen.getByText('front.jpg', { selector: 'p' }).closest('li') as HTMLElement;
    expect(within(row).getByText('Saved on this phone')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('front.jpg: Saved on this phone');

    // Offline submit: the photo has no media id yet; its stand-in goes with the answers.
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ shelf: ['local-row-1'] });

    await change('row-1', { state: 'uploading', progress: 0.5, mediaId: 'm-1' });
    expect(within(row).getByText('Uploading 50 %')).toBeTruthy();
    expect(within(row).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(answers()).toEqual({ shelf: ['m-1'] });

    await change('row-1', { state: 'ready', progress: 1 });
    expect(within(row).getByText('Uploaded and ready')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenLastCalledWith({ shelf: ['m-1'] });
  });

  it('a failed photo shows why and Try again when it can help; Remove takes it out of the answer', async () => {
    const { store, retried, removed, change } = fakeStore();
    const { user, answers } = renderWith(shelf, store, { shelf: ['stored-1'] });
    await user.upload(await screen.findByLabelText('Choose from library'), photo('side.jpg'));
    await change('row-1', { state: 'failed', mediaId: 'm-2', reason: 'The server refused this file.', retry: true });
    const row = screen.getByText('side.jpg', { selector: 'p' }).closest('li') as HTMLElement;
    expect(within(row).getByText('The server refused this file.')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Try again side.jpg' }));
    expect(retried).toEqual(['row-1']);
    expect(answers()).toEqual({});
    await change('row-1', { state: 'ready', retry: false });
    expect(answers()).toEqual({ shelf: ['stored-1', 'm-2'] });
    await user.click(within(row).getByRole('button', { name: 'Remove side.jpg' }));
    expect(removed).toEqual(['row-1']);
    expect(answers()).toEqual({ shelf: ['stored-1'] });
  });

  it('keeps stored ids first and drops failed rows from the answer', () => {
    const row = (mediaId: string, state: MediaRow['state']): MediaRow => ({
      id: mediaId,
      elementId: 'e',
      kind: 'photo',
      name: '',
      state,
      progress: 0,
      mediaId,
      reason: null,
      retry: false,
      src: null,
    });
    expect(answerIds(['a'], [row('b', 'uploading'), row('c', 'failed')])).toEqual(['a', 'b']);
  });
});

describe('videos', () => {
  it('offers the camera app, the library and (where it can) recording here; a video too long is refused and nothing is queued', async () => {
    const { store, added } = fakeStore();
    const { user } = renderWith(clip, store);
    const camera = (await screen.findByLabelText('Record with the camera')) as HTMLInputElement;
    expect(camera.getAttribute('accept')).toBe('video/*');
    expect(camera.getAttribute('capture')).toBe('environment');
    const library = screen.getByLabelText('Choose from the library') as HTMLInputElement;
    expect(library.hasAttribute('capture')).toBe(false);

    videoProbe.durationMs = async () => 75_000;
    await user.upload(library, video('long.mp4'));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'This video is longer than 1:00');
    expect(added).toEqual([]);

    videoProbe.durationMs = async () => 42_000;
    await user.upload(library, video('aisle.mp4'));
    await vi.waitFor(() => expect(added).toEqual([{ elementId: 'clip', kind: 'video', files: [{ file: expect.any(File), durationMs: 42_000 }] }]));
    expect(await screen.findByText('aisle.mp4', { selector: 'p' })).toBeTruthy();
    expect(screen.getByText('1 of 1 videos')).toBeTruthy();
  });

  it('records MP4 where the browser can, else WebM; the timer reads m:ss; the leeway is a second', () => {
    expect(recordingType((type) => type === 'video/mp4')).toBe('video/mp4');
    expect(recordingType((type) => type === 'video/webm')).toBe('video/webm');
    expect(clock(65)).toBe('1:05');
    expect(withinLimit(60_900, 60)).toBe(true);
    expect(withinLimit(61_100, 60)).toBe(false);
  });
});
