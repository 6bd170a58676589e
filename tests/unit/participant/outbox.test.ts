import { describe, expect, it, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createOutbox, openOutboxDb, type Outbox } from '../../../src/islands/participant/outbox/store.ts';
import {
  backoffMs,
  createSender,
  isFinal,
  MAX_ATTEMPTS,
  mediaIdOf,
  resolveAnswers,
  type SenderDeps,
  type UploadHandlers,
} from '../../../src/islands/participant/outbox/sender.ts';
import { readSummary, somethingWaits } from '../../../src/islands/participant/outbox/summary.ts';
import { isAppleMobile, spaceIsShort } from '../../../src/islands/participant/outbox/storage-care.ts';
import { localToken, type OutboxFile } from '../../../src/islands/participant/outbox/types.ts';
import { OUTBOX_SUMMARY_KEY } from '../../../src/shared/offline.ts';
import { createMediaStore } from '../../../src/islands/participant/outbox/media-store.ts';
import { queueSubmit } from '../../../src/islands/participant/outbox/queue.ts';
import type { OutboxRuntime } from '../../../src/islands/participant/outbox/runtime.ts';
import type { UploadState } from '../../../src/shared/media.ts';

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
    map,
  };
}

/** The runtime the form's media store loads (the real one needs a browser): the test's outbox. */
const lazy = vi.hoisted(() => ({ runtime: null as unknown, failures: 0 }));
vi.mock('../../../src/islands/participant/outbox/load.ts', () => ({
  loadOutbox: async () => {
    if (lazy.failures > 0) {
      lazy.failures--;
      throw new TypeError('Failed to fetch dynamically imported module');
    }
    return lazy.runtime;
  },
}));

function setup() {
  const storage = memoryStorage();
  let now = 1_000_000;
  /** Who is signed in on this "phone" (participant 7 unless a test signs someone else in). */
  let owner: string | null = '7';
  const outbox = createOutbox(
    openOutboxDb({ indexedDB: new IDBFactory(), IDBKeyRange }),
    storage,
    () => owner,
    () => now,
  );
  return { outbox, storage, clock: { get: () => now, add: (ms: number) => (now += ms) }, signIn: (who: string | null) => (owner = who) };
}

const photo = (bytes = 10, name = 'shop.jpg') => new File([new Uint8Array(bytes).fill(7)], name, { type: 'image/jpeg' });

/** A fake tus: each call takes the next scripted outcome. */
type Outcome = { created?: string; progress?: [number, number][]; fail?: number };

function fakeDeps(outbox: Outbox, clock: { get(): number }, script: Outcome[], states: (UploadState | number)[] = []) {
  const uploads: { row: OutboxFile }[] = [];
  const calls: { path: string; body: unknown }[] = [];
  const callResults: (unknown | { status: number; code?: string })[] = [];
  const cleared: string[] = [];
  let online = true;
  const deps: SenderDeps = {
    outbox,
    reachable: async () => online,
    upload(row: OutboxFile, handlers: UploadHandlers) {
      uploads.push({ row });
      const outcome = script.shift() ?? {};
      const done = (async () => {
        if (outcome.created) handlers.onCreated(outcome.created);
        for (const [sent, total] of outcome.progress ?? []) handlers.onProgress(sent, total);
        if (outcome.fail !== undefined) throw { status: outcome.fail };
      })();
      return { done, abort() {} };
    },
    async uploadState(mediaId) {
      const next = states.shift();
      if (next === undefined) return { mediaId, kind: 'photo', status: 'processing', reason: null };
      if (typeof next === 'number') throw { status: next };
      return next;
    },
    async call(_method, path, body) {
      calls.push({ path, body });
      const result = callResults.shift();
      if (result && typeof result === 'object' && 'status' in result) throw result;
      return result ?? {};
    },
    withLock: (task) => task(),
    clearDraft: (key) => void cleared.push(key),
    sleep: async () => undefined,
    now: () => clock.get(),
    messages: {
      interrupted: () => 'interrupted',
      refused: (status, message) => message ?? `refused ${status}`,
      submitFileFailed: () => 'a file failed',
      conflict: () => 'conflict',
      signedOut: () => 'signed out',
    },
  };
  return { deps, uploads, calls, callResults, cleared, setOnline: (value: boolean) => (online = value) };
}

