import { describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { ApiError } from '../../../src/platform/api.ts';
import { createReportQueue, errorReportData, sha1Hex } from '../../../src/lib/report-queue.ts';
import { reportContent, type Report } from '../../../src/shared/client-reports.ts';
import { reportsBodySchema } from '../../../src/shared/schemas/client-reports.ts';

function setup(response: () => Promise<Response> = async () => new Response(null, { status: 204 })) {
  const fetch = vi.fn((_input: RequestInfo | URL, _init?: RequestInit) => response());
  const warn = vi.fn();
  const queue = createReportQueue({ fetch, warn, pagePath: () => '/surveys/7', userAgent: () => 'TestAgent/1.0', intervalMs: 1000 });
  const bodies = () => fetch.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as { reports: Report[] });
  return { fetch, warn, queue, bodies };
}

describe('client error reports (docs/product.md §3, §4, §8)', () => {
  it('hashes with SHA-1 (hex) through crypto.subtle', async () => {
    expect(await sha1Hex('abc')).toBe(createHash('sha1').update('abc').digest('hex'));
  });

  it('queues { url, userAgent, data } exactly as the server schema wants and posts them with credentials', async () => {
    const { fetch, queue, bodies } = setup();
    expect(await queue.add({ type: 'action', action: { name: 'page_load', data: null } })).toBe(true);
    await queue.flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/reports');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', headers: expect.objectContaining({ 'Content-Type': 'application/json' }) });
    const body = bodies()[0];
    expect(reportsBodySchema.safeParse(body).success).toBe(true);
    expect(body?.reports).toEqual([{ url: '/surveys/7', userAgent: 'TestAgent/1.0', data: { type: 'action', action: { name: 'page_load', data: null } } }]);
    expect(queue.size).toBe(0);
  });

  it('de-duplicates by the SHA-1 of the content, in the queue and after sending', async () => {
    const { fetch, queue, bodies } = setup();
    const error = new Error('boom');
    expect(await queue.add(errorReportData(error, { type: 'uncaught', label: 'exception' }))).toBe(true);
    expect(await queue.add(errorReportData(error, { type: 'uncaught', label: 'exception' }))).toBe(false);
    await queue.flush();
    expect(await queue.add(errorReportData(error, { type: 'uncaught', label: 'exception' }))).toBe(false);
    await queue.flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(bodies()[0]?.reports).toHaveLength(1);
    const report = bodies()[0]?.reports[0] as Report;
    expect(await sha1Hex(reportContent(report))).toMatch(/^[0-9a-f]{40}$/);
  });

  it('flushes every 1000 ms and clears the queue', async () => {
    vi.useFakeTimers();
    try {
      const { fetch, queue } = setup();
      queue.start();
      await queue.add({ type: 'action', action: { name: 'misc', data: { step: 1 } } });
      await vi.advanceTimersByTimeAsync(999);
      expect(fetch).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(1);
      expect(queue.size).toBe(0);
      await vi.advanceTimersByTimeAsync(3000);
      expect(fetch).toHaveBeenCalledTimes(1);
      queue.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('only logs a failed report call (no console.error), and the queue is cleared anyway', async () => {
    const { queue, warn } = setup(async () => {
      throw new TypeError('offline');
    });
    await queue.add({ type: 'action', action: { name: 'page_load', data: null } });
    await queue.flush();
    expect(warn).toHaveBeenCalledWith('[reports] could not send client reports', expect.any(TypeError));
    expect(queue.size).toBe(0);
  });

  it('HTTP errors carry code, body and cause (name and message)', () => {
    const error = new ApiError(500, 'internal', 'Boom on the server', {}, null, '{"error":{"code":"internal"}}');
    expect(errorReportData(error, { type: 'manual' })).toEqual({
      type: 'manual',
      stacktrace: expect.any(String),
      data: { kind: 'http', code: 500, body: '{"error":{"code":"internal"}}', cause: 'ApiError: Boom on the server' },
    });
    expect(errorReportData(new ApiError(0, 'network_error', 'offline'))).toMatchObject({ data: { kind: 'http', code: null, body: null } });
  });

  it('other errors carry the stack and a type label (exception or promise)', () => {
    const data = errorReportData(new TypeError('bad'), { type: 'uncaught', label: 'promise' });
    expect(data).toMatchObject({
      type: 'uncaught',
      stacktrace: expect.stringContaining('TypeError: bad'),
      data: { kind: 'misc', data: { type: 'promise', name: 'TypeError', message: 'bad' } },
    });
    expect(errorReportData('just a string', { type: 'uncaught', label: 'promise' })).toEqual({
      type: 'uncaught',
      stacktrace: null,
      data: { kind: 'misc', data: { type: 'promise', value: 'just a string' } },
    });
  });

  it('sends at most 20 reports per call', async () => {
    const { fetch, queue, bodies } = setup();
    for (let i = 0; i < 25; i++) await queue.add({ type: 'action', action: { name: 'misc', data: i } });
    await queue.flush();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(bodies().map((b) => b.reports.length)).toEqual([20, 5]);
  });

  it('drops (with a warning) what the server would refuse', async () => {
    const { queue, warn } = setup();
    const bad = createReportQueue({ fetch: vi.fn(), warn, pagePath: () => 'https://elsewhere.example/x', userAgent: () => null });
    expect(await bad.add({ type: 'action', action: { name: 'page_load', data: null } })).toBe(false);
    expect(warn).toHaveBeenCalled();
    expect(queue.size).toBe(0);
  });
});
