import type { ReactNode } from 'react';
import { ArrowLeftIcon } from './icons.tsx';

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
