/**
 * The autosave engine (`src/lib/autosave.ts`) as the participant screens use it: answers kept on
 * the device, debounce, offline and retrying with back-off (Retry-After too), keepalive, and
 * conflicts (409 `conflict`) merged per element against the base the changes started from, then
 * sent again with the server's revision.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Answers } from '../../../src/shared/forms/definition.ts';
import type { AnswersConflict } from '../../../src/shared/answers.ts';
import { ApiError } from '../../../src/platform/api.ts';
import { createAutosave, type SaveStatus } from '../../../src/lib/autosave.ts';
import type { StorageLike } from '../../../src/platform/storage.ts';
import {
  AUTOSAVE_DELAY_MS,
  answersCodec,
  answersConflictOf,
  changedElements,
  localDraftKey,
  mergeAnswers,
  readLocalDraft,
  resolveAnswersConflict,
  resumeFrom,
  samePayload,
  sameValue,
  type AnswersPayload,
} from '../../../src/islands/participant/autosave.ts';

function memoryStorage(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
}

interface Sent {
  payload: AnswersPayload;
  revision: number;
  keepalive: boolean;
  resolve(revision: number): void;
  reject(error: unknown): void;
}

/** The API's 409 `conflict` with what the server holds. */
const conflict = (current: AnswersConflict) =>
  new ApiError(409, 'conflict', 'Your answers were changed on another device since this page loaded them', {}, null, null, { current });

