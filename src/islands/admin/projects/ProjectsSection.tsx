/**
 * The dashboard's "Projects" section: every project with its client, status, dates and counts
 * (members, surveys, missions), a search, a status filter, pages of 10 (docs/product.md §9) and "New
 * project" (a dialog: name, client, dates, description → created as a draft → its page).
 * Rows are cards on phones and a table-like grid from medium screens.
 */
import { useEffect, useState } from 'react';
import { PROJECT_STATUSES, type AdminProject, type AdminProjectListItem, type ProjectStatus } from '../../../shared/projects.ts';
import { apiSend, withQuery } from '../../../platform/api.ts';
import { navigateTo } from '../../../lib/navigation.ts';
import { useResource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { FilterSelect, ListFooter, PER_PAGE, SearchForm, Section } from '../admin-kit.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import { dayRange, ProjectStatusBadge } from './kit.tsx';
import { PROJECT_STATUS_LABELS } from './logic.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { PROJECT_FIELD_NAMES, ProjectFields, type ProjectValues } from './ProjectFields.tsx';
import type { ProjectList } from './types.ts';

type StatusFilter = ProjectStatus | 'all';
const statusOptions = (): readonly { value: StatusFilter; label: string }[] => [
  { value: 'all', label: m.projects_list_all_statuses() },
  ...PROJECT_STATUSES.map((value) => ({ value, label: PROJECT_STATUS_LABELS[value] })),
];

/** "No live projects match “x”." and its shorter forms. */
function noProjectsText(status: StatusFilter, q: string): string {
  const adjective = status !== 'all' ? PROJECT_STATUS_LABELS[status].toLowerCase() : '';
  if (adjective && q) return m.projects_list_none_status_match({ status: adjective, q });
  if (adjective) return m.projects_list_none_status({ status: adjective });
  return m.projects_list_none_match({ q });
}

/** The dashboard section. */
export function ProjectsSection() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);

  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (q) params.q = q;
  if (status !== 'all') params.status = status;
  const { load, reload } = useResource<ProjectList>(withQuery('/api/admin/projects', params));

  // A page past the end (the list shrank): the last page.
  useEffect(() => {
    if (load.status !== 'ready') return;
    const last = Math.max(1, Math.ceil(load.data.total / load.data.pageSize));
    if (load.data.items.length === 0 && page > last) setPage(last);
  }, [load, page]);

  return (
    <Section
      id="projects"
      title={m.projects_list_title()}
      description={m.projects_list_description()}
      aside={
        <Button onClick={() => setCreating(true)}>
          <span aria-hidden="true">+</span> {m.projects_list_new()}
        </Button>
      }
    >
      <SearchForm
        label={m.projects_list_search()}
        value={q}
        onSearch={(value) => {
          setQ(value);
          setPage(1);
        }}
      >
        <FilterSelect
          label={m.projects_list_status()}
          value={status}
          options={statusOptions()}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          className="sm:w-44"
        />
      </SearchForm>

      {load.status === 'loading' ? (
        <ProjectRowsSkeleton />
      ) : load.status !== 'ready' ? (
        <Failed title={m.projects_list_failed()} message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-10 text-center">
          <p className="text-muted-foreground">{q || status !== 'all' ? noProjectsText(status, q) : m.projects_list_empty()}</p>
          {!q && status === 'all' && <Button onClick={() => setCreating(true)}>{m.projects_list_new()}</Button>}
        </div>
      ) : (
        <div className="flex flex-col gap-4">
          <div
            aria-hidden="true"
            className={cn('hidden border-b border-border px-4 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase', ROW_GRID)}
          >
            <span>{m.projects_list_column_project()}</span>
            <span>{m.projects_list_status()}</span>
            <span>{m.projects_list_column_dates()}</span>
            <span className="text-end">{m.projects_counts_members()}</span>
            <span className="text-end">{m.projects_list_column_surveys()}</span>
            <span className="text-end">{m.projects_list_column_missions()}</span>
          </div>
          <ul aria-label={m.projects_list_title()} className="flex flex-col gap-3 md:gap-0">
            {load.data.items.map((item) => (
              <ProjectRow key={item.id} item={item} />
            ))}
          </ul>
          <ListFooter page={load.data.page} total={load.data.total} perPage={load.data.pageSize} label={m.projects_list_pages()} onPageChange={setPage} />
        </div>
      )}

      <NewProjectDialog open={creating} onOpenChange={setCreating} />
    </Section>
  );
}

