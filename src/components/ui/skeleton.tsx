/**
 * Skeletons: grey shapes standing in, at their final size, for content that is loading (so
 * nothing moves when it comes), and the one announcement that tells screen readers it is loading.
 */
import { cn } from '../../lib/utils.ts';

/** A grey bar or block; size it with `className` (default: one line of text). */
export function Bone({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-pulse rounded bg-muted motion-reduce:animate-none', className ?? 'h-4 w-32')} />;
}

/** Announces the loading state to screen readers; the skeleton itself is hidden from them. */
export function LoadingNote({ label = 'Loading…' }: { label?: string }) {
  return (
    <span role="status" className="sr-only">
      {label}
    </span>
  );
}
