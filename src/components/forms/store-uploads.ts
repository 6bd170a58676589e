/**
 * The photo and video fields of a renderer, whose files go through its `MediaStore` (the
 * participant's local outbox, or a staff preview's page): each file's row shows its state (saved
 * on this phone → uploading n% → uploaded → ready | failed; in a preview, added), and the
 * element's answer holds the media ids known so far —
 * photos stored before this visit (in the answer, not in the store) first, then the store's rows
 * that have one. A row still without a media id is in no answer: `complete` adds its stand-in
 * for the checks and a queued submit.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Answers, AnswerValue } from '../../shared/forms/definition.ts';
import { own } from './form-utils.ts';
import type { MediaRow, MediaStore, PhotoItem, PhotoUploads } from './types.ts';
import { m } from '../../shared/i18n.ts';
import { translateValidation } from '../../shared/validation-words.ts';

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

const idsOf = (value: AnswerValue | undefined): string[] => (Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []);

/** Why a row failed (or waits), in the page's language: the server's reasons are English (validation-words.ts). */
export const reasonText = (reason: string | null): string | null => (reason === null ? null : translateValidation(reason));

/** What a row's state says (for its line and the live region). */
export function stateText(row: Pick<MediaRow, 'state' | 'progress' | 'reason'>): string {
  switch (row.state) {
    case 'saving':
      return m.outbox_state_saving();
    case 'saved':
      return reasonText(row.reason) ?? m.outbox_state_saved();
    case 'uploading':
      return m.outbox_state_uploading({ percent: String(Math.round(row.progress * 100)) });
    case 'uploaded':
      return m.outbox_state_uploaded();
    case 'ready':
      return m.outbox_state_ready();
    case 'failed':
      return reasonText(row.reason) ?? m.outbox_state_failed();
  }
}

/** The answer of an element: the stored ids that are no row's, then the rows' media ids (failed rows left out). */
export function answerIds(current: readonly string[], rows: readonly MediaRow[]): string[] {
  const rowIds = new Set(rows.map((row) => row.mediaId).filter(Boolean));
  const stored = current.filter((id) => !rowIds.has(id));
  const fromRows = rows.filter((row) => row.mediaId && row.state !== 'failed').map((row) => row.mediaId as string);
  return [...stored, ...fromRows.filter((id) => !stored.includes(id))];
}

