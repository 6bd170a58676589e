/**
 * The sender: sends what waits in the outbox, files first (resumable tus uploads, their progress
 * written to the rows), then polls each uploaded file until the server has processed it
 * (`GET /api/uploads/{id}`: ready | failed), then the queued submits whose files are all ready,
 * with the revision they were queued with. Everything it talks to is given (`SenderDeps`): the
 * browser's are in ./runtime.ts, the unit tests give fakes.
 *
 * Decisions: before sending it asks the API (`reachable`), not `navigator.onLine`; it runs only
 * while it holds the sending lock (one sender per browser); a refusal that cannot change (413,
 * 415, 400, 403, 422) fails the item for good; a network error, a timeout, 429 or 5xx is tried
 * again later with a growing wait, and after `MAX_ATTEMPTS` the item is failed with "Try again".
 */
import type { UploadState } from '../../../shared/media.ts';
import type { Answers, AnswerValue } from '../../../shared/forms/definition.ts';
import type { Outbox } from './store.ts';
import { isLocalToken, LOCAL_PREFIX, type OutboxFile, type OutboxSubmit } from './types.ts';

/** A failure of a call: the HTTP status (0: no answer), the API's code and message when it sent them. */
export interface CallFailure {
  status: number;
  code?: string | null;
  message?: string | null;
}

export interface UploadHandlers {
  /** The upload exists on the server: its URL (kept in the row: a reload resumes from its last byte). */
  onCreated(url: string): void;
  onProgress(sent: number, total: number): void;
}

export interface SenderDeps {
  outbox: Outbox;
  /** Whether the API answers at all (a cheap GET). */
  reachable(): Promise<boolean>;
  /** Sends one file (resuming at `row.uploadUrl` when set); rejects with a CallFailure. */
  upload(row: OutboxFile, handlers: UploadHandlers): { done: Promise<void>; abort(): void };
  /** `GET /api/uploads/{mediaId}`; rejects with a CallFailure. */
  uploadState(mediaId: string): Promise<UploadState>;
  /** A JSON call of the API; rejects with a CallFailure. */
  call(method: 'POST', path: string, body: unknown): Promise<unknown>;
  /** Runs `task` while holding the sending lock; null (not run) when another tab's sender holds it. */
  withLock<T>(task: () => Promise<T>): Promise<T | null>;
  /** Removes the answers kept on the device under a key (a submit was accepted). */
  clearDraft(key: string): void;
  sleep(ms: number): Promise<void>;
  now(): number;
  messages: SenderMessages;
}

/** The words the sender writes into rows (in the page's language). */
export interface SenderMessages {
  interrupted(): string;
  refused(status: number, message: string | null): string;
  submitFileFailed(): string;
  conflict(): string;
  signedOut(): string;
}

/** Tries before a file or submit stops retrying by itself (then "Try again"). */
export const MAX_ATTEMPTS = 8;
/** Polls of one processing file within one run, and the largest wait between them. */
export const MAX_POLLS = 12;
export const MAX_POLL_WAIT_MS = 30_000;

/** The wait before try `attempt` (1, 2, …): 2 s, 4 s, 8 s … at most 5 minutes. */
export const backoffMs = (attempt: number): number => Math.min(5 * 60_000, 1000 * 2 ** Math.max(1, attempt));

/** Whether a refusal can never succeed as it is sent (the file or the answers are refused). */
export function isFinal(status: number): boolean {
  return status === 400 || status === 403 || status === 404 || status === 413 || status === 415 || status === 422;
}

export function failureOf(error: unknown): CallFailure {
  if (typeof error === 'object' && error !== null && typeof (error as CallFailure).status === 'number') return error as CallFailure;
  return { status: 0 };
}

/** The media id of an upload URL: its last segment. */
export function mediaIdOf(url: string): string | null {
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter(Boolean).pop();
  return last ? decodeURIComponent(last) : null;
}

/**
 * A queued submit's answers with each `local-…` stand-in replaced by its file's media id:
 * `wait` while a file is not ready yet, `failed` when one failed; files removed meanwhile drop out.
 */
