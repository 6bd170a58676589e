/**
 * What the participant screens share: the id of the address bar, loading an API answer (with the
 * signed-in user, for keys of answers kept on the device), skeleton bones, the not-found and
 * failed states, the header of an activity (project, title, points, time, closing date), the
 * save line and a progress bar.
 */
import { Component, lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { matchRoute, PARAM_PATTERNS, type RoutePattern } from '../../shared/routes.ts';
import { ApiError, apiGet } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { $auth, authReady } from '../../stores/auth.ts';
import { AlertCircleIcon, CheckCircleIcon, InfoIcon } from '../../components/icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Bone, LoadingNote } from '../../components/ui/skeleton.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

export { Bone, LoadingNote };
import { ArrowLeftIcon, ClockIcon, CalendarIcon, StarIcon, LockIcon, CloudOffIcon, ExternalIcon } from '../../components/icons.tsx';

export { ArrowLeftIcon, ClockIcon, CalendarIcon, StarIcon, LockIcon, CloudOffIcon, ExternalIcon };
import { SAVE_STATUS_TEXT, type SaveStatus } from './autosave.ts';
import { closesLabel, closesSoon, minutesLabel, pointsLabel } from './format.ts';

// ---------------------------------------------------------------------------------------------
// The id in the address bar

/**
 * The numeric id of the address bar for a dynamic route: `undefined` before the browser has read
 * it (the prerendered HTML), `null` when the address is not a valid id of that route.
 */
export function useRouteId(pattern: RoutePattern, param = 'id'): number | null | undefined {
  const [id, setId] = useState<number | null | undefined>(undefined);
  useEffect(() => {
    const match = matchRoute(location.pathname);
    const raw = match?.route.pattern === pattern ? match.params[param] : undefined;
    setId(raw !== undefined && PARAM_PATTERNS.id.test(raw) ? Number(raw) : null);
  }, [pattern, param]);
  return id;
}

// ---------------------------------------------------------------------------------------------
// Loading an API answer

export type Load<T> = { status: 'loading' } | { status: 'ready'; data: T; owner: string } | { status: 'missing' } | { status: 'error'; message: string };

export interface Resource<T> {
  load: Load<T>;
  /** Loads again from scratch (the skeleton shows). */
  retry(): void;
  /** Loads again while the current answer stays on screen; resolves when done. */
  refresh(): Promise<void>;
}

/** Who is signed in, for keys of what is kept on this device ("anon" if unknown). */
export function ownerKey(): string {
  const state = $auth.get();
  return state.status === 'authenticated' ? String(state.user.id) : 'anon';
}

/**
 * GET `path` (nothing while it is `undefined`; `null` is an address that cannot exist: missing).
 * A 404 is `missing`; a 401 sends the visitor to sign in.
 */
export function useResource<T>(path: string | null | undefined): Resource<T> {
  const [load, setLoad] = useState<Load<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const current = useRef<AbortController | null>(null);

  const fetchInto = useCallback(async (target: string, signal: AbortSignal, quiet: boolean) => {
    try {
      const [data] = await Promise.all([apiGet<T>(target, { signal }), authReady()]);
      if (!signal.aborted) setLoad({ status: 'ready', data, owner: ownerKey() });
    } catch (error) {
      if (signal.aborted || handleSessionLost(error)) return;
      if (error instanceof ApiError && error.status === 404) setLoad({ status: 'missing' });
      else if (!quiet) setLoad({ status: 'error', message: errorMessage(error) });
      else throw error;
    }
  }, []);

  useEffect(() => {
    if (path === undefined) return;
    if (path === null) {
      setLoad({ status: 'missing' });
      return;
    }
    const controller = new AbortController();
    current.current = controller;
    setLoad({ status: 'loading' });
    void fetchInto(path, controller.signal, false);
    return () => controller.abort();
  }, [path, attempt, fetchInto]);

  const refresh = useCallback(async () => {
    if (!path) return;
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    await fetchInto(path, controller.signal, true);
  }, [path, fetchInto]);

  return { load, retry: useCallback(() => setAttempt((n) => n + 1), []), refresh };
}

// ---------------------------------------------------------------------------------------------
// States

const LazyNotFound = lazy(() => import('./not-found.tsx'));

/** The not-found page (a 404 from the API: unknown, not a member, not visible), loaded when needed. */
export function NotFound() {
  return (
    <Later fallback={null}>
      <LazyNotFound />
    </Later>
  );
}

/** Catches a part that failed to load (the network dropped): says so, offers a reload. */
class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="flex max-w-xl flex-col items-start gap-4">
        <Alert variant="destructive" title="Part of this page could not load">
          Check your connection, then reload the page.
        </Alert>
        <Button variant="outline" size="lg" onClick={() => location.reload()}>
          Reload
        </Button>
      </div>
    );
  }
}

