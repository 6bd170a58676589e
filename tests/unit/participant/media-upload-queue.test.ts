/**
 * The participant photo adapter sends at most `MEDIA_LIMITS.uploadsAtOnce` photos at once (the
 * server refuses more from one account with 429 `too_many_uploads`); the rest wait their turn.
 */
import { describe, expect, it } from 'vitest';
import { createMediaUploader, type UploadRequest } from '../../../src/islands/participant/media-upload.ts';
import { MEDIA_LIMITS } from '../../../src/shared/media.ts';

class FakeRequest implements UploadRequest {
  withCredentials = false;
  status = 0;
  responseText = '';
  sent = false;
  upload: UploadRequest['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  open() {}
  setRequestHeader() {}
  send() {
    this.sent = true;
  }
  abort() {
    this.onabort?.();
  }
  getResponseHeader() {
    return null;
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const photo = (name: string) => new File([new Uint8Array(10)], name, { type: 'image/jpeg' });
const stored = (id: string) => ({ id, url: `/api/media/${id}`, thumbnailUrl: `/api/media/${id}/thumbnail`, width: 1, height: 1, bytes: 1 });

describe('the participant photo adapter’s queue', () => {
  it(`sends ${MEDIA_LIMITS.uploadsAtOnce} photos at once; the next starts when one ends, in the order picked`, async () => {
    const requests: FakeRequest[] = [];
    const adapter = createMediaUploader(() => {
      const request = new FakeRequest();
      requests.push(request);
      return request;
    });
    const signal = new AbortController().signal;
    const results = ['a', 'b', 'c', 'd'].map((name) => adapter.upload(photo(name), { onProgress: () => {}, signal }));
    expect(requests).toHaveLength(MEDIA_LIMITS.uploadsAtOnce);
    requests[0]?.answer(201, stored('a'));
    await expect(results[0]).resolves.toMatchObject({ id: 'a' });
    expect(requests).toHaveLength(3);
    // A failure frees its turn too.
    requests[1]?.answer(415, { error: { code: 'unsupported_type', message: 'Not a photo' } });
    await expect(results[1]).rejects.toThrow('Not a photo');
    expect(requests).toHaveLength(4);
    requests[2]?.answer(201, stored('c'));
    requests[3]?.answer(201, stored('d'));
    await expect(Promise.all(results.slice(2))).resolves.toMatchObject([{ id: 'c' }, { id: 'd' }]);
    expect(requests.every((request) => request.sent)).toBe(true);
  });

  it('drops a waiting photo removed before its turn, and never sends it', async () => {
    const requests: FakeRequest[] = [];
    const adapter = createMediaUploader(() => {
      const request = new FakeRequest();
      requests.push(request);
      return request;
    });
    const keep = new AbortController();
    const removed = new AbortController();
    const first = adapter.upload(photo('a'), { onProgress: () => {}, signal: keep.signal });
    const second = adapter.upload(photo('b'), { onProgress: () => {}, signal: keep.signal });
    const waiting = adapter.upload(photo('c'), { onProgress: () => {}, signal: removed.signal });
    const last = adapter.upload(photo('d'), { onProgress: () => {}, signal: keep.signal });
    removed.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    requests[0]?.answer(201, stored('a'));
    requests[1]?.answer(201, stored('b'));
    await Promise.all([first, second]);
    expect(requests).toHaveLength(3); // c was skipped: d went next
    requests[2]?.answer(201, stored('d'));
    await expect(last).resolves.toMatchObject({ id: 'd' });
  });
});
