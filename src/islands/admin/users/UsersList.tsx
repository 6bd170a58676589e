/**
 * /admin/users (docs/product.md §2.5): search by any part of a name or an email, filters (role,
 * status, project, signed up between), a table sorted by its column headers, pages of 10 with two
 * siblings (docs/product.md §9), "Export CSV" of the filtered list, "Invite" (one person) and
 * "Invite from a CSV" (a preview, then the invitations). The address bar mirrors the filters, so a
 * link opens a filtered list (`/admin/users?status=active`).
 */
import { useEffect, useId, useState } from 'react';
import type { ListPage } from '../../../shared/list.ts';
import { ROLES, USER_STATUSES } from '../../../shared/roles.ts';
import { USER_ACTIVE_WINDOWS, type AdminUserListItem, type UserSort } from '../../../shared/users.ts';
import { withQuery } from '../../../platform/api.ts';
import { m } from '../../../shared/i18n.ts';
import { formatDate, formatRelative } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { activeWindowLabel, fullNameOf, ROLE_LABELS, userStatusLabel } from '../../../lib/user.ts';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { FilterSelect, ListBody, ListFooter, SearchForm, Section, TableScroller, td, th } from '../admin-kit.tsx';
import { BulkInviteDialog } from './BulkInviteDialog.tsx';
import { downloadAfterSignInProof } from '../../../platform/download.ts';
import { InviteDialog } from './InviteDialog.tsx';
import {
  DEFAULT_USERS_QUERY,
  filterParams,
  readUsersQuery,
  sortedDirection,
  toggleSort,
  usersApiPath,
  usersCsvHref,
  writeUsersQuery,
  type UsersQuery,
} from './logic.ts';
import { StatusBadge, useCurrentRole, type ProjectOption } from './parts.tsx';

const roleOptions = () => [{ value: 'all' as const, label: m.users_list_all_roles() }, ...ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))];
const activeOptions = () => [
  { value: 'all' as const, label: m.users_list_any_activity() },
  ...USER_ACTIVE_WINDOWS.map((value) => ({ value, label: activeWindowLabel(value) })),
];
const statusOptions = () => [
  { value: 'all' as const, label: m.users_list_all_statuses() },
  ...USER_STATUSES.map((value) => ({ value, label: userStatusLabel(value) })),
];

/** The table's columns (`id`: React's key; the label is read at render, in the page's language). */
const COLUMNS: readonly { id: string; key: UserSort | null; label: () => string; className?: string }[] = [
  { id: 'name', key: 'name', label: m.users_list_column_name },
  { id: 'email', key: 'email', label: m.users_list_column_email },
  { id: 'role', key: null, label: m.users_list_column_role },
  { id: 'status', key: null, label: m.users_list_column_status },
  { id: 'created', key: 'created', label: m.users_list_column_signed_up },
  { id: 'lastActive', key: 'lastActive', label: m.users_list_column_last_active },
];

