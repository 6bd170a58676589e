/**
 * The participant screens' `MediaStore` (the renderer's photos and videos) over the outbox: it
 * loads the outbox (Dexie, tus) when a photo or video field first shows, lists the form's rows,
 * copies picked files in (then the sender sends them) and removes them. Loaded only for a form
 * asking for photos or videos (`answers-form.tsx`).
 */
import type { FormMedia, MediaRow, MediaStore } from '../../../components/forms/types.ts';
import { useStoreUploads } from '../../../components/forms/store-uploads.ts';
import { thumbnailUrl } from '../../../shared/media.ts';
import { m } from '../../../shared/i18n.ts';
import { local } from '../../../platform/storage.ts';
import { loadOutbox } from './load.ts';
import { outboxOwner, readSummary } from './summary.ts';
import { localToken, type OutboxFile } from './types.ts';

const canPreview = (): boolean => typeof URL !== 'undefined' && typeof URL.createObjectURL === 'function';

export interface FormMediaStore extends MediaStore {
  /** The answers were submitted (straight, not queued): the form's files are done with, on this device too. */
  submitted(): void;
}

export function createMediaStore(formKey: string): FormMediaStore {
  let rows: Record<string, MediaRow[]> = {};
  /** Rows being copied in (not in IndexedDB yet). */
  let saving: MediaRow[] = [];
  /** Rows removed on screen whose deletion is under way. */
  const removed = new Set<string>();
  const listeners = new Set<() => void>();
  const previews = new Map<string, string>();
  let notes: string[] = [];
  let unsubscribe: (() => void) | null = null;
  let counter = 0;

  const publish = (files: OutboxFile[]) => {
    const next: Record<string, MediaRow[]> = {};
    for (const file of files) {
      if (removed.has(file.id)) continue;
      let src = previews.get(file.id) ?? null;
      if (!src && file.kind === 'photo' && canPreview()) {
        src = URL.createObjectURL(file.blob);
        previews.set(file.id, src);
      }
      (next[file.questionId] ??= []).push({
        id: file.id,
        elementId: file.questionId,
        kind: file.kind,
        name: file.name,
        state: file.state,
        progress: file.progress,
        mediaId: file.mediaId,
        reason: file.reason,
        retry: file.state === 'failed' && !file.final,
        src,
      });
    }
    for (const row of saving) (next[row.elementId] ??= []).push(row);
    rows = next;
    for (const listener of [...listeners]) listener();
  };

  const refresh = async () => {
    const runtime = await loadOutbox();
    publish(await runtime.outbox.files(formKey));
  };

  /** Follows the outbox; `always` after a capture (the summary may still say nothing waits). */
  const start = (always = false) => {
    if (unsubscribe || listeners.size === 0) return;
    // Nothing in the outbox at all: its runtime (Dexie, tus-js-client) loads with the first capture.
    if (!always && readSummary(local(), outboxOwner()).items.length === 0) return;
    let stopped = false;
    unsubscribe = () => {
      stopped = true;
    };
    void loadOutbox()
      .then((runtime) => {
        if (stopped) return;
        unsubscribe = runtime.outbox.subscribe(() => void refresh());
        return refresh();
      })
      .catch(() => undefined);
  };

  return {
    rows: () => rows,
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          unsubscribe?.();
          unsubscribe = null;
        }
      };
    },
    async add(elementId, kind, files) {
      const placeholders = files.map(({ file }): MediaRow => ({
        id: `saving-${++counter}`,
        elementId,
        kind,
        name: file.name,
        state: 'saving',
        progress: 0,
        mediaId: null,
        reason: null,
        retry: false,
        src: null,
      }));
      saving = [...saving, ...placeholders];
      rows = { ...rows, [elementId]: [...(rows[elementId] ?? []), ...placeholders] };
      for (const listener of [...listeners]) listener();
      let runtime;
      try {
        runtime = await loadOutbox();
      } catch {
        // Its code could not come (offline before this page ever loaded it, no service worker): nothing was kept.
        saving = saving.filter((row) => !placeholders.includes(row));
        rows = { ...rows, [elementId]: (rows[elementId] ?? []).filter((row) => !placeholders.includes(row)) };
        for (const listener of [...listeners]) listener();
        throw new Error(m.outbox_not_saved());
      }
      start(true);
      notes = await import('./storage-care.ts').then(
        (module) => module.careForStorage(),
        () => [],
      );
      let failure: string | null = null;
      for (const [index, { file, durationMs }] of files.entries()) {
        try {
          await runtime.outbox.saveFile({ file, name: file.name, questionId: elementId, formKey, kind, durationMs });
        } catch {
          failure = m.outbox_not_saved();
        } finally {
          const placeholder = placeholders[index];
          saving = saving.filter((row) => row !== placeholder);
        }
      }
      await refresh();
      runtime.kick();
      if (failure) throw new Error(failure);
    },
    retry(id) {
      void loadOutbox().then(async (runtime) => {
        await runtime.sender.retry(id);
        runtime.kick();
      });
    },
    remove(id) {
      removed.add(id);
      const src = previews.get(id);
      if (src) URL.revokeObjectURL(src);
      previews.delete(id);
      const next: Record<string, MediaRow[]> = {};
      for (const [elementId, list] of Object.entries(rows)) next[elementId] = list.filter((row) => row.id !== id);
      rows = next;
      for (const listener of [...listeners]) listener();
      void loadOutbox().then(async (runtime) => {
        await runtime.outbox.removeFile(id);
        removed.delete(id);
      });
    },
    submitted() {
      // A form whose photo or video fields never showed never opened the outbox.
      if (Object.keys(rows).length === 0) return;
      for (const url of previews.values()) URL.revokeObjectURL(url);
      previews.clear();
      void loadOutbox().then(async (runtime) => {
        for (const file of await runtime.outbox.files(formKey)) if (file.state === 'ready') await runtime.outbox.removeFile(file.id);
      });
    },
    token: localToken,
    thumbnailUrl,
    notes: () => notes,
  };
}

/** A form's photo and video parts on the participant's screens: the outbox's store and the hook that follows it. */
export function formMedia(formKey: string): FormMedia<FormMediaStore> {
  return { store: createMediaStore(formKey), useUploads: useStoreUploads };
}
