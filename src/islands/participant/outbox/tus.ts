/**
 * One file sent with tus-js-client (`/api/uploads`, chunks of `UPLOAD_LIMITS.chunkBytes`). Its
 * own URL storage is off: the upload URL lives in the outbox row, given back as `uploadUrl`, so a
 * reload continues from the server's offset. Retries are the sender's (its backoff), not tus'.
 */
import { Upload, type DetailedError } from 'tus-js-client';
import { UPLOAD_LIMITS, UPLOADS_PATH } from '../../../shared/media.ts';
import type { CallFailure, UploadHandlers } from './sender.ts';
import type { OutboxFile } from './types.ts';

function messageOf(body: string): string | null {
  try {
    const data = JSON.parse(body) as { error?: { message?: unknown } };
    return typeof data.error?.message === 'string' ? data.error.message : null;
  } catch {
    return null;
  }
}

export function tusUpload(row: OutboxFile, handlers: UploadHandlers): { done: Promise<void>; abort(): void } {
  let upload: Upload | null = null;
  const done = new Promise<void>((resolve, reject) => {
    upload = new Upload(row.blob, {
      endpoint: UPLOADS_PATH,
      uploadUrl: row.uploadUrl,
      chunkSize: UPLOAD_LIMITS.chunkBytes,
      metadata: { filename: row.name || 'file', filetype: row.type || 'application/octet-stream' },
      storeFingerprintForResuming: false,
      removeFingerprintOnSuccess: false,
      retryDelays: null,
      onUploadUrlAvailable() {
        if (upload?.url) handlers.onCreated(upload.url);
      },
      onProgress: (sent, total) => handlers.onProgress(sent, total),
      onSuccess: () => resolve(),
      onError(error) {
        const response = (error as DetailedError).originalResponse ?? null;
        const failure: CallFailure = response ? { status: response.getStatus(), message: messageOf(response.getBody()) } : { status: 0 };
        reject(failure);
      },
    });
    upload.start();
  });
  return {
    done,
    abort() {
      void upload?.abort(false);
    },
  };
}