/** The island of /admin/users. */
export default function UsersList() {
  const [query, setQuery] = useState<UsersQuery | null>(null);
  const { load, reload } = useResource<ListPage<AdminUserListItem>>(query === null ? null : usersApiPath(query));
  const projects = useResource<ListPage<ProjectOption>>(withQuery('/api/admin/projects', { pageSize: '100', sort: 'name' }));
  const role = useCurrentRole();
  const [inviting, setInviting] = useState(false);
  const [bulk, setBulk] = useState(false);
  const fromId = useId();
  const toId = useId();

  useEffect(() => setQuery(readUsersQuery(location.search)), []);
  useEffect(() => {
    if (query === null) return;
    const search = writeUsersQuery(query);
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, [query]);

  const current = query ?? DEFAULT_USERS_QUERY;
  const update = (patch: Partial<UsersQuery>) => setQuery((was) => ({ ...(was ?? DEFAULT_USERS_QUERY), ...patch, page: patch.page ?? 1 }));
  const projectOptions = [
    { value: 'all', label: m.users_list_all_projects() },
    ...(projects.load.status === 'ready' ? projects.load.data.items.map((p) => ({ value: String(p.id), label: p.name })) : []),
    // A project named in the address that is not among the first 100 still shows.
    ...(current.projectId !== null && !(projects.load.status === 'ready' && projects.load.data.items.some((p) => p.id === current.projectId))
      ? [{ value: String(current.projectId), label: m.users_list_project_number({ id: String(current.projectId) }) }]
      : []),
  ];
  const filtered = Object.keys(filterParams(current)).length > 0;

  return (
    <Section
      id="users"
      title={m.users_list_title()}
      description={m.users_list_description()}
      aside={
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => setInviting(true)}>{m.users_list_invite()}</Button>
          <Button variant="outline" onClick={() => setBulk(true)}>
            {m.users_list_invite_csv()}
          </Button>
          <a href={usersCsvHref(current)} className={buttonVariants({ variant: 'outline' })} download onClick={(event) => downloadAfterSignInProof(event)}>
            {m.users_list_export_csv()}
          </a>
        </div>
      }
    >
      <SearchForm label={m.users_list_search()} value={current.q} onSearch={(q) => update({ q })}>
        <FilterSelect
          label={m.users_list_role()}
          value={current.role}
          options={roleOptions()}
          onChange={(value) => update({ role: value })}
          className="sm:w-40"
        />
        <FilterSelect
          label={m.users_list_status()}
          value={current.status}
          options={statusOptions()}
          onChange={(value) => update({ status: value })}
          className="sm:w-40"
        />
        <FilterSelect
          label={m.users_list_activity()}
          value={current.active}
          options={activeOptions()}
          onChange={(value) => update({ active: value })}
          className="sm:w-56"
        />
      </SearchForm>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <FilterSelect
          label={m.users_list_project()}
          value={current.projectId === null ? 'all' : String(current.projectId)}
          options={projectOptions}
          onChange={(value) => update({ projectId: value === 'all' ? null : Number(value) })}
          className="sm:w-64"
        />
        <div className="flex flex-col gap-2">
          <Label htmlFor={fromId}>{m.users_list_signed_up_from()}</Label>
          <Input id={fromId} type="date" value={current.from} max={current.to || undefined} onChange={(event) => update({ from: event.target.value })} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={toId}>{m.users_list_signed_up_to()}</Label>
          <Input id={toId} type="date" value={current.to} min={current.from || undefined} onChange={(event) => update({ to: event.target.value })} />
        </div>
        {filtered && (
          <Button variant="ghost" onClick={() => setQuery({ ...DEFAULT_USERS_QUERY, sort: current.sort, dir: current.dir })}>
            {m.users_list_clear_filters()}
          </Button>
        )}
      </div>
      <ListBody
        load={query === null ? { status: 'loading' } : load}
        reload={reload}
        loadingLabel={m.users_list_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={filtered ? m.users_list_empty_filtered() : m.users_list_empty()}
      >
        {(data) => (
          <>
            <TableScroller label={m.users_list_table()}>
              {/* Positioned, so the screen-reader caption (absolute) stays inside the scrolling box. */}
              <div className="relative">
                <table className="w-full min-w-[46rem] border-collapse">
                  <caption className="sr-only">{m.users_list_caption({ count: data.total })}</caption>
                  <thead>
                    <tr>
                      {COLUMNS.map((column) => {
                        const dir = column.key ? sortedDirection(current, column.key) : null;
                        return (
                          <th key={column.id} scope="col" className={th} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
                            {column.key ? (
                              <button
                                type="button"
                                className="inline-flex items-center gap-1 rounded-sm uppercase hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                                onClick={() => column.key && setQuery(toggleSort(current, column.key))}
                              >
                                {column.label()}
                                <span aria-hidden="true">{dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : '↕'}</span>
                                <span className="sr-only">
                                  {dir === 'asc' ? m.users_list_sorted_ascending() : dir === 'desc' ? m.users_list_sorted_descending() : m.users_list_sort()}
                                </span>
                              </button>
                            ) : (
                              column.label()
                            )}
                          </th>
                        );
                      })}
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((user) => (
                      <tr key={user.id}>
                        <td className={td}>
                          <a href={`/admin/users/${user.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                            {fullNameOf(user) || user.email}
                          </a>
                        </td>
                        <td className={`${td} wrap-anywhere`}>{user.email}</td>
                        <td className={td}>{ROLE_LABELS[user.role]}</td>
                        <td className={td}>
                          <StatusBadge status={user.status} />
                        </td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>{formatDate(user.createdAt)}</td>
                        <td className={`${td} whitespace-nowrap`}>{user.lastActiveAt ? formatRelative(user.lastActiveAt) : m.users_list_never()}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </TableScroller>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.users_list_pages()} onPageChange={(page) => update({ page })} />
          </>
        )}
      </ListBody>
      <InviteDialog
        open={inviting}
        onOpenChange={setInviting}
        role={role}
        projects={projects.load.status === 'ready' ? projects.load.data.items : []}
        onInvited={reload}
      />
      <BulkInviteDialog open={bulk} onOpenChange={setBulk} role={role} onDone={reload} />
    </Section>
  );
}
