/**
 * /admin/audit (issue 29 §7; admins): every audited action, newest first, ten a page, with its
 * filters — who (any part of the actor's email or names, or an actor id), the action and target
 * type (the ones the log holds), a target id, a date range — each row opening to its state before
 * and after, and "Export CSV" of the filtered log. The address bar mirrors the filters, so a
 * link opens a filtered log (`/admin/audit?targetType=user&targetId=12`).
 */
import { Fragment, useEffect, useId, useState } from 'react';
import type { AuditFilters, AuditListItem } from '../../../shared/audit.ts';
import type { ListPage } from '../../../shared/list.ts';
import { formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { downloadAfterSignInProof } from '../../../platform/download.ts';
import { FilterSelect, ListBody, ListFooter, PhoneFolded, SearchForm, Section, TableScroller, td, th } from '../admin-kit.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { auditApiPath, auditCsvHref, auditFilterCount, DEFAULT_AUDIT_QUERY, prettyJson, readAuditQuery, writeAuditQuery, type AuditQuery } from './logic.ts';

const ALL = 'all';
const VIA_LABELS: Readonly<Record<string, () => string>> = { cli: m.admin_audit_via_cli, system: m.admin_audit_via_system, api: m.admin_audit_via_api };
const viaLabel = (via: string) => VIA_LABELS[via]?.() ?? via;

/** The island of /admin/audit: admins read the log (the API refuses moderators anyway). */
export default function AuditLog() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_audit_loading()} />;
  if (auth.user.role !== 'admin') {
    return (
      <Alert variant="info" title={m.admin_audit_admins_only_title()}>
        {m.admin_audit_admins_only_text()}
      </Alert>
    );
  }
  return <AuditScreen />;
}

