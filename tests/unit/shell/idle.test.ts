import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS, SETTLE_MS, whenIdle, whenOnline, whenSettled, yieldToMain, type IdleWindow } from '../../../src/app/idle.ts';

/** A window whose `load` event and idle moments the test decides. */
function fakeWindow(readyState: DocumentReadyState, withIdle = true, onLine = true) {
  const loads: (() => void)[] = [];
  const onlines: (() => void)[] = [];
  const idles: { run: () => void; timeout: number | undefined }[] = [];
  const win: IdleWindow = {
    document: { readyState },
    navigator: { onLine },
    addEventListener: ((type: string, listener: () => void) => {
      if (type === 'load') loads.push(listener);
      if (type === 'online') onlines.push(listener);
    }) as IdleWindow['addEventListener'],
    setTimeout: ((run: () => void, ms: number) => setTimeout(run, ms) as unknown as number) as IdleWindow['setTimeout'],
    ...(withIdle
      ? {
          requestIdleCallback: ((run: IdleRequestCallback, options?: IdleRequestOptions) => {
            idles.push({ run: () => run({ didTimeout: false, timeRemaining: () => 50 }), timeout: options?.timeout });
            return idles.length;
          }) as Window['requestIdleCallback'],
        }
      : {}),
  };
  return {
    win,
    fireLoad: () => loads.splice(0).forEach((listener) => listener()),
    fireOnline: () => onlines.splice(0).forEach((listener) => listener()),
    idles,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the shell’s background work (src/app/idle.ts)', () => {
  it('waits for the load event, then SETTLE_MS, then an idle moment', () => {
    const { win, fireLoad, idles } = fakeWindow('interactive');
    const run = vi.fn();
    whenSettled(run, win);
    vi.advanceTimersByTime(SETTLE_MS * 2);
    expect(idles).toHaveLength(0);

    fireLoad();
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(idles).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(idles).toHaveLength(1);
    expect(idles[0]?.timeout).toBe(IDLE_TIMEOUT_MS);
    expect(run).not.toHaveBeenCalled();

    idles[0]?.run();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('counts from now on a page already loaded (a client-side navigation)', () => {
    const { win, idles } = fakeWindow('complete');
    const run = vi.fn();
    whenSettled(run, win);
    vi.advanceTimersByTime(SETTLE_MS);
    idles[0]?.run();
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs after a second where the browser has no idle callbacks', () => {
    const { win } = fakeWindow('complete', false);
    const run = vi.fn();
    whenIdle(run, win);
    vi.advanceTimersByTime(999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('waits for the online event when the browser is offline, and runs at once when it is not', () => {
    const offline = fakeWindow('complete', true, false);
    const run = vi.fn();
    whenOnline(run, offline.win);
    expect(run).not.toHaveBeenCalled();
    offline.fireOnline();
    expect(run).toHaveBeenCalledTimes(1);

    whenOnline(run, fakeWindow('complete').win);
    expect(run).toHaveBeenCalledTimes(2);
  });
});

describe('yieldToMain', () => {
  it("uses the browser's scheduler.yield() where it has one, else resolves after a zero-delay timer", async () => {
    const yielded = vi.fn(() => Promise.resolve());
    await yieldToMain({ scheduler: { yield: yielded } });
    expect(yielded).toHaveBeenCalledTimes(1);

    let resolved = false;
    const later = yieldToMain({}).then(() => {
      resolved = true;
    });
    await Promise.resolve();
    expect(resolved).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    await later;
    expect(resolved).toBe(true);
  });
});
