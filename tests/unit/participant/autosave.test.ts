import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Answers } from '../../../src/shared/forms/definition.ts';
import { ApiError } from '../../../src/lib/api.ts';
import type { StorageLike } from '../../../src/lib/storage.ts';
import {
  AUTOSAVE_DELAY_MS,
  createAutosaver,
  localDraftKey,
  mergeAnswers,
  readLocalDraft,
  sameValue,
  type AnswersPayload,
  type SaveStatus,
} from '../../../src/islands/participant/autosave.ts';

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

interface Sent {
  payload: AnswersPayload;
  keepalive: boolean;
  resolve(): void;
  reject(error: unknown): void;
}

function setup({ online = (): boolean => true, key = 'k', serverAnswers = {} as Answers }: { online?: () => boolean; key?: string; serverAnswers?: Answers } = {}) {
  const storage = memoryStorage();
  const sent: Sent[] = [];
  const statuses: SaveStatus[] = [];
  const rejected: unknown[] = [];
  let storageKey = key;
  const autosaver = createAutosaver<AnswersPayload>({
    save: (payload, { keepalive }) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ payload, keepalive, resolve, reject });
      }),
    storageKey: () => storageKey,
    storage,
    serverAnswers,
    onStatus: (status) => statuses.push(status),
    onRejected: (error) => rejected.push(error),
    isOnline: online,
  });
  return { autosaver, storage, sent, statuses, rejected, setKey: (next: string) => (storageKey = next) };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the participant autosave', () => {
  it('keeps each change on the device at once and sends the last one a second after the last change', async () => {
    const { autosaver, storage, sent, statuses } = setup();
    autosaver.change({ answers: { q1: 'a' }, pageId: 'p1' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    autosaver.change({ answers: { q1: 'ab' }, pageId: 'p1' });
    expect(readLocalDraft(storage, 'k')?.payload).toEqual({ answers: { q1: 'ab' }, pageId: 'p1' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    expect(sent).toHaveLength(0);
    expect(statuses.at(-1)).toBe('saving');
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((each) => each.payload)).toEqual([{ answers: { q1: 'ab' }, pageId: 'p1' }]);
    sent[0]?.resolve();
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
    expect(autosaver.pending()).toBe(false);
  });

  it('flush sends at once; a change made while a save travels is sent after it, and stays on the device until then', async () => {
    const { autosaver, storage, sent, statuses } = setup();
    autosaver.change({ answers: { q1: 'a' }, pageId: 'p1' });
    void autosaver.flush();
    expect(sent).toHaveLength(1);
    autosaver.change({ answers: { q1: 'a', q2: 'b' }, pageId: 'p2' });
    const second = autosaver.flush();
    sent[0]?.resolve();
    await settle();
    // The first save did not acknowledge the newer answers.
    expect(readLocalDraft(storage, 'k')?.payload.answers).toEqual({ q1: 'a', q2: 'b' });
    expect(readLocalDraft(storage, 'k')?.base).toEqual({ q1: 'a' });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.payload.pageId).toBe('p2');
    sent[1]?.resolve();
    await expect(second).resolves.toBe(true);
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('offline: says so, keeps the answers on the device, and sends them when the browser is back online', async () => {
    let online = false;
    const { autosaver, storage, sent, statuses } = setup({ online: () => online });
    autosaver.change({ answers: { q1: 'typed offline' }, pageId: 'p1' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(sent).toHaveLength(0);
    expect(statuses.at(-1)).toBe('offline');
    expect(readLocalDraft(storage, 'k')?.payload.answers).toEqual({ q1: 'typed offline' });
    online = true;
    // The page calls flush on the window's `online` event.
    void autosaver.flush();
    expect(sent).toHaveLength(1);
    sent[0]?.resolve();
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('a network failure keeps the answers and tries again with back-off; a server failure says it is retrying', async () => {
    const { autosaver, storage, sent, statuses } = setup();
    autosaver.change({ answers: { q1: 'x' } });
    void autosaver.flush();
    sent[0]?.reject(new ApiError(0, 'network_error', 'offline'));
    await settle();
    expect(statuses.at(-1)).toBe('offline');
    expect(readLocalDraft(storage, 'k')).not.toBeNull();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(sent).toHaveLength(2);
    sent[1]?.reject(new ApiError(503, 'busy', 'busy'));
    await settle();
    expect(statuses.at(-1)).toBe('retrying');
    await vi.advanceTimersByTimeAsync(3_999);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(3);
    sent[2]?.resolve();
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('a refusal (409 closed) stops sending, tells the screen, and still keeps later typing on the device', async () => {
    const { autosaver, storage, sent, statuses, rejected } = setup();
    autosaver.change({ answers: { q1: 'x' } });
    void autosaver.flush();
    const refusal = new ApiError(409, 'closed', 'This survey is closed');
    sent[0]?.reject(refusal);
    await settle();
    expect(statuses.at(-1)).toBe('error');
    expect(rejected).toEqual([refusal]);
    autosaver.change({ answers: { q1: 'xy' } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    expect(readLocalDraft(storage, 'k')?.payload.answers).toEqual({ q1: 'xy' });
    await expect(autosaver.flush()).resolves.toBe(false);
  });

  it('keepalive (the page is going away) sends at once even while another save travels', async () => {
    const { autosaver, sent } = setup();
    autosaver.change({ answers: { q1: 'a' } });
    void autosaver.flush();
    autosaver.change({ answers: { q1: 'ab' } });
    void autosaver.flush({ keepalive: true });
    expect(sent.map((each) => [each.payload.answers, each.keepalive])).toEqual([
      [{ q1: 'a' }, false],
      [{ q1: 'ab' }, true],
    ]);
  });

  it('moves the device copy when the key changes (an entry created gets its own key) and forgets it on discard', async () => {
    const { autosaver, storage, sent, setKey } = setup({ key: 'new-entry' });
    autosaver.change({ answers: { q1: 'a' } });
    expect([...storage.data.keys()]).toEqual(['new-entry']);
    setKey('entry-9');
    autosaver.change({ answers: { q1: 'ab' } });
    expect([...storage.data.keys()]).toEqual(['entry-9']);
    autosaver.discard();
    expect(storage.data.size).toBe(0);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toHaveLength(0);
  });

  it('sends nothing after dispose', async () => {
    const { autosaver, sent } = setup();
    autosaver.change({ answers: { q1: 'a' } });
    autosaver.dispose();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toHaveLength(0);
  });
});

describe('answers kept on the device', () => {
  it('keys are per user and per response or entry', () => {
    expect(localDraftKey(7, 'survey', 3)).toBe('fieldwork-answers-7-survey-3');
    expect(localDraftKey('7', 'entry', 3)).not.toBe(localDraftKey('8', 'entry', 3));
    expect(localDraftKey(7, 'new-entry', 3)).not.toBe(localDraftKey(7, 'entry', 3));
  });

  it('an unreadable copy is ignored', () => {
    const storage = memoryStorage();
    storage.setItem('a', '{not json');
    storage.setItem('b', JSON.stringify({ payload: { answers: 'no' } }));
    expect(readLocalDraft(storage, 'a')).toBeNull();
    expect(readLocalDraft(storage, 'b')).toBeNull();
    expect(readLocalDraft(null, 'a')).toBeNull();
  });

  it('merges per element: this device’s changes win, changes made elsewhere meanwhile are kept', () => {
    const base: Answers = { q1: 'old', q2: 'same', q3: 'gone here' };
    const mine: Answers = { q1: 'mine', q2: 'same' };
    const server: Answers = { q1: 'theirs', q2: 'theirs too', q3: 'gone here', q4: 'added there' };
    expect(mergeAnswers(base, mine, server)).toEqual({ q1: 'mine', q2: 'theirs too', q4: 'added there' });
    expect(mergeAnswers({}, {}, { q1: 'x' })).toEqual({ q1: 'x' });
  });

  it('compares answers by value, object keys in any order', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(undefined, null)).toBe(false);
  });
});