/** A part of a screen loaded on demand (React.lazy), with `fallback` meanwhile and a failure caught. */
export function Later({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  return (
    <LoadBoundary>
      <Suspense fallback={fallback}>{children}</Suspense>
    </LoadBoundary>
  );
}

/** A load that failed: the reason and "Try again". */
export function LoadFailed({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <div className="flex max-w-xl flex-col items-start gap-4">
      <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
      <Alert variant="destructive" title="We could not load this page">
        {message}
      </Alert>
      <Button variant="outline" size="lg" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * The column of an activity screen (survey, mission, group), loading or loaded. At least a screen
 * tall, so the footer starts below the fold whatever the form's length: it does not jump when the
 * questions replace the skeleton (a layout shift Lighthouse measured at 0.085 on a phone).
 */
export const ACTIVITY_COLUMN = 'mx-auto flex min-h-dvh max-w-2xl flex-col gap-6';

/** The header of an activity while it loads, at its final size. */
export function HeaderSkeleton() {
  return (
    <div className="flex flex-col gap-2">
      <div className="-mt-5 flex h-11 items-center sm:-mt-6">
        <Bone className="h-4 w-16" />
      </div>
      <Bone className="h-5 w-40" />
      <Bone className="h-9 w-3/4 max-w-md" />
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        <Bone className="h-5 w-24" />
        <Bone className="h-5 w-32" />
        <Bone className="h-5 w-36" />
      </div>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Headers and meta

/** "← Home": back to the list of activities. */
export function BackLink({ href = '/', children = 'Home' }: { href?: string; children?: ReactNode }) {
  return (
    <a
      href={href}
      className="-mt-5 -ml-2 inline-flex min-h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-muted-foreground no-underline hover:text-foreground sm:-mt-6"
    >
      <ArrowLeftIcon className="size-4" />
      {children}
    </a>
  );
}

/** Points, estimated time and closing date, each with its icon. */
export function ActivityMeta({
  points,
  estimatedMinutes,
  closesAt,
  className,
}: {
  points: number;
  estimatedMinutes?: number | null;
  closesAt: string | null;
  className?: string;
}) {
  const minutes = minutesLabel(estimatedMinutes);
  const closes = closesLabel(closesAt);
  return (
    <ul className={cn('flex flex-wrap items-center gap-x-5 gap-y-1.5 text-sm text-muted-foreground', className)}>
      <li className="inline-flex items-center gap-1.5 font-medium text-foreground">
        <StarIcon className="size-4 text-primary" />
        {pointsLabel(points)}
      </li>
      {minutes && (
        <li className="inline-flex items-center gap-1.5">
          <ClockIcon className="size-4" />
          {minutes}
        </li>
      )}
      {closes && (
        <li className={cn('inline-flex items-center gap-1.5', closesSoon(closesAt) && 'font-medium text-destructive')}>
          <CalendarIcon className="size-4" />
          {closes}
        </li>
      )}
    </ul>
  );
}

/** "← Home", the project name, the page's <h1> and the meta line of a survey, mission or group. */
export function ActivityHeader({ projectName, title, children }: { projectName: string; title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Fieldwork`;
  }, [title]);
  return (
    <header className="flex flex-col gap-2">
      <BackLink />
      <p className="text-sm font-medium text-primary">{projectName}</p>
      <h1 className="text-2xl leading-tight font-semibold tracking-tight break-words sm:text-3xl">{title}</h1>
      {children}
    </header>
  );
}

/** A labelled progress bar (0…100). */
export function ProgressBar({ value, label, className }: { value: number; label: string; className?: string }) {
  const clamped = Math.min(100, Math.max(0, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className={cn('h-2 overflow-hidden rounded-full bg-muted', className)}
    >
      <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${clamped}%` }} />
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Saving

/**
 * The autosave state, announced politely (a status region), in words and not only by colour,
 * in a small chip that stays at the top while the person scrolls a long page. `idle`: nothing
 * changed yet on this visit. `note`: "Updated from your other device" when a merge changed an
 * answer on screen (its own polite region, present before it speaks so it is announced).
 */
export function SaveLine({ status, error, idle = false, note = null }: { status: SaveStatus; error: unknown; idle?: boolean; note?: string | null }) {
  const text =
    status === 'error' && error instanceof ApiError
      ? `${SAVE_STATUS_TEXT.error}: ${error.message}`
      : idle && status === 'saved'
        ? 'Your answers are saved as you go'
        : SAVE_STATUS_TEXT[status];
  const warn = status === 'offline' || status === 'retrying' || status === 'error';
  const chip = 'flex min-h-8 items-start gap-2 rounded-lg border bg-card/95 px-3 py-1.5 text-sm shadow-sm backdrop-blur-sm';
  return (
    <div className="sticky top-2 z-20 flex flex-wrap items-start gap-1.5">
      <p
        role="status"
        aria-live="polite"
        className={cn(chip, warn ? 'border-destructive/50 font-medium text-foreground' : 'border-border text-muted-foreground')}
      >
        {status === 'saving' && <Spinner className="mt-0.5" />}
        {status === 'saved' && !idle && <CheckCircleIcon className="mt-0.5 size-4 shrink-0 text-success" />}
        {(status === 'offline' || status === 'retrying') && <CloudOffIcon className="mt-0.5 size-4 shrink-0 text-destructive" />}
        {status === 'error' && <AlertCircleIcon className="mt-0.5 size-4 shrink-0 text-destructive" />}
        <span>{text}</span>
      </p>
      <p role="status" aria-live="polite" data-merge-note className={note ? cn(chip, 'border-primary/40 font-medium text-foreground') : 'sr-only'}>
        {note && <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary" />}
        {note && <span>{note}</span>}
      </p>
    </div>
  );
}

/** A note shown for `ms` after `show()` (again from the start on each call). */
export function useTransientNote(ms = 10_000): [string | null, (text: string) => void] {
  const [note, setNote] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  const show = useCallback(
    (text: string) => {
      setNote(text);
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(() => setNote(null), ms);
    },
    [ms],
  );
  return [note, show];
}
