import type { ReactNode } from 'react';
import { ArrowLeftIcon } from './icons.tsx';
import { routeTitle } from '../shared/route-titles.ts';

/** "← Home": back to the list of activities. */
export function BackLink({ href = '/', children = routeTitle('/') }: { href?: string; children?: ReactNode }) {
  return (
    <a
      href={href}
      className="-mt-5 -ms-2 inline-flex min-h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-muted-foreground no-underline hover:text-foreground sm:-mt-6"
    >
      <ArrowLeftIcon className="size-4 rtl:-scale-x-100" />
      {children}
    </a>
  );
}
