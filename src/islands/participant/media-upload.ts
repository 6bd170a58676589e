/**
 * The renderer's PhotoAdapter for participants: `POST /api/media` (multipart, field `file`) with
 * XMLHttpRequest, whose upload progress fetch() cannot report; aborted through the renderer's
 * AbortSignal (Remove while uploading). A file the API refuses for what it is (4xx but the rate
 * limits and a lost session) rejects with `UploadRefused`: no Retry. Thumbnails of stored photos
 * are `/api/media/{id}/thumbnail`.
 */
import { MEDIA_LIMITS, MEDIA_MESSAGES, type MediaUploaded } from '../../shared/media.ts';
import type { PhotoAdapter } from '../../components/forms/types.ts';
import { UploadRefused } from '../../components/forms/photo-uploads.ts';
import { thumbnailUrl } from '../../shared/media.ts';
import { m } from '../../shared/i18n.ts';

/** The part of XMLHttpRequest the uploader uses (tests give a fake). */
export interface UploadRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: FormData): void;
  abort(): void;
  withCredentials: boolean;
  readonly status: number;
  readonly responseText: string;
  getResponseHeader(name: string): string | null;
  readonly upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  ontimeout: (() => void) | null;
}

export { thumbnailUrl };

const networkMessage = (): string => m.participant_upload_interrupted();

/** The message shown under a photo whose upload the API refused (its own message when it sent one). */
export function uploadErrorMessage(status: number, responseText: string, retryAfter: string | null = null): string {
  let message: string | null = null;
  try {
    const data = JSON.parse(responseText) as { error?: { message?: unknown } };
    if (typeof data.error?.message === 'string' && data.error.message.trim()) message = data.error.message;
  } catch {
    message = null;
  }
  if (message) return message;
  if (status === 0) return networkMessage();
  if (status === 413) return MEDIA_MESSAGES.tooLarge;
  if (status === 415) return MEDIA_MESSAGES.notAnImage;
  if (status === 429) {
    const seconds = Number(retryAfter);
    if (!Number.isFinite(seconds) || seconds <= 0) return m.participant_upload_rate_later();
    return seconds < 60
      ? m.participant_upload_rate_seconds({ seconds: Math.ceil(seconds) })
      : m.participant_upload_rate_minutes({ minutes: Math.ceil(seconds / 60) });
  }
  if (status === 401) return m.participant_upload_signed_out();
  if (status === 400) return MEDIA_MESSAGES.unreadable;
  if (status === 503) return MEDIA_MESSAGES.busy;
  return m.participant_upload_failed_retry();
}

/**
 * Whether an upload the API answered with `status` may succeed if sent again as it is: the network
 * (0), a timeout, the rate limits (429), a lost session (401, once signed in again) and the
 * server's own failures (5xx). Any other refusal is about the file (not a photo, too large,
 * unreadable): Retry cannot help.
 */
export function retryable(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 429 || status >= 500;
}

function abortError(): DOMException {
  return new DOMException(m.participant_upload_cancelled(), 'AbortError');
}

/** Reads the API's answer to a successful upload; null when it is not one. */
function readUploaded(text: string): MediaUploaded | null {
  try {
    const data = JSON.parse(text) as Partial<MediaUploaded>;
    return typeof data.id === 'string' && data.id !== '' ? (data as MediaUploaded) : null;
  } catch {
    return null;
  }
}

/** A real XMLHttpRequest (its event handlers take richer events than UploadRequest names). */
const browserRequest = (): UploadRequest => new XMLHttpRequest() as unknown as UploadRequest;

/**
 * Creates the adapter (`request` makes the XMLHttpRequest; tests pass a fake). It sends at most
 * `MEDIA_LIMITS.uploadsAtOnce` photos at once (the server refuses more from one account with 429
 * `too_many_uploads`); the others wait their turn in the order they were picked.
 */
export function createMediaUploader(request: () => UploadRequest = browserRequest): PhotoAdapter {
  let sending = 0;
  const waiting: (() => void)[] = [];
  const nextTurn = () => {
    sending -= 1;
    const next = waiting.shift();
    if (next) next();
  };
  return {
    thumbnailUrl,
    upload(file, { onProgress, signal }) {
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(abortError());
          return;
        }
        // Refused by the server anyway: said at once, without sending megabytes.
        if (file.size > MEDIA_LIMITS.maxBytes || file.size === 0) {
          reject(new UploadRefused(file.size === 0 ? MEDIA_MESSAGES.empty : MEDIA_MESSAGES.tooLarge));
          return;
        }
        const send = () => {
          sending += 1;
          signal.removeEventListener('abort', onAbortWhileWaiting);
          sendNow(resolve, reject);
        };
        const onAbortWhileWaiting = () => {
          const at = waiting.indexOf(send);
          if (at >= 0) waiting.splice(at, 1);
          reject(abortError());
        };
        if (sending < MEDIA_LIMITS.uploadsAtOnce) {
          send();
        } else {
          waiting.push(send);
          signal.addEventListener('abort', onAbortWhileWaiting, { once: true });
        }
      });

      function sendNow(resolve: (media: { id: string; thumbnailUrl: string }) => void, reject: (error: Error | DOMException) => void) {
        const xhr = request();
        const onAbortSignal = () => xhr.abort();
        let settled = false;
        const done = () => {
          signal.removeEventListener('abort', onAbortSignal);
          if (settled) return;
          settled = true;
          nextTurn();
        };
        xhr.open('POST', '/api/media');
        xhr.withCredentials = true;
        xhr.setRequestHeader('Accept', 'application/json');
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
        };
        xhr.onload = () => {
          done();
          const uploaded = xhr.status >= 200 && xhr.status < 300 ? readUploaded(xhr.responseText) : null;
          if (uploaded) {
            onProgress(1);
            resolve({ id: uploaded.id, thumbnailUrl: uploaded.thumbnailUrl || thumbnailUrl(uploaded.id) });
          } else {
            const status = xhr.status >= 200 && xhr.status < 300 ? 500 : xhr.status;
            const message = uploadErrorMessage(status, xhr.responseText, xhr.getResponseHeader('Retry-After'));
            reject(retryable(status) ? new Error(message) : new UploadRefused(message));
          }
        };
        xhr.onerror = () => {
          done();
          reject(new Error(networkMessage()));
        };
        xhr.ontimeout = xhr.onerror;
        xhr.onabort = () => {
          done();
          reject(abortError());
        };
        signal.addEventListener('abort', onAbortSignal, { once: true });
        const body = new FormData();
        body.append('file', file, file.name);
        xhr.send(body);
      }
    },
  };
}
