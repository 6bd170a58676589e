/**
 * /admin/forms: every form with its status, latest version, last change and where it is used;
 * search, sort, pages of 10 (docs/product.md §9), create (title → the builder), duplicate, archive (with
 * undo; refused while a live survey or mission uses the form) and the archived forms with restore.
 * Rows are cards on phones and a table-like grid from medium screens.
 *
 * Kept light: no zod, no builder code (the builder's islands load on the builder page only).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AdminForm, AdminFormList, AdminFormListItem, FormInUseError, FormSort, FormUse } from '../../../shared/schemas/forms.ts';
import { FORM_LIMITS } from '../../../shared/forms/constants.ts';
import { ApiError, apiSend, withQuery } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { navigateTo } from '../../../lib/navigation.ts';
import { useResource, type Load } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { ConfirmButton, ListFooter, PER_PAGE, SearchForm } from '../admin-kit.tsx';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';

/** A title in the language's quotation marks. */
const quote = (text: string): string => m.forms_quote({ text });

/** The sort choices: the API's `sort` and `dir` (labels are messages, called at render). */
const SORTS = {
  updated: { label: m.forms_index_sort_updated, sort: 'updated', dir: 'desc' },
  title: { label: m.forms_index_sort_title, sort: 'title', dir: 'asc' },
  created: { label: m.forms_index_sort_created, sort: 'created', dir: 'desc' },
  'created-asc': { label: m.forms_index_sort_created_asc, sort: 'created', dir: 'asc' },
} as const satisfies Record<string, { label: () => string; sort: FormSort; dir: 'asc' | 'desc' }>;
type SortKey = keyof typeof SORTS;
const isSortKey = (value: string | null): value is SortKey => value !== null && Object.hasOwn(SORTS, value);

interface ListQuery {
  q: string;
  page: number;
  sort: SortKey;
  archived: boolean;
}

/** The list's query from the address bar (so Back and a reload keep it). */
function readQuery(): ListQuery {
  const params = new URLSearchParams(location.search);
  const page = Number(params.get('page'));
  const sort = params.get('sort');
  return {
    q: params.get('q') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    sort: isSortKey(sort) ? sort : 'updated',
    archived: params.get('archived') === '1',
  };
}

function writeQuery(query: ListQuery): void {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.page > 1) params.set('page', String(query.page));
  if (query.sort !== 'updated') params.set('sort', query.sort);
  if (query.archived) params.set('archived', '1');
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
}

/** The API's address of a page of the list. */
function listPath(query: ListQuery): string {
  const { sort, dir } = SORTS[query.sort];
  const params: Record<string, string> = { page: String(query.page), pageSize: String(PER_PAGE), sort, dir };
  if (query.q) params.q = query.q;
  if (query.archived) params.status = 'archived';
  return withQuery('/api/admin/forms', params);
}

/** A page past the end (after an archive emptied it): the last page there is, else null. */
function lastPageInstead(data: AdminFormList): number | null {
  const last = Math.max(1, Math.ceil(data.total / PER_PAGE));
  return data.items.length === 0 && data.page > last ? last : null;
}

const STATUS_LABELS = { draft: m.forms_status_draft, published: m.forms_status_published, archived: m.forms_status_archived } as const;

/** "Survey “Spring walk” (project 3, version 2)". */
export function usageLabel(use: FormUse): string {
  const inputs = { title: use.title, version: formatCount(use.version) };
  if (use.kind === 'survey') return use.live ? m.forms_index_use_survey_live(inputs) : m.forms_index_use_survey(inputs);
  return use.live ? m.forms_index_use_mission_live(inputs) : m.forms_index_use_mission(inputs);
}

function usageHref(use: FormUse): string {
  return `/admin/projects/${use.projectId}/${use.kind === 'survey' ? 'surveys' : 'missions'}/${use.id}`;
}

/** The 409 `in_use` error's details, when the API sent them. */
function inUseOf(error: unknown): FormInUseError | null {
  if (!(error instanceof ApiError) || error.code !== 'in_use' || !error.body) return null;
  try {
    const body = JSON.parse(error.body) as { error?: FormInUseError };
    return body.error && Array.isArray(body.error.usedBy) ? body.error : null;
  } catch {
    return null;
  }
}

