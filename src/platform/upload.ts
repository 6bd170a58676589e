/**
 * Sending a file with progress: `fetch` reports no upload progress, so the admin tools' uploads go
 * through XMLHttpRequest. The answer is read as JSON (`as: 'json'`) or as a file (`as: 'blob'`,
 * with its name from Content-Disposition); a refused answer throws the same `ApiError` as
 * `api()` (`src/platform/api.ts`), and a sensitive call refused for an old sign-in (403
 * `reauth_required`) is sent again once the person confirmed it's them, as `api()` does.
 */
import { apiErrorOf, networkError, withReauth } from './api.ts';

/** Where a transfer is: bytes sent of the request, then bytes received of the answer. */
export interface TransferProgress {
  phase: 'upload' | 'download';
  loaded: number;
  /** null when the size is not known (an answer without Content-Length). */
  total: number | null;
}

export interface UploadInit {
  onProgress?: (progress: TransferProgress) => void;
  signal?: AbortSignal;
  /** Extra request headers (e.g. Accept). */
  headers?: Readonly<Record<string, string>>;
  /** The sentence of a refusal whose answer says none (a proxy's HTML page); else `api()`'s. */
  refusedMessage?: string;
}

/** A file answer: its bytes, its file name (from Content-Disposition) and its headers. */
export interface FileAnswer {
  blob: Blob;
  fileName: string | null;
  headers: (name: string) => string | null;
}

/** The file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename="…"`). */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() ?? null;
}

function send(method: 'POST' | 'PUT', path: string, body: FormData | Blob | string, as: 'json' | 'blob', init: UploadInit): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, path);
    xhr.withCredentials = true;
    xhr.responseType = as === 'json' ? 'text' : 'blob';
    for (const [name, value] of Object.entries(init.headers ?? {})) xhr.setRequestHeader(name, value);
    if (init.onProgress) {
      const report = init.onProgress;
      xhr.upload.onprogress = (event) => report({ phase: 'upload', loaded: event.loaded, total: event.lengthComputable ? event.total : null });
      xhr.onprogress = (event) => report({ phase: 'download', loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    }
    xhr.onload = () => resolve(xhr);
    start(xhr, body, init.signal, reject);
  });
}

/** Sends the request: a network failure rejects with the ApiError `api()` gives, a cancel (or a signal already aborted) with an AbortError. */
function start(xhr: XMLHttpRequest, body: FormData | Blob | string, signal: AbortSignal | undefined, reject: (reason: unknown) => void): void {
  const cancelled = () => new DOMException('The upload was cancelled', 'AbortError');
  xhr.onerror = () => reject(networkError());
  xhr.onabort = () => reject(cancelled());
  if (signal?.aborted) {
    reject(cancelled());
    return;
  }
  signal?.addEventListener('abort', () => xhr.abort(), { once: true });
  xhr.send(body);
}

async function refusal(xhr: XMLHttpRequest, refusedMessage: string | undefined): Promise<Error> {
  const text = typeof xhr.response === 'string' ? xhr.response : xhr.response instanceof Blob ? await xhr.response.text() : '';
  let data: unknown;
  try {
    data = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    data = undefined;
  }
  const error: Record<string, unknown> =
    typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'object' ? { ...data.error } : {};
  if (refusedMessage && (typeof error.message !== 'string' || error.message === '')) data = { error: { ...error, message: refusedMessage } };
  return apiErrorOf(xhr.status, data, text, xhr.getResponseHeader('Retry-After'));
}

/** POSTs a body (usually multipart) and reads the JSON answer, reporting progress. */
export function uploadForJson<T>(path: string, body: FormData | Blob | string, init: UploadInit = {}): Promise<T> {
  return withReauth(path, () => jsonOnce<T>(path, body, init));
}

async function jsonOnce<T>(path: string, body: FormData | Blob | string, init: UploadInit): Promise<T> {
  const xhr = await send('POST', path, body, 'json', { ...init, headers: { Accept: 'application/json', ...init.headers } });
  if (xhr.status < 200 || xhr.status >= 300) throw await refusal(xhr, init.refusedMessage);
  try {
    return JSON.parse(String(xhr.response)) as T;
  } catch {
    throw apiErrorOf(xhr.status, undefined, String(xhr.response), null);
  }
}

/** POSTs a body and reads a file answer, reporting progress both ways. */
export function uploadForFile(path: string, body: FormData | Blob | string, init: UploadInit = {}): Promise<FileAnswer> {
  return withReauth(path, () => fileOnce(path, body, init));
}

async function fileOnce(path: string, body: FormData | Blob | string, init: UploadInit): Promise<FileAnswer> {
  const xhr = await send('POST', path, body, 'blob', init);
  if (xhr.status < 200 || xhr.status >= 300) throw await refusal(xhr, init.refusedMessage);
  return {
    blob: xhr.response as Blob,
    fileName: dispositionFileName(xhr.getResponseHeader('Content-Disposition')),
    headers: (name) => xhr.getResponseHeader(name),
  };
}

/** Hands a Blob to the browser as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** One line of a progress stream other than its answer (`{ phase, done, total }` and the like). */
export type StreamLine = Readonly<Record<string, unknown>>;

export interface StreamInit extends UploadInit {
  /** Each progress line as it arrives (the answer line is what the call resolves with). */
  onLine?: (line: StreamLine) => void;
}

/**
 * POSTs a body asking for a progress stream (`Accept: application/x-ndjson`): one JSON object a
 * line, read as they arrive, each passed to `onLine`, until the last, `{ "result": … }` (resolved)
 * or `{ "error": {…}, "status": n }` (thrown as the ApiError of that status). Upload progress is
 * reported as `uploadForJson` does; a refusal before the stream began is a plain JSON error.
 */
export function uploadForNdjson<T>(path: string, body: FormData | Blob | string, init: StreamInit = {}): Promise<T> {
  return withReauth(path, () => ndjsonOnce<T>(path, body, init));
}

function ndjsonOnce<T>(path: string, body: FormData | Blob | string, init: StreamInit): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.responseType = 'text';
    for (const [name, value] of Object.entries({ ...init.headers, Accept: 'application/x-ndjson' })) xhr.setRequestHeader(name, value);
    let seen = 0;
    let answer: { result: T } | { error: unknown; status: number } | null = null;
    const readLines = (final: boolean) => {
      if (xhr.status !== 200) return;
      const text = xhr.responseText;
      const end = final ? text.length : text.lastIndexOf('\n') + 1;
      if (end <= seen) return;
      const chunk = text.slice(seen, end);
      seen = end;
      for (const raw of chunk.split('\n')) {
        if (raw.trim() === '') continue;
        let line: unknown;
        try {
          line = JSON.parse(raw);
        } catch {
          continue;
        }
        if (typeof line !== 'object' || line === null) continue;
        if ('result' in line) answer = line as { result: T };
        else if ('error' in line) answer = line as { error: unknown; status: number };
        else init.onLine?.(line as StreamLine);
      }
    };
    const report = init.onProgress;
    if (report) xhr.upload.onprogress = (event) => report({ phase: 'upload', loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    xhr.onprogress = () => readLines(false);
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        void refusal(xhr, init.refusedMessage).then(reject);
        return;
      }
      readLines(true);
      const last = answer as { result: T } | { error: unknown; status: number } | null;
      if (last && 'result' in last) resolve(last.result);
      else if (last) reject(apiErrorOf(last.status, { error: last.error }, JSON.stringify(last), null));
      else reject(apiErrorOf(xhr.status, undefined, xhr.responseText, null));
    };
    start(xhr, body, init.signal, reject);
  });
}
