/**
 * /admin/rewards/redemptions (issue 30 §4): the fulfilment queue, oldest first, in pages of 10 —
 * filters status (what waits for approval by default), reward, participant, requested from / to,
 * mirrored in the address bar; "Download CSV" of the period and status. Admins approve, reject
 * with a reason the participant reads, mark a manual reward delivered (code or link, optional
 * note), and approve the selected requests at once (`expectedStatus: 'requested'`). A request that
 * moved on meanwhile (409) is said in words and the page is asked for again. These decisions move
 * value: an old sign-in is asked to confirm it's them (the shell's dialog, `stores/reauth.ts`) and
 * the call is sent again. Moderators read.
 */
import { useEffect, useId, useState } from 'react';
import type { ListPage } from '../../../shared/list.ts';
import { REDEMPTION_STATUSES, type AdminRedemption, type AdminReward, type RedemptionStatus } from '../../../shared/rewards.ts';
import { ApiError, apiSend, withQuery } from '../../../platform/api.ts';
import { downloadAfterSignInProof } from '../../../platform/download.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { BulkApproveBar, ConfirmButton, FilterSelect, ListBody, ListFooter, SearchForm, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import { selectAllState, toggleAll } from '../review/logic.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import {
  actionsFor,
  bulkApproveText,
  DEFAULT_QUEUE_QUERY,
  formatMoney,
  isQueueFiltered,
  queueApiPath,
  queueCsvHref,
  readQueueQuery,
  STATUS_FILTER_LABELS,
  STATUS_LABELS,
  writeQueueQuery,
  type AdminRedemptionPage,
  type BulkApproveResult,
  type QueueQuery,
} from './logic.ts';

const statusOptions = () =>
  [{ value: 'all', label: m.admin_queue_all_statuses() }, ...REDEMPTION_STATUSES.map((value) => ({ value, label: STATUS_FILTER_LABELS[value]() }))] as const;

const whoOf = (item: AdminRedemption) => fullNameOf({ firstName: item.user.firstName ?? '', lastName: item.user.lastName ?? '' }) || item.user.email;
const whatOf = (item: AdminRedemption) => `${item.reward.title} (${formatMoney(item.value, item.currency)})`;

/** The island of /admin/rewards/redemptions. */
export default function RedemptionsQueue() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_queue_loading()} />;
  return <Queue canDecide={auth.user.role === 'admin'} />;
}

type Dialog = { kind: 'reject' | 'deliver'; item: AdminRedemption } | null;

