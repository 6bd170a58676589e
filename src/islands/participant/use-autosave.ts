/**
 * The participant screens' autosave: the app's engine (`src/lib/autosave-react.ts`) saving a
 * survey response or a mission entry with its revision, its conflicts resolved at once by
 * merging the answers per element (`autosave.ts` here): `onMerged` tells the screen, which puts
 * the merged answers in the form (and says so when an answer on screen changed).
 */
import type { AnswersConflict, AnswersSaved } from '../../shared/answers.ts';
import { useAutosave, type UseAutosave } from '../../lib/autosave-react.ts';
import { answersCodec, answersConflictOf, AUTOSAVE_DELAY_MS, resolveAnswersConflict, sameValue, samePayload, type AnswersPayload } from './autosave.ts';

export interface UseAnswersAutosaveOptions<T extends AnswersPayload> {
  /** Sends a payload based on `revision` (`keepalive`: the page is going away). */
  save(payload: T, how: { revision: number; keepalive: boolean }): Promise<AnswersSaved>;
  /** Where unsent answers are kept; read each time (a new entry's key changes once it exists). */
  storageKey(): string | null;
  /** What the server holds when the screen opens, and its revision (0 before the first save). */
  server: T;
  revision: number;
  /** Answers merged with another device's: the form must show `merged` (it showed `mine`). */
  onMerged(merged: T, mine: T): void;
  /** A save was refused for good. */
  onRejected?(error: unknown): void;
}

/** Autosaves one response or entry; see the module comment. */
export function useAnswersAutosave<T extends AnswersPayload>(options: UseAnswersAutosaveOptions<T>): UseAutosave<T, AnswersConflict> {
  return useAutosave<T, AnswersSaved, AnswersConflict>({
    save: options.save,
    base: options.server,
    revision: options.revision,
    same: samePayload,
    conflictOf: answersConflictOf,
    conflictRevision: (conflict) => conflict.revision,
    onConflict(conflict, local) {
      const resolution = resolveAnswersConflict(conflict, local);
      if (!sameValue(resolution.payload.answers, local.mine.answers)) options.onMerged(resolution.payload, local.mine);
      return resolution;
    },
    storageKey: options.storageKey,
    codec: answersCodec<T>(),
    ...(options.onRejected ? { onRejected: options.onRejected } : {}),
    delayMs: AUTOSAVE_DELAY_MS,
  });
}
