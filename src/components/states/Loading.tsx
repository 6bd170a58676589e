/**
 * What a part of a screen shows while it loads, said once to screen readers ("Loading the
 * survey…"). With children: its skeleton, the final frame at its final size so nothing moves when
 * the data comes (hidden from assistive technology: the skeleton's parts are `aria-hidden` bones).
 * Without: a spinner and the words, centred.
 */
import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import { Spinner } from '../ui/spinner.tsx';

export function Loading({ label, className, children }: { label: string; className?: string; children?: ReactNode }) {
  if (children === undefined) {
    return (
      <div role="status" className={cn('flex flex-col items-center justify-center gap-3 py-10 text-sm text-muted-foreground', className)}>
        <Spinner size="lg" className="text-primary" />
        <span>{label}</span>
      </div>
    );
  }
  return (
    <div aria-busy="true" className={className}>
      <LoadingNote label={label} />
      {children}
    </div>
  );
}

/** The announcement alone, inside a frame that says it is busy itself (a card keeping its heading while its content loads). */
export function LoadingNote({ label = m.shell_common_loading() }: { label?: string }) {
  return (
    <span role="status" className="sr-only">
      {label}
    </span>
  );
}
