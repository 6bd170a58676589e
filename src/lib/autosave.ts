/**
 * The app's one autosave engine, without React (the hook is `autosave-react.ts`): the
 * participant screens (a survey response, a mission entry) and the form builder's draft use it.
 * Generic over what is saved (`P`, the payload), it
 *
 * - keeps every change on the device at once (localStorage, through a codec that says how a
 *   payload is stored), so a closed tab or a dropped network loses nothing; what the server has
 *   acknowledged is removed from the device;
 * - sends the newest payload after a pause (`delayMs`) with the **revision** it is based on, one
 *   save at a time; `flush()` sends at once (a page change, before a submit), `flush({ keepalive:
 *   true })` sends a request that outlives the page (`pagehide`, tab hidden);
 * - on a network failure says `offline`, on a server failure (408, 429, 5xx) `retrying`, and
 *   tries again with back-off, never before a `Retry-After`;
 * - on a 409 conflict (the server moved past the revision: another device or person saved) asks
 *   `onConflict`: it either resolves at once (the participant screens merge the answers per
 *   element against the `base` the changes started from, and the merged payload is sent again
 *   with the server's revision) or returns null to pause (`conflict`: the builder asks the
 *   person; `resolve()` goes on);
 * - stops on any other refusal (`error`, `onRejected`), keeping later changes on the device.
 *
 * `docs/architecture.md` ("Projects, surveys and missions", "Forms") says who uses it; `docs/api.md` the revisions.
 */
import { ApiError } from '../platform/api.ts';
import { readItem, removeItem, writeItem, type StorageLike } from '../platform/storage.ts';

export type SaveStatus = 'saved' | 'saving' | 'offline' | 'retrying' | 'conflict' | 'error';

/** First wait after a failure; doubled each time, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 2_000;
export const RETRY_MAX_MS = 30_000;
/** Conflicts resolved in a row before the engine waits like after a failure (another device saving as fast). */
const CONFLICTS_BEFORE_WAITING = 3;

/** A payload kept on the device until the server has it. */
export interface Kept<P> {
  payload: P;
  /** What the server held (at `revision`) when these changes began; null when the codec does not keep it. */
  base: P | null;
  revision: number;
  /** When it was written (ISO). */
  savedAt: string;
}

/** How a kept payload is written to and read from the device (JSON). */
export interface KeptCodec<P> {
  encode(kept: Kept<P>): unknown;
  /** Null for anything unreadable. */
  decode(value: unknown): Kept<P> | null;
}

