import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { m, formatCount } from '../../shared/i18n.ts';
import { ChevronLeftIcon, ChevronRightIcon } from '../icons.tsx';
import { paginationRange } from '../../lib/ui-kit/pagination-range.ts';
import { buttonVariants } from './button.tsx';

export interface PaginationProps extends Omit<ComponentProps<'nav'>, 'onChange'> {
  /** 1-based current page (clamped into the available pages). */
  page: number;
  /** Number of records. */
  total: number;
  /** Default 10 (docs/product.md §9). */
  perPage?: number;
  /** Pages shown each side of the current one; default 2 (docs/product.md §9). */
  siblings?: number;
  /** Button mode: called with the chosen page. */
  onPageChange?: (page: number) => void;
  /** Link mode: each page is an <a href> (works without JavaScript, and with the ClientRouter). */
  getHref?: (page: number) => string;
  /** The landmark's name; default "Pagination". */
  label?: string;
}

/**
 * Page navigation: a <nav> landmark with Previous, the page numbers (the current one marked
 * aria-current="page"), ellipses for skipped ranges, and Next. Links when `getHref` is given,
 * buttons otherwise.
 */
export function Pagination({
  page,
  total,
  perPage,
  siblings,
  onPageChange,
  getHref,
  label = m.shell_pagination_label(),
  className,
  ...props
}: PaginationProps) {
  const range = paginationRange({ page, total, perPage, siblings });

  function control(target: number | null, name: string, content: ReactNode, options: { current?: boolean; edge?: boolean } = {}) {
    const classes = cn(
      buttonVariants({ variant: options.current ? 'default' : options.edge ? 'ghost' : 'outline', size: options.edge ? 'default' : 'icon' }),
      options.edge ? 'px-3' : 'size-10 tabular-nums',
    );
    const current = options.current ? ('page' as const) : undefined;
    if (target === null) {
      // A disabled link (WAI-ARIA's pattern): the link role without an address, so it cannot be followed or focused.
      return getHref ? (
        <span role="link" aria-disabled="true" aria-label={name} className={cn(classes, 'pointer-events-none opacity-60')}>
          {content}
        </span>
      ) : (
        <button type="button" disabled aria-label={name} className={classes}>
          {content}
        </button>
      );
    }
    return getHref ? (
      <a href={getHref(target)} aria-label={name} aria-current={current} className={classes} onClick={onPageChange ? () => onPageChange(target) : undefined}>
        {content}
      </a>
    ) : (
      <button
        type="button"
        aria-label={name}
        aria-current={current}
        className={classes}
        onClick={() => {
          if (target !== range.page) onPageChange?.(target);
        }}
      >
        {content}
      </button>
    );
  }

  return (
    <nav aria-label={label} className={cn('flex justify-center', className)} {...props}>
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          {control(
            range.previous,
            m.shell_pagination_previous_page(),
            <>
              <ChevronLeftIcon className="size-4 rtl:-scale-x-100" />
              <span className="hidden sm:inline">{m.shell_pagination_previous()}</span>
            </>,
            { edge: true },
          )}
        </li>
        {range.items.map((item) =>
          item.type === 'page' ? (
            <li key={item.page}>
              {control(item.page, m.shell_pagination_page({ page: formatCount(item.page) }), formatCount(item.page), { current: item.current })}
            </li>
          ) : (
            <li key={item.key} className="flex size-10 items-center justify-center text-muted-foreground">
              <span aria-hidden="true">…</span>
              <span className="sr-only">{m.shell_pagination_more()}</span>
            </li>
          ),
        )}
        <li>
          {control(
            range.next,
            m.shell_pagination_next_page(),
            <>
              <span className="hidden sm:inline">{m.shell_pagination_next()}</span>
              <ChevronRightIcon className="size-4 rtl:-scale-x-100" />
            </>,
            { edge: true },
          )}
        </li>
      </ul>
    </nav>
  );
}