export function resolveAnswers(answers: Answers, files: readonly OutboxFile[]): { answers: Answers } | { wait: true } | { failed: OutboxFile } {
  const byId = new Map(files.map((file) => [file.id, file]));
  const byMedia = new Map(files.filter((file) => file.mediaId).map((file) => [file.mediaId as string, file]));
  const result: Record<string, AnswerValue> = {};
  let wait = false;
  for (const [key, value] of Object.entries(answers)) {
    if (!Array.isArray(value) || !value.some((item) => isLocalToken(item) || (typeof item === 'string' && byMedia.has(item)))) {
      result[key] = value;
      continue;
    }
    const ids: string[] = [];
    for (const item of value as unknown[]) {
      if (typeof item !== 'string') continue;
      const file = isLocalToken(item) ? byId.get(item.slice(LOCAL_PREFIX.length)) : byMedia.get(item);
      if (!file) {
        if (!isLocalToken(item)) ids.push(item);
        continue;
      }
      if (file.state === 'failed') return { failed: file };
      if (file.state !== 'ready' || !file.mediaId) wait = true;
      else ids.push(file.mediaId);
    }
    if (ids.length > 0) result[key] = ids;
  }
  return wait ? { wait: true } : { answers: result };
}

export interface Sender {
  /** One pass over the outbox (nothing when the lock is held elsewhere or the API cannot be reached). Resolves with what is left to send. */
  run(): Promise<'offline' | 'busy' | 'idle' | 'waiting'>;
  /** "Try again" on a failed file or submit: it is sent at the next run. */
  retry(id: string): Promise<void>;
}

