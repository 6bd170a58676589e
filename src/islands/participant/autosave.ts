/**
 * Autosave of a participant's answers (a survey response or a mission entry), without React:
 * every change is written to localStorage at once (so nothing typed is lost when the network
 * drops or the tab closes) and sent ~1 s after the last change; `flush()` sends at once (a page
 * change, the page being hidden). What the server has acknowledged is removed from the device.
 *
 * States: `saved` (the server has everything), `saving` (changes on their way), `offline` (the
 * network failed: kept on this device, sent again when the browser is back online and on a slow
 * back-off), `retrying` (the server failed: sent again with back-off), `error` (refused for good:
 * closed, already submitted, not found; `onRejected` tells the screen, which reloads).
 */
import type { Answers, AnswerValue } from '../../shared/forms/definition.ts';
import { ApiError } from '../../lib/api.ts';
import { readItem, removeItem, writeItem, type StorageLike } from '../../lib/storage.ts';

/** Wait after the last change before sending. */
export const AUTOSAVE_DELAY_MS = 1_000;
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

export type SaveStatus = 'saved' | 'saving' | 'offline' | 'retrying' | 'error';

/** What the save-state line says. */
export const SAVE_STATUS_TEXT: Readonly<Record<SaveStatus, string>> = {
  saved: 'Saved',
  saving: 'Saving…',
  offline: 'Offline — your answers are kept on this device and sent when you are back online',
  retrying: 'Not saved yet — trying again. Your answers are kept on this device.',
  error: 'Not saved',
};

/** What a submit says when it cannot reach the server. */
export const OFFLINE_SUBMIT_MESSAGE = 'You seem to be offline. Your answers are kept on this device: submit again when you are back online.';

/** What is saved: the answers, and for surveys the page reached. */
export interface AnswersPayload {
  answers: Answers;
  pageId?: string | null;
}

/** A payload kept on the device until the server has it. */
export interface LocalDraft<T extends AnswersPayload = AnswersPayload> {
  payload: T;
  /** The answers the server held when these changes began (for merging with changes made elsewhere). */
  base: Answers;
  /** When it was written (ISO). */
  savedAt: string;
}

