import { useState } from 'react';
import { canMoveTo, DATA_DELETION_STATUSES, type DataDeletionStatus } from '../../shared/schemas/data-deletion.ts';
import { apiSend, withQuery } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { fullNameOf } from '../../lib/user.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { m } from '../../shared/i18n.ts';
import { Label } from '../../components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select.tsx';
import type { ListPage } from '../../shared/list.ts';
import { ConfirmButton, ListBody, ListFooter, PER_PAGE, SearchForm, Section, useApi } from './admin-kit.tsx';

export interface DataDeletionRequest {
  id: number;
  userId: number | null;
  email: string;
  reason: string | null;
  status: DataDeletionStatus;
  ip: string | null;
  createdAt: string;
  confirmedAt: string | null;
  handledAt: string | null;
  handledBy: number | null;
  user: { id: number; email: string; firstName: string; lastName: string } | null;
}

const STATUS_LABELS: Readonly<Record<DataDeletionStatus, () => string>> = {
  pending: m.admin_deletion_status_pending,
  confirmed: m.admin_deletion_status_confirmed,
  completed: m.admin_deletion_status_completed,
  cancelled: m.admin_deletion_status_cancelled,
};

type StatusFilter = DataDeletionStatus | 'all';

/** How an admin closes a request, each offered while `canMoveTo` allows it. */
const closingSteps = () =>
  [
    {
      to: 'completed',
      label: m.admin_deletion_mark_completed(),
      question: m.admin_deletion_mark_completed_question(),
      variant: 'default',
      confirmVariant: 'default',
    },
    { to: 'cancelled', label: m.admin_deletion_cancel(), question: m.admin_deletion_cancel_question(), variant: 'outline', confirmVariant: 'destructive' },
  ] as const;

/** "Data-deletion requests" (admin only): filter by status, complete or cancel. */
export function DataDeletionRequests() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [alert, setAlert] = useState<string | null>(null);
  const query: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (search) query.q = search;
  if (status !== 'all') query.status = status;
  const { load, reload, replace } = useApi<ListPage<DataDeletionRequest>>(withQuery('/api/admin/data-deletion-requests', query));

  async function close(request: DataDeletionRequest, next: 'completed' | 'cancelled') {
    setAlert(null);
    try {
      const { request: updated } = await apiSend<{ request: DataDeletionRequest }>('PATCH', `/api/admin/data-deletion-requests/${request.id}`, {
        status: next,
      });
      replace((data) => ({ ...data, items: data.items.map((r) => (r.id === updated.id ? { ...updated, user: r.user } : r)) }));
    } catch (error) {
      setAlert(errorMessage(error));
      reload();
    }
  }

  return (
    <Section id="data-deletion-requests" title={m.admin_deletion_title()} description={m.admin_deletion_description()}>
      <SearchForm
        label={m.admin_deletion_search()}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      >
        <div className="flex flex-col gap-2 sm:w-56">
          <Label htmlFor="deletion-status-filter">{m.admin_deletion_status()}</Label>
          <Select
            value={status}
            onValueChange={(value) => {
              setStatus(value as StatusFilter);
              setPage(1);
            }}
          >
            <SelectTrigger id="deletion-status-filter">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">{m.admin_deletion_all_statuses()}</SelectItem>
              {DATA_DELETION_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {STATUS_LABELS[s]()}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SearchForm>
      <FormAlert message={alert} />
      <ListBody
        load={load}
        reload={reload}
        loadingLabel={m.admin_deletion_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={search || status !== 'all' ? m.admin_deletion_empty_filtered() : m.admin_deletion_empty()}
      >
        {(data) => (
          <>
            <ul className="flex flex-col divide-y divide-border rounded-lg border border-border" aria-label={m.admin_deletion_title()}>
              {data.items.map((request) => (
                <li key={request.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
                  <div className="flex min-w-0 flex-col gap-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-medium wrap-anywhere">{request.email}</span>
                      <Badge variant={request.status === 'confirmed' ? 'default' : request.status === 'pending' ? 'secondary' : 'outline'}>
                        {STATUS_LABELS[request.status]()}
                      </Badge>
                    </p>
                    {request.user && (
                      <p className="text-sm">
                        <a href={`/admin/users/${request.user.id}`} className="text-primary underline-offset-4 hover:underline">
                          {fullNameOf(request.user)}
                        </a>
                      </p>
                    )}
                    <p className="text-xs text-muted-foreground">
                      {m.admin_deletion_asked({ date: formatDateTime(request.createdAt) })}
                      {request.confirmedAt && <> · {m.admin_deletion_confirmed_at({ date: formatDateTime(request.confirmedAt) })}</>}
                      {request.handledAt && <> · {m.admin_deletion_closed_at({ date: formatDateTime(request.handledAt) })}</>}
                    </p>
                    {request.reason && (
                      <p className="mt-1 text-sm whitespace-pre-line text-muted-foreground">{m.admin_deletion_reason({ reason: request.reason })}</p>
                    )}
                  </div>
                  <div className="flex shrink-0 flex-wrap gap-2">
                    {closingSteps()
                      .filter((step) => canMoveTo(request.status, step.to))
                      .map(({ to, label, question, variant, confirmVariant }) => (
                        <ConfirmButton
                          key={to}
                          confirmLabel={label}
                          question={question}
                          onConfirm={() => close(request, to)}
                          variant={variant}
                          confirmVariant={confirmVariant}
                        >
                          {label}
                        </ConfirmButton>
                      ))}
                  </div>
                </li>
              ))}
            </ul>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_deletion_pages()} onPageChange={setPage} />
          </>
        )}
      </ListBody>
    </Section>
  );
}
