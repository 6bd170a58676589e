// @vitest-environment happy-dom
/**
 * The one loading hook (src/lib/resource.ts) against a stubbed fetch: what it shows while
 * loading, on a 404, on a failure and after "Try again"; that it is ready only once the session
 * is known; a 401 sending the visitor to sign in; the quiet refresh; replacing what was loaded;
 * a late answer for an address the screen has left; and the ids of the address bar.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { $auth } from '../../../src/stores/auth.ts';

const handleSessionLost = vi.fn((error: unknown) => (error as { status?: number }).status === 401);
vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost }));
const { idsFromPath, useResource, useRouteIds } = await import('../../../src/lib/resource.ts');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const failure = (status: number, message: string) => json(status, { error: { code: `http_${status}`, message } });

/** Answers per URL, taken in order (the last one repeats); `hold` answers wait until released. */
let answers: Map<string, (() => Response | Promise<Response>)[]>;
let requested: string[];

function answer(url: string, ...responses: (Response | (() => Promise<Response>))[]): void {
  answers.set(
    url,
    responses.map((response) => (response instanceof Response ? () => response.clone() : response)),
  );
}

/** A response that comes when `release` is called. */
function held(): { response: () => Promise<Response>; release: (response: Response) => void } {
  let release: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { response: () => promise, release };
}

beforeEach(() => {
  answers = new Map();
  requested = [];
  handleSessionLost.mockClear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      requested.push(url);
      const queue = answers.get(url);
      if (!queue || queue.length === 0) throw new TypeError('Failed to fetch');
      const next = queue.length > 1 ? queue.shift()! : queue[0]!;
      const response = await next();
      if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
      return response;
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useResource', () => {
  // First: the session is known once for the whole file (authReady resolves once per page load).
  it('is ready only once the session is known, so keys by user never read a session still being checked', async () => {
    answer('/api/things/1', json(200, { id: 1 }));
    const { result } = renderHook(() => useResource<{ id: number }>('/api/things/1'));
    await waitFor(() => expect(requested).toEqual(['/api/things/1']));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(result.current.load).toEqual({ status: 'loading' });
    act(() =>
      $auth.set({ status: 'authenticated', user: { id: 7, email: 'ada@example.org', firstName: 'Ada', lastName: 'L', role: 'participant', status: 'active' } }),
    );
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { id: 1 } }));
  });

  it('asks for nothing while the address is not known', async () => {
    const { result } = renderHook(() => useResource<unknown>(null));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(requested).toEqual([]);
    expect(result.current.load).toEqual({ status: 'loading' });
  });

  it('says missing for a 404, with the API’s words', async () => {
    answer('/api/things/2', failure(404, 'No such thing'));
    const { result } = renderHook(() => useResource('/api/things/2'));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'missing', message: 'No such thing' }));
  });

  it('says why it failed, and "Try again" shows the loading state, then the answer', async () => {
    const second = held();
    answer('/api/things/3', failure(500, 'Something broke'), second.response);
    const { result } = renderHook(() => useResource<{ id: number }>('/api/things/3'));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'error', message: 'Something broke' }));
    act(() => result.current.reload());
    expect(result.current.load).toEqual({ status: 'loading' });
    await act(async () => second.release(json(200, { id: 3 })));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { id: 3 } }));
  });

  it('keeps what is on screen while it asks again (a reload, a new page of a list)', async () => {
    const second = held();
    answer('/api/list?page=1', json(200, { page: 1 }));
    answer('/api/list?page=2', second.response);
    const { result, rerender } = renderHook(({ path }) => useResource<{ page: number }>(path), { initialProps: { path: '/api/list?page=1' } });
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { page: 1 } }));
    rerender({ path: '/api/list?page=2' });
    expect(result.current.load).toEqual({ status: 'ready', data: { page: 1 } });
    await act(async () => second.release(json(200, { page: 2 })));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { page: 2 } }));
  });

  it('ignores a late answer for an address the screen has left', async () => {
    const first = held();
    answer('/api/list?page=1', first.response);
    answer('/api/list?page=2', json(200, { page: 2 }));
    const { result, rerender } = renderHook(({ path }) => useResource<{ page: number }>(path), { initialProps: { path: '/api/list?page=1' } });
    rerender({ path: '/api/list?page=2' });
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { page: 2 } }));
    await act(async () => first.release(json(200, { page: 1 })));
    expect(result.current.load).toEqual({ status: 'ready', data: { page: 2 } });
  });

  it('sends the visitor to sign in on a 401 and keeps its state meanwhile', async () => {
    answer('/api/things/4', failure(401, 'Sign in'));
    const { result } = renderHook(() => useResource('/api/things/4'));
    await waitFor(() => expect(handleSessionLost).toHaveBeenCalledTimes(1));
    expect(result.current.load).toEqual({ status: 'loading' });
  });

  it('refreshes quietly: the answer on screen stays when it fails (the failure is thrown), a 404 says missing', async () => {
    answer('/api/things/5', json(200, { v: 1 }), failure(503, 'Busy'), json(200, { v: 2 }), failure(404, 'Gone'));
    const { result } = renderHook(() => useResource<{ v: number }>('/api/things/5'));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { v: 1 } }));
    await act(async () => {
      await expect(result.current.refresh()).rejects.toMatchObject({ status: 503, message: 'Busy' });
    });
    expect(result.current.load).toEqual({ status: 'ready', data: { v: 1 } });
    await act(() => result.current.refresh());
    expect(result.current.load).toEqual({ status: 'ready', data: { v: 2 } });
    await act(() => result.current.refresh());
    expect(result.current.load).toEqual({ status: 'missing', message: 'Gone' });
  });

  it('puts a newer copy in place, or changes the one loaded (not before it is loaded)', async () => {
    const first = held();
    answer('/api/things/6', first.response);
    const { result } = renderHook(() => useResource<{ items: number[] }>('/api/things/6'));
    act(() => result.current.replace((data) => ({ items: [...data.items, 9] })));
    expect(result.current.load).toEqual({ status: 'loading' });
    await act(async () => first.release(json(200, { items: [1] })));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { items: [1] } }));
    act(() => result.current.replace((data) => ({ items: [...data.items, 2] })));
    expect(result.current.load).toEqual({ status: 'ready', data: { items: [1, 2] } });
    act(() => result.current.replace({ items: [] }));
    expect(result.current.load).toEqual({ status: 'ready', data: { items: [] } });
  });
});