export function useStoreUploads(
  store: MediaStore,
  answerOf: (elementId: string) => AnswerValue | undefined,
  setAnswer: (elementId: string, value: AnswerValue | undefined) => void,
): PhotoUploads {
  const rows = useSyncExternalStore(store.subscribe, store.rows, store.rows);
  const [notices, setNotices] = useState<Record<string, string | null>>({});
  const [announcements, setAnnouncements] = useState<Record<string, string>>({});
  const latest = useRef({ answerOf, setAnswer });
  latest.current = { answerOf, setAnswer };
  const lastStates = useRef(new Map<string, string>());

  // The answers follow the rows: a media id known (the upload exists) joins the answer.
  useEffect(() => {
    for (const [elementId, list] of Object.entries(rows)) {
      const current = idsOf(latest.current.answerOf(elementId));
      const next = answerIds(current, list);
      if (!sameList(current, next)) latest.current.setAnswer(elementId, next.length > 0 ? next : undefined);
      // Each change of a row's state is said once in the element's live region (not every percent).
      for (const row of list) {
        const said = `${row.state}:${row.reason ?? ''}`;
        if (lastStates.current.get(row.id) === said) continue;
        lastStates.current.set(row.id, said);
        const state = store.preview ? m.participant_form_photo_added_preview() : stateText(row);
        if (row.state !== 'uploading') setAnnouncements((all) => ({ ...all, [elementId]: m.outbox_named_state({ name: row.name, state }) }));
      }
    }
  }, [rows, store]);

  const items = (elementId: string): PhotoItem[] => {
    const list = own(rows, elementId) ?? [];
    const rowIds = new Set(list.map((row) => row.mediaId).filter(Boolean));
    const stored = idsOf(answerOf(elementId))
      .filter((id) => !rowIds.has(id))
      .map((id): PhotoItem => ({
        key: `stored-${id}`,
        name: '',
        status: 'done',
        progress: 1,
        mediaId: id,
        src: store.thumbnailUrl(id) || null,
        error: null,
        retry: false,
      }));
    return [
      ...stored,
      ...list.map((row): PhotoItem => ({
        key: row.id,
        name: row.name,
        status: store.preview ? 'done' : row.state,
        progress: row.progress,
        mediaId: row.mediaId,
        src: row.src ?? (row.kind === 'photo' && row.mediaId && row.state === 'ready' ? store.thumbnailUrl(row.mediaId) : null),
        error: row.state === 'failed' || row.state === 'saved' ? reasonText(row.reason) : null,
        retry: row.retry,
      })),
    ];
  };

  const say = (elementId: string, text: string | null) => setNotices((all) => ({ ...all, [elementId]: text }));

  return {
    items,
    notice: (elementId) => own(notices, elementId) ?? null,
    announcement: (elementId) => own(announcements, elementId) ?? '',
    pending: (elementId) => (own(rows, elementId) ?? []).some((row) => row.state === 'saving'),
    add(element, files, durationsMs) {
      const kind = element.type === 'video' ? 'video' : 'photo';
      const max = element.maxFiles;
      const taken = items(element.id).filter((item) => item.status !== 'failed').length;
      const room = Math.max(0, max - taken);
      const wanted = files
        .map((file, index) => ({ file, durationMs: durationsMs?.[index] ?? null }))
        .filter(({ file }) => file.type === '' || file.type.startsWith(kind === 'video' ? 'video/' : 'image/'));
      const accepted = wanted.slice(0, room);
      let notice: string | null = null;
      if (wanted.length > room) {
        const refused = wanted.length - room;
        notice =
          kind === 'video'
            ? m.outbox_video_at_most({ max: String(max), refused: String(refused) })
            : `${m.participant_form_photos_at_most({ count: max })}: ${m.participant_form_photos_not_added({ count: refused })}`;
      } else if (wanted.length < files.length) {
        notice = kind === 'video' ? m.outbox_video_only() : m.participant_form_photos_only();
      }
      say(element.id, notice);
      if (accepted.length === 0) return;
      store.add(element.id, kind, accepted).catch((error: unknown) => say(element.id, error instanceof Error ? error.message : m.outbox_not_saved()));
    },
    retry(_elementId, key) {
      store.retry(key);
    },
    remove(elementId, key) {
      const row = (own(rows, elementId) ?? []).find((each) => each.id === key);
      const current = idsOf(latest.current.answerOf(elementId));
      const mediaId = row ? row.mediaId : key.startsWith('stored-') ? key.slice('stored-'.length) : null;
      if (mediaId && current.includes(mediaId)) {
        const next = current.filter((id) => id !== mediaId);
        latest.current.setAnswer(elementId, next.length > 0 ? next : undefined);
      }
      if (row) store.remove(row.id);
      say(elementId, null);
      setAnnouncements((all) => ({
        ...all,
        [elementId]: row?.name ? m.participant_form_photo_removed_named({ name: row.name }) : m.participant_form_photo_removed(),
      }));
    },
    complete(answers: Answers): Answers {
      const result: Answers = { ...answers };
      for (const [elementId, list] of Object.entries(rows)) {
        const local = list.filter((row) => !row.mediaId && row.state !== 'failed' && row.state !== 'saving').map((row) => store.token(row.id));
        if (local.length === 0) continue;
        (result as Record<string, AnswerValue>)[elementId] = [...idsOf(own(answers, elementId)), ...local];
      }
      return result;
    },
    notes: () => store.notes(),
  };
}