function setup({
  online = (): boolean => true,
  key = 'k',
  serverAnswers = {} as Answers,
  revision = 0,
  storage = memoryStorage(),
}: { online?: () => boolean; key?: string; serverAnswers?: Answers; revision?: number; storage?: ReturnType<typeof memoryStorage> } = {}) {
  const sent: Sent[] = [];
  const statuses: SaveStatus[] = [];
  const rejected: unknown[] = [];
  const merges: { merged: Answers; mine: Answers }[] = [];
  let storageKey = key;
  const autosave = createAutosave<AnswersPayload, { revision: number }, AnswersConflict>({
    save: (payload, how) =>
      new Promise((resolve, reject) => {
        sent.push({ payload, ...how, resolve: (next) => resolve({ revision: next }), reject });
      }),
    base: { answers: serverAnswers },
    revision,
    same: samePayload,
    conflictOf: answersConflictOf,
    conflictRevision: (found) => found.revision,
    onConflict(found, local) {
      const resolution = resolveAnswersConflict(found, local);
      merges.push({ merged: resolution.payload.answers, mine: local.mine.answers });
      return resolution;
    },
    storageKey: () => storageKey,
    storage,
    codec: answersCodec<AnswersPayload>(),
    onStatus: (status) => statuses.push(status),
    onRejected: (error) => rejected.push(error),
    isOnline: online,
    delayMs: AUTOSAVE_DELAY_MS,
  });
  return { autosave, storage, sent, statuses, rejected, merges, setKey: (next: string) => (storageKey = next) };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the autosave engine', () => {
  it('keeps each change on the device at once and sends the last one, with its revision, a second after the last change', async () => {
    const { autosave, storage, sent, statuses } = setup({ revision: 4 });
    autosave.change({ answers: { q1: 'a' }, pageId: 'p1' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    autosave.change({ answers: { q1: 'ab' }, pageId: 'p1' });
    expect(readLocalDraft(storage, 'k')).toMatchObject({ payload: { answers: { q1: 'ab' }, pageId: 'p1' }, revision: 4 });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    expect(sent).toHaveLength(0);
    expect(statuses.at(-1)).toBe('saving');
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((each) => [each.payload, each.revision])).toEqual([[{ answers: { q1: 'ab' }, pageId: 'p1' }, 4]]);
    sent[0]?.resolve(5);
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
    expect(autosave.pending()).toBe(false);
    expect(autosave.revision()).toBe(5);
  });

  it('flush sends at once; a change made while a save travels is sent after it, on the new revision, and stays on the device until then', async () => {
    const { autosave, storage, sent, statuses } = setup();
    autosave.change({ answers: { q1: 'a' }, pageId: 'p1' });
    void autosave.flush();
    expect(sent).toHaveLength(1);
    autosave.change({ answers: { q1: 'a', q2: 'b' }, pageId: 'p2' });
    const second = autosave.flush();
    sent[0]?.resolve(1);
    await settle();
    // The first save did not acknowledge the newer answers; their base is now what the server has.
    expect(readLocalDraft(storage, 'k')).toMatchObject({ payload: { answers: { q1: 'a', q2: 'b' } }, base: { answers: { q1: 'a' } }, revision: 1 });
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ payload: { pageId: 'p2' }, revision: 1 });
    sent[1]?.resolve(2);
    await expect(second).resolves.toBe(true);
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('a change back to what the server has is not sent', async () => {
    const { autosave, storage, sent, statuses } = setup({ serverAnswers: { q1: 'a' } });
    autosave.change({ answers: { q1: 'ab' } });
    autosave.change({ answers: { q1: 'a' } });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toHaveLength(0);
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('offline: says so, keeps the answers on the device, and sends them when the browser is back online', async () => {
    let online = false;
    const { autosave, storage, sent, statuses } = setup({ online: () => online });
    autosave.change({ answers: { q1: 'typed offline' }, pageId: 'p1' });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(sent).toHaveLength(0);
    expect(statuses.at(-1)).toBe('offline');
    expect(readLocalDraft(storage, 'k')?.payload.answers).toEqual({ q1: 'typed offline' });
    online = true;
    // The page calls flush on the window's `online` event.
    void autosave.flush();
    expect(sent).toHaveLength(1);
    sent[0]?.resolve(1);
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('a network failure keeps the answers and tries again with back-off; a server failure says it is retrying', async () => {
    const { autosave, storage, sent, statuses } = setup();
    autosave.change({ answers: { q1: 'x' } });
    void autosave.flush();
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
    sent[2]?.resolve(1);
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(storage.data.size).toBe(0);
  });

  it('waits as long as Retry-After says, even when the person flushes meanwhile', async () => {
    const { autosave, sent, statuses } = setup();
    autosave.change({ answers: { q1: 'x' } });
    void autosave.flush();
    sent[0]?.reject(new ApiError(429, 'rate_limited', 'Too many', {}, 10));
    await settle();
    expect(statuses.at(-1)).toBe('retrying');
    await expect(autosave.flush()).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(2);
  });

  it('a refusal (409 closed) stops sending, tells the screen, and still keeps later typing on the device', async () => {
    const { autosave, storage, sent, statuses, rejected } = setup();
    autosave.change({ answers: { q1: 'x' } });
    void autosave.flush();
    const refusal = new ApiError(409, 'closed', 'This survey is closed');
    sent[0]?.reject(refusal);
    await settle();
    expect(statuses.at(-1)).toBe('error');
    expect(rejected).toEqual([refusal]);
    autosave.change({ answers: { q1: 'xy' } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    expect(readLocalDraft(storage, 'k')?.payload.answers).toEqual({ q1: 'xy' });
    await expect(autosave.flush()).resolves.toBe(false);
  });

  it('keepalive (the page is going away) sends at once even while another save travels', async () => {
    const { autosave, sent } = setup();
    autosave.change({ answers: { q1: 'a' } });
    void autosave.flush();
    autosave.change({ answers: { q1: 'ab' } });
    void autosave.flush({ keepalive: true });
    expect(sent.map((each) => [each.payload.answers, each.keepalive])).toEqual([
      [{ q1: 'a' }, false],
      [{ q1: 'ab' }, true],
    ]);
  });

  it('moves the device copy when the key changes (an entry created gets its own key) and forgets it on discard', async () => {
    const { autosave, storage, sent, setKey } = setup({ key: 'new-entry' });
    autosave.change({ answers: { q1: 'a' } });
    expect([...storage.data.keys()]).toEqual(['new-entry']);
    setKey('entry-9');
    autosave.change({ answers: { q1: 'ab' } });
    expect([...storage.data.keys()]).toEqual(['entry-9']);
    autosave.discard();
    expect(storage.data.size).toBe(0);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toHaveLength(0);
  });

  it('sends nothing after dispose', async () => {
    const { autosave, sent } = setup();
    autosave.change({ answers: { q1: 'a' } });
    autosave.dispose();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toHaveLength(0);
  });
});

describe('conflicts: another device saved meanwhile', () => {
  it('a stale save is merged per element against its base and sent again with the server’s revision; nothing is lost', async () => {
    const { autosave, storage, sent, statuses, merges } = setup({ serverAnswers: { what: 'tea', when: 'early' }, revision: 3 });
    // This device changes `how`; the other one (unknown here) changed `what` and added `where`.
    autosave.change({ answers: { what: 'tea', when: 'early', how: 'hot' }, pageId: 'p1' });
    void autosave.flush();
    expect(sent[0]?.revision).toBe(3);
    sent[0]?.reject(conflict({ answers: { what: 'coffee', when: 'early', where: 'kitchen' }, pageId: 'p2', revision: 5 }));
    await settle();
    expect(merges).toEqual([{ mine: { what: 'tea', when: 'early', how: 'hot' }, merged: { what: 'coffee', when: 'early', where: 'kitchen', how: 'hot' } }]);
    // Sent again at once, on revision 5, with this device's page; kept on the device until it lands.
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ revision: 5, payload: { answers: { what: 'coffee', when: 'early', where: 'kitchen', how: 'hot' }, pageId: 'p1' } });
    expect(readLocalDraft(storage, 'k')).toMatchObject({ base: { answers: { what: 'coffee', when: 'early', where: 'kitchen' } }, revision: 5 });
    expect(statuses).not.toContain('conflict');
    sent[1]?.resolve(6);
    await settle();
    expect(statuses.at(-1)).toBe('saved');
    expect(autosave.revision()).toBe(6);
    expect(storage.data.size).toBe(0);
  });

  it('an answer this device cleared stays cleared; one the other device cleared goes', async () => {
    const { autosave, sent } = setup({ serverAnswers: { a: 1, b: 2, c: 3 }, revision: 1 });
    autosave.change({ answers: { b: 2, c: 3, d: 4 } });
    void autosave.flush();
    sent[0]?.reject(conflict({ answers: { a: 1, c: 3, e: 5 }, revision: 2 }));
    await settle();
    expect(sent[1]?.payload.answers).toEqual({ c: 3, d: 4, e: 5 });
  });

  it('nothing left to send after the merge (both devices made the same change): saved, no second request', async () => {
    const { autosave, sent, statuses } = setup({ serverAnswers: { a: 1 }, revision: 1 });
    autosave.change({ answers: { a: 2 } });
    void autosave.flush();
    sent[0]?.reject(conflict({ answers: { a: 2 }, revision: 2 }));
    await settle();
    expect(sent).toHaveLength(1);
    expect(statuses.at(-1)).toBe('saved');
    expect(autosave.revision()).toBe(2);
  });

  it('the offline queue sending a stale copy later: merged with what the other device saved meanwhile, nothing lost', async () => {
    let online = true;
    const { autosave, storage, sent } = setup({ online: () => online, serverAnswers: { q1: 'one' }, revision: 2 });
    online = false;
    autosave.change({ answers: { q1: 'one', q2: 'typed offline' } });
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(sent).toHaveLength(0);
    expect(readLocalDraft(storage, 'k')).toMatchObject({ base: { answers: { q1: 'one' } }, revision: 2 });
    // Meanwhile the other device saved q1 and q3 (revisions 3 and 4). Back online: the queue sends its copy of revision 2.
    online = true;
    void autosave.flush();
    expect(sent[0]).toMatchObject({ revision: 2, payload: { answers: { q1: 'one', q2: 'typed offline' } } });
    sent[0]?.reject(conflict({ answers: { q1: 'ONE', q3: 'from the phone' }, revision: 4 }));
    await settle();
    expect(sent[1]).toMatchObject({ revision: 4, payload: { answers: { q1: 'ONE', q2: 'typed offline', q3: 'from the phone' } } });
    sent[1]?.resolve(5);
    await settle();
    expect(storage.data.size).toBe(0);
  });

  it('a copy kept on the device from an earlier visit resumes merged with the server’s newer answers', () => {
    const storage = memoryStorage();
    storage.setItem(
      'k',
      JSON.stringify({
        payload: { answers: { q1: 'one', q2: 'typed offline' }, pageId: 'p2' },
        base: { q1: 'one' },
        revision: 2,
        savedAt: new Date().toISOString(),
      }),
    );
    const resumed = resumeFrom(readLocalDraft<AnswersPayload>(storage, 'k'), { answers: { q1: 'ONE', q3: 'from the phone' }, pageId: 'p1' });
    expect(resumed).toEqual({
      payload: { answers: { q1: 'ONE', q2: 'typed offline', q3: 'from the phone' }, pageId: 'p2' },
      restored: true,
      seen: { q1: 'one', q2: 'typed offline' },
    });
    expect(resumeFrom(null, { answers: { q1: 'x' } })).toEqual({ payload: { answers: { q1: 'x' } }, restored: false, seen: null });
    // A copy from before revisions (no revision, base only) still reads.
    storage.setItem('old', JSON.stringify({ payload: { answers: { q1: 'a' } }, base: {}, savedAt: new Date().toISOString() }));
    expect(readLocalDraft(storage, 'old')).toMatchObject({ payload: { answers: { q1: 'a' } }, base: { answers: {} }, revision: 0 });
  });

  it('typing goes on while the conflicting save travels: the newest answers are merged and sent', async () => {
    const { autosave, sent } = setup({ serverAnswers: {}, revision: 1 });
    autosave.change({ answers: { q1: 'a' } });
    void autosave.flush();
    autosave.change({ answers: { q1: 'ab' } });
    sent[0]?.reject(conflict({ answers: { q2: 'theirs' }, revision: 2 }));
    await settle();
    // The newest typing has its own pause: the merge goes with it.
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS);
    expect(sent[1]).toMatchObject({ revision: 2, payload: { answers: { q1: 'ab', q2: 'theirs' } } });
  });

  it('a keepalive save beside a normal one: the one answered second is merged, nothing is lost', async () => {
    const { autosave, sent } = setup({ serverAnswers: {}, revision: 1 });
    autosave.change({ answers: { q1: 'a' } });
    void autosave.flush();
    autosave.change({ answers: { q1: 'a', q2: 'b' } });
    void autosave.flush({ keepalive: true });
    // The keepalive save lands first; the normal one, from the same revision, is refused.
    sent[1]?.resolve(2);
    await settle();
    sent[0]?.reject(conflict({ answers: { q1: 'a', q2: 'b' }, revision: 2 }));
    await settle();
    expect(sent).toHaveLength(2);
    expect(autosave.pending()).toBe(false);
    expect(autosave.revision()).toBe(2);
  });

  it('a refused submit’s conflict is merged like a save’s (handleConflict); a submit that saved first moves the revision (acknowledge)', async () => {
    const { autosave, sent, merges } = setup({ serverAnswers: { a: 1 }, revision: 3 });
    expect(autosave.handleConflict(new ApiError(409, 'closed', 'closed'))).toBe(false);
    expect(autosave.handleConflict(conflict({ answers: { a: 1, b: 2 }, revision: 4 }))).toBe(true);
    // Nothing of this device's differs from the server: nothing to send, the base moves.
    expect(merges).toEqual([{ mine: { a: 1 }, merged: { a: 1, b: 2 } }]);
    expect(sent).toHaveLength(0);
    expect(autosave.revision()).toBe(4);
    autosave.acknowledge({ answers: { a: 1, b: 3 } }, 6);
    expect(autosave.revision()).toBe(6);
    expect(autosave.base()).toEqual({ answers: { a: 1, b: 3 } });
    // An older revision changes nothing.
    autosave.acknowledge({ answers: {} }, 5);
    expect(autosave.revision()).toBe(6);
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
    expect(changedElements({ a: 'x', b: ['y'] }, { b: ['y'], c: 'z' })).toEqual(['a', 'c']);
  });

  it('compares answers by value, object keys in any order', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(undefined, null)).toBe(false);
  });

  it('reads the API’s 409 conflict; anything else is not one', () => {
    expect(answersConflictOf(conflict({ answers: { a: 1 }, pageId: 'p', revision: 3 }))).toEqual({ answers: { a: 1 }, pageId: 'p', revision: 3 });
    expect(answersConflictOf(conflict({ answers: { a: 1 }, revision: 3 }))).toEqual({ answers: { a: 1 }, revision: 3 });
    expect(answersConflictOf(new ApiError(409, 'already_submitted', 'x'))).toBeNull();
    expect(answersConflictOf(new ApiError(409, 'conflict', 'x'))).toBeNull();
    expect(answersConflictOf(new Error('x'))).toBeNull();
  });
});
