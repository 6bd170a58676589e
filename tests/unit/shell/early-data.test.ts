import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from '../../../src/platform/api.ts';
import { EARLY_BUILD_LATEST, EARLY_MAX_AGE_MS, earlyDataInlineScript, takeEarlyResponse } from '../../../src/platform/early.ts';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('early data (docs/architecture.md, "Early data")', () => {
  let now = 1_000;
  let fetch: ReturnType<typeof vi.fn>;
  let clock: { mockRestore(): void };

  beforeEach(() => {
    now = 1_000;
    fetch = vi.fn(async (input: string) => {
      const url = String(input);
      if (url.startsWith('/builds/latest.json')) return json({ id: 'b1', timestamp: 1 });
      if (url === '/api/auth') return json({ error: { code: 'unauthenticated', message: 'Sign in' } }, 401);
      return json({ url, call: fetch.mock.calls.length });
    });
    vi.stubGlobal('window', globalThis);
    // A full page load: the script runs while the document loads.
    vi.stubGlobal('document', { readyState: 'loading' });
    vi.stubGlobal('fetch', fetch);
    clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
  });

  afterEach(() => {
    delete (globalThis as Record<string, unknown>).__fieldworkEarly;
    vi.unstubAllGlobals();
    clock.mockRestore();
  });

  const runScript = (paths: string[], pattern?: string) => new Function(earlyDataInlineScript(paths, pattern))() as void;

  it('the head script asks at once; the client takes that answer once, then asks the API itself', async () => {
    runScript(['/api/home']);
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/auth');
    const started = fetch.mock.calls.map(([url]) => String(url));
    expect(started).toContain('/api/home');
    expect(started.some((url) => url.startsWith(`${EARLY_BUILD_LATEST}?`))).toBe(true);

    const first = await apiGet<{ url: string; call: number }>('/api/home');
    expect(first.url).toBe('/api/home');
    expect(fetch.mock.calls.filter(([url]) => url === '/api/home')).toHaveLength(1);

    await apiGet('/api/home');
    expect(fetch.mock.calls.filter(([url]) => url === '/api/home')).toHaveLength(2);
  });

  it('an early refusal is the same ApiError as the API’s', async () => {
    runScript([]);
    const failure = await apiGet('/api/auth').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
  });

  it('an answer older than its freshness is not taken', async () => {
    runScript(['/api/home']);
    now += EARLY_MAX_AGE_MS + 1;
    expect(takeEarlyResponse('/api/home')).toBeNull();
    await apiGet('/api/home');
    expect(fetch.mock.calls.filter(([url]) => url === '/api/home')).toHaveLength(2);
  });

  it('the build meta is asked for as soon as latest.json answers', async () => {
    runScript([]);
    await vi.waitFor(() => expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/builds/meta/b1.json'));
    expect(takeEarlyResponse('/builds/meta/b1.json')).not.toBeNull();
  });

  it('a dynamic route’s paths take their ids from the address, with or without its language; another address asks for nothing', async () => {
    const asked = () => fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/surveys'));
    for (const [pathname, expected] of [
      ['/ar/surveys/12', ['/api/surveys/12']],
      ['/surveys/7/', ['/api/surveys/7']],
      ['/surveys/not-an-id', []],
      ['/missions/7', []],
    ] as const) {
      fetch.mockClear();
      delete (globalThis as Record<string, unknown>).__fieldworkEarly;
      vi.stubGlobal('location', { pathname });
      runScript(['/api/surveys/:id'], '/surveys/:id');
      expect(asked(), pathname).toEqual(expected);
    }
    // The screen's own call takes the early answer: one request in all.
    fetch.mockClear();
    vi.stubGlobal('location', { pathname: '/surveys/7' });
    runScript(['/api/surveys/:id'], '/surveys/:id');
    expect(asked()).toEqual(['/api/surveys/7']);
    expect(await apiGet<{ url: string }>('/api/surveys/7')).toMatchObject({ url: '/api/surveys/7' });
    expect(asked()).toEqual(['/api/surveys/7']);
    expect(() => earlyDataInlineScript(['/api/surveys/:surveyId'], '/surveys/:id')).toThrow(/:surveyId is not a parameter/);
  });
});
