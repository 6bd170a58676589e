import { useState } from 'react';
import type { ClientReportKind, ReportData } from '../../shared/client-reports.ts';
import { withQuery } from '../../lib/api.ts';
import type { ListPage } from '../../shared/list.ts';
import { describeDevice, formatDateTime, formatRelative } from '../../lib/format.ts';
import { fullNameOf } from '../../lib/user.ts';
import { Badge } from '../../components/ui/badge.tsx';
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
  if (data.type === 'action') return 'Action';
  const type = data.type === 'uncaught' ? 'Uncaught' : 'Manual';
  return data.data.kind === 'http' ? `${type} · HTTP` : type;
}

/** What went wrong in one line: the HTTP status and cause, the first stack line, or the data. */
export function reportMessage(data: ReportData): string {
  if (data.type === 'action') return data.action.name === 'page_load' ? 'page_load' : `misc: ${shortJson(data.action.data)}`;
  if (data.data.kind === 'http') {
    const parts = [data.data.code === null ? 'HTTP error' : `HTTP ${data.data.code}`, data.data.cause, data.data.body ? firstLine(data.data.body) : null];
    return parts.filter((part): part is string => Boolean(part)).join(' — ');
  }
  const stack = data.stacktrace ? firstLine(data.stacktrace) : '';
  if (stack) return stack;
  return shortJson(data.data.data);
}

/** What the list shows: errors unless asked (actions such as `page_load` are most reports, and rarely news). */
const KIND_OPTIONS: readonly { value: ClientReportKind; label: string }[] = [
  { value: 'error', label: 'Errors' },
  { value: 'action', label: 'Actions (page loads…)' },
  { value: 'all', label: 'Errors and actions' },
];
const KIND_NOUNS: Readonly<Record<ClientReportKind, string>> = { error: 'client errors', action: 'actions', all: 'reports' };

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
      title="Client errors"
      description="Errors visitors' browsers reported, each counted once per distinct content; actions such as page loads are behind “Show”. Search looks in the page, the browser and the error."
      aside={
        <button type="button" onClick={reload} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          Refresh
        </button>
      }
    >
      <SearchForm
        label="Search client errors"
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      >
        <FilterSelect
          label="Show"
          value={kind}
          options={KIND_OPTIONS}
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
        loadingLabel="Loading client errors…"
        isEmpty={(data) => data.items.length === 0}
        empty={
          search
            ? `No ${KIND_NOUNS[kind]} match “${search}”.`
            : kind === 'error'
              ? 'No client errors have been reported. That is good news.'
              : `No ${KIND_NOUNS[kind]} have been reported.`
        }
      >
        {(data) => (
          <>
            <TableScroller label="Client errors table">
              <table className="w-full min-w-[56rem] border-collapse">
                <caption className="sr-only">
                  {kind === 'error' ? 'Client errors' : kind === 'action' ? 'Actions' : 'Client errors and actions'}, last seen first
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      Page
                    </th>
                    <th scope="col" className={th}>
                      Type
                    </th>
                    <th scope="col" className={th}>
                      Message
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      Count
                    </th>
                    <th scope="col" className={th}>
                      Last seen
                    </th>
                    <th scope="col" className={th}>
                      User
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
                      <td className={`${td} text-right tabular-nums`}>{report.count}</td>
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
                          <span className="text-muted-foreground">Not signed in</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroller>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label="Client errors pages" onPageChange={setPage} />
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
