/**
 * The `MediaStore` of the staff's previews (the form builder's, a survey's): picked photos and
 * videos stay on the page, shown from local object URLs, and stand in the answers as `preview-1`,
 * `preview-2`, … so conditions and limits can be tried. Nothing is sent or kept. The participant's
 * screens use the outbox's store instead (`src/islands/participant/outbox/media-store.ts`).
 */
import { useEffect, useState } from 'react';
import { useStoreUploads } from './store-uploads.ts';
import type { FormMedia, MediaRow, MediaStore } from './types.ts';

/** The answer ids of a preview's files. */
export const PREVIEW_ID_PREFIX = 'preview-';

export function createPreviewStore(): MediaStore & { dispose(): void } {
  let rows: Record<string, MediaRow[]> = {};
  const listeners = new Set<() => void>();
  /** Answer id → local URL (a photo of answers kept by a remounted form still shows). */
  const urls = new Map<string, string>();
  let counter = 0;
  const publish = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    preview: true,
    rows: () => rows,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async add(elementId, kind, files) {
      const added = files.map(({ file }): MediaRow => {
        const id = `${PREVIEW_ID_PREFIX}${++counter}`;
        const src = kind === 'photo' && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
        if (src) urls.set(id, src);
        return { id, elementId, kind, name: file.name, state: 'ready', progress: 1, mediaId: id, reason: null, retry: false, src };
      });
      rows = { ...rows, [elementId]: [...(rows[elementId] ?? []), ...added] };
      publish();
    },
    retry: () => undefined,
    remove(id) {
      const src = urls.get(id);
      if (src) URL.revokeObjectURL(src);
      urls.delete(id);
      rows = Object.fromEntries(Object.entries(rows).map(([elementId, list]) => [elementId, list.filter((row) => row.id !== id)]));
      publish();
    },
    token: (id) => id,
    thumbnailUrl: (id) => urls.get(id) ?? '',
    notes: () => [],
    dispose() {
      for (const src of urls.values()) URL.revokeObjectURL(src);
      urls.clear();
    },
  };
}

/** A preview's media parts for the component's life (its forms remount with Restart; the files stay until it goes). */
export function usePreviewMedia(): FormMedia {
  const [media] = useState(() => ({ store: createPreviewStore(), useUploads: useStoreUploads }));
  useEffect(() => () => media.store.dispose(), [media]);
  return media;
}