/** The localStorage key of unsent answers: per user, per survey or entry. */
export function localDraftKey(owner: string | number, what: 'survey' | 'entry' | 'new-entry', id: number): string {
  return `fieldwork-answers-${owner}-${what}-${id}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the unsent answers kept under a key; null when none (or unreadable). */
export function readLocalDraft<T extends AnswersPayload>(storage: StorageLike | null, key: string): LocalDraft<T> | null {
  const text = readItem(storage, key);
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || !isRecord(value.payload) || !isRecord(value.payload.answers)) return null;
    return {
      payload: value.payload as unknown as T,
      base: isRecord(value.base) ? (value.base as Answers) : {},
      savedAt: typeof value.savedAt === 'string' ? value.savedAt : new Date(0).toISOString(),
    };
  } catch {
    return null;
  }
}

export function writeLocalDraft<T extends AnswersPayload>(storage: StorageLike | null, key: string, draft: LocalDraft<T>): void {
  writeItem(storage, key, JSON.stringify(draft));
}

export function clearLocalDraft(storage: StorageLike | null, key: string): void {
  removeItem(storage, key);
}

/** Deep equality of JSON values (object keys in any order: the database may reorder them). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
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

/** True for failures worth sending again: no answer, a timeout, too many requests, the server failing. */
export function isRetriable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return !(error instanceof DOMException && error.name === 'AbortError');
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export interface AutosaverOptions<T extends AnswersPayload> {
  /** Sends a payload (`keepalive`: the page is going away; the request must outlive it). */
  save(payload: T, options: { keepalive: boolean }): Promise<void>;
  /** Where unsent payloads are kept; read each time (a new entry's key changes once it has an id). Null: not kept. */
  storageKey(): string | null;
  storage: StorageLike | null;
  /** The answers the server holds now (the base of the first local draft). */
  serverAnswers: Answers;
  /** Every change of state. */
  onStatus(status: SaveStatus, error: unknown): void;
  /** A save was refused for good (4xx other than 408/429): nothing more is sent. */
  onRejected?(error: unknown): void;
  /** Whether the browser believes it is online (default: navigator.onLine). */
  isOnline?(): boolean;
  delayMs?: number;
}

export interface Autosaver<T extends AnswersPayload> {
  /** A change: kept on the device now, sent after the delay. */
  change(payload: T): void;
  /** Sends what is unsent now; resolves true when the server has everything. */
  flush(options?: { keepalive?: boolean }): Promise<boolean>;
  /** Something unsent (or being sent)? */
  pending(): boolean;
  status(): SaveStatus;
  /** Forgets what is unsent, on the device too (the answers were submitted). */
  discard(): void;
  /** Stops: timers cleared, no more sends or status changes (the device copy stays). */
  dispose(): void;
}

/** Creates the autosave of one response or entry; see the module comment. */
export function createAutosaver<T extends AnswersPayload>(options: AutosaverOptions<T>): Autosaver<T> {
  const delay = options.delayMs ?? AUTOSAVE_DELAY_MS;
  const online = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  let status: SaveStatus = 'saved';
  /** The newest payload the server does not have yet. */
  let latest: T | null = null;
  /** Bumped on every change: a save acknowledges only the version it sent. */
  let version = 0;
  /** What the server holds (as far as this page knows). */
  let acknowledged: Answers = options.serverAnswers;
  let inFlight: Promise<boolean> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryDelay = RETRY_FIRST_MS;
  let lastKey: string | null = null;
  let stopped = false;
  let rejected = false;

  const setStatus = (next: SaveStatus, error: unknown = null) => {
    if (stopped) return;
    status = next;
    options.onStatus(next, error);
  };

  const clearTimers = () => {
    if (timer !== null) clearTimeout(timer);
    if (retryTimer !== null) clearTimeout(retryTimer);
    timer = null;
    retryTimer = null;
  };

  const keep = (payload: T) => {
    const key = options.storageKey();
    if (lastKey !== null && lastKey !== key) clearLocalDraft(options.storage, lastKey);
    lastKey = key;
    if (key !== null) writeLocalDraft(options.storage, key, { payload, base: acknowledged, savedAt: new Date().toISOString() });
  };

  const forget = () => {
    const key = options.storageKey();
    if (lastKey !== null && lastKey !== key) clearLocalDraft(options.storage, lastKey);
    if (key !== null) clearLocalDraft(options.storage, key);
    lastKey = null;
  };

  const scheduleRetry = () => {
    if (retryTimer !== null || stopped) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void flush();
    }, retryDelay);
    retryDelay = Math.min(RETRY_MAX_MS, retryDelay * 2);
  };

  const send = (payload: T, sentVersion: number, keepalive: boolean): Promise<boolean> => {
    setStatus('saving');
    const attempt = options.save(payload, { keepalive }).then(
      () => {
        if (inFlight === attempt) inFlight = null;
        if (stopped) return false;
        acknowledged = payload.answers;
        retryDelay = RETRY_FIRST_MS;
        if (sentVersion !== version) {
          // Newer changes came while this one travelled: their own timer (or flush) sends them; the
          // device copy now merges against what the server has.
          if (latest) keep(latest);
          return false;
        }
        latest = null;
        forget();
        setStatus('saved');
        return true;
      },
      (error: unknown) => {
        if (inFlight === attempt) inFlight = null;
        if (stopped) return false;
        if (isRetriable(error)) {
          const offline = !online() || (error instanceof ApiError && error.status === 0);
          setStatus(offline ? 'offline' : 'retrying', error);
          scheduleRetry();
          return false;
        }
        rejected = true;
        clearTimers();
        setStatus('error', error);
        options.onRejected?.(error);
        return false;
      },
    );
    inFlight = attempt;
    return attempt;
  };

  function flush({ keepalive = false }: { keepalive?: boolean } = {}): Promise<boolean> {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (stopped || rejected) return Promise.resolve(false);
    if (!latest) return inFlight ?? Promise.resolve(true);
    const payload = latest;
    const sentVersion = version;
    // The page is going away: send now, whatever is on its way (it cannot wait for it).
    if (keepalive) return send(payload, sentVersion, true);
    if (inFlight) return inFlight.then(() => flush());
    if (retryTimer !== null) {
      clearTimeout(retryTimer);
      retryTimer = null;
    }
    if (!online()) {
      setStatus('offline');
      return Promise.resolve(false);
    }
    return send(payload, sentVersion, false);
  }

  return {
    change(payload) {
      if (stopped) return;
      latest = payload;
      version += 1;
      keep(payload);
      if (rejected) return;
      if (status !== 'offline' && status !== 'retrying') setStatus('saving');
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void flush();
      }, delay);
    },
    flush,
    pending: () => latest !== null || inFlight !== null,
    status: () => status,
    discard() {
      latest = null;
      version += 1;
      clearTimers();
      forget();
    },
    dispose() {
      clearTimers();
      stopped = true;
    },
  };
}
