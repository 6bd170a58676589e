/**
 * A fake API for the islands' tests (happy-dom): `fetch` answers each `METHOD url` with the answers
 * given to `on`, taken in order (the last one repeats); an address with none fails as a network
 * error would. Every call is recorded with its JSON body (`sent`). `install()` in `beforeEach` starts
 * afresh; `vi.unstubAllGlobals()` in `afterEach` removes it.
 */
import { vi } from 'vitest';

export interface FakeApiCall {
  method: string;
  url: string;
  body: unknown;
}

/** A JSON answer (`null`: no body). */
export const json = (status: number, body: unknown): Response =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

export function fakeApi() {
  const calls: FakeApiCall[] = [];
  const routes = new Map<string, Response[]>();
  return {
    calls,
    /** Answers `METHOD url` with these, in order (the last one repeats). */
    on(method: string, url: string, ...answers: Response[]): void {
      routes.set(`${method} ${url}`, answers);
    },
    /** The JSON bodies sent to `METHOD url`, in order. */
    sent(method: string, url: string): unknown[] {
      return calls.filter((call) => call.method === method && call.url === url).map((call) => call.body);
    },
    /** Forgets every answer and call, and puts this fake in place of `fetch`. */
    install(): void {
      calls.length = 0;
      routes.clear();
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init: RequestInit = {}) => {
          const call: FakeApiCall = {
            method: String(init.method ?? 'GET'),
            url,
            body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
          };
          calls.push(call);
          const queue = routes.get(`${call.method} ${url}`);
          if (!queue?.length) throw new TypeError('Failed to fetch');
          return (queue.length > 1 ? queue.shift()! : queue[0]!).clone();
        }),
      );
    },
  };
}
