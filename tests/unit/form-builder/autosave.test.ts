// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { FORM_SCHEMA_ID } from '../../../src/shared/forms/constants.ts';
import type { FormDraft } from '../../../src/shared/forms/definition.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { AUTOSAVE_DELAY_MS, localDraftKey, readLocalDraft, useAutosave } = await import('../../../src/islands/admin/forms/use-autosave.ts');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const draft = (title: string): FormDraft => ({ schema: FORM_SCHEMA_ID, title, pages: [{ id: 'page_1', title: '', elements: [] }] });

interface Call {
  method: string;
  url: string;
  body: { definition: FormDraft; revision: number };
  keepalive: boolean;
}

let calls: Call[] = [];
let answers: (() => Response)[] = [];

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  calls = [];
  answers = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ method: String(init.method), url, body: JSON.parse(String(init.body)) as Call['body'], keepalive: init.keepalive === true });
      const answer = answers.shift();
      if (!answer) throw new TypeError('Failed to fetch');
      return answer();
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup() {
  const initial = draft('One');
  return renderHook(({ current }: { current: FormDraft }) => useAutosave({ formId: 7, draft: current, initialDraft: initial, initialRevision: 3 }), {
    initialProps: { current: initial },
  });
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

describe('autosave', () => {
  it('saves once, after the pause, with the revision; keeps the draft locally until then', async () => {
    const hook = setup();
    expect(hook.result.current.status).toBe('saved');
    answers.push(json(200, { revision: 4, title: 'Two', updatedAt: '2026-05-01T10:00:00.000Z' }));
    hook.rerender({ current: draft('Tw') });
    hook.rerender({ current: draft('Two') });
    expect(hook.result.current.status).toBe('saving');
    expect(readLocalDraft(7)?.draft.title).toBe('Two');
    await advance(AUTOSAVE_DELAY_MS - 100);
    expect(calls).toHaveLength(0);
    await advance(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'PUT', url: '/api/admin/forms/7/draft', body: { revision: 3, definition: { title: 'Two' } } });
    expect(hook.result.current.status).toBe('saved');
    expect(hook.result.current.revision()).toBe(4);
    expect(localStorage.getItem(localDraftKey(7))).toBeNull();
  });

  it('on 409 stale_revision stops and asks; "keep mine" saves again with their revision', async () => {
    const hook = setup();
    answers.push(
      json(409, {
        error: {
          code: 'stale_revision',
          message: 'Someone else saved this form since you opened it',
          revision: 9,
          draft: draft('Theirs'),
          title: 'Theirs',
          updatedAt: '2026-05-01T10:00:00.000Z',
          updatedBy: null,
        },
      }),
    );
    hook.rerender({ current: draft('Mine') });
    await advance(AUTOSAVE_DELAY_MS + 10);
    expect(hook.result.current.status).toBe('conflict');
    expect(hook.result.current.conflict?.revision).toBe(9);
    // Nothing more is sent while the person decides, and the local copy stays.
    hook.rerender({ current: draft('Mine!') });
    await advance(AUTOSAVE_DELAY_MS * 3);
    expect(calls).toHaveLength(1);
    expect(readLocalDraft(7)?.draft.title).toBe('Mine!');
    answers.push(json(200, { revision: 10, title: 'Mine!', updatedAt: '2026-05-01T10:01:00.000Z' }));
    act(() => hook.result.current.keepMine());
    await advance(10);
    expect(calls[1]?.body).toMatchObject({ revision: 9, definition: { title: 'Mine!' } });
    expect(hook.result.current.status).toBe('saved');
  });

  it('"load theirs" makes their draft the saved one', async () => {
    const hook = setup();
    answers.push(
      json(409, {
        error: {
          code: 'stale_revision',
          message: 'x',
          revision: 5,
          draft: draft('Theirs'),
          title: 'Theirs',
          updatedAt: '2026-05-01T10:00:00.000Z',
          updatedBy: null,
        },
      }),
    );
    hook.rerender({ current: draft('Mine') });
    await advance(AUTOSAVE_DELAY_MS + 10);
    let theirs: FormDraft | null = null;
    act(() => {
      theirs = hook.result.current.takeTheirs();
    });
    expect(theirs).toEqual(draft('Theirs'));
    hook.rerender({ current: draft('Theirs') });
    await advance(AUTOSAVE_DELAY_MS * 2);
    expect(calls).toHaveLength(1);
    expect(hook.result.current.status).toBe('saved');
    expect(hook.result.current.revision()).toBe(5);
  });

  it('retries after a network failure (offline), then saves', async () => {
    const hook = setup();
    hook.rerender({ current: draft('Two') });
    await advance(AUTOSAVE_DELAY_MS + 10);
    expect(calls).toHaveLength(1);
    expect(hook.result.current.status).toBe('offline');
    answers.push(json(200, { revision: 4, title: 'Two', updatedAt: '2026-05-01T10:00:00.000Z' }));
    await advance(2_100);
    expect(calls).toHaveLength(2);
    expect(hook.result.current.status).toBe('saved');
  });

  it('a server failure says it is retrying and waits for Retry-After', async () => {
    const hook = setup();
    answers.push(
      () =>
        new Response(JSON.stringify({ error: { code: 'unavailable', message: 'Busy' } }), {
          status: 503,
          headers: { 'Content-Type': 'application/json', 'Retry-After': '7' },
        }),
    );
    hook.rerender({ current: draft('Two') });
    await advance(AUTOSAVE_DELAY_MS + 10);
    expect(hook.result.current.status).toBe('retrying');
    answers.push(json(200, { revision: 4, title: 'Two', updatedAt: '2026-05-01T10:00:00.000Z' }));
    await advance(6_900);
    expect(calls).toHaveLength(1);
    await advance(200);
    expect(calls).toHaveLength(2);
    expect(hook.result.current.status).toBe('saved');
  });

  it('sends what is unsaved at once, as a keepalive request, when the page is hidden', async () => {
    const hook = setup();
    answers.push(json(200, { revision: 4, title: 'Two', updatedAt: '2026-05-01T10:00:00.000Z' }));
    hook.rerender({ current: draft('Two') });
    await act(async () => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(calls).toMatchObject([{ method: 'PUT', keepalive: true, body: { revision: 3, definition: { title: 'Two' } } }]);
    await advance(10);
    expect(hook.result.current.status).toBe('saved');
    await advance(AUTOSAVE_DELAY_MS * 2);
    expect(calls).toHaveLength(1);
  });

  it('stops for good when the form is archived (409 archived), keeping the local copy', async () => {
    const hook = setup();
    answers.push(json(409, { error: { code: 'archived', message: 'This form is archived; restore it to change it' } }));
    hook.rerender({ current: draft('Two') });
    await advance(AUTOSAVE_DELAY_MS + 10);
    expect(hook.result.current.status).toBe('error');
    expect(hook.result.current.message).toBe('This form is archived; restore it to change it');
    expect(readLocalDraft(7)?.draft.title).toBe('Two');
  });
});