function Queue({ canDecide }: { canDecide: boolean }) {
  const fromId = useId();
  const toId = useId();
  const allId = useId();
  const [query, setQuery] = useState<QueueQuery | null>(null);
  const list = useResource<AdminRedemptionPage>(query === null ? null : queueApiPath(query));
  const rewards = useResource<ListPage<AdminReward>>(withQuery('/api/admin/rewards', { pageSize: '100', sort: 'title' }));
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);

  useEffect(() => setQuery(readQueueQuery(location.search)), []);
  useEffect(() => {
    if (query === null) return;
    const search = writeQueueQuery(query);
    if (search !== location.search) history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
  }, [query]);

  const current = query ?? DEFAULT_QUEUE_QUERY;
  const update = (patch: Partial<QueueQuery>) => {
    setSelected(new Set());
    setQuery((was) => ({ ...(was ?? DEFAULT_QUEUE_QUERY), ...patch, page: patch.page ?? 1 }));
  };
  const catalogue = rewards.load.status === 'ready' ? rewards.load.data.items : [];
  const rewardOptions = [
    { value: 'all', label: m.admin_queue_all_rewards() },
    ...catalogue.map((reward) => ({ value: String(reward.id), label: reward.title })),
    ...(current.rewardId !== null && !catalogue.some((reward) => reward.id === current.rewardId)
      ? [{ value: String(current.rewardId), label: m.admin_queue_reward_number({ id: String(current.rewardId) }) }]
      : []),
  ];

  /** The page asked for again, quietly (what is on screen stays; a failure is said). */
  async function refresh() {
    try {
      await list.refresh();
    } catch (error) {
      setProblem(errorMessage(error));
    }
  }

  /** A decision: its outcome said; a refusal (409 conflict, not approvable, …) said in words; the page asked for again either way. */
  async function decide(run: () => Promise<unknown>, done: string) {
    setProblem(null);
    setNotice(null);
    try {
      await run();
      toast({ title: done });
    } catch (error) {
      if (handleSessionLost(error)) return;
      setProblem(errorMessage(error));
    }
    await refresh();
  }

  async function bulkApprove(ids: number[]) {
    setProblem(null);
    setNotice(null);
    try {
      const result = await apiSend<BulkApproveResult>('POST', '/api/admin/redemptions/approve', { ids, expectedStatus: 'requested' });
      setNotice(bulkApproveText(result));
      setSelected(new Set());
    } catch (error) {
      if (handleSessionLost(error)) return;
      setProblem(errorMessage(error));
    }
    await refresh();
  }

  return (
    <Section
      id="redemptions"
      title={m.admin_queue_title()}
      description={canDecide ? m.admin_queue_description() : m.admin_queue_description_moderator()}
      aside={
        <a href={queueCsvHref(current)} download className={buttonVariants({ variant: 'outline' })} onClick={(event) => downloadAfterSignInProof(event)}>
          {m.admin_queue_download_csv()}
        </a>
      }
    >
      <p className="text-sm">
        <a href="/admin/rewards" className="font-medium text-primary underline-offset-4 hover:underline">
          {m.admin_queue_back()}
        </a>
      </p>
      <SearchForm label={m.admin_queue_search()} value={current.q} onSearch={(q) => update({ q })}>
        <FilterSelect
          label={m.admin_queue_status()}
          value={current.status}
          options={statusOptions()}
          onChange={(status) => update({ status })}
          className="sm:w-64"
        />
      </SearchForm>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <FilterSelect
          label={m.admin_queue_reward()}
          value={current.rewardId === null ? 'all' : String(current.rewardId)}
          options={rewardOptions}
          onChange={(value) => update({ rewardId: value === 'all' ? null : Number(value) })}
          className="sm:w-64"
        />
        <div className="flex flex-col gap-2">
          <Label htmlFor={fromId}>{m.admin_queue_requested_from()}</Label>
          <Input id={fromId} type="date" value={current.from} max={current.to || undefined} onChange={(event) => update({ from: event.target.value })} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={toId}>{m.admin_queue_requested_to()}</Label>
          <Input id={toId} type="date" value={current.to} min={current.from || undefined} onChange={(event) => update({ to: event.target.value })} />
        </div>
        {isQueueFiltered(current) && (
          <Button variant="ghost" onClick={() => update({ ...DEFAULT_QUEUE_QUERY })}>
            {m.admin_queue_clear_filters()}
          </Button>
        )}
      </div>

      {problem && (
        <Alert variant="destructive" title={m.admin_queue_problem_title()}>
          {problem}
        </Alert>
      )}
      {notice && (
        <Alert variant="success" title={m.admin_queue_bulk_title()}>
          {notice}
        </Alert>
      )}

      <ListBody
        load={query === null ? { status: 'loading' } : list.load}
        reload={list.reload}
        loadingLabel={m.admin_queue_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={isQueueFiltered(current) ? m.admin_queue_empty_filtered() : m.admin_queue_empty()}
      >
        {(data) => {
          const approvable = data.items.filter((item) => item.status === 'requested').map((item) => item.id);
          const count = approvable.filter((rowId) => selected.has(rowId)).length;
          return (
            <>
              {canDecide && approvable.length > 0 && (
                <BulkApproveBar
                  id={allId}
                  allLabel={m.admin_queue_select_all()}
                  checked={selectAllState(approvable, selected)}
                  onToggleAll={() => setSelected(toggleAll(approvable, selected))}
                  count={count}
                  question={m.admin_queue_approve_question({ count })}
                  onApprove={() => bulkApprove(approvable.filter((rowId) => selected.has(rowId)))}
                />
              )}
              <TableScroller label={m.admin_queue_table()}>
                <div className="relative">
                  <table className="w-full min-w-[56rem] border-collapse">
                    <caption className="sr-only">{m.admin_queue_caption({ total: formatCount(data.total) })}</caption>
                    <TableHead
                      columns={[
                        ...(canDecide ? [{ label: m.admin_queue_column_select(), hidden: true }] : []),
                        m.admin_queue_column_requested(),
                        m.admin_queue_column_participant(),
                        m.admin_queue_reward(),
                        m.admin_queue_column_points(),
                        m.admin_queue_status(),
                        ...(canDecide ? [{ label: m.admin_queue_column_actions(), hidden: true }] : []),
                      ]}
                    />
                    <tbody>
                      {data.items.map((item) => {
                        const who = whoOf(item);
                        const can = actionsFor(item.status, item.reward.fulfilment === 'manual');
                        return (
                          <tr key={item.id} data-row-id={item.id}>
                            {canDecide && (
                              <td className={td}>
                                {item.status === 'requested' && (
                                  <Checkbox
                                    aria-label={m.admin_queue_select_request({ who })}
                                    checked={selected.has(item.id)}
                                    onCheckedChange={(checked) => {
                                      const next = new Set(selected);
                                      if (checked === true) next.add(item.id);
                                      else next.delete(item.id);
                                      setSelected(next);
                                    }}
                                  />
                                )}
                              </td>
                            )}
                            <td className={`${td} whitespace-nowrap tabular-nums`}>{formatDateTime(item.createdAt)}</td>
                            <td className={td}>
                              <a href={`/admin/users/${item.user.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                                {who}
                              </a>
                              <span className="block text-xs text-muted-foreground wrap-anywhere">{item.user.email}</span>
                            </td>
                            <td className={td}>
                              {item.reward.title}
                              <span className="block text-xs text-muted-foreground tabular-nums">{formatMoney(item.value, item.currency)}</span>
                            </td>
                            <td className={`${td} tabular-nums`}>{formatCount(item.points)}</td>
                            <td className={td}>
                              <StatusBadge status={item.status} />
                              {item.status === 'requested' && item.needsReview && (
                                <span className="block text-xs text-muted-foreground">{m.admin_queue_needs_check()}</span>
                              )}
                              {item.reason && <span className="block max-w-64 text-xs text-muted-foreground">{item.reason}</span>}
                            </td>
                            {canDecide && (
                              <td className={td}>
                                <div className="flex flex-wrap gap-2">
                                  {can.approve && (
                                    <ConfirmButton
                                      confirmLabel={m.admin_queue_approve()}
                                      question={m.admin_queue_approve_one_question({ what: whatOf(item), who })}
                                      onConfirm={() =>
                                        decide(
                                          () => apiSend('POST', `/api/admin/redemptions/${item.id}/approve`, { expectedStatus: item.status }),
                                          m.admin_queue_approved_toast({ what: whatOf(item), who }),
                                        )
                                      }
                                    >
                                      {m.admin_queue_approve()}
                                      <span className="sr-only"> {m.admin_queue_sr_request_of({ who })}</span>
                                    </ConfirmButton>
                                  )}
                                  {can.deliver && (
                                    <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'deliver', item })}>
                                      {m.admin_queue_mark_delivered()}
                                      <span className="sr-only"> {m.admin_queue_sr_for({ who })}</span>
                                    </Button>
                                  )}
                                  {can.reject && (
                                    <Button variant="outline" size="sm" onClick={() => setDialog({ kind: 'reject', item })}>
                                      {m.admin_queue_reject()}
                                      <span className="sr-only"> {m.admin_queue_sr_request_of({ who })}</span>
                                    </Button>
                                  )}
                                </div>
                              </td>
                            )}
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              </TableScroller>
              <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_queue_pages()} onPageChange={(page) => update({ page })} />
            </>
          );
        }}
      </ListBody>

      <RejectDialog
        key={dialog?.kind === 'reject' ? `reject-${dialog.item.id}` : 'reject'}
        item={dialog?.kind === 'reject' ? dialog.item : null}
        onClose={() => setDialog(null)}
        onDone={refresh}
      />
      <DeliverDialog
        key={dialog?.kind === 'deliver' ? `deliver-${dialog.item.id}` : 'deliver'}
        item={dialog?.kind === 'deliver' ? dialog.item : null}
        onClose={() => setDialog(null)}
        onDone={refresh}
      />
    </Section>
  );
}

function StatusBadge({ status }: { status: RedemptionStatus }) {
  const variant = status === 'delivered' || status === 'approved' ? 'default' : status === 'requested' || status === 'ordering' ? 'secondary' : 'outline';
  return <Badge variant={variant}>{STATUS_LABELS[status]()}</Badge>;
}

/** A refusal that means the request moved on: the page is asked for again, and the message stays in the dialog. */
async function sendDecision(run: () => Promise<unknown>, onDone: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) await onDone();
    throw error;
  }
  await onDone();
}

function RejectDialog({ item, onClose, onDone }: { item: AdminRedemption | null; onClose: () => void; onDone: () => Promise<void> }) {
  const id = useId();
  const form = useDialogForm<{ reason: string }>(
    { open: item !== null, onOpenChange: (open) => !open && onClose() },
    {
      schema: () => import('../../../shared/schemas/redemptions.ts').then((module) => module.redemptionRejectSchema.pick({ reason: true })),
      defaultValues: { reason: '' },
      submit: async ({ reason }) => {
        if (!item) return;
        await sendDecision(() => apiSend('POST', `/api/admin/redemptions/${item.id}/reject`, { reason, expectedStatus: item.status }), onDone);
        toast({ title: m.admin_queue_rejected_toast({ what: whatOf(item), who: whoOf(item) }) });
        onClose();
      },
    },
  );
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      title={m.admin_queue_reject_title()}
      description={item ? m.admin_queue_reject_description({ what: whatOf(item), who: whoOf(item), count: item.points }) : ''}
      submitLabel={m.admin_queue_reject()}
    >
      <FormField id={`${id}-reason`} label={m.admin_queue_reason()} description={m.admin_queue_reason_help()} error={errors.reason?.message}>
        {(c) => <Textarea {...c} rows={3} {...register('reason')} />}
      </FormField>
    </FormDialog>
  );
}

interface DeliverValues {
  code: string;
  link: string;
  note: string;
}

function DeliverDialog({ item, onClose, onDone }: { item: AdminRedemption | null; onClose: () => void; onDone: () => Promise<void> }) {
  const id = useId();
  const form = useDialogForm<DeliverValues>(
    { open: item !== null, onOpenChange: (open) => !open && onClose() },
    {
      schema: () => import('../../../shared/schemas/redemptions.ts').then((module) => module.redemptionDeliverSchema),
      defaultValues: { code: '', link: '', note: '' },
      submit: async (values) => {
        if (!item) return;
        await sendDecision(() => apiSend('POST', `/api/admin/redemptions/${item.id}/deliver`, values), onDone);
        toast({ title: m.admin_queue_sent_toast({ what: whatOf(item), who: whoOf(item) }) });
        onClose();
      },
    },
  );
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FormDialog
      form={form}
      title={m.admin_queue_mark_delivered()}
      description={item ? m.admin_queue_deliver_description({ what: whatOf(item), who: whoOf(item) }) : ''}
      submitLabel={m.admin_queue_mark_delivered()}
    >
      <FormField id={`${id}-code`} label={m.admin_queue_code()} hint={m.admin_queue_code_hint()} error={errors.code?.message}>
        {(c) => <Input {...c} autoComplete="off" {...register('code')} />}
      </FormField>
      <FormField id={`${id}-link`} label={m.admin_queue_link()} description={m.admin_queue_link_help()} error={errors.link?.message}>
        {(c) => <Input {...c} type="url" inputMode="url" autoComplete="off" {...register('link')} />}
      </FormField>
      <FormField
        id={`${id}-note`}
        label={m.admin_queue_note()}
        hint={m.admin_reward_dialog_optional()}
        description={m.admin_queue_note_help()}
        error={errors.note?.message}
      >
        {(c) => <Textarea {...c} rows={2} {...register('note')} />}
      </FormField>
    </FormDialog>
  );
}
