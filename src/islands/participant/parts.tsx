/**
 * What the participant screens share: the signed-in user that keys the answers kept on the device,
 * skeleton bones, the header of an activity (project, title, points, time, closing date), the save
 * line and a progress bar. Loading goes through `src/lib/resource.ts`, its states through
 * `src/components/states/`.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../../platform/api.ts';
import { cn } from '../../lib/utils.ts';
import { $auth } from '../../stores/auth.ts';
import { AlertCircleIcon, CheckCircleIcon, InfoIcon } from '../../components/icons.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { BackLink } from '../../components/BackLink.tsx';

export { Bone };
import { ArrowLeftIcon, ClockIcon, CalendarIcon, StarIcon, LockIcon, CloudOffIcon, ExternalIcon } from '../../components/icons.tsx';

export { ArrowLeftIcon, ClockIcon, CalendarIcon, StarIcon, LockIcon, CloudOffIcon, ExternalIcon };
import { saveStatusText, type SaveStatus } from './autosave.ts';
import { m } from '../../shared/i18n.ts';
import { closesLabel, closesSoon, minutesLabel, pointsLabel } from '../../lib/labels.ts';

// ---------------------------------------------------------------------------------------------
// Who is signed in

/** Who is signed in, for keys of what is kept on this device ("anon" if unknown). */
export function ownerKey(): string {
  const state = $auth.get();
  return state.status === 'authenticated' ? String(state.user.id) : 'anon';
}

/**
 * The owner of what this screen keeps on the device, read once and kept for the screen's life.
 * Call it only under a loaded resource: `useResource` is ready only once the session is known,
 * so the key is the signed-in user's, never the "anon" of a session still being checked (and a
 * session that ends meanwhile does not move the answers under another key).
 */
export function useOwner(): string {
  return useState(ownerKey)[0];
}

/**
 * The column of an activity screen (survey, mission, group), loading or loaded. At least a screen
 * tall, so the footer starts below the fold whatever the form's length: it does not jump when the
 * questions replace the skeleton (a layout shift Lighthouse measured at 0.085 on a phone).
 */
export const ACTIVITY_COLUMN = 'mx-auto flex min-h-dvh max-w-2xl flex-col gap-6';

/** An activity screen while it loads: its header at its final size, then `children` (the bones of its body). */
export function ActivitySkeleton({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Loading label={label} className={ACTIVITY_COLUMN}>
      <HeaderSkeleton />
      {children}
    </Loading>
  );
}

/** A form's card while it loads: an optional progress bar, a heading, `fields` answer boxes and the submit button. */
export function FormSkeleton({ fields, progress = false }: { fields: number; progress?: boolean }) {
  return (
    <Card variant="flat" aria-hidden="true" className="flex flex-col gap-6 p-4 sm:p-6">
      {progress && <Bone className="h-1.5 w-full" />}
      <Bone className="h-7 w-2/3" />
      {Array.from({ length: fields }, (_, n) => (
        <Bone key={n} className="h-24 w-full" />
      ))}
      <Bone className="h-11 w-full sm:w-32 sm:self-end" />
    </Card>
  );
}

/** The header of an activity while it loads, at its final size. */
function HeaderSkeleton() {
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

/** One item of a meta line: its icon, then its words. */
export function MetaItem({
  icon: Icon,
  iconClassName,
  className,
  children,
}: {
  icon: typeof StarIcon;
  iconClassName?: string;
  className?: string | false;
  children: ReactNode;
}) {
  return (
    <li className={cn('inline-flex items-center gap-1.5', className)}>
      <Icon className={cn('size-4', iconClassName)} />
      {children}
    </li>
  );
}

/** Points, estimated time and closing date, each with its icon. */
export function ActivityMeta({
  points,
  perEntry = false,
  estimatedMinutes,
  closesAt,
  className,
}: {
  points: number;
  /** A mission taking more than one entry: "100 points an entry". */
  perEntry?: boolean;
  estimatedMinutes?: number | null;
  closesAt: string | null;
  className?: string;
}) {
  const minutes = minutesLabel(estimatedMinutes);
  const closes = closesLabel(closesAt);
  return (
    <ul className={cn('flex flex-wrap items-center gap-x-5 gap-y-1.5 text-sm text-muted-foreground', className)}>
      <MetaItem icon={StarIcon} iconClassName="text-primary" className="font-medium text-foreground">
        {pointsLabel(points, perEntry)}
      </MetaItem>
      {minutes && <MetaItem icon={ClockIcon}>{minutes}</MetaItem>}
      {closes && (
        <MetaItem icon={CalendarIcon} className={closesSoon(closesAt) && 'font-medium text-destructive'}>
          {closes}
        </MetaItem>
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
      ? m.participant_save_error_reason({ reason: error.message })
      : idle && status === 'saved'
        ? m.participant_save_idle()
        : saveStatusText(status);
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