describe('the outbox store', () => {
  it('copies the bytes in, reads them back, and mirrors a summary in localStorage', async () => {
    const { outbox, storage } = setup();
    const row = await outbox.saveFile({ file: photo(12), name: 'shop.jpg', questionId: 'q1', formKey: 'survey-1', kind: 'photo' });
    expect(row.state).toBe('saved');
    expect(row.bytes).toBe(12);
    expect((await outbox.file(row.id))?.blob.size).toBe(12);
    expect(readSummary(storage, '7').items).toEqual([
      expect.objectContaining({ id: row.id, owner: '7', what: 'photo', name: 'shop.jpg', state: 'saved', retry: false }),
    ]);
    expect(somethingWaits(storage, '7')).toBe(true);
    await outbox.removeFile(row.id);
    expect(storage.map.has(OUTBOX_SUMMARY_KEY)).toBe(false);
  });

  it('keeps one waiting submit per form', async () => {
    const { outbox } = setup();
    const base = { formKey: 'f', title: 'T', createPath: null, createBody: null, path: '/p', draftKey: null };
    await outbox.queueSubmit({ ...base, body: { answers: { a: '1' }, revision: 1 } });
    await outbox.queueSubmit({ ...base, body: { answers: { a: '2' }, revision: 2 } });
    const rows = await outbox.submits('f');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.body.revision).toBe(2);
  });
});

