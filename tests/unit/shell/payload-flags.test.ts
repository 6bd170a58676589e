import { describe, expect, it, vi } from 'vitest';
import { createPayloadCache, payloadPagePath, payloadUrl } from '../../../src/lib/payload.ts';
import { throttled } from '../../../src/app/feature-flags.ts';
import { bootSteps } from '../../../src/app/boot.ts';
import { DEFAULT_BANNER_TEXT, bannerText } from '../../../src/stores/site-banner.ts';
import { PAYLOAD_CACHE_MS } from '../../../src/shared/ui-constants.ts';
import { jsonResponse } from './fakes.ts';

describe('page payloads (docs/architecture.md, docs/product.md §9)', () => {
  it('maps pages to their payload files (dynamic routes share the shell)', () => {
    expect(payloadPagePath('/terms/')).toBe('/terms');
    expect(payloadPagePath('/surveys/42')).toBe('/surveys/_');
    // Each language's pages have their own payloads.
    expect(payloadPagePath('/de/surveys/42')).toBe('/de/surveys/_');
    expect(payloadPagePath('/ar/terms')).toBe('/ar/terms');
    expect(payloadUrl('/')).toBe('/_payload.json');
    expect(payloadUrl('/terms')).toBe('/terms/_payload.json');
  });

  it('fetches a prerendered page once per hour', async () => {
    let now = 0;
    const fetch = vi.fn(async (_url: RequestInfo | URL) => jsonResponse({ data: { pattern: '/terms' }, prerenderedAt: 1 }));
    const cache = createPayloadCache({ fetch, now: () => now, prerendered: () => ['/terms', '/surveys/_'] });
    expect(await cache.get('/terms')).toMatchObject({ prerenderedAt: 1 });
    now = PAYLOAD_CACHE_MS - 1;
    await cache.get('/terms');
    expect(fetch).toHaveBeenCalledTimes(1);
    now = PAYLOAD_CACHE_MS;
    await cache.get('/terms');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenLastCalledWith('/terms/_payload.json', expect.anything());
    expect(await cache.get('/not-prerendered')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('does not keep a failure', async () => {
    const fetch = vi.fn(async (_url: RequestInfo | URL) => new Response('no', { status: 404 }));
    const cache = createPayloadCache({ fetch, prerendered: () => null });
    expect(await cache.get('/terms')).toBeNull();
    expect(await cache.get('/terms')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe('banner flag (docs/product.md §4)', () => {
  it('shows a truthy value: its text when a string, a default otherwise', () => {
    expect(bannerText(null)).toBeNull();
    expect(bannerText(false)).toBeNull();
    expect(bannerText('')).toBeNull();
    expect(bannerText(' Site visit Friday ')).toBe('Site visit Friday');
    expect(bannerText(true)).toBe(DEFAULT_BANNER_TEXT);
    expect(bannerText({ on: true })).toBe(DEFAULT_BANNER_TEXT);
  });

  it('is fetched at most once a minute', async () => {
    let now = 0;
    const load = vi.fn(async () => 'x');
    const get = throttled(load, 60_000, () => now);
    await get();
    now = 59_999;
    await get();
    expect(load).toHaveBeenCalledTimes(1);
    now = 60_000;
    await get();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('shell boot (docs/product.md §8)', () => {
  it('sends the first startup error to the error handler and still runs the other steps', async () => {
    const onError = vi.fn();
    const ran: string[] = [];
    const ok = await bootSteps(
      [
        () => ran.push('a'),
        () => {
          throw new Error('boot failed');
        },
        () => ran.push('c'),
      ],
      onError,
    );
    expect(ok).toBe(false);
    expect(ran).toEqual(['a', 'c']);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'boot failed' }));
    expect(await bootSteps([() => {}], onError)).toBe(true);
  });

  it('runs the steps before apartFrom at once and each later one after a pause of its own', async () => {
    const ran: string[] = [];
    const pauses: (() => void)[] = [];
    const pause = () => new Promise<void>((resolve) => pauses.push(resolve));
    const done = bootSteps([() => ran.push('guard'), () => ran.push('banner'), () => ran.push('outbox')], vi.fn(), { apartFrom: 1, pause });
    // The first step ran in the calling task; the second waits for its pause.
    expect(ran).toEqual(['guard']);
    expect(pauses).toHaveLength(1);
    pauses[0]?.();
    await vi.waitFor(() => expect(pauses).toHaveLength(2));
    expect(ran).toEqual(['guard', 'banner']);
    pauses[1]?.();
    expect(await done).toBe(true);
    expect(ran).toEqual(['guard', 'banner', 'outbox']);
  });
});