/** The payload kept under `key`, or null. */
export function readKept<P>(storage: StorageLike | null, key: string, codec: KeptCodec<P>): Kept<P> | null {
  const text = readItem(storage, key);
  if (!text) return null;
  try {
    return codec.decode(JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

export function clearKept(storage: StorageLike | null, key: string): void {
  removeItem(storage, key);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

/** True for failures worth sending again: no answer, a timeout, too many requests, the server failing. */
export function isRetriable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return !(error instanceof DOMException && error.name === 'AbortError');
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

/** What a save answers: at least the new revision. */
export interface SaveResult {
  revision: number;
}

/** The end of a conflict: what the server holds (`base` at `revision`) and the payload to keep (sent unless it equals `base`). */
export interface Resolution<P> {
  base: P;
  revision: number;
  payload: P;
}

export interface AutosaveOptions<P, R extends SaveResult, C> {
  /** Sends a payload based on `revision` (`keepalive`: the page is going away). */
  save(payload: P, how: { revision: number; keepalive: boolean }): Promise<R>;
  /** What the server holds when the screen opens, and its revision. */
  base: P;
  revision: number;
  /** Whether two payloads are the same (nothing to send). */
  same(a: P, b: P): boolean;
  /** The conflict a failed save (or submit) carries, or null when it is not one. */
  conflictOf(error: unknown): C | null;
  /** The server's revision a conflict reports. */
  conflictRevision(conflict: C): number;
  /**
   * A conflict: resolve at once (returned; the payload is sent again), or null to pause until
   * `resolve()`. `mine` is the newest payload, `base` what the server held when it began.
   */
  onConflict(conflict: C, local: { mine: P; base: P; revision: number }): Resolution<P> | null;
  /** Where unsent payloads are kept; read each time (a new entry's key changes once it exists). Null: not kept. */
  storageKey(): string | null;
  storage: StorageLike | null;
  codec: KeptCodec<P>;
  /** Every change of state. */
  onStatus(status: SaveStatus, error: unknown): void;
  /** After each save the server took. */
  onSaved?(result: R, payload: P): void;
  /** A save was refused for good (not retriable, not a conflict): nothing more is sent. */
  onRejected?(error: unknown): void;
  /** Whether the browser believes it is online (default: navigator.onLine). */
  isOnline?(): boolean;
  /** The pause after the last change before sending. */
  delayMs: number;
}

export interface Autosave<P, C> {
  /** A change: kept on the device now, sent after the pause. */
  change(payload: P): void;
  /** Sends what is unsent now (`keepalive`: once, outliving the page); true when the server has everything. */
  flush(options?: { keepalive?: boolean }): Promise<boolean>;
  /** Something unsent (or being sent)? */
  pending(): boolean;
  status(): SaveStatus;
  /** The revision the next save is based on. */
  revision(): number;
  /** What the server holds at `revision()`, as far as this page knows. */
  base(): P;
  /** The conflict waiting for `resolve()` (status `conflict`), or null. */
  conflict(): C | null;
  /** Ends a paused conflict. */
  resolve(resolution: Resolution<P>): void;
  /** A conflict met by another call (a refused submit), handled like a save's; false when `error` is not one. */
  handleConflict(error: unknown): boolean;
  /** Another call (a submit that saved first) left the server holding `payload` at `revision`. */
  acknowledge(payload: P, revision: number): void;
  /** The browser went offline: says so while something is unsent. */
  offline(): void;
  /** Forgets what is unsent, on the device too (the answers were submitted). */
  discard(): void;
  /** Stops: timers cleared, no more sends or status changes (the device copy stays). */
  dispose(): void;
}

type Outcome = 'done' | 'again' | 'stop';

/** Creates the autosave of one payload; see the module comment. */
export function createAutosave<P, R extends SaveResult, C>(options: AutosaveOptions<P, R, C>): Autosave<P, C> {
  const online = options.isOnline ?? (() => typeof navigator === 'undefined' || navigator.onLine !== false);
  let status: SaveStatus = 'saved';
  /** The newest payload the server does not have yet. */
  let latest: P | null = null;
  /** Bumped whenever `latest` changes: a save acknowledges only the one it sent. */
  let version = 0;
  let base = options.base;
  let revision = options.revision;
  let waiting: C | null = null;
  let inFlight: Promise<Outcome> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retryDelay = RETRY_FIRST_MS;
  /** No send before this time (ms): the server's Retry-After. */
  let notBefore = 0;
  let conflictsInARow = 0;
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

  /** Writes `latest` to the device (moving it when the key changed). */
  const keep = () => {
    if (latest === null) return;
    const key = options.storageKey();
    if (lastKey !== null && lastKey !== key) clearKept(options.storage, lastKey);
    lastKey = key;
    if (key !== null)
      writeItem(options.storage, key, JSON.stringify(options.codec.encode({ payload: latest, base, revision, savedAt: new Date().toISOString() })));
  };

  const forget = () => {
    const key = options.storageKey();
    if (lastKey !== null && lastKey !== key) clearKept(options.storage, lastKey);
    if (key !== null) clearKept(options.storage, key);
    lastKey = null;
  };

  /** Nothing left to send: the device copy goes. */
  const settled = () => {
    latest = null;
    version += 1;
    forget();
    if (!rejected && waiting === null) setStatus('saved');
  };

  const scheduleRetry = (error: unknown) => {
    if (stopped) return;
    const after = error instanceof ApiError && error.retryAfter !== null ? error.retryAfter * 1000 : 0;
    const wait = Math.max(retryDelay, after);
    notBefore = after > 0 ? Date.now() + after : 0;
    retryDelay = Math.min(RETRY_MAX_MS, retryDelay * 2);
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      notBefore = 0;
      void run();
    }, wait);
  };

  /** Takes a resolution: the server's state, and the payload to keep (sent when it differs). */
  const apply = (resolution: Resolution<P>) => {
    waiting = null;
    base = resolution.base;
    revision = resolution.revision;
    if (options.same(resolution.payload, resolution.base)) {
      settled();
      return;
    }
    latest = resolution.payload;
    version += 1;
    keep();
  };

  /** A conflict, from a save or another call: resolved at once, or paused. */
  const onConflict = (found: C, error: unknown): Outcome => {
    const resolution = options.onConflict(found, { mine: latest ?? base, base, revision });
    if (resolution === null) {
      waiting = found;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      setStatus('conflict', error);
      return 'stop';
    }
    apply(resolution);
    if (latest === null) return 'done';
    conflictsInARow += 1;
    if (conflictsInARow > CONFLICTS_BEFORE_WAITING) {
      setStatus('retrying', error);
      scheduleRetry(error);
      return 'stop';
    }
    return 'again';
  };

  /** One save of `latest`. */
  const attempt = (keepalive: boolean): Promise<Outcome> => {
    const payload = latest;
    if (payload === null) return Promise.resolve('done');
    const sentVersion = version;
    const sentRevision = revision;
    setStatus('saving');
    const running: Promise<Outcome> = options.save(payload, { revision: sentRevision, keepalive }).then(
      (result): Outcome => {
        if (stopped) return 'stop';
        // Another answer moved the revision meanwhile (a keepalive save beside this one): this one is old news.
        if (sentRevision !== revision) return 'again';
        base = payload;
        revision = result.revision;
        retryDelay = RETRY_FIRST_MS;
        conflictsInARow = 0;
        options.onSaved?.(result, payload);
        if (sentVersion === version) {
          settled();
          return 'done';
        }
        // Newer changes came while this one travelled: still unsent, now based on what the server has.
        if (latest !== null && options.same(latest, base)) {
          settled();
          return 'done';
        }
        keep();
        return 'again';
      },
      (error: unknown): Outcome => {
        if (stopped) return 'stop';
        const found = options.conflictOf(error);
        if (found !== null) {
          // A conflict the page already knows past (a keepalive save beside this one): send again.
          if (sentRevision !== revision && options.conflictRevision(found) <= revision) return 'again';
          return onConflict(found, error);
        }
        if (isRetriable(error)) {
          const offline = !online() || (error instanceof ApiError && error.status === 0);
          setStatus(offline ? 'offline' : 'retrying', error);
          scheduleRetry(error);
          return 'stop';
        }
        rejected = true;
        clearTimers();
        setStatus('error', error);
        options.onRejected?.(error);
        return 'stop';
      },
    );
    const tracked = running.finally(() => {
      if (inFlight === tracked) inFlight = null;
    });
    inFlight = tracked;
    return tracked;
  };

  /** Sends until the server has everything, something stops it, or newer typing waits for its own pause. */
  async function run(): Promise<boolean> {
    for (let round = 0; round < 20; round++) {
      if (stopped || rejected || waiting !== null) return false;
      if (inFlight) {
        if ((await inFlight) === 'stop') return false;
        continue;
      }
      if (latest === null) return true;
      if (options.same(latest, base)) {
        settled();
        return true;
      }
      if (Date.now() < notBefore) return false;
      if (retryTimer !== null) {
        clearTimeout(retryTimer);
        retryTimer = null;
      }
      if (!online()) {
        setStatus('offline');
        return false;
      }
      const outcome = await attempt(false);
      if (outcome === 'stop') return false;
      // Newer typing has its own pause: it sends then.
      if (outcome === 'again' && timer !== null) return false;
    }
    return latest === null && inFlight === null;
  }

  function flush({ keepalive = false }: { keepalive?: boolean } = {}): Promise<boolean> {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (stopped || rejected || waiting !== null) return Promise.resolve(false);
    // The page is going away: send now, whatever is on its way (it cannot wait for it).
    if (keepalive) return latest === null ? Promise.resolve(inFlight === null) : attempt(true).then((outcome) => outcome === 'done');
    return run();
  }

  return {
    change(payload) {
      if (stopped) return;
      latest = payload;
      version += 1;
      if (inFlight === null && options.same(payload, base)) {
        // Back to what the server has (an undo): nothing to send.
        clearTimers();
        notBefore = 0;
        settled();
        return;
      }
      keep();
      if (rejected || waiting !== null) return;
      if (status !== 'offline' && status !== 'retrying') setStatus('saving');
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void run();
      }, options.delayMs);
    },
    flush,
    pending: () => latest !== null || inFlight !== null,
    status: () => status,
    revision: () => revision,
    base: () => base,
    conflict: () => waiting,
    resolve(resolution) {
      if (stopped || waiting === null) return;
      conflictsInARow = 0;
      apply(resolution);
      if (latest !== null) {
        setStatus('saving');
        void run();
      }
    },
    handleConflict(error) {
      const found = options.conflictOf(error);
      if (found === null) return false;
      if (stopped || options.conflictRevision(found) <= revision) return true;
      if (onConflict(found, error) === 'again') {
        setStatus('saving');
        void run();
      }
      return true;
    },
    acknowledge(payload, acknowledged) {
      if (stopped || acknowledged <= revision) return;
      base = payload;
      revision = acknowledged;
      if (latest !== null && options.same(latest, base)) settled();
      else keep();
    },
    offline() {
      if (stopped || rejected || waiting !== null) return;
      if (latest !== null || inFlight !== null) setStatus('offline');
    },
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