describe('the sender', () => {
  it('uploads a file, keeps its upload URL and media id, then polls until ready', async () => {
    const { outbox, clock } = setup();
    const row = await outbox.saveFile({ file: photo(), name: 'a.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    const fake = fakeDeps(
      outbox,
      clock,
      [{ created: 'https://x/api/uploads/m-1', progress: [[5, 10]] }],
      [
        { mediaId: 'm-1', kind: 'photo', status: 'processing', reason: null },
        { mediaId: 'm-1', kind: 'photo', status: 'ready', reason: null },
      ],
    );
    const sender = createSender(fake.deps);
    expect(await sender.run()).toBe('idle');
    expect(await outbox.file(row.id)).toMatchObject({ state: 'ready', mediaId: 'm-1', uploadUrl: 'https://x/api/uploads/m-1', progress: 1 });
  });

  it('on a shared phone, sends and shows only the signed-in participant’s rows; the others wait for their owner', async () => {
    const { outbox, clock, storage, signIn } = setup();
    const left = await outbox.saveFile({ file: photo(), name: 'pia.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    await outbox.queueSubmit({ formKey: 'f', title: 'S', createPath: null, createBody: null, path: '/s', body: { answers: {}, revision: 1 }, draftKey: null });
    signIn(null);
    await expect(outbox.saveFile({ file: photo(), name: 'x.jpg', questionId: 'q', formKey: 'f', kind: 'photo' })).rejects.toThrow('nobody is signed in');
    signIn('8');
    const fake = fakeDeps(outbox, clock, [{ created: 'https://x/api/uploads/m-8' }], [{ mediaId: 'm-8', kind: 'photo', status: 'ready', reason: null }]);
    const sender = createSender(fake.deps);
    expect(await sender.run()).toBe('idle');
    expect(fake.uploads).toHaveLength(0);
    expect(fake.calls).toHaveLength(0);
    expect(await outbox.files('f')).toEqual([]);
    expect(await outbox.file(left.id)).toBeUndefined();
    await outbox.removeFile(left.id);
    expect(readSummary(storage, '8').items).toEqual([]);
    expect(somethingWaits(storage, '8')).toBe(false);
    // Participant 8's own photo goes; participant 7's waits, untouched.
    await outbox.saveFile({ file: photo(), name: 'sam.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    expect(await sender.run()).toBe('idle');
    expect(fake.uploads.map((upload) => upload.row.name)).toEqual(['sam.jpg']);
    signIn('7');
    expect(readSummary(storage, '7').items.map((item) => item.what)).toEqual(['photo', 'submit']);
    expect(await outbox.file(left.id)).toMatchObject({ state: 'saved', name: 'pia.jpg' });
  });

  it('asks the API first: unreachable, nothing is sent', async () => {
    const { outbox, clock } = setup();
    await outbox.saveFile({ file: photo(), name: 'a.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    const fake = fakeDeps(outbox, clock, []);
    fake.setOnline(false);
    expect(await createSender(fake.deps).run()).toBe('offline');
    expect(fake.uploads).toHaveLength(0);
  });

  it('resumes at the kept upload URL after a cut, with a growing wait', async () => {
    const { outbox, clock } = setup();
    const row = await outbox.saveFile({ file: photo(), name: 'a.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    const fake = fakeDeps(
      outbox,
      clock,
      [{ created: '/api/uploads/m-2', progress: [[4, 10]], fail: 0 }, { progress: [[10, 10]] }],
      [{ mediaId: 'm-2', kind: 'photo', status: 'ready', reason: null }],
    );
    const sender = createSender(fake.deps);
    expect(await sender.run()).toBe('offline');
    expect(await outbox.file(row.id)).toMatchObject({ state: 'saved', reason: 'interrupted', attempts: 1, uploadUrl: '/api/uploads/m-2', mediaId: 'm-2' });
    // Not before its wait is over.
    expect(await sender.run()).toBe('waiting');
    expect(fake.uploads).toHaveLength(1);
    clock.add(backoffMs(1));
    expect(await sender.run()).toBe('idle');
    expect(fake.uploads[1]?.row.uploadUrl).toBe('/api/uploads/m-2');
    expect((await outbox.file(row.id))?.state).toBe('ready');
  });

  it('fails a file for good on 415 and 413 (no Try again), and after too many network failures with Try again', async () => {
    const { outbox, clock, storage } = setup();
    const refused = await outbox.saveFile({ file: photo(), name: 'a.txt', questionId: 'q', formKey: 'f', kind: 'photo' });
    const fake = fakeDeps(outbox, clock, [{ fail: 415 }]);
    await createSender(fake.deps).run();
    expect(await outbox.file(refused.id)).toMatchObject({ state: 'failed', final: true, reason: 'refused 415' });
    expect(readSummary(storage, '7').items[0]?.retry).toBe(false);
    expect(isFinal(413)).toBe(true);
    expect(isFinal(503)).toBe(false);

    const flaky = await outbox.saveFile({ file: photo(), name: 'b.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    await outbox.updateFile(flaky.id, { attempts: MAX_ATTEMPTS - 1 });
    const again = fakeDeps(outbox, clock, [{ fail: 503 }, {}], [{ mediaId: 'x', kind: 'photo', status: 'ready', reason: null }]);
    const sender = createSender(again.deps);
    await sender.run();
    expect(await outbox.file(flaky.id)).toMatchObject({ state: 'failed', final: false });
    await sender.retry(flaky.id);
    expect(await outbox.file(flaky.id)).toMatchObject({ state: 'saved', attempts: 0 });
  });

  it('a processing failure is failed with the server reason', async () => {
    const { outbox, clock } = setup();
    const row = await outbox.saveFile({ file: photo(), name: 'v.mp4', questionId: 'q', formKey: 'f', kind: 'video' });
    const fake = fakeDeps(
      outbox,
      clock,
      [{ created: '/api/uploads/m-3' }],
      [{ mediaId: 'm-3', kind: 'video', status: 'failed', reason: 'could not be processed' }],
    );
    await createSender(fake.deps).run();
    expect(await outbox.file(row.id)).toMatchObject({ state: 'failed', final: true, reason: 'could not be processed' });
  });

  it('sends a queued submit once its files are ready, stand-ins replaced by media ids, with its revision', async () => {
    const { outbox, clock } = setup();
    const row = await outbox.saveFile({ file: photo(), name: 'a.jpg', questionId: 'q', formKey: 'f', kind: 'photo' });
    await outbox.queueSubmit({
      formKey: 'f',
      title: 'Kitchen',
      createPath: '/api/missions/4/entries',
      createBody: {},
      path: '/api/missions/4/entries/{id}/submit',
      body: { answers: { q: ['old', localToken(row.id)], t: 'hi' }, revision: 3 },
      draftKey: 'draft-key',
    });
    const fake = fakeDeps(outbox, clock, [{ created: '/api/uploads/m-9' }], [{ mediaId: 'm-9', kind: 'photo', status: 'ready', reason: null }]);
    fake.callResults.push({ id: 12 }, {});
    await createSender(fake.deps).run();
    expect(fake.calls).toEqual([
      { path: '/api/missions/4/entries', body: {} },
      { path: '/api/missions/4/entries/12/submit', body: { answers: { q: ['old', 'm-9'], t: 'hi' }, revision: 3 } },
    ]);
    expect(fake.cleared).toEqual(['draft-key']);
    expect((await outbox.submits('f'))[0]?.state).toBe('sent');
    expect(await outbox.file(row.id)).toBeUndefined();
  });

  it('a queued submit meeting a conflict is failed, never sent over it', async () => {
    const { outbox, clock } = setup();
    await outbox.queueSubmit({ formKey: 'f', title: 'S', createPath: null, createBody: null, path: '/s', body: { answers: {}, revision: 1 }, draftKey: 'k' });
    const fake = fakeDeps(outbox, clock, []);
    fake.callResults.push({ status: 409, code: 'conflict' });
    await createSender(fake.deps).run();
    expect((await outbox.submits('f'))[0]).toMatchObject({ state: 'failed', reason: 'conflict' });
    expect(fake.cleared).toEqual([]);
  });

  it('a trigger during a pass (a capture saved after the pass looked) brings one more pass', async () => {
    const { outbox, clock } = setup();
    let second: Promise<unknown> | null = null;
    let sender: ReturnType<typeof createSender> | null = null;
    // The first pass lists no file; the capture is saved and the sender triggered right after it looked.
    const watched: Outbox = {
      ...outbox,
      async files(formKey) {
        const list = await outbox.files(formKey);
        if (!second) {
          await outbox.saveFile({ file: photo(), name: 'shop.jpg', questionId: 'q1', formKey: 'f', kind: 'photo' });
          second = sender!.run();
        }
        return list;
      },
    };
    const fake = fakeDeps(
      watched,
      clock,
      [{ created: '/api/uploads/m-1', progress: [[10, 10]] }],
      [{ mediaId: 'm-1', kind: 'photo', status: 'ready', reason: null }],
    );
    sender = createSender(fake.deps);
    expect(await sender.run()).toBe('idle');
    expect(await second).toBe('idle');
    expect(fake.uploads).toHaveLength(1);
    expect(await outbox.files()).toEqual([expect.objectContaining({ state: 'ready', mediaId: 'm-1' })]);
  });

  it('the connection back during a pass that found it gone brings one more pass (the trigger is not lost)', async () => {
    const { outbox, clock } = setup();
    await outbox.saveFile({ file: photo(), name: 'shop.jpg', questionId: 'q1', formKey: 'f', kind: 'photo' });
    const fake = fakeDeps(
      outbox,
      clock,
      [{ created: '/api/uploads/m-2', progress: [[10, 10]] }],
      [{ mediaId: 'm-2', kind: 'photo', status: 'ready', reason: null }],
    );
    const sender = createSender(fake.deps);
    let asked = 0;
    let triggered: Promise<unknown> | null = null;
    fake.deps.reachable = async () => {
      asked += 1;
      if (asked > 1) return true;
      // The API did not answer; meanwhile the connection came back (the `online` event's run, a task of its own).
      await new Promise((resolve) => setTimeout(resolve, 0));
      fake.setOnline(true);
      triggered = sender.run();
      return false;
    };
    expect(await sender.run()).toBe('idle');
    expect(await triggered).toBe('idle');
    expect(fake.uploads).toHaveLength(1);
  });

  it('runs only while it holds the lock', async () => {
    const { outbox, clock } = setup();
    const fake = fakeDeps(outbox, clock, []);
    expect(await createSender({ ...fake.deps, withLock: async () => null }).run()).toBe('busy');
  });
});

describe('the form’s media store', () => {
  it('on a page that opened with an empty outbox, follows a file from its capture to ready', async () => {
    const { outbox } = setup();
    const kicks: number[] = [];
    lazy.runtime = { outbox, kick: () => kicks.push(1), sender: {}, reachable: async () => true } as unknown as OutboxRuntime;
    const store = createMediaStore('survey-1');
    let heard = 0;
    store.subscribe(() => heard++);
    await store.add('q1', 'photo', [{ file: photo(), durationMs: null }]);
    const [row] = store.rows().q1 ?? [];
    expect(row).toMatchObject({ name: 'shop.jpg', state: 'saved' });
    expect(kicks).toHaveLength(1);
    // The sender moves the file on: the screen hears of it.
    const before = heard;
    await outbox.updateFile(row!.id, { state: 'ready', mediaId: 'm-1' });
    await vi.waitFor(() => expect(store.rows().q1?.[0]).toMatchObject({ state: 'ready', mediaId: 'm-1' }));
    expect(heard).toBeGreaterThan(before);
  });
});

describe('a queued submit', () => {
  it('whose outbox code cannot come offline waits for the connection, then is kept and sent', async () => {
    const { outbox } = setup();
    const kicks: number[] = [];
    lazy.runtime = { outbox, kick: () => kicks.push(1), sender: {}, reachable: async () => true } as unknown as OutboxRuntime;
    lazy.failures = 1;
    const win = new EventTarget();
    vi.stubGlobal('window', win);
    try {
      const queued = queueSubmit({
        formKey: 'entry-1',
        target: { title: 'Diary', path: '/api/missions/1/entries/2/submit' },
        answers: { cooked: 'Soup' },
        revision: 3,
        language: 'en',
        draftKey: 'draft-1',
        onSent: () => undefined,
        onFailed: () => undefined,
      });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await outbox.submits('entry-1')).toEqual([]);
      win.dispatchEvent(new Event('online'));
      expect(await queued).toEqual({ online: true });
      expect(await outbox.submits('entry-1')).toEqual([
        expect.objectContaining({ path: '/api/missions/1/entries/2/submit', body: expect.objectContaining({ revision: 3 }) }),
      ]);
      expect(kicks).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('helpers', () => {
  it('reads the media id from an upload URL', () => {
    expect(mediaIdOf('https://h/api/uploads/abc-1?x=1')).toBe('abc-1');
    expect(mediaIdOf('/api/uploads/abc-2/')).toBe('abc-2');
  });

  it('waits while a file is not ready and reports a failed one', () => {
    const file = { id: 'r', mediaId: null, state: 'uploading' } as unknown as OutboxFile;
    expect(resolveAnswers({ q: [localToken('r')] }, [file])).toEqual({ wait: true });
    expect(resolveAnswers({ q: [localToken('r')] }, [{ ...file, state: 'failed' }])).toEqual({ failed: expect.objectContaining({ id: 'r' }) });
    expect(resolveAnswers({ q: [localToken('gone')], n: 2 }, [])).toEqual({ answers: { n: 2 } });
  });

  it('says when space is short and who gets the iPhone note', () => {
    expect(spaceIsShort({ quota: 1000 * 1024 * 1024, usage: 950 * 1024 * 1024 })).toBe(true);
    expect(spaceIsShort({ quota: 10 * 1024 * 1024 * 1024, usage: 1024 })).toBe(false);
    expect(isAppleMobile('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)')).toBe(true);
    expect(isAppleMobile('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)', 5)).toBe(true);
    expect(isAppleMobile('Mozilla/5.0 (Linux; Android 15)')).toBe(false);
  });
});
