import { useState } from 'react';
import type { ClientReportKind, ReportData } from '../../shared/client-reports.ts';
import { withQuery } from '../../lib/api.ts';
import type { ListPage } from '../../shared/list.ts';
import { describeDevice, formatDateTime, formatRelative } from '../../lib/format.ts';
import { fullNameOf } from '../../lib/user.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { formatCount, m } from '../../shared/i18n.ts';
import { FilterSelect, ListBody, ListFooter, PER_PAGE, SearchForm, Section, TableScroller, td, th, useApi } from './admin-kit.tsx';

export interface ClientReport {
  id: number;
  hash: string;
  url: string;
  userAgent: string | null;
  data: ReportData;
  count: number;
  firstSeenAt: string;
  lastSeenAt: string;
  user: { id: number; email: string; firstName: string; lastName: string } | null;
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** The kind of report, as a short label: "Uncaught · HTTP", "Manual", "Action". */
export function reportType(data: ReportData): string {
  if (data.type === 'action') return m.admin_errors_type_action();
  const type = data.type === 'uncaught' ? m.admin_errors_type_uncaught() : m.admin_errors_type_manual();
  return data.data.kind === 'http' ? `${type} · HTTP` : type;
}

/** What went wrong in one line: the HTTP status and cause, the first stack line, or the data. */
export function reportMessage(data: ReportData): string {
  if (data.type === 'action') return data.action.name === 'page_load' ? 'page_load' : `misc: ${shortJson(data.action.data)}`;
  if (data.data.kind === 'http') {
    const parts = [
      data.data.code === null ? m.admin_errors_http_error() : `HTTP ${data.data.code}`,
      data.data.cause,
      data.data.body ? firstLine(data.data.body) : null,
    ];
    return parts.filter((part): part is string => Boolean(part)).join(' — ');
  }
  const stack = data.stacktrace ? firstLine(data.stacktrace) : '';
  if (stack) return stack;
  return shortJson(data.data.data);
}

/** What the list shows: errors unless asked (actions such as `page_load` are most reports, and rarely news). */
const kindOptions = (): readonly { value: ClientReportKind; label: string }[] => [
  { value: 'error', label: m.admin_errors_kind_errors() },
  { value: 'action', label: m.admin_errors_kind_actions() },
  { value: 'all', label: m.admin_errors_kind_all() },
];
/** The list's words for each kind: nothing found by a search, nothing reported, its caption. */
const KIND_WORDS: Readonly<Record<ClientReportKind, { noMatch: (inputs: { search: string }) => string; none: () => string; caption: () => string }>> = {
  error: { noMatch: m.admin_errors_empty_search_error, none: m.admin_errors_empty_error, caption: m.admin_errors_caption_error },
  action: { noMatch: m.admin_errors_empty_search_action, none: m.admin_errors_empty_action, caption: m.admin_errors_caption_action },
  all: { noMatch: m.admin_errors_empty_search_all, none: m.admin_errors_empty_all, caption: m.admin_errors_caption_all },
};

/** "Client errors" (docs/product.md §3, §4, §8): the reports browsers sent, errors by default (actions behind a filter), last seen first, with search and pages. */
export function ClientErrorsSection() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<ClientReportKind>('error');
  const query: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (search) query.q = search;
  if (kind !== 'error') query.kind = kind;
  const { load, reload } = useApi<ListPage<ClientReport>>(withQuery('/api/admin/reports', query));

  return (
    <Section
      id="client-errors"
      title={m.admin_errors_title()}
      description={m.admin_errors_description()}
      aside={
        <button type="button" onClick={reload} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          {m.admin_errors_refresh()}
        </button>
      }
    >
      <SearchForm
        label={m.admin_errors_search()}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      >
        <FilterSelect
          label={m.admin_errors_show()}
          value={kind}
          options={kindOptions()}
          onChange={(value) => {
            setKind(value);
            setPage(1);
          }}
          className="sm:w-56"
        />
      </SearchForm>
      <ListBody
        load={load}
        reload={reload}
        loadingLabel={m.admin_errors_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={search ? KIND_WORDS[kind].noMatch({ search }) : KIND_WORDS[kind].none()}
      >
        {(data) => (
          <>
            <TableScroller label={m.admin_errors_table()}>
              <table className="w-full min-w-[56rem] border-collapse">
                <caption className="sr-only">{KIND_WORDS[kind].caption()}</caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      {m.admin_errors_column_page()}
                    </th>
                    <th scope="col" className={th}>
                      {m.admin_errors_column_type()}
                    </th>
                    <th scope="col" className={th}>
                      {m.admin_errors_column_message()}
                    </th>
                    <th scope="col" className={`${th} text-end`}>
                      {m.admin_errors_column_count()}
                    </th>
                    <th scope="col" className={th}>
                      {m.admin_errors_column_last_seen()}
                    </th>
                    <th scope="col" className={th}>
                      {m.admin_errors_column_user()}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((report) => (
                    <tr key={report.id}>
                      <td className={`${td} max-w-56 font-mono text-xs break-all`}>{report.url}</td>
                      <td className={td}>
                        <Badge variant="outline">{reportType(report.data)}</Badge>
                      </td>
                      <td className={`${td} max-w-md`}>
                        <p className="font-mono text-xs break-words">{reportMessage(report.data)}</p>
                        <p className="mt-1 text-xs text-muted-foreground">{describeDevice(report.userAgent).label}</p>
                      </td>
                      <td className={`${td} text-end tabular-nums`}>{formatCount(report.count)}</td>
                      <td className={`${td} whitespace-nowrap`}>
                        <time dateTime={report.lastSeenAt} title={formatDateTime(report.lastSeenAt)}>
                          {formatRelative(report.lastSeenAt)}
                        </time>
                      </td>
                      <td className={td}>
                        {report.user ? (
                          <a href={`/admin/users/${report.user.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                            {fullNameOf(report.user) || report.user.email}
                          </a>
                        ) : (
                          <span className="text-muted-foreground">{m.admin_errors_not_signed_in()}</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_errors_pages()} onPageChange={setPage} />
          </>
        )}
      </ListBody>
    </Section>
  );
}

/** /admin/tools/client-errors: the section on its own page. */
export default function ClientErrors() {
  return <ClientErrorsSection />;
}
