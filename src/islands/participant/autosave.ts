/**
 * What the participant screens add to the app's autosave engine (`src/lib/autosave.ts`) for a
 * survey response or a mission entry: the payload (the answers, and for surveys the page
 * reached), how it is kept on the device (per user, per survey or entry, with the `base` the
 * changes started from), the three-way merge of answers per element, the 409 `conflict` of the
 * API (`docs/api.md`, "Taking part") and the words the screens show.
 */
import type { Answers, AnswerValue, FormDefinition } from '../../shared/forms/definition.ts';
import type { AnswersConflict } from '../../shared/answers.ts';
import type { Language } from '../../shared/languages.ts';
import { ApiError } from '../../platform/api.ts';
import { clearKept, readKept, sameValue, type Kept, type KeptCodec, type Resolution, type SaveStatus } from '../../lib/autosave.ts';
import type { StorageLike } from '../../platform/storage.ts';
import { m } from '../../shared/i18n.ts';

export { sameValue, type SaveStatus };

/** Wait after the last change before sending. */
export const AUTOSAVE_DELAY_MS = 1_000;

/** What the save-state line says (in the page's language: called when shown). */
const SAVE_STATUS_TEXT: Readonly<Record<SaveStatus, () => string>> = {
  saved: m.participant_save_saved,
  saving: m.participant_save_saving,
  offline: m.participant_save_offline,
  retrying: m.participant_save_retrying,
  // Never shown: the participant screens resolve conflicts at once (merged, sent again).
  conflict: m.participant_save_saving,
  error: m.participant_save_error,
};

/** What the save-state line says of a status. */
export function saveStatusText(status: SaveStatus): string {
  return SAVE_STATUS_TEXT[status]();
}

/** What a submit says when it cannot reach the server. */
export const offlineSubmitMessage = (): string => m.participant_submit_offline();

/** The note beside the save line when answers on screen changed through a merge. */
export const mergedNote = (): string => m.participant_save_merged_note();

/** What a submit says when the answers changed on another device meanwhile: nothing was submitted. */
export const checkAndSubmitAgain = (): string => m.participant_submit_check_again();

/** What is saved: the answers, for surveys the page reached, and the content language the questions are shown in. */
export interface AnswersPayload {
  answers: Answers;
  pageId?: string | null;
  language?: Language;
}

/** The localStorage key of unsent answers: per user, per survey or entry (`new-entry`: a one-entry mission's entry not made yet). */
export function localDraftKey(owner: string | number, what: 'survey' | 'entry' | 'new-entry', id: number): string {
  return `fieldwork-answers-${owner}-${what}-${id}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * How answers are kept on the device: `{ payload, base, revision, savedAt }`, `base` being the
 * server's answers when the changes began (copies written before revisions existed read as
 * revision 0).
 */
export function answersCodec<T extends AnswersPayload>(): KeptCodec<T> {
  return {
    encode: (kept) => ({ payload: kept.payload, base: kept.base?.answers ?? {}, revision: kept.revision, savedAt: kept.savedAt }),
    decode(value) {
      if (!isRecord(value) || !isRecord(value.payload) || !isRecord(value.payload.answers)) return null;
      const payload = value.payload as unknown as T;
      const base = { ...payload, answers: isRecord(value.base) ? (value.base as Answers) : {} };
      return {
        payload,
        base,
        revision: typeof value.revision === 'number' ? value.revision : 0,
        savedAt: typeof value.savedAt === 'string' ? value.savedAt : new Date(0).toISOString(),
      };
    },
  };
}

/** Reads the unsent answers kept under a key; null when none (or unreadable). */
export function readLocalDraft<T extends AnswersPayload>(storage: StorageLike | null, key: string): Kept<T> | null {
  return readKept(storage, key, answersCodec<T>());
}

export function clearLocalDraft(storage: StorageLike | null, key: string): void {
  clearKept(storage, key);
}

/**
 * Three-way merge of answers, per element: the answers this device changed since `base` (what
 * the server held when it began) win; every other element keeps the server's answer, so changes
 * made meanwhile on another device are kept too.
 */
export function mergeAnswers(base: Answers, mine: Answers, server: Answers): Answers {
  const result: Record<string, AnswerValue> = { ...server };
  const keys = new Set([...Object.keys(base), ...Object.keys(mine)]);
  for (const key of keys) {
    const mineValue = Object.hasOwn(mine, key) ? mine[key] : undefined;
    const baseValue = Object.hasOwn(base, key) ? base[key] : undefined;
    if (sameValue(mineValue, baseValue)) continue;
    if (mineValue === undefined) delete result[key];
    else result[key] = mineValue;
  }
  return result;
}

/** Two payloads with the same answers, page and language. */
export function samePayload(a: AnswersPayload, b: AnswersPayload): boolean {
  return (a.pageId ?? null) === (b.pageId ?? null) && (a.language ?? null) === (b.language ?? null) && sameValue(a.answers, b.answers);
}

/** The element ids whose answer differs between two sets of answers. */
export function changedElements(a: Answers, b: Answers): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !sameValue(Object.hasOwn(a, key) ? a[key] : undefined, Object.hasOwn(b, key) ? b[key] : undefined));
}

/** Whether an answer of the page `pageId` (the first page when null) differs between two sets of answers. */
export function changedOnPage(definition: FormDefinition, pageId: string | null, before: Answers, after: Answers): boolean {
  const page = definition.pages.find((each) => each.id === pageId) ?? definition.pages[0];
  if (!page) return false;
  const changed = new Set(changedElements(before, after));
  return page.elements.some((element) => changed.has(element.id));
}

/** The `current` of the API's 409 `conflict`, or null for any other failure. */
export function answersConflictOf(error: unknown): AnswersConflict | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'conflict') return null;
  const current = error.details.current;
  if (!isRecord(current) || !isRecord(current.answers) || typeof current.revision !== 'number') return null;
  const conflict: AnswersConflict = { answers: current.answers as Answers, revision: current.revision };
  if (typeof current.pageId === 'string' || current.pageId === null) conflict.pageId = current.pageId;
  return conflict;
}

/**
 * A conflict resolved for the participant: the server's answers become the base, the answers this
 * device changed since its base are kept over them (the page stays this device's), and the
 * merged payload is what is sent next.
 */
export function resolveAnswersConflict<T extends AnswersPayload>(conflict: AnswersConflict, local: { mine: T; base: T }): Resolution<T> {
  const server: T = { ...local.mine, answers: conflict.answers };
  if ('pageId' in local.mine) server.pageId = conflict.pageId ?? null;
  const payload: T = { ...local.mine, answers: mergeAnswers(local.base.answers, local.mine.answers, conflict.answers) };
  return { base: server, revision: conflict.revision, payload };
}

/**
 * Where a screen starts: the server's payload, with the answers kept on this device from an
 * earlier visit merged in (their changes win, element by element). `restored`: something differs
 * from the server's and must be sent; `seen`: the answers the person last saw here, if any.
 */
export function resumeFrom<T extends AnswersPayload>(kept: Kept<T> | null, server: T): { payload: T; restored: boolean; seen: Answers | null } {
  if (!kept) return { payload: server, restored: false, seen: null };
  const payload: T = { ...server, answers: mergeAnswers(kept.base?.answers ?? {}, kept.payload.answers, server.answers) };
  if ('pageId' in server) payload.pageId = kept.payload.pageId ?? server.pageId ?? null;
  return { payload, restored: !samePayload(payload, server), seen: kept.payload.answers };
}
