/**
 * The photo uploads of one renderer. They live above the pages, so an upload keeps going (and
 * lands in the answers) while the person moves to another page. The answer of a photo element is
 * the list of uploaded media ids; files still uploading or failed are not in it.
 *
 * Without a PhotoAdapter (the form builder's preview) files are shown from local object URLs and
 * stand in with ids `preview-1`, `preview-2`, … so conditions and limits can be tried.
 *
 * A failed upload is `failed` (Retry can succeed: the network, the server busy) or `refused` when
 * the adapter rejects with `UploadRefused` (not a photo, too large, unreadable): shown with its
 * reason and Remove only, without the local preview (a file the server refused may be no image).
 */
import { useEffect, useRef, useState } from 'react';
import type { AnswerValue } from '../../shared/forms/definition.ts';
import { own } from './form-utils.ts';
import type { PhotoAdapter, PhotoItem, PhotoUploads } from './types.ts';
import { m } from '../../shared/i18n.ts';

/** A PhotoAdapter's rejection of a file that can never be accepted as it is (its message says why): no Retry. */
export class UploadRefused extends Error {
  override name = 'UploadRefused';
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : m.participant_form_photo_failed();
}

function createObjectUrl(file: File): string | null {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

interface Store {
  items: Record<string, PhotoItem[]>;
  notices: Record<string, string | null>;
  announcements: Record<string, string>;
}

/**
 * The uploads store of a renderer. `answerOf` and `setAnswer` read and write the renderer's
 * answers; the latest ones are used even for uploads that finish later.
 */
export function usePhotoUploads(
  adapter: PhotoAdapter | undefined,
  answerOf: (elementId: string) => AnswerValue | undefined,
  setAnswer: (elementId: string, value: AnswerValue | undefined) => void,
): PhotoUploads {
  const store = useRef<Store>({ items: {}, notices: {}, announcements: {} });
  const controllers = useRef(new Map<string, AbortController>());
  const localUrls = useRef(new Set<string>());
  /** Preview ids (no adapter) → their local URL, so a remounted field still shows them. */
  const previews = useRef(new Map<string, string>());
  const counter = useRef(0);
  const alive = useRef(true);
  const latest = useRef({ adapter, answerOf, setAnswer });
  latest.current = { adapter, answerOf, setAnswer };
  const [, rerender] = useState(0);

  useEffect(() => {
    alive.current = true;
    const running = controllers.current;
    const urls = localUrls.current;
    return () => {
      alive.current = false;
      for (const controller of running.values()) controller.abort();
      running.clear();
      for (const url of urls) URL.revokeObjectURL(url);
      urls.clear();
    };
  }, []);

  const items = (elementId: string): PhotoItem[] => {
    const known = own(store.current.items, elementId);
    if (known) return known;
    const value = latest.current.answerOf(elementId);
    const ids = Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
    const { adapter: current } = latest.current;
    return ids.map((id) => ({
      key: `stored-${id}`,
      name: '',
      status: 'done',
      progress: 1,
      mediaId: id,
      src: previews.current.get(id) ?? (current ? current.thumbnailUrl(id) : null),
      error: null,
      file: null,
    }));
  };

  const update = (elementId: string, change: (items: PhotoItem[]) => PhotoItem[]) => {
    const next = change(items(elementId));
    store.current = { ...store.current, items: { ...store.current.items, [elementId]: next } };
    rerender((n) => n + 1);
    const ids = next.filter((item) => item.status === 'done' && item.mediaId !== null).map((item) => item.mediaId as string);
    const value = latest.current.answerOf(elementId);
    if (!sameList(ids, Array.isArray(value) ? value : [])) latest.current.setAnswer(elementId, ids.length > 0 ? ids : undefined);
  };

  const patch = (elementId: string, key: string, changes: Partial<PhotoItem>) =>
    update(elementId, (list) => list.map((item) => (item.key === key ? { ...item, ...changes } : item)));

  const say = (elementId: string, field: 'notices' | 'announcements', text: string | null) => {
    store.current = { ...store.current, [field]: { ...store.current[field], [elementId]: text } };
    rerender((n) => n + 1);
  };

  const forget = (src: string | null) => {
    if (src && localUrls.current.has(src)) {
      URL.revokeObjectURL(src);
      localUrls.current.delete(src);
    }
  };

  const start = (elementId: string, item: PhotoItem) => {
    const { adapter: current } = latest.current;
    if (!current || !item.file) return;
    const controller = new AbortController();
    controllers.current.set(item.key, controller);
    const live = () => alive.current && !controller.signal.aborted;
    current
      .upload(item.file, {
        signal: controller.signal,
        onProgress: (fraction) => {
          if (live()) patch(elementId, item.key, { progress: Math.min(1, Math.max(0, fraction)) });
        },
      })
      .then(
        (media) => {
          if (!live()) return;
          controllers.current.delete(item.key);
          const local = items(elementId).find((entry) => entry.key === item.key)?.src ?? null;
          patch(elementId, item.key, { status: 'done', progress: 1, mediaId: media.id, src: media.thumbnailUrl || local, file: null });
          if (media.thumbnailUrl) forget(local);
          say(elementId, 'announcements', m.participant_form_photo_uploaded_named({ name: item.name }));
        },
        (error: unknown) => {
          if (!live()) return;
          controllers.current.delete(item.key);
          const message = messageOf(error);
          if (error instanceof UploadRefused) {
            const local = items(elementId).find((entry) => entry.key === item.key)?.src ?? null;
            forget(local);
            patch(elementId, item.key, { status: 'refused', error: message, src: null, file: null });
            say(elementId, 'announcements', m.participant_form_photo_refused_named({ name: item.name, reason: message }));
            return;
          }
          patch(elementId, item.key, { status: 'failed', error: message });
          say(elementId, 'announcements', m.participant_form_photo_failed_named({ name: item.name, reason: message }));
        },
      );
  };

  return {
    items,
    notice: (elementId) => own(store.current.notices, elementId) ?? null,
    announcement: (elementId) => own(store.current.announcements, elementId) ?? '',
    pending: (elementId) => items(elementId).some((item) => item.status === 'uploading'),

    add(element, files) {
      const max = element.maxFiles;
      const taken = items(element.id).filter((item) => item.status !== 'failed' && item.status !== 'refused').length;
      const room = Math.max(0, max - taken);
      const prefix = element.type === 'video' ? 'video/' : 'image/';
      const images = files.filter((file) => file.type === '' || file.type.startsWith(prefix));
      const accepted = images.slice(0, room);
      let notice: string | null = null;
      if (images.length > room) {
        const refused = images.length - room;
        notice = `${m.participant_form_photos_at_most({ count: max })}: ${m.participant_form_photos_not_added({ count: refused })}`;
      } else if (images.length < files.length) {
        notice = m.participant_form_photos_only();
      }
      say(element.id, 'notices', notice);
      if (accepted.length === 0) return;
      const { adapter: current } = latest.current;
      const added = accepted.map((file): PhotoItem => {
        const n = ++counter.current;
        const src = createObjectUrl(file);
        if (src) localUrls.current.add(src);
        const mediaId = current ? null : `preview-${n}`;
        if (mediaId && src) previews.current.set(mediaId, src);
        return {
          key: `photo-${n}`,
          name: file.name,
          status: current ? 'uploading' : 'done',
          progress: current ? 0 : 1,
          mediaId,
          src,
          error: null,
          file: current ? file : null,
        };
      });
      update(element.id, (list) => [...list, ...added]);
      say(
        element.id,
        'announcements',
        current ? m.participant_form_photos_uploading({ count: added.length }) : m.participant_form_photos_added({ count: added.length }),
      );
      for (const item of added) start(element.id, item);
    },

    retry(elementId, key) {
      const item = items(elementId).find((entry) => entry.key === key);
      if (!item || item.status !== 'failed') return;
      patch(elementId, key, { status: 'uploading', progress: 0, error: null });
      say(elementId, 'announcements', m.participant_form_photo_uploading({ name: item.name }));
      start(elementId, { ...item, status: 'uploading' });
    },

    complete: (answers) => answers,
    notes: () => [],

    remove(elementId, key) {
      const item = items(elementId).find((entry) => entry.key === key);
      if (!item) return;
      controllers.current.get(key)?.abort();
      controllers.current.delete(key);
      if (item.mediaId) previews.current.delete(item.mediaId);
      forget(item.src);
      update(elementId, (list) => list.filter((entry) => entry.key !== key));
      say(elementId, 'notices', null);
      say(elementId, 'announcements', item.name ? m.participant_form_photo_removed_named({ name: item.name }) : m.participant_form_photo_removed());
    },
  };
}
