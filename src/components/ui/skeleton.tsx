/**
 * Skeletons: grey shapes standing in, at their final size, for content that is loading (so
 * nothing moves when it comes). `Loading` (src/components/states/) says what is loading.
 */
import { cn } from '../../lib/utils.ts';

/** A grey bar or block; size it with `className` (default: one line of text). */
export function Bone({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-pulse rounded bg-muted motion-reduce:animate-none', className ?? 'h-4 w-32')} />;
}