export function createSender(deps: SenderDeps): Sender {
  const { outbox, messages } = deps;
  let running: Promise<'offline' | 'busy' | 'idle' | 'waiting'> | null = null;

  /** A try that failed: later again, or failed when it cannot succeed or tried too often. */
  const fileFailed = async (row: OutboxFile, failure: CallFailure) => {
    const attempts = row.attempts + 1;
    if (isFinal(failure.status)) {
      await outbox.updateFile(row.id, { state: 'failed', final: true, reason: messages.refused(failure.status, failure.message ?? null), attempts });
      return;
    }
    const reason = failure.status === 401 ? messages.signedOut() : messages.interrupted();
    const gaveUp = attempts >= MAX_ATTEMPTS;
    await outbox.updateFile(row.id, {
      state: gaveUp ? 'failed' : row.mediaId && row.state === 'uploaded' ? 'uploaded' : 'saved',
      reason,
      attempts,
      notBefore: deps.now() + backoffMs(attempts),
    });
  };

  const sendFile = async (row: OutboxFile): Promise<boolean> => {
    await outbox.updateFile(row.id, { state: 'uploading', reason: null });
    let uploadUrl = row.uploadUrl;
    const writes: Promise<void>[] = [];
    const { done } = deps.upload(row, {
      onCreated(url) {
        uploadUrl = url;
        writes.push(outbox.updateFile(row.id, { uploadUrl: url, mediaId: mediaIdOf(url) }));
      },
      onProgress(sent, total) {
        writes.push(outbox.updateFile(row.id, { progress: total > 0 ? Math.min(1, sent / total) : 0 }));
      },
    });
    try {
      await done;
      await Promise.all(writes);
    } catch (error) {
      await Promise.all(writes);
      const failure = failureOf(error);
      await fileFailed({ ...row, uploadUrl, state: 'uploading' }, failure);
      return failure.status !== 0;
    }
    await outbox.updateFile(row.id, { state: 'uploaded', progress: 1, attempts: 0, notBefore: 0, reason: null });
    return true;
  };

  /** Polls an uploaded file until ready or failed (a growing wait), at most MAX_POLLS times in this run. */
  const pollFile = async (row: OutboxFile): Promise<void> => {
    if (!row.mediaId) return;
    for (let poll = 0; poll < MAX_POLLS; poll += 1) {
      let state: UploadState;
      try {
        state = await deps.uploadState(row.mediaId);
      } catch (error) {
        const failure = failureOf(error);
        if (failure.status === 404) {
          // The server lost it (expired): sent again from the first byte.
          await outbox.updateFile(row.id, { state: 'saved', uploadUrl: null, mediaId: null, progress: 0 });
          return;
        }
        await fileFailed(row, failure);
        return;
      }
      if (state.status === 'ready') {
        await outbox.updateFile(row.id, { state: 'ready', reason: null, attempts: 0 });
        return;
      }
      if (state.status === 'failed') {
        await outbox.updateFile(row.id, { state: 'failed', final: true, reason: state.reason ?? messages.refused(422, null) });
        return;
      }
      if (state.status === 'uploading') {
        // Not all bytes arrived (another tab, a cut): the upload resumes.
        await outbox.updateFile(row.id, { state: 'saved' });
        return;
      }
      await deps.sleep(Math.min(MAX_POLL_WAIT_MS, 1000 * 2 ** poll));
    }
  };

  const sendSubmit = async (row: OutboxSubmit, files: readonly OutboxFile[]): Promise<void> => {
    const resolved = resolveAnswers(row.body.answers, files);
    if ('wait' in resolved) return;
    if ('failed' in resolved) {
      await outbox.updateSubmit(row.id, { state: 'failed', reason: messages.submitFileFailed() });
      return;
    }
    await outbox.updateSubmit(row.id, { state: 'sending', reason: null });
    try {
      let path = row.path;
      if (row.createPath) {
        const created = (await deps.call('POST', row.createPath, row.createBody ?? {})) as { id?: unknown };
        path = row.path.replace('{id}', String(created.id));
        await outbox.updateSubmit(row.id, { createPath: null, createBody: null, path });
      }
      await deps.call('POST', path, { ...row.body, answers: resolved.answers });
    } catch (error) {
      const failure = failureOf(error);
      const attempts = row.attempts + 1;
      if (failure.status === 409) {
        // Changed elsewhere or closed: never sent over it. The answers stay kept on the device; the form merges them when opened.
        await outbox.updateSubmit(row.id, {
          state: 'failed',
          reason: failure.code === 'conflict' ? messages.conflict() : (failure.message ?? messages.conflict()),
          attempts,
        });
        return;
      }
      if (isFinal(failure.status)) {
        await outbox.updateSubmit(row.id, { state: 'failed', reason: failure.message ?? messages.refused(failure.status, null), attempts });
        return;
      }
      await outbox.updateSubmit(row.id, {
        state: attempts >= MAX_ATTEMPTS ? 'failed' : 'waiting',
        reason: failure.status === 401 ? messages.signedOut() : messages.interrupted(),
        attempts,
        notBefore: deps.now() + backoffMs(attempts),
      });
      return;
    }
    if (row.draftKey) deps.clearDraft(row.draftKey);
    // Kept as `sent` until the screen that queued it has seen it (it then removes it); the summary no longer lists it.
    await outbox.updateSubmit(row.id, { state: 'sent', reason: null });
    // Its files are in the submitted answers: nothing more to show of them.
    const used = new Set(Object.values(resolved.answers).flatMap((value) => (Array.isArray(value) ? value : [])));
    for (const file of files) if (file.formKey === row.formKey && file.mediaId && used.has(file.mediaId)) await outbox.removeFile(file.id);
  };

  const pass = async (): Promise<'offline' | 'idle' | 'waiting'> => {
    if (!(await deps.reachable())) return 'offline';
    const due = (row: { notBefore: number }) => row.notBefore <= deps.now();
    for (const row of await outbox.files()) {
      if ((row.state === 'saved' || row.state === 'uploading') && due(row)) {
        const answered = await sendFile(row);
        // No answer at all: the connection is gone; the rest waits for the next run.
        if (!answered) return 'offline';
      }
    }
    for (const row of await outbox.files()) if (row.state === 'uploaded' && due(row)) await pollFile(row);
    const files = await outbox.files();
    for (const row of await outbox.submits())
      if (row.state === 'waiting' && due(row))
        await sendSubmit(
          row,
          files.filter((file) => file.formKey === row.formKey),
        );
    const [left, submits] = await Promise.all([outbox.files(), outbox.submits()]);
    const waiting = left.some((row) => row.state !== 'ready' && row.state !== 'failed') || submits.some((row) => row.state === 'waiting');
    return waiting ? 'waiting' : 'idle';
  };

  /**
   * A trigger came during a pass (a capture saved after the pass had looked, the connection back
   * after the pass found it gone): one more pass follows. Not after `busy`: another tab sends.
   */
  let again = false;

  return {
    run() {
      // One pass at a time in this page; a trigger during a pass shares it, and another pass follows it.
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let result: 'offline' | 'busy' | 'idle' | 'waiting';
        do {
          again = false;
          result = (await deps.withLock(pass)) ?? 'busy';
        } while (again && result !== 'busy');
        return result;
      })().finally(() => {
        running = null;
      });
      return running;
    },
    async retry(id) {
      const file = await outbox.file(id);
      if (file) {
        if (file.state === 'failed' && !file.final) await outbox.updateFile(id, { state: 'saved', reason: null, attempts: 0, notBefore: 0 });
        return;
      }
      const submit = (await outbox.submits()).find((row) => row.id === id);
      if (submit && submit.state === 'failed') await outbox.updateSubmit(id, { state: 'waiting', reason: null, attempts: 0, notBefore: 0 });
    },
  };
}
