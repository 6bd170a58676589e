import { Progress as ProgressPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';

interface ProgressProps {
  /** What is progressing ("Uploading points.csv"): the bar's accessible name and its visible caption. */
  label: string;
  /** 0–100, or null while the amount is not known (an indeterminate bar). */
  value: number | null;
  /** Words beside the caption ("3.2 of 8 MB", "40,000 of 100,000 rows"). */
  detail?: string | undefined;
  className?: string;
}

/** A labelled progress bar (Radix Progress: role="progressbar" with its value for screen readers). */
export function Progress({ label, value, detail, className }: ProgressProps) {
  const clamped = value === null ? null : Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="font-medium text-foreground">{label}</span>
        <span className="text-muted-foreground tabular-nums">{detail ?? (clamped === null ? '' : `${clamped}%`)}</span>
      </div>
      <ProgressPrimitive.Root aria-label={label} value={clamped} max={100} className="relative h-2.5 w-full overflow-hidden rounded-full bg-muted">
        <ProgressPrimitive.Indicator
          className={cn(
            'h-full rounded-full bg-primary transition-[width] duration-200 motion-reduce:transition-none',
            clamped === null && 'w-1/3 animate-pulse',
          )}
          style={clamped === null ? undefined : { width: `${clamped}%` }}
        />
      </ProgressPrimitive.Root>
    </div>
  );
}