/** /admin/forms. */
export default function FormsList() {
  const [query, setQuery] = useState<ListQuery | null>(null);
  const { load, reload } = useResource<AdminFormList>(query === null ? null : listPath(query));
  const [creating, setCreating] = useState(false);
  const [rowError, setRowError] = useState<{ id: number; message: string; usedBy: FormUse[] } | null>(null);
  const sortId = useId();
  const archivedId = useId();

  useEffect(() => setQuery(readQuery()), []);

  useEffect(() => {
    if (query !== null) writeQuery(query);
  }, [query]);

  // Shown as loading until the last page comes.
  const lastPage = load.status === 'ready' ? lastPageInstead(load.data) : null;
  useEffect(() => {
    if (lastPage !== null) setQuery((current) => current && { ...current, page: lastPage });
  }, [lastPage]);

  const update = (patch: Partial<ListQuery>) => setQuery((current) => ({ ...(current ?? readQuery()), ...patch }));

  async function duplicate(item: AdminFormListItem) {
    try {
      const copy = await apiSend<AdminForm>('POST', `/api/admin/forms/${item.id}/duplicate`);
      toast({
        title: m.forms_index_created({ title: copy.title }),
        action: {
          label: m.forms_index_open(),
          altText: m.forms_index_open_in_builder({ title: copy.title }),
          onClick: () => void navigateTo(`/admin/forms/${copy.id}`),
        },
      });
      reload();
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.forms_index_duplicate_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  async function restore(item: AdminFormListItem, { quiet = false } = {}) {
    try {
      await apiSend<AdminForm>('POST', `/api/admin/forms/${item.id}/restore`);
      if (!quiet) toast({ title: m.forms_index_restored({ title: item.title }) });
      reload();
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.forms_restore_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  async function archive(item: AdminFormListItem) {
    setRowError(null);
    try {
      await apiSend<unknown>('DELETE', `/api/admin/forms/${item.id}`);
      toast({
        title: m.forms_index_archived({ title: item.title }),
        description: m.forms_index_archived_description(),
        action: {
          label: m.forms_builder_undo(),
          altText: m.forms_index_restore_named({ title: item.title }),
          onClick: () => void restore(item, { quiet: true }),
        },
      });
      reload();
    } catch (error) {
      if (handleSessionLost(error)) return;
      const inUse = inUseOf(error);
      setRowError({ id: item.id, message: inUse?.message ?? errorMessage(error), usedBy: inUse?.usedBy ?? [] });
    }
  }

  const current = query ?? { q: '', page: 1, sort: 'updated' as const, archived: false };

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="max-w-prose text-muted-foreground">{m.forms_index_intro()}</p>
        <Button onClick={() => setCreating(true)} className="self-start sm:self-auto">
          <span aria-hidden="true">+</span> {m.forms_index_new()}
        </Button>
      </div>

      <Card className="flex flex-col gap-5 p-4 sm:p-6">
        <SearchForm label={m.forms_index_search()} value={current.q} onSearch={(q) => update({ q, page: 1 })}>
          <div className="flex flex-col gap-2 sm:w-48">
            <Label htmlFor={sortId}>{m.forms_index_sort()}</Label>
            <Select value={current.sort} onValueChange={(value) => isSortKey(value) && update({ sort: value, page: 1 })}>
              <SelectTrigger id={sortId}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(SORTS) as SortKey[]).map((key) => (
                  <SelectItem key={key} value={key}>
                    {SORTS[key].label()}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        </SearchForm>
        <div className="flex items-center gap-3">
          <Switch id={archivedId} checked={current.archived} onCheckedChange={(archived) => update({ archived, page: 1 })} />
          <Label htmlFor={archivedId}>{m.forms_index_show_archived()}</Label>
        </div>

        <ListArea
          load={lastPage === null ? load : { status: 'loading' }}
          query={current}
          onRetry={reload}
          onCreate={() => setCreating(true)}
          rowError={rowError}
          onDismissError={() => setRowError(null)}
          onDuplicate={(item) => void duplicate(item)}
          onArchive={archive}
          onRestore={(item) => void restore(item)}
          onPage={(page) => update({ page })}
        />
      </Card>

      <CreateFormDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}

const ROW_GRID = 'md:grid md:grid-cols-[minmax(0,2fr)_6.5rem_5rem_8rem_minmax(0,1.4fr)_13rem] md:items-center md:gap-4';

function ListArea(props: {
  load: Load<AdminFormList>;
  query: ListQuery;
  onRetry: () => void;
  onCreate: () => void;
  rowError: { id: number; message: string; usedBy: FormUse[] } | null;
  onDismissError: () => void;
  onDuplicate: (item: AdminFormListItem) => void;
  onArchive: (item: AdminFormListItem) => Promise<void>;
  onRestore: (item: AdminFormListItem) => void;
  onPage: (page: number) => void;
}) {
  const { load, query } = props;
  if (load.status === 'loading') return <ListSkeleton />;
  if (load.status !== 'ready') return <Failed title={m.forms_index_load_failed()} message={load.message} onRetry={props.onRetry} />;
  const { data } = load;
  if (data.items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-10 text-center">
        <p className="text-muted-foreground">
          {query.q
            ? query.archived
              ? m.forms_index_no_archived_match({ query: query.q })
              : m.forms_index_no_match({ query: query.q })
            : query.archived
              ? m.forms_index_no_archived()
              : m.forms_index_empty()}
        </p>
        {!query.q && !query.archived && <Button onClick={props.onCreate}>{m.forms_index_new()}</Button>}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div
        aria-hidden="true"
        className={cn('hidden border-b border-border px-4 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase', ROW_GRID)}
      >
        <span>{m.forms_index_column_form()}</span>
        <span>{m.forms_index_column_status()}</span>
        <span>{m.forms_index_column_version()}</span>
        <span>{m.forms_index_column_changed()}</span>
        <span>{m.forms_index_column_used_by()}</span>
        <span className="text-end">{m.forms_index_column_actions()}</span>
      </div>
      <ul aria-label={query.archived ? m.forms_index_archived_list() : m.forms_index_list()} className="flex flex-col gap-3 md:gap-0">
        {data.items.map((item) => (
          <FormRow
            key={item.id}
            item={item}
            error={props.rowError?.id === item.id ? props.rowError : null}
            onDismissError={props.onDismissError}
            onDuplicate={props.onDuplicate}
            onArchive={props.onArchive}
            onRestore={props.onRestore}
          />
        ))}
      </ul>
      <ListFooter page={data.page} total={data.total} perPage={PER_PAGE} label={m.forms_index_pages()} onPageChange={props.onPage} />
    </div>
  );
}

function FormRow({
  item,
  error,
  onDismissError,
  onDuplicate,
  onArchive,
  onRestore,
}: {
  item: AdminFormListItem;
  error: { message: string; usedBy: FormUse[] } | null;
  onDismissError: () => void;
  onDuplicate: (item: AdminFormListItem) => void;
  onArchive: (item: AdminFormListItem) => Promise<void>;
  onRestore: (item: AdminFormListItem) => void;
}) {
  const title = item.title.trim() || m.forms_untitled_form();
  const fieldLabel = 'text-xs font-medium text-muted-foreground md:sr-only';
  return (
    <li className="rounded-lg border border-border p-4 md:rounded-none md:border-x-0 md:border-t-0 md:px-4 md:py-3 md:last:border-b-0">
      <div className={cn('flex flex-col gap-3', ROW_GRID)}>
        <div className="flex min-w-0 flex-col gap-0.5">
          <a href={`/admin/forms/${item.id}`} className="font-semibold break-words text-primary underline-offset-4 hover:underline">
            {title}
          </a>
          <span className="text-xs text-muted-foreground">
            {withNodes((marks) => m.forms_index_created_at({ date: marks.date }), {
              date: <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>,
            })}
          </span>
        </div>
        <div className="grid grid-cols-3 gap-3 md:contents">
          <div className="flex flex-col gap-1 md:block">
            <span className={fieldLabel}>{m.forms_index_column_status()}</span>
            <Badge variant={item.status === 'published' ? 'default' : item.status === 'archived' ? 'outline' : 'secondary'}>
              {STATUS_LABELS[item.status]()}
            </Badge>
          </div>
          <div className="flex flex-col gap-1 md:block">
            <span className={fieldLabel}>{m.forms_index_latest_version()}</span>
            <span className="text-sm tabular-nums">
              {item.latestVersion === null ? (
                <span className="text-muted-foreground">{m.forms_index_no_version()}</span>
              ) : (
                m.forms_index_version_short({ version: formatCount(item.latestVersion) })
              )}
            </span>
          </div>
          <div className="flex flex-col gap-1 md:block">
            <span className={fieldLabel}>{m.forms_index_column_changed()}</span>
            <time dateTime={item.updatedAt} title={formatDateTime(item.updatedAt)} className="text-sm">
              {formatRelative(item.updatedAt)}
            </time>
          </div>
        </div>
        <div className="flex min-w-0 flex-col gap-1 md:block">
          <span className={fieldLabel}>{m.forms_index_column_used_by()}</span>
          {item.usedBy.length === 0 ? (
            <span className="text-sm text-muted-foreground">{m.forms_index_not_used()}</span>
          ) : (
            <ul className="flex flex-col gap-0.5 text-sm">
              {item.usedBy.map((use) => (
                <li key={`${use.kind}-${use.id}`}>
                  <a href={usageHref(use)} className="text-primary underline-offset-4 hover:underline">
                    {usageLabel(use)}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="flex flex-wrap gap-2 md:justify-end">
          <Button variant="outline" size="sm" onClick={() => onDuplicate(item)}>
            {m.forms_list_duplicate()}
            <span className="sr-only"> {quote(title)}</span>
          </Button>
          {item.status === 'archived' ? (
            <Button variant="outline" size="sm" onClick={() => onRestore(item)}>
              {m.forms_index_restore()}
              <span className="sr-only"> {quote(title)}</span>
            </Button>
          ) : (
            <ConfirmButton
              question={m.forms_index_archive_question()}
              confirmLabel={m.forms_index_archive()}
              confirmVariant="destructive"
              onConfirm={() => onArchive(item)}
            >
              {m.forms_index_archive()}
              <span className="sr-only"> {quote(title)}</span>
            </ConfirmButton>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-3 flex flex-col items-start gap-2">
          <Alert variant="destructive" title={m.forms_index_archive_failed()}>
            <p>{error.message}</p>
            {error.usedBy.length > 0 && (
              <ul className="mt-1 list-disc ps-5">
                {error.usedBy.map((use) => (
                  <li key={`${use.kind}-${use.id}`}>
                    <a href={usageHref(use)}>{usageLabel(use)}</a>
                  </li>
                ))}
              </ul>
            )}
          </Alert>
          <Button variant="ghost" size="sm" onClick={onDismissError}>
            {m.forms_index_dismiss()}
          </Button>
        </div>
      )}
    </li>
  );
}

/** The list's loading state: rows of the final size. */
function ListSkeleton() {
  return (
    <Loading label={m.forms_index_loading()} className="flex flex-col gap-4">
      <div aria-hidden="true" className="flex flex-col gap-3 md:gap-0 md:divide-y md:divide-border">
        {Array.from({ length: PER_PAGE }, (_, index) => (
          <div
            key={index}
            className="flex h-[10.5rem] flex-col justify-center gap-3 rounded-lg border border-border p-4 md:h-[4.25rem] md:flex-row md:items-center md:rounded-none md:border-0"
          >
            <div className="h-4 w-2/3 animate-pulse rounded bg-muted md:w-1/4" />
            <div className="h-4 w-1/2 animate-pulse rounded bg-muted md:w-16" />
            <div className="h-4 w-1/3 animate-pulse rounded bg-muted md:w-24" />
            <div className="hidden h-8 w-40 animate-pulse rounded bg-muted md:ms-auto md:block" />
          </div>
        ))}
      </div>
    </Loading>
  );
}

/** Checks a title as the API does: trimmed, required, at most 300 characters. */
export function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (trimmed === '') return m.validation_required();
  if (trimmed.length > FORM_LIMITS.titleMax) return m.validation_too_long();
  return null;
}

/** "New form": asks for the title, creates the form and opens the builder. */
function CreateFormDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) {
      setTitle('');
      setError(null);
      setAlert(null);
    }
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = titleProblem(title);
    setError(problem);
    setAlert(null);
    if (problem) {
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const form = await apiSend<AdminForm>('POST', '/api/admin/forms', { title: title.trim() });
      await navigateTo(`/admin/forms/${form.id}`);
    } catch (failure) {
      if (handleSessionLost(failure)) return;
      const field = failure instanceof ApiError ? failure.fields.title?.[0] : undefined;
      if (field) setError(field);
      else setAlert(errorMessage(failure));
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{m.forms_index_new()}</DialogTitle>
          <DialogDescription>{m.forms_index_new_description()}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
          {alert && <Alert variant="destructive">{alert}</Alert>}
          <FormField id={id} label={m.forms_index_title_label()} error={error ?? undefined}>
            {(control) => (
              <Input
                ref={input}
                {...control}
                value={title}
                maxLength={FORM_LIMITS.titleMax + 50}
                autoComplete="off"
                onChange={(event) => setTitle(event.target.value)}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              {m.forms_cancel()}
            </Button>
            <Button type="submit" loading={busy}>
              {m.forms_index_create()}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
