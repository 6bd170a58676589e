/**
 * The React side of the participant autosave (autosave.ts): one autosaver per response or entry,
 * its state for the save line, and the moments it sends at once: the browser coming back
 * online, the page being hidden or left (`keepalive`), the screen unmounting.
 */
import { useEffect, useRef, useState } from 'react';
import type { Answers } from '../../shared/forms/definition.ts';
import { local } from '../../lib/storage.ts';
import { createAutosaver, type AnswersPayload, type Autosaver, type SaveStatus } from './autosave.ts';

export interface UseAutosaveOptions<T extends AnswersPayload> {
  save(payload: T, options: { keepalive: boolean }): Promise<void>;
  storageKey(): string | null;
  /** The answers the server holds when the screen opens. */
  serverAnswers: Answers;
  onRejected?(error: unknown): void;
}

export interface UseAutosave<T extends AnswersPayload> {
  status: SaveStatus;
  /** The failure behind `offline`, `retrying` or `error`. */
  error: unknown;
  autosaver: Autosaver<T>;
}

/** Autosaves one response or entry; see the module comment. */
export function useAutosave<T extends AnswersPayload>(options: UseAutosaveOptions<T>): UseAutosave<T> {
  const [state, setState] = useState<{ status: SaveStatus; error: unknown }>({ status: 'saved', error: null });
  const latest = useRef(options);
  latest.current = options;
  const ref = useRef<Autosaver<T> | null>(null);
  ref.current ??= createAutosaver<T>({
    save: (payload, how) => latest.current.save(payload, how),
    storageKey: () => latest.current.storageKey(),
    storage: local(),
    serverAnswers: options.serverAnswers,
    onStatus: (status, error) => setState({ status, error }),
    onRejected: (error) => latest.current.onRejected?.(error),
  });
  const autosaver = ref.current;

  useEffect(() => {
    const flushNow = () => void autosaver.flush();
    const flushLeaving = () => {
      if (autosaver.pending()) void autosaver.flush({ keepalive: true });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flushLeaving();
    };
    window.addEventListener('online', flushNow);
    window.addEventListener('pagehide', flushLeaving);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', flushNow);
      window.removeEventListener('pagehide', flushLeaving);
      document.removeEventListener('visibilitychange', onVisibility);
      // Leaving the screen inside the app (client-side navigation): send what is unsent.
      flushLeaving();
      autosaver.dispose();
    };
  }, [autosaver]);

  return { status: state.status, error: state.error, autosaver };
}
