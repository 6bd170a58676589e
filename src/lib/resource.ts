/**
 * How a screen loads what it shows, the one way: `useResource(path)` GETs an API path into a
 * `Load<T>` (loading, ready, missing for a 404, error with the words to show), and
 * `useRouteIds(pattern)` reads the ids of the address bar (a dynamic route is one prerendered
 * shell for every id). The states are drawn by `src/components/states/`.
 *
 * - A 401 means the session ended: the visitor is sent to sign in (`handleSessionLost`) and the
 *   load keeps its state meanwhile.
 * - `ready` comes only once the visitor is known (`authReady`), so a screen that keys what it
 *   keeps on the device by user (the participant's unsent answers) reads a settled user, never
 *   the "anon" of a session still being checked.
 * - What is on screen stays while it is asked for again (`reload`, a new page of a list): the
 *   loading state shows only when nothing is loaded yet.
 */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { splitLanguage } from '../shared/languages.ts';
import { matchRoute, type RoutePattern } from '../shared/routes.ts';
import { authReady } from '../stores/auth.ts';
import { ApiError, apiGet } from '../platform/api.ts';
import { errorMessage } from './form-errors.ts';
import { handleSessionLost } from './session.ts';

/** A GET's state. `missing`: the API answered 404 (its words in `message`, for lists where that is a failure). */
export type Load<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'missing'; message: string } | { status: 'error'; message: string };

export interface Resource<T> {
  load: Load<T>;
  /** Asks again; a failure becomes the load's state (the screen shows it, with "Try again"). */
  reload(): void;
  /**
   * Asks again quietly: what is on screen stays, and a failure other than a 404 is thrown (for
   * the screen to say in a toast) instead of replacing it. Resolves when done.
   */
  refresh(): Promise<void>;
  /** Puts a newer copy in place (a PATCH answered with it), or changes the one loaded (ignored until loaded). */
  replace(next: T | ((data: T) => T)): void;
}

const LOADING = { status: 'loading' } as const;

/** The load a failed GET leaves: null when the failure was handled elsewhere (aborted, session ended). */
function failed(error: unknown, signal: AbortSignal): Load<never> | null {
  if (signal.aborted || handleSessionLost(error)) return null;
  const message = errorMessage(error);
  return error instanceof ApiError && error.status === 404 ? { status: 'missing', message } : { status: 'error', message };
}

/** GETs `path` (null: not yet, e.g. before the address bar is read; nothing is asked and the load stays as it is). */
export function useResource<T>(path: string | null): Resource<T> {
  const [load, setLoad] = useState<Load<T>>(LOADING);
  const [attempt, setAttempt] = useState(0);
  const running = useRef<AbortController | null>(null);

  /** One GET into the load; `quiet` throws failures other than a 404 instead of showing them. */
  const fetchInto = useCallback(async (target: string, quiet: boolean) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    try {
      const [data] = await Promise.all([apiGet<T>(target, { signal: controller.signal }), authReady()]);
      // A transition: React renders what came in slices, yielding to the page between them, so a
      // long list arriving is not one long task on a phone (total blocking time, issue 19).
      if (!controller.signal.aborted) startTransition(() => setLoad({ status: 'ready', data }));
    } catch (error) {
      const next = failed(error, controller.signal);
      if (next === null) return;
      if (quiet && next.status === 'error') throw error;
      setLoad(next);
    } finally {
      if (running.current === controller) running.current = null;
    }
  }, []);

  useEffect(() => {
    if (path === null) return;
    setLoad((current) => (current.status === 'ready' ? current : LOADING));
    void fetchInto(path, false);
    return () => running.current?.abort();
  }, [path, attempt, fetchInto]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const refresh = useCallback(async () => {
    if (path !== null) await fetchInto(path, true);
  }, [path, fetchInto]);
  const replace = useCallback((next: T | ((data: T) => T)) => {
    setLoad((current) => {
      if (typeof next !== 'function') return { status: 'ready', data: next };
      return current.status === 'ready' ? { status: 'ready', data: (next as (data: T) => T)(current.data) } : current;
    });
    // A GET still under way was asked before this change: its answer would put the old state back
    // (a search sent, then a message marked handled before it answered). Ask again instead.
    if (running.current) setAttempt((n) => n + 1);
  }, []);
  return { load, reload, refresh, replace };
}

/**
 * The numeric ids of `pathname` when it is an address of `pattern`; null when it is not, or when
 * an id is not a positive integer (at most 15 digits: safe in JS and in bigint).
 */
export function idsFromPath(pathname: string, pattern: RoutePattern): Record<string, number> | null {
  // A page under a language's prefix (`/ar/admin/…`) names the same ids.
  const match = matchRoute(splitLanguage(pathname).path);
  if (!match || match.route.pattern !== pattern) return null;
  const ids: Record<string, number> = {};
  for (const [name, raw] of Object.entries(match.params)) {
    const value = Number(raw);
    if (!/^[1-9]\d{0,14}$/.test(raw) || !Number.isSafeInteger(value)) return null;
    ids[name] = value;
  }
  return ids;
}

/**
 * The ids of the address bar for `pattern`: `undefined` until the browser has read it (the
 * prerendered HTML and the first render know no address), null when it holds no valid ids (the
 * screen's not-found state).
 */
export function useRouteIds(pattern: RoutePattern): Record<string, number> | null | undefined {
  const [ids, setIds] = useState<Record<string, number> | null | undefined>(undefined);
  useEffect(() => setIds(idsFromPath(location.pathname, pattern)), [pattern]);
  return ids;
}
