/** Pieces the admin tool screens share: a list's states, section cards, search, two-step buttons. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useResource, type Load } from '../../lib/resource.ts';
import { cn } from '../../lib/utils.ts';
import { formatBytes } from '../../lib/ui-kit/bytes.ts';
import type { TransferProgress } from '../../platform/upload.ts';
import { Failed } from '../../components/states/Failed.tsx';
import { Loading } from '../../components/states/Loading.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Pagination } from '../../components/ui/pagination.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { formatCount, m } from '../../shared/i18n.ts';

export { ConfirmButton };

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

/**
 * Search box with its button; the search runs on submit, and "Clear" resets it. `nested`: it lives
 * inside another form (a form cannot hold a form), so it is a search region whose Enter searches
 * instead of submitting the outer form.
 */
export function SearchForm({
  label,
  value,
  onSearch,
  children,
  nested = false,
}: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
  children?: ReactNode;
  nested?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  // Typed before the page's script took over (a slow device): keep it, the box shows it.
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const typed = box.current?.value;
    if (typed) setText(typed);
  }, []);
  const search = () => onSearch(text.trim());
  const className = 'flex flex-col gap-3 sm:flex-row sm:items-end';
  const content = (
    <>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <Label htmlFor={id}>{label}</Label>
        <Input
          ref={box}
          id={id}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={
            nested
              ? (event) => {
                  if (event.key !== 'Enter') return;
                  event.preventDefault();
                  search();
                }
              : undefined
          }
        />
      </div>
      {children}
      <div className="flex gap-2">
        <Button type={nested ? 'button' : 'submit'} variant="secondary" onClick={nested ? search : undefined}>
          {m.admin_kit_search()}
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
            {m.admin_kit_clear()}
          </Button>
        )}
      </div>
    </>
  );
  if (nested) {
    return (
      <div role="search" aria-label={label} className={className}>
        {content}
      </div>
    );
  }
  return (
    <form
      role="search"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        search();
      }}
      className={className}
    >
      {content}
    </form>
  );
}

/**
 * A screen's filters: on a phone they fold away behind one "Filters" button (with how many apply),
 * so what they filter starts on the first screen; from the `sm` width they always show.
 */
export function PhoneFolded({ count, className, children }: { count: number; className?: string; children: ReactNode }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className={cn('flex flex-col gap-3', className)}>
      <Button type="button" variant="outline" className="self-start sm:hidden" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {count > 0 ? m.admin_kit_filters_count({ count: formatCount(count) }) : m.admin_kit_filters()}
      </Button>
      <div id={id} className={cn('sm:block', open ? 'block' : 'hidden')}>
        {children}
      </div>
    </div>
  );
}

/** A choice's value: never the empty string (see `SelectItem`). */
type NonEmpty<V extends string> = V extends '' ? never : V;

/** A labelled choice that filters a list (`options` in their order); `className` sets its width. */
export function FilterSelect<V extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: V;
  options: readonly { value: NonEmpty<V>; label: string }[];
  onChange: (value: V) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select
        value={value}
        onValueChange={(next) => {
          const option = options.find((candidate) => candidate.value === next);
          if (option) onChange(option.value);
        }}
      >
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem<V> key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
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
  if (load.status !== 'ready') return <Failed title={m.admin_kit_list_failed()} message={load.message} onRetry={reload} />;
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
        {m.admin_kit_showing({ from: formatCount(from), to: formatCount(to), total: formatCount(total) })}
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
      // `relative`: what is positioned inside (screen-reader-only text) scrolls with the table instead of widening the page.
      className="relative -mx-5 overflow-x-auto px-5 focus-visible:outline-2 focus-visible:outline-ring sm:mx-0 sm:px-0"
    >
      {children}
    </div>
  );
}

export const th = 'border-b border-border px-3 py-2 text-start text-xs font-semibold uppercase tracking-wide text-muted-foreground whitespace-nowrap';
export const td = 'border-b border-border px-3 py-3 align-top text-sm';

