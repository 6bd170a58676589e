/** Pieces the admin tool screens share: a list's states, section cards, search, two-step buttons. */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useResource, type Load } from '../../lib/resource.ts';
import { cn } from '../../lib/utils.ts';
import { Failed } from '../../components/states/Failed.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { Button, type ButtonProps } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';

/** docs/product.md §9: 10 per page. */
export const PER_PAGE = 10;

/**
 * @deprecated The tool screens' old name of the one loading hook: call `useResource`
 * (src/lib/resource.ts). Kept only until ClientErrors, ContactMessages and DataDeletionRequests
 * import it by its own name.
 */
export const useApi = useResource;

/** A tool section: a card with its heading (h2), a line of description, and its content. */
export function Section({
  id,
  title,
  description,
  children,
  aside,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-20">
      <Card className="flex flex-col gap-5 p-5 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h2 id={`${id}-heading`} className="text-xl font-semibold tracking-tight">
              {title}
            </h2>
            {description && <p className="text-sm text-muted-foreground">{description}</p>}
          </div>
          {aside}
        </div>
        {children}
      </Card>
    </section>
  );
}

/** Search box with its button; the search runs on submit, and "Clear" resets it. */
export function SearchForm({ label, value, onSearch, children }: { label: string; value: string; onSearch: (value: string) => void; children?: ReactNode }) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    onSearch(text.trim());
  }
  return (
    <form role="search" aria-label={label} onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input id={id} type="search" value={text} onChange={(event) => setText(event.target.value)} />
      </div>
      {children}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {value !== '' && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setText('');
              onSearch('');
            }}
          >
            Clear
          </Button>
        )}
      </div>
    </form>
  );
}

/** Loading, failure and empty states of a list, else the list itself. */
export function ListBody<T>({
  load,
  reload,
  isEmpty,
  empty,
  loadingLabel,
  children,
}: {
  load: Load<T>;
  reload: () => void;
  isEmpty: (data: T) => boolean;
  empty: ReactNode;
  loadingLabel: string;
  children: (data: T) => ReactNode;
}) {
  if (load.status === 'loading') return <Loading label={loadingLabel} />;
  if (load.status !== 'ready') return <Failed title="The list could not be loaded" message={load.message} onRetry={reload} />;
  if (isEmpty(load.data)) return <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">{empty}</p>;
  return <>{children(load.data)}</>;
}

/** "Showing 1–10 of 23" and the page buttons. */
export function ListFooter({
  page,
  total,
  perPage = PER_PAGE,
  label,
  onPageChange,
}: {
  page: number;
  total: number;
  perPage?: number;
  label: string;
  onPageChange: (page: number) => void;
}) {
  const from = total === 0 ? 0 : (page - 1) * perPage + 1;
  const to = Math.min(total, page * perPage);
  return (
    <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
      <p className="text-sm text-muted-foreground tabular-nums">
        Showing {from}–{to} of {total}
      </p>
      {total > perPage && <Pagination page={page} total={total} perPage={perPage} onPageChange={onPageChange} label={label} />}
    </div>
  );
}

/** A table that scrolls sideways on small screens (and can be scrolled with the keyboard). */
export function TableScroller({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable to scroll with the keyboard (axe: scrollable-region-focusable)
      tabIndex={0}
      className="-mx-5 overflow-x-auto px-5 focus-visible:outline-2 focus-visible:outline-ring sm:mx-0 sm:px-0"
    >
      {children}
    </div>
  );
}

export const th = 'border-b border-border px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-muted-foreground whitespace-nowrap';
export const td = 'border-b border-border px-3 py-3 align-top text-sm';

/** A button that asks once more ("Confirm" / "Keep") before it acts. */
export function ConfirmButton({
  children,
  confirmLabel,
  question,
  onConfirm,
  variant = 'outline',
  confirmVariant = 'default',
  size = 'sm',
  className,
}: {
  children: ReactNode;
  confirmLabel: string;
  question: ReactNode;
  onConfirm: () => Promise<void>;
  variant?: ButtonProps['variant'];
  confirmVariant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <Button variant={variant} size={size} className={className} onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <div role="group" aria-label="Confirm" className={cn('flex flex-wrap items-center gap-2', className)}>
      <span className="text-sm">{question}</span>
      <Button
        variant={confirmVariant}
        size={size}
        loading={busy}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the button just pressed is gone: focus moves to the question's answer instead of being lost
        autoFocus
        onClick={() => {
          setBusy(true);
          void onConfirm().finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" size={size} disabled={busy} onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </div>
  );
}