/** Who did it: the account (a link to it), or the CLI or the system. */
function Actor({ entry }: { entry: AuditListItem }) {
  if (entry.actor) {
    return (
      <a href={`/admin/users/${entry.actor.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
        {fullNameOf(entry.actor) || entry.actor.email}
      </a>
    );
  }
  return <span className="text-muted-foreground">{viaLabel(entry.via)}</span>;
}

/** What it was done to: a user's page for a user, else the type and id. */
function Target({ entry }: { entry: AuditListItem }) {
  if (!entry.targetType) return <span className="text-muted-foreground">—</span>;
  const label = entry.targetId ? `${entry.targetType} ${entry.targetId}` : entry.targetType;
  if (entry.targetType === 'user' && entry.targetId && /^\d+$/.test(entry.targetId)) {
    return (
      <a href={`/admin/users/${entry.targetId}`} className="font-mono text-xs text-primary underline-offset-4 hover:underline">
        {label}
      </a>
    );
  }
  return <span className="font-mono text-xs break-all">{label}</span>;
}

/** A row's state before and after, side by side from the `md` width. */
function Details({ entry }: { entry: AuditListItem }) {
  const block = 'max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap break-all';
  return (
    <div className="flex flex-col gap-3">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-xs text-muted-foreground">
        <div className="flex gap-1">
          <dt>{m.admin_audit_entry()}</dt>
          <dd className="tabular-nums">#{entry.id}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{m.admin_audit_via()}</dt>
          <dd>{viaLabel(entry.via)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{m.admin_audit_ip()}</dt>
          <dd className="font-mono">{entry.ip ?? '—'}</dd>
        </div>
        <div className="flex gap-1">
          <dt>{m.admin_audit_time()}</dt>
          <dd>{formatDateTime(entry.createdAt)}</dd>
        </div>
      </dl>
      <div className="grid gap-3 md:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{m.admin_audit_before()}</p>
          <pre className={block}>{prettyJson(entry.before)}</pre>
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">{m.admin_audit_after()}</p>
          <pre className={block}>{prettyJson(entry.after)}</pre>
        </div>
      </div>
    </div>
  );
}

function AuditScreen() {
  const [query, setQuery] = useState<AuditQuery | null>(null);
  const { load, reload } = useResource<ListPage<AuditListItem>>(query === null ? null : auditApiPath(query));
  const filters = useResource<AuditFilters>('/api/admin/audit/filters');
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const ids = { actor: useId(), target: useId(), from: useId(), to: useId(), details: useId() };

  useEffect(() => setQuery(readAuditQuery(location.search)), []);
  useEffect(() => {
    if (query === null) return;
    const search = writeAuditQuery(query);
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, [query]);

  const current = query ?? DEFAULT_AUDIT_QUERY;
  const update = (patch: Partial<AuditQuery>) => setQuery((was) => ({ ...(was ?? DEFAULT_AUDIT_QUERY), ...patch, page: patch.page ?? 1 }));
  const known = filters.load.status === 'ready' ? filters.load.data : { actions: [], targetTypes: [] };
  // A value named in the address that the log does not hold (yet) still shows as chosen.
  const options = (values: readonly string[], chosen: string, all: string) => [
    { value: ALL, label: all },
    ...[...new Set([...values, ...(chosen ? [chosen] : [])])].sort().map((value) => ({ value, label: value })),
  ];
  const count = auditFilterCount(current);
  const toggle = (id: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const newestFirst = current.dir !== 'asc';

  return (
    <Section
      id="audit"
      title={m.admin_audit_title()}
      description={m.admin_audit_description()}
      aside={
        <a href={auditCsvHref(current)} className={buttonVariants({ variant: 'outline' })} download onClick={(event) => downloadAfterSignInProof(event)}>
          {m.admin_audit_export_csv()}
        </a>
      }
    >
      <PhoneFolded count={count}>
        <div className="flex flex-col gap-3">
          <SearchForm label={m.admin_audit_search()} value={current.q} onSearch={(q) => update({ q })} />
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <FilterSelect
              label={m.admin_audit_action()}
              value={current.action || ALL}
              options={options(known.actions, current.action, m.admin_audit_all_actions())}
              onChange={(value) => update({ action: value === ALL ? '' : value })}
            />
            <FilterSelect
              label={m.admin_audit_target_type()}
              value={current.targetType || ALL}
              options={options(known.targetTypes, current.targetType, m.admin_audit_all_targets())}
              onChange={(value) => update({ targetType: value === ALL ? '' : value })}
            />
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.target}>{m.admin_audit_target_id()}</Label>
              <Input
                id={ids.target}
                value={current.targetId}
                maxLength={100}
                onChange={(event) => update({ targetId: event.target.value.trim() })}
                placeholder={m.admin_audit_any()}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.actor}>{m.admin_audit_actor_id()}</Label>
              <Input
                id={ids.actor}
                inputMode="numeric"
                value={current.actorId === null ? '' : String(current.actorId)}
                onChange={(event) => {
                  const id = Number(event.target.value.trim());
                  update({ actorId: Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null });
                }}
                placeholder={m.admin_audit_anyone()}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.from}>{m.admin_audit_from()}</Label>
              <Input id={ids.from} type="date" value={current.from} max={current.to || undefined} onChange={(event) => update({ from: event.target.value })} />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor={ids.to}>{m.admin_audit_to()}</Label>
              <Input id={ids.to} type="date" value={current.to} min={current.from || undefined} onChange={(event) => update({ to: event.target.value })} />
            </div>
          </div>
          {count > 0 && (
            <div>
              <Button variant="ghost" onClick={() => setQuery({ ...DEFAULT_AUDIT_QUERY, dir: current.dir })}>
                {m.admin_audit_clear_filters()}
              </Button>
            </div>
          )}
        </div>
      </PhoneFolded>
      <ListBody
        load={query === null ? { status: 'loading' } : load}
        reload={reload}
        loadingLabel={m.admin_audit_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={count > 0 ? m.admin_audit_empty_filtered() : m.admin_audit_empty()}
      >
        {(data) => (
          <>
            {/* Phones: one card per entry. */}
            <ul className="flex flex-col divide-y divide-border border-y border-border sm:hidden" aria-label={m.admin_audit_entries()}>
              {data.items.map((entry) => {
                const expanded = open.has(entry.id);
                const detailsId = `${ids.details}-card-${entry.id}`;
                return (
                  <li key={entry.id} className="flex flex-col gap-2 py-3">
                    <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                      <code className="font-mono text-sm font-medium break-all">{entry.action}</code>
                      <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
                        {formatDateTime(entry.createdAt)}
                      </time>
                    </div>
                    <p className="flex flex-wrap gap-x-2 text-sm wrap-anywhere">
                      <Actor entry={entry} />
                      <span aria-hidden="true" className="inline-block text-muted-foreground rtl:-scale-x-100">
                        →
                      </span>
                      <span className="sr-only">{m.admin_audit_sr_on()}</span>
                      <Target entry={entry} />
                    </p>
                    <Button
                      variant="outline"
                      size="sm"
                      className="self-start"
                      aria-expanded={expanded}
                      aria-controls={detailsId}
                      onClick={() => toggle(entry.id)}
                    >
                      {expanded ? m.admin_audit_hide_details() : m.admin_audit_details()}
                      <span className="sr-only"> {m.admin_audit_sr_of_entry({ id: String(entry.id) })}</span>
                    </Button>
                    <div id={detailsId} hidden={!expanded}>
                      {expanded && <Details entry={entry} />}
                    </div>
                  </li>
                );
              })}
            </ul>
            {/* From the `sm` width: the table. */}
            <div className="hidden sm:block">
              <TableScroller label={m.admin_audit_table()}>
                {/* Positioned, so the screen-reader caption (absolute) stays inside the scrolling box. */}
                <div className="relative">
                  <table className="w-full min-w-[44rem] border-collapse">
                    <caption className="sr-only">
                      {newestFirst
                        ? m.admin_audit_caption_newest({ total: formatCount(data.total) })
                        : m.admin_audit_caption_oldest({ total: formatCount(data.total) })}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col" className={th} aria-sort={newestFirst ? 'descending' : 'ascending'}>
                          <button
                            type="button"
                            className="inline-flex items-center gap-1 rounded-sm uppercase hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
                            onClick={() => update({ dir: newestFirst ? 'asc' : null })}
                          >
                            {m.admin_audit_time()}
                            <span aria-hidden="true">{newestFirst ? '▼' : '▲'}</span>
                            <span className="sr-only">, {newestFirst ? m.admin_audit_sort_newest() : m.admin_audit_sort_oldest()}</span>
                          </button>
                        </th>
                        <th scope="col" className={th}>
                          {m.admin_audit_who()}
                        </th>
                        <th scope="col" className={th}>
                          {m.admin_audit_action()}
                        </th>
                        <th scope="col" className={th}>
                          {m.admin_audit_target()}
                        </th>
                        <th scope="col" className={th}>
                          <span className="sr-only">{m.admin_audit_details()}</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.items.map((entry) => {
                        const expanded = open.has(entry.id);
                        const detailsId = `${ids.details}-${entry.id}`;
                        return (
                          <Fragment key={entry.id}>
                            <tr>
                              <td className={`${td} whitespace-nowrap`}>
                                <time dateTime={entry.createdAt} title={formatRelative(entry.createdAt)}>
                                  {formatDateTime(entry.createdAt)}
                                </time>
                              </td>
                              <td className={`${td} wrap-anywhere`}>
                                <Actor entry={entry} />
                              </td>
                              <td className={td}>
                                <code className="font-mono text-xs break-all">{entry.action}</code>
                              </td>
                              <td className={td}>
                                <Target entry={entry} />
                              </td>
                              <td className={`${td} text-end`}>
                                <Button variant="ghost" size="sm" aria-expanded={expanded} aria-controls={detailsId} onClick={() => toggle(entry.id)}>
                                  {expanded ? m.admin_audit_hide() : m.admin_audit_details()}
                                  <span className="sr-only"> {m.admin_audit_sr_of_entry({ id: String(entry.id) })}</span>
                                </Button>
                              </td>
                            </tr>
                            <tr id={detailsId} hidden={!expanded}>
                              <td colSpan={5} className={`${td} bg-card`}>
                                {expanded && <Details entry={entry} />}
                              </td>
                            </tr>
                          </Fragment>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              </TableScroller>
            </div>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_audit_pages()} onPageChange={(page) => update({ page })} />
          </>
        )}
      </ListBody>
    </Section>
  );
}