const ROW_GRID = 'md:grid md:grid-cols-[minmax(0,2.2fr)_6rem_minmax(0,1.6fr)_5.5rem_5.5rem_5.5rem] md:items-center md:gap-4';

function ProjectRow({ item }: { item: AdminProjectListItem }) {
  const fieldLabel = 'text-xs font-medium text-muted-foreground md:sr-only';
  const counts: [string, number][] = [
    [m.projects_counts_members(), item.counts.members],
    [m.projects_list_column_surveys(), item.counts.surveys],
    [m.projects_list_column_missions(), item.counts.missions],
  ];
  return (
    <li className="rounded-lg border border-border p-4 md:rounded-none md:border-x-0 md:border-t-0 md:px-4 md:py-3 md:last:border-b-0">
      <div className={cn('flex flex-col gap-3', ROW_GRID)}>
        <div className="flex min-w-0 flex-col gap-0.5">
          <a href={`/admin/projects/${item.id}`} className="font-semibold break-words text-primary underline-offset-4 hover:underline">
            {item.name}
          </a>
          {item.client && <span className="text-sm break-words text-muted-foreground">{item.client}</span>}
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 md:contents">
          <div className="flex items-center gap-2 md:block">
            <span className={fieldLabel}>{m.projects_list_status()}</span>
            <ProjectStatusBadge status={item.status} />
          </div>
          <div className="flex items-center gap-2 text-sm md:block">
            <span className={fieldLabel}>{m.projects_list_column_dates()}</span>
            <span className={cn(!item.startsAt && !item.endsAt && 'text-muted-foreground')}>{dayRange(item.startsAt, item.endsAt)}</span>
          </div>
        </div>
        <dl className="grid grid-cols-3 gap-3 md:contents">
          {counts.map(([term, value]) => (
            <div key={term} className="flex flex-col gap-0.5 md:block md:text-end">
              <dt className={fieldLabel}>{term}</dt>
              <dd className="text-sm tabular-nums">{formatCount(value)}</dd>
            </div>
          ))}
        </dl>
      </div>
    </li>
  );
}

function ProjectRowsSkeleton() {
  return (
    <Loading label={m.projects_list_loading()} className="flex flex-col gap-3 md:gap-0">
      {[0, 1, 2].map((row) => (
        <div
          key={row}
          aria-hidden="true"
          className="flex h-[8.5rem] flex-col gap-3 rounded-lg border border-border p-4 md:h-[3.75rem] md:flex-row md:items-center md:rounded-none md:border-x-0 md:border-t-0"
        >
          <Bone className="h-5 w-48" />
          <Bone className="h-5 w-16" />
          <Bone className="h-4 w-40" />
        </div>
      ))}
    </Loading>
  );
}

/** "New project": the details, then the project's page. Projects start as drafts. */
export function NewProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const form = useDialogForm<ProjectValues>(
    { open, onOpenChange },
    {
      schema: () => import('../../../shared/schemas/projects.ts').then((schemas) => schemas.projectCreateSchema),
      defaultValues: { name: '', client: '', description: '', startsAt: null, endsAt: null },
      fields: PROJECT_FIELD_NAMES,
      submit: async (values) => {
        const project = await apiSend<AdminProject>('POST', '/api/admin/projects', values);
        await navigateTo(`/admin/projects/${project.id}`);
      },
    },
  );
  return (
    <FormDialog form={form} title={m.projects_new_title()} description={m.projects_new_description()} submitLabel={m.projects_new_submit()} className="gap-5">
      <ProjectFields register={form.register} errors={form.formState.errors} idPrefix="new-project" />
    </FormDialog>
  );
}