/** A column of `TableHead`: extra classes, or named for screen readers only (`hidden`: an actions column). */
export interface TableColumn {
  label: string;
  className?: string;
  hidden?: boolean;
}

/** A table's header row in the tool screens' style: one heading per column, in order. */
export function TableHead({ columns }: { columns: readonly (string | TableColumn)[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { label, className, hidden }: TableColumn = typeof column === 'string' ? { label: column } : column;
          return (
            <th key={label} scope="col" className={className ? `${th} ${className}` : th}>
              {hidden ? <span className="sr-only">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}

/** A file's problems as the bulk previews list them (invitations, points): line (the header is line 1), column, message. */
export function FileProblemsTable({ problems }: { problems: readonly { line: number; column?: string | null | undefined; message: string }[] }) {
  return (
    <TableScroller label={m.admin_kit_problems_label()}>
      <table className="w-full border-collapse">
        <caption className="sr-only">{m.admin_kit_problems_caption()}</caption>
        <TableHead columns={[m.admin_kit_problems_line(), m.admin_kit_problems_column(), m.admin_kit_problems_problem()]} />
        <tbody>
          {problems.map((problem, index) => (
            <tr key={`${problem.line}-${problem.column ?? ''}-${index}`}>
              <td className={`${td} tabular-nums`}>{problem.line}</td>
              <td className={td}>{problem.column ?? '—'}</td>
              <td className={td}>{problem.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroller>
  );
}

/** What the bulk tools' progress bar says of a file sent or received (`platform/upload.ts`). */
export interface TransferWords {
  /** Before the first progress event. */
  starting: string;
  /** Once the request is all sent (or, without `uploads`, while it is sent), until the answer comes. */
  waiting: string;
  /** The upload's own bytes are worth showing (a file the admin chose). */
  uploads?: boolean;
}

/** The `Progress` props of a transfer: its phase, how far (when the size is known) and the bytes so far. */
export function transferProgress(progress: TransferProgress | null, words: TransferWords): { label: string; value: number | null; detail: string | undefined } {
  if (!progress) return { label: words.starting, value: null, detail: undefined };
  const sent = progress.total !== null && progress.loaded >= progress.total;
  if (progress.phase === 'upload' && (!words.uploads || sent)) return { label: words.waiting, value: null, detail: undefined };
  const label = progress.phase === 'upload' ? m.admin_kit_uploading() : m.admin_kit_downloading();
  if (progress.total === null) return { label, value: null, detail: formatBytes(progress.loaded, 1) };
  return {
    label,
    value: (progress.loaded / progress.total) * 100,
    detail: m.admin_kit_transfer_of({ loaded: formatBytes(progress.loaded, 1), total: formatBytes(progress.total, 1) }),
  };
}

/**
 * The bulk approval bar of a queue (the review queue, the reward requests): "Select all …" for the
 * page (checked, unchecked or some) and "Approve N selected", asked once more.
 */
export function BulkApproveBar({
  id,
  allLabel,
  checked,
  onToggleAll,
  count,
  question,
  onApprove,
}: {
  id: string;
  allLabel: string;
  checked: boolean | 'indeterminate';
  onToggleAll: () => void;
  count: number;
  /** The confirmation's question for `count` selected. */
  question: string;
  onApprove: () => Promise<void>;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div className="flex items-center gap-2.5">
        <Checkbox id={id} checked={checked} onCheckedChange={onToggleAll} />
        <Label htmlFor={id} className="font-normal">
          {allLabel}
        </Label>
      </div>
      {count === 0 ? (
        <Button size="sm" variant="outline" disabled>
          {m.admin_kit_approve_selected()}
        </Button>
      ) : (
        <ConfirmButton
          variant="default"
          confirmVariant="default"
          confirmLabel={m.admin_kit_approve_count({ count: formatCount(count) })}
          question={question}
          onConfirm={onApprove}
        >
          {m.admin_kit_approve_count_selected({ count: formatCount(count) })}
        </ConfirmButton>
      )}
    </div>
  );
}
