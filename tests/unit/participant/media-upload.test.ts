import { describe, expect, it } from 'vitest';
import { MEDIA_LIMITS, MEDIA_MESSAGES } from '../../../src/shared/media.ts';
import { createMediaUploader, retryable, thumbnailUrl, uploadErrorMessage, type UploadRequest } from '../../../src/islands/participant/media-upload.ts';
import { UploadRefused } from '../../../src/components/forms/photo-uploads.ts';

/** An XMLHttpRequest the test drives by hand. */
class FakeRequest implements UploadRequest {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  aborted = false;
  withCredentials = false;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: UploadRequest['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = headers;
    this.onload?.();
  }
}

function setup() {
  const requests: FakeRequest[] = [];
  const adapter = createMediaUploader(() => {
    const request = new FakeRequest();
    requests.push(request);
    return request;
  });
  const progress: number[] = [];
  const controller = new AbortController();
  const upload = (file: File) => adapter.upload(file, { onProgress: (fraction) => progress.push(fraction), signal: controller.signal });
  return { adapter, requests, progress, controller, upload };
}

const photo = (bytes = 10, name = 'shelf.jpg') => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });

describe('the participant photo adapter', () => {
  it('posts the file as multipart field "file" with cookies, reports progress, resolves with the stored id and thumbnail', async () => {
    const { requests, progress, upload } = setup();
    const result = upload(photo());
    const request = requests[0] as FakeRequest;
    expect([request.method, request.url, request.withCredentials]).toEqual(['POST', '/api/media', true]);
    expect((request.body?.get('file') as File).name).toBe('shelf.jpg');
    request.upload.onprogress?.({ lengthComputable: true, loaded: 25, total: 100 });
    request.upload.onprogress?.({ lengthComputable: false, loaded: 0, total: 0 });
    request.answer(201, { id: 'abc', url: '/api/media/abc', thumbnailUrl: '/api/media/abc/thumbnail', width: 10, height: 10, bytes: 10 });
    await expect(result).resolves.toEqual({ id: 'abc', thumbnailUrl: '/api/media/abc/thumbnail' });
    expect(progress).toEqual([0.25, 1]);
  });

  it('shows the server’s message of a refusal, and a clear one when there is none', async () => {
    const { requests, upload } = setup();
    const refused = upload(photo());
    requests[0]?.answer(415, { error: { code: 'unsupported_type', message: MEDIA_MESSAGES.notAnImage } });
    await expect(refused).rejects.toThrow(MEDIA_MESSAGES.notAnImage);
    // Refused for what the file is: Retry cannot help (issue 28 §11); the network and the server's failures can pass later.
    await expect(refused).rejects.toBeInstanceOf(UploadRefused);
    const cut = upload(photo());
    requests[1]?.onerror?.();
    await expect(cut).rejects.toThrow('The upload was interrupted. Check your connection and try again.');
    await expect(cut).rejects.not.toBeInstanceOf(UploadRefused);
    const odd = upload(photo());
    requests[2]?.answer(200, 'not json');
    await expect(odd).rejects.toThrow('The photo could not be uploaded. Try again.');
    await expect(odd).rejects.not.toBeInstanceOf(UploadRefused);
    expect([0, 401, 408, 429, 500, 503].every(retryable)).toBe(true);
    expect([400, 413, 415, 422].some(retryable)).toBe(false);
  });

  it('refuses an oversized or empty file at once, without sending it', async () => {
    const { requests, upload } = setup();
    const big = new File([new Uint8Array(8)], 'big.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: MEDIA_LIMITS.maxBytes + 1 });
    await expect(upload(big)).rejects.toThrow(MEDIA_MESSAGES.tooLarge);
    await expect(upload(big)).rejects.toBeInstanceOf(UploadRefused);
    await expect(upload(photo(0))).rejects.toThrow(MEDIA_MESSAGES.empty);
    expect(requests).toHaveLength(0);
  });

  it('aborts the request when the renderer’s signal aborts (Remove while uploading)', async () => {
    const { requests, controller, upload } = setup();
    const result = upload(photo());
    controller.abort();
    expect(requests[0]?.aborted).toBe(true);
    await expect(result).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('knows where thumbnails of stored photos are', () => {
    expect(thumbnailUrl('a_b-C')).toBe('/api/media/a_b-C/thumbnail');
    expect(setup().adapter.thumbnailUrl('x')).toBe('/api/media/x/thumbnail');
  });

  it('words the refusals it may meet without a message', () => {
    expect(uploadErrorMessage(413, '')).toBe(MEDIA_MESSAGES.tooLarge);
    expect(uploadErrorMessage(429, '', '120')).toBe('You have uploaded many photos in a short time. Try again in 2 minutes.');
    expect(uploadErrorMessage(503, '')).toBe(MEDIA_MESSAGES.busy);
    expect(uploadErrorMessage(400, JSON.stringify({ error: { message: 'This photo is larger than 50 megapixels' } }))).toBe(
      'This photo is larger than 50 megapixels',
    );
  });
});