describe('a change while a load is under way', () => {
  it('asks again: the answer asked before the change does not put the old state back', async () => {
    const search = held();
    answer('/api/messages', json(200, { items: ['new'] }));
    answer('/api/messages?q=x', search.response, json(200, { items: ['handled'] }));
    const { result, rerender } = renderHook(({ path }) => useResource<{ items: string[] }>(path), { initialProps: { path: '/api/messages' } });
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { items: ['new'] } }));
    // A search is sent; before it answers, the message is marked handled on screen.
    rerender({ path: '/api/messages?q=x' });
    act(() => result.current.replace({ items: ['handled'] }));
    await act(async () => search.release(json(200, { items: ['new'] })));
    await waitFor(() => expect(requested.filter((url) => url === '/api/messages?q=x')).toHaveLength(2));
    await waitFor(() => expect(result.current.load).toEqual({ status: 'ready', data: { items: ['handled'] } }));
  });
});

describe('route ids', () => {
  it('reads the ids of the pattern the address matches', () => {
    expect(idsFromPath('/admin/projects/12/surveys/7', '/admin/projects/:projectId/surveys/:surveyId')).toEqual({ projectId: 12, surveyId: 7 });
    expect(idsFromPath('/admin/projects/3/missions/new', '/admin/projects/:projectId/missions/new')).toEqual({ projectId: 3 });
    expect(idsFromPath('/ar/admin/projects/12/surveys/7', '/admin/projects/:projectId/surveys/:surveyId')).toEqual({ projectId: 12, surveyId: 7 });
    expect(idsFromPath('/surveys/5', '/surveys/:id')).toEqual({ id: 5 });
    // Under a language's prefix, the same page in that language.
    expect(idsFromPath('/ar/admin/forms/12', '/admin/forms/:id')).toEqual({ id: 12 });
    expect(idsFromPath('/de/surveys/5', '/surveys/:id')).toEqual({ id: 5 });
  });

  it('is null for another route or an id that is not a positive integer', () => {
    expect(idsFromPath('/admin/projects/12', '/admin/projects/:projectId/surveys/:surveyId')).toBeNull();
    expect(idsFromPath('/admin/projects/_', '/admin/projects/:projectId')).toBeNull();
    expect(idsFromPath('/admin/projects/0', '/admin/projects/:projectId')).toBeNull();
    expect(idsFromPath('/surveys/9999999999999999', '/surveys/:id')).toBeNull();
  });

  it('is undefined until the browser has read the address, then the ids (or null)', async () => {
    history.replaceState(null, '', '/missions/9');
    const { result } = renderHook(() => useRouteIds('/missions/:id'));
    await waitFor(() => expect(result.current).toEqual({ id: 9 }));
    history.replaceState(null, '', '/missions/nine');
    const other = renderHook(() => useRouteIds('/missions/:id'));
    await waitFor(() => expect(other.result.current).toBeNull());
  });
});
