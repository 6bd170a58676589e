/**
 * The outbox of this browser: the IndexedDB store, the sender with the browser's tus, fetch and
 * Web Lock, and what starts it — `kick` (a capture, a queued submit, "Try again", a participant
 * signed in while something of theirs waits: `resume.ts`), the connection coming back (`online`),
 * the page becoming visible, and a timer. Loaded lazily (`./load.ts`): pages that never capture
 * or send never load Dexie or tus-js-client.
 */
import { apiSend, ApiError } from '../../../platform/api.ts';
import { local } from '../../../platform/storage.ts';
import { REACHABILITY_HEADER, SENDING_LOCK } from '../../../shared/offline.ts';
import { UPLOADS_PATH, type UploadState } from '../../../shared/media.ts';
import { m } from '../../../shared/i18n.ts';
import { clearLocalDraft } from '../autosave.ts';
import { createSender, type CallFailure, type Sender, type SenderMessages } from './sender.ts';
import { createOutbox, openOutboxDb, type Outbox } from './store.ts';
import { outboxOwner } from './summary.ts';
import { tusUpload } from './tus.ts';

/** How often the sender looks again while something waits. */
export const SEND_EVERY_MS = 30_000;

export const senderMessages: SenderMessages = {
  interrupted: () => m.outbox_reason_interrupted(),
  refused: (status, message) =>
    message ?? (status === 413 ? m.outbox_reason_too_large() : status === 415 ? m.outbox_reason_not_accepted() : m.outbox_reason_refused()),
  submitFileFailed: () => m.outbox_reason_submit_file_failed(),
  conflict: () => m.participant_submit_check_again(),
  signedOut: () => m.outbox_reason_signed_out(),
};

function failureOf(error: unknown): CallFailure {
  if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.status === 0 ? null : error.message };
  return { status: 0 };
}

/** Asks the API (a cheap GET), not `navigator.onLine` (which says nothing of a captive portal or a dead link). */
async function reachable(): Promise<boolean> {
  try {
    // The header keeps the service worker from answering with a kept copy.
    const response = await fetch('/api/auth', {
      method: 'GET',
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', [REACHABILITY_HEADER]: '1' },
    });
    // Read to the end: a body left unread keeps the request open (the page never settles).
    await response.arrayBuffer().catch(() => undefined);
    return response.status < 500;
  } catch {
    return false;
  }
}

async function uploadState(mediaId: string): Promise<UploadState> {
  let response: Response;
  try {
    response = await fetch(`${UPLOADS_PATH}/${encodeURIComponent(mediaId)}`, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw { status: 0 } satisfies CallFailure;
  }
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    throw { status: response.status } satisfies CallFailure;
  }
  return (await response.json()) as UploadState;
}

/** Runs a task under the sending lock when Web Locks exist (`ifAvailable`: a second tab does not queue behind the first). */
async function withLock<T>(task: () => Promise<T>): Promise<T | null> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  return locks.request(SENDING_LOCK, { ifAvailable: true }, (lock) => (lock ? task() : null));
}

export interface OutboxRuntime {
  outbox: Outbox;
  /** Whether the API answers now. */
  reachable(): Promise<boolean>;
  sender: Sender;
  /** Sends now (after a capture, "Try again", a queued submit). */
  kick(): void;
}

let runtime: OutboxRuntime | null = null;

export function outboxRuntime(): OutboxRuntime {
  if (runtime) return runtime;
  const outbox = createOutbox(openOutboxDb(), local(), outboxOwner);
  const sender = createSender({
    outbox,
    reachable,
    upload: tusUpload,
    uploadState,
    call: (method, path, body) =>
      apiSend(method, path, body).catch((error: unknown) => {
        throw failureOf(error);
      }),
    withLock,
    clearDraft: (key) => clearLocalDraft(local(), key),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: Date.now,
    messages: senderMessages,
  });
  let timer: ReturnType<typeof setTimeout> | null = null;
  const kick = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    void sender.run().then((result) => {
      // Something waits: look again later (files back off by their own `notBefore`).
      if (result !== 'idle' && !timer) timer = setTimeout(kick, SEND_EVERY_MS);
    });
  };
  window.addEventListener('online', kick);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') kick();
  });
  runtime = { outbox, sender, kick, reachable };
  return runtime;
}
