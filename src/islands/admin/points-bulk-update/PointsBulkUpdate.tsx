/**
 * /admin/tools/points-bulk-update (admins only): choose or drop a CSV or XLSX of participant,
 * points, reason and optional reference; watch it upload, read and check (a bar moved by the
 * server's progress stream); map the columns when the header does not name them; read the
 * preview (rows, matched, problems by line, totals); apply it, or its clean rows only, after a
 * confirmation that says the totals; then the history of batches with each one's results file.
 */
import { useRef, useState, type DragEvent } from 'react';
import type { ListPage } from '../../../shared/list.ts';
import {
  BULK_COLUMNS,
  POINTS_BULK_LIMITS,
  REQUIRED_BULK_COLUMNS,
  type BulkApplyResult,
  type BulkBatchItem,
  type BulkColumn,
  type BulkPreview,
} from '../../../shared/points-bulk-update.ts';
import type { BulkColumnMapInput } from '../../../shared/schemas/points-bulk-update.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { ApiError } from '../../../platform/api.ts';
import { uploadForNdjson, type StreamLine } from '../../../platform/upload.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { FileProblemsTable, FilterSelect, ListBody, ListFooter, PER_PAGE, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';

const BASE = '/api/admin/tools/points-bulk-update';
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const SHOWN_PROBLEMS = 100;
const NONE = '__none__';

const number = formatCount;
const signed = (n: number) => (n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : number(0));
const SHOWN_LINES = 20;

/** "Line 3." / "Lines 3, 4 and 5." / "Lines 3, 4, … 22 and 180 more." (the first 20 named) */
function linesText(lines: readonly number[], total: number): string {
  const shown = lines.slice(0, SHOWN_LINES).map(number);
  if (shown.length === 1 && total === 1) return m.admin_points_line_one({ line: shown[0] ?? '' });
  if (total > shown.length) return m.admin_points_lines_more({ list: shown.join(', '), more: number(total - shown.length) });
  return m.admin_points_lines({ list: shown.slice(0, -1).join(', '), last: shown.at(-1) ?? '' });
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const LIMIT = `${POINTS_BULK_LIMITS.maxBytes / 1024 / 1024} MB`;

const PHASE_LABELS: Readonly<Record<string, () => string>> = {
  upload: m.admin_points_phase_upload,
  reading: m.admin_points_phase_reading,
  checking: m.admin_points_phase_checking,
  saving: m.admin_points_phase_saving,
  applying: m.admin_points_phase_applying,
};

/** The required columns' names in the mapping form. */
const COLUMN_LABELS: Readonly<Record<BulkColumn, () => string>> = {
  participant: m.admin_points_column_participant,
  points: m.admin_points_column_points,
  reason: m.admin_points_column_reason,
  reference: m.admin_points_column_reference,
};

interface Bar {
  label: string;
  value: number | null;
  detail?: string;
}

type Step =
  | { kind: 'choose' }
  | { kind: 'working'; file: File; bar: Bar }
  | { kind: 'mapping'; file: File; headers: string[]; map: Record<BulkColumn, string>; message: string }
  | { kind: 'preview'; file: File; preview: BulkPreview }
  | { kind: 'applying'; file: File; preview: BulkPreview; bar: Bar }
  | { kind: 'applied'; preview: BulkPreview; result: BulkApplyResult };

/** A progress line of the server's stream as a bar. */
function barOf(line: StreamLine): Bar | null {
  const { phase, done, total } = line;
  if (typeof phase !== 'string' || typeof done !== 'number' || typeof total !== 'number') return null;
  const label = PHASE_LABELS[phase]?.() ?? phase;
  const value = total > 0 ? (done / total) * 100 : null;
  return {
    label,
    value,
    detail:
      phase === 'reading'
        ? m.admin_kit_transfer_of({ loaded: mb(done), total: mb(total) })
        : m.admin_points_rows_progress({ done: number(done), count: total }),
  };
}

/** The header each column is probably in (the server's aliases first, else the first header). */
function guessMap(headers: readonly string[]): Record<BulkColumn, string> {
  const find = (...names: string[]) => headers.find((h) => names.includes(h.trim().toLowerCase()));
  return {
    participant: find('participant', 'email', 'user', 'user id', 'participant id', 'id') ?? NONE,
    points: find('points') ?? NONE,
    reason: find('reason') ?? NONE,
    reference: find('reference', 'ref') ?? NONE,
  };
}

export default function PointsBulkUpdate() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_points_loading()} />;
  if (auth.user.role !== 'admin') {
    return (
      <Alert variant="destructive" title={m.admin_points_admins_only_title()}>
        {m.admin_points_admins_only_text()}
      </Alert>
    );
  }
  return <BulkUpdateScreen />;
}

function BulkUpdateScreen() {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [alert, setAlert] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ excludeProblemRows: boolean } | null>(null);
  // "Allow the balance to go below zero": offered when the preview found such rows or the API refused for them (409 `insufficient_points`).
  const [allowNegative, setAllowNegative] = useState(false);
  const [belowZeroRefused, setBelowZeroRefused] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [page, setPage] = useState(1);
  const input = useRef<HTMLInputElement>(null);
  const history = useResource<ListPage<BulkBatchItem>>(`${BASE}/batches?page=${page}&pageSize=${PER_PAGE}`);
  const busy = step.kind === 'working' || step.kind === 'applying';

  async function upload(file: File | undefined, columns: BulkColumnMapInput | null = null) {
    if (!file) return;
    setAlert(null);
    if (file.size > POINTS_BULK_LIMITS.maxBytes) {
      setAlert(m.admin_points_too_large({ size: mb(file.size), max: LIMIT }));
      return;
    }
    const body = new FormData();
    body.set('file', file, file.name);
    if (columns) body.set('columns', JSON.stringify(columns));
    setAllowNegative(false);
    setBelowZeroRefused(false);
    setStep({ kind: 'working', file, bar: { label: m.admin_points_uploading_file({ name: file.name }), value: 0 } });
    try {
      const preview = await uploadForNdjson<BulkPreview>(`${BASE}/preview`, body, {
        onProgress: (p) => {
          if (p.phase === 'upload' && p.total)
            setStep({
              kind: 'working',
              file,
              bar: {
                label: m.admin_points_uploading_file({ name: file.name }),
                value: (p.loaded / p.total) * 100,
                detail: m.admin_kit_transfer_of({ loaded: mb(p.loaded), total: mb(p.total) }),
              },
            });
        },
        onLine: (line) => {
          const bar = barOf(line);
          if (bar) setStep({ kind: 'working', file, bar });
        },
      });
      setStep({ kind: 'preview', file, preview });
      history.reload();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'columns_unmatched' && Array.isArray(error.details.headers)) {
        const headers = [...new Set(error.details.headers.filter((h): h is string => typeof h === 'string' && h.trim() !== ''))];
        setStep({ kind: 'mapping', file, headers, map: guessMap(headers), message: error.message });
        return;
      }
      setStep({ kind: 'choose' });
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
    }
  }

  async function apply(file: File, preview: BulkPreview, excludeProblemRows: boolean) {
    setConfirm(null);
    setAlert(null);
    const total = excludeProblemRows ? preview.cleanRows : preview.rows;
    setStep({
      kind: 'applying',
      file,
      preview,
      bar: { label: m.admin_points_phase_applying(), value: 0, detail: m.admin_points_rows_progress({ done: number(0), count: total }) },
    });
    try {
      const body = allowNegative ? { excludeProblemRows, allowNegative: true } : { excludeProblemRows };
      const result = await uploadForNdjson<BulkApplyResult>(`${BASE}/${preview.batchId}/apply`, JSON.stringify(body), {
        headers: { 'Content-Type': 'application/json' },
        onLine: (line) => {
          const bar = barOf(line);
          if (bar) setStep({ kind: 'applying', file, preview, bar });
        },
      });
      setStep({ kind: 'applied', preview, result });
      history.reload();
    } catch (error) {
      setStep({ kind: 'preview', file, preview });
      if (error instanceof ApiError && error.code === 'insufficient_points') setBelowZeroRefused(true);
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (!busy) void upload(event.dataTransfer.files[0]);
  }

  const preview = step.kind === 'preview' || step.kind === 'applying' || step.kind === 'applied' ? step.preview : null;
  const offerNegative = step.kind === 'preview' && step.preview.status === 'previewed' && (belowZeroRefused || step.preview.counts.insufficientPoints > 0);

  return (
    <div className="flex flex-col gap-8">
      <Section
        id="points-file"
        title={m.admin_points_upload_title()}
        description={withNodes((marks) => m.admin_points_upload_description({ limit: LIMIT, rows: number(POINTS_BULK_LIMITS.maxRows), ...marks }), {
          participant: <code>participant</code>,
          points: <code>points</code>,
          reason: <code>reason</code>,
          reference: <code>reference</code>,
        })}
      >
        <HiddenFileInput ref={input} accept={ACCEPT} onFile={(file) => void upload(file)} />
        {alert && <Alert variant="destructive">{alert}</Alert>}
        {step.kind === 'applied' && <AppliedSummary preview={step.preview} result={step.result} />}

        {(step.kind === 'choose' || step.kind === 'applied') && (
          <div
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-4 py-8 text-center ${dragging ? 'border-primary bg-accent' : 'border-border'}`}
          >
            <p className="text-sm text-muted-foreground">{m.admin_points_drop()}</p>
            <Button onClick={() => input.current?.click()}>{step.kind === 'applied' ? m.admin_points_choose_another() : m.admin_points_choose_file()}</Button>
          </div>
        )}

        {(step.kind === 'working' || step.kind === 'applying') && (
          <div aria-live="polite">
            <Progress label={step.bar.label} value={step.bar.value} detail={step.bar.detail} />
          </div>
        )}

        {step.kind === 'mapping' && (
          <form
            className="flex flex-col gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              const pick = (column: BulkColumn) => (step.map[column] === NONE ? null : step.map[column]);
              const map = { participant: pick('participant'), points: pick('points'), reason: pick('reason'), reference: pick('reference') };
              if (!map.participant || !map.points || !map.reason) {
                setAlert(m.admin_points_map_required());
                return;
              }
              void upload(step.file, { participant: map.participant, points: map.points, reason: map.reason, reference: map.reference });
            }}
          >
            <Alert variant="info">{step.message}.</Alert>
            <p className="text-sm">{m.admin_points_map_which({ name: step.file.name })}</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {BULK_COLUMNS.map((column) => (
                <FilterSelect<string>
                  key={column}
                  label={(REQUIRED_BULK_COLUMNS as readonly string[]).includes(column) ? COLUMN_LABELS[column]() : m.admin_points_column_reference()}
                  value={step.map[column]}
                  options={[
                    { value: NONE, label: column === 'reference' ? m.admin_points_none() : m.admin_points_choose_column() },
                    ...step.headers.map((h) => ({ value: h, label: h })),
                  ]}
                  onChange={(value) => setStep({ ...step, map: { ...step.map, [column]: value } })}
                />
              ))}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit">{m.admin_points_read_columns()}</Button>
              <Button type="button" variant="outline" onClick={() => input.current?.click()}>
                {m.admin_points_choose_another()}
              </Button>
            </div>
          </form>
        )}

        {preview && step.kind !== 'applied' && <PreviewSummary preview={preview} />}

        {offerNegative && (
          <CheckboxField
            id="bulk-allow-negative"
            label={m.admin_points_allow_negative()}
            description={m.admin_points_allow_negative_help()}
            checked={allowNegative}
            onCheckedChange={(checked) => setAllowNegative(checked === true)}
          />
        )}
        {step.kind === 'preview' && (
          <div className="flex flex-wrap gap-2">
            {preview?.status === 'previewed' && (preview.problemCount === 0 || (allowNegative && onlyBelowZero(preview))) && (
              <Button onClick={() => setConfirm({ excludeProblemRows: false })}>{m.admin_points_apply_rows({ count: preview.rows })}</Button>
            )}
            {preview?.status === 'previewed' && preview.problemCount > 0 && preview.cleanRows > 0 && (
              <Button onClick={() => setConfirm({ excludeProblemRows: true })}>{m.admin_points_apply_clean({ count: number(preview.cleanRows) })}</Button>
            )}
            <Button variant="outline" onClick={() => input.current?.click()}>
              {m.admin_points_choose_another()}
            </Button>
          </div>
        )}
      </Section>

      {step.kind === 'preview' && confirm && (
        <ConfirmApply
          preview={step.preview}
          excludeProblemRows={confirm.excludeProblemRows}
          allowNegative={allowNegative}
          onCancel={() => setConfirm(null)}
          onConfirm={() => void apply(step.file, step.preview, confirm.excludeProblemRows)}
        />
      )}

      <Section id="points-batches" title={m.admin_points_batches()} description={m.admin_points_batches_description()}>
        <ListBody
          load={history.load}
          reload={history.reload}
          isEmpty={(data) => data.items.length === 0}
          empty={m.admin_points_batches_empty()}
          loadingLabel={m.admin_points_batches_loading()}
        >
          {(data) => (
            <div className="flex flex-col gap-4">
              <TableScroller label={m.admin_points_batches_table()}>
                <table className="w-full border-collapse">
                  <caption className="sr-only">{m.admin_points_batches_caption()}</caption>
                  <TableHead
                    columns={[
                      m.admin_points_col_when(),
                      m.admin_points_col_file(),
                      m.admin_points_col_by(),
                      m.admin_points_col_rows(),
                      m.admin_points_col_points(),
                      m.admin_points_col_status(),
                      { label: m.admin_points_col_download(), hidden: true },
                    ]}
                  />
                  <tbody>
                    {data.items.map((batch) => (
                      <tr key={batch.id}>
                        <td className={`${td} whitespace-nowrap`}>{formatDateTime(batch.appliedAt ?? batch.createdAt)}</td>
                        <td className={`${td} min-w-48 [overflow-wrap:anywhere]`}>{batch.fileName}</td>
                        <td className={td}>{(batch.appliedBy ?? batch.createdBy)?.name ?? '—'}</td>
                        <td className={`${td} tabular-nums`}>
                          {number(batch.rows)}
                          {batch.status === 'applied' && batch.appliedRows !== batch.rows && (
                            <span className="block text-xs text-muted-foreground">{m.admin_points_credited_count({ count: number(batch.appliedRows) })}</span>
                          )}
                        </td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>
                          {signed(batch.totals.positive)} / {signed(batch.totals.negative)}
                        </td>
                        <td className={td}>
                          <Badge variant={batch.status === 'applied' ? 'default' : 'outline'}>
                            {batch.status === 'applied' ? m.admin_points_applied() : m.admin_points_not_applied()}
                          </Badge>
                        </td>
                        <td className={td}>
                          <a
                            href={`${BASE}/${batch.id}/rows.csv`}
                            download
                            className="whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline"
                          >
                            {m.admin_points_download_results()}
                            <span className="sr-only"> {m.admin_points_sr_of_file({ name: batch.fileName })}</span>
                          </a>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroller>
              <ListFooter page={page} total={data.total} label={m.admin_points_batches_pages()} onPageChange={setPage} />
            </div>
          )}
        </ListBody>
      </Section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg border border-border px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

function PreviewSummary({ preview }: { preview: BulkPreview }) {
  const shown = preview.problems.slice(0, SHOWN_PROBLEMS);
  return (
    <div className="flex flex-col gap-4" aria-live="polite">
      <h3 className="text-base font-semibold">{m.admin_points_preview_of({ name: preview.fileName })}</h3>
      {preview.status === 'applied' && (
        <Alert variant="info" title={m.admin_points_already_applied()}>
          {preview.appliedAt ? m.admin_points_applied_on({ date: formatDateTime(preview.appliedAt) }) : m.admin_points_applied_before()}
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <Figure label={m.admin_points_fig_rows()} value={number(preview.rows)} />
        <Figure label={m.admin_points_fig_matched()} value={number(preview.matched)} />
        <Figure label={m.admin_points_fig_problems()} value={number(preview.problemCount)} />
        <Figure label={m.admin_points_fig_added()} value={signed(preview.totals.positive)} />
        <Figure label={m.admin_points_fig_taken()} value={signed(preview.totals.negative)} />
        <Figure label={m.admin_points_fig_participants()} value={number(preview.totals.participants)} />
      </dl>
      {preview.status === 'previewed' && preview.alreadyCredited > 0 && (
        <Alert variant="info" title={m.admin_points_credited_before_title()}>
          {`${m.admin_points_credited_before({ count: preview.alreadyCredited })} ${linesText(preview.alreadyCreditedLines, preview.alreadyCredited)}`}
        </Alert>
      )}
      {preview.problemCount === 0 && preview.status === 'previewed' && <p className="text-sm">{m.admin_points_no_problems({ count: preview.rows })}</p>}
      {preview.problemCount > 0 && (
        <p className="text-sm">
          {[
            preview.counts.unknownParticipants && m.admin_points_unknown_participants({ count: preview.counts.unknownParticipants }),
            preview.counts.disabledAccounts && m.admin_points_disabled_accounts({ count: preview.counts.disabledAccounts }),
            preview.counts.invalidPoints && m.admin_points_invalid_points({ count: preview.counts.invalidPoints }),
            preview.counts.invalidReasons && m.admin_points_invalid_reasons({ count: preview.counts.invalidReasons }),
            preview.counts.duplicateReferences && m.admin_points_duplicate_references({ count: preview.counts.duplicateReferences }),
            preview.counts.insufficientPoints && m.admin_points_below_zero({ count: preview.counts.insufficientPoints }),
          ]
            .filter(Boolean)
            .join(' · ')}
          . {m.admin_points_totals_clean({ count: preview.cleanRows })}
        </p>
      )}
      {shown.length > 0 && (
        <>
          <FileProblemsTable problems={shown} />
          <p className="text-sm text-muted-foreground">
            {preview.problemCount > shown.length ? `${m.admin_points_first_problems({ shown: number(shown.length), count: preview.problemCount })} ` : ''}
            <a href={`${BASE}/${preview.batchId}/problems.csv`} download className="font-medium text-primary underline-offset-4 hover:underline">
              {m.admin_points_download_problems()}
            </a>
          </p>
        </>
      )}
    </div>
  );
}

/** Every problem of the preview is a row going below zero (applied after all with `allowNegative`). */
function onlyBelowZero(preview: BulkPreview): boolean {
  return preview.problemCount > 0 && preview.problemCount === preview.counts.insufficientPoints;
}

function ConfirmApply({
  preview,
  excludeProblemRows,
  allowNegative,
  onCancel,
  onConfirm,
}: {
  preview: BulkPreview;
  excludeProblemRows: boolean;
  allowNegative: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const rows = excludeProblemRows ? preview.cleanRows : preview.rows;
  return (
    <Dialog open onOpenChange={(open) => !open && onCancel()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{m.admin_points_apply_rows_question({ count: rows })}</DialogTitle>
          <DialogDescription>
            {[
              m.admin_points_confirm_totals({
                added: signed(preview.totals.positive),
                taken: signed(preview.totals.negative),
                net: signed(preview.totals.net),
                count: preview.totals.participants,
              }),
              ...(excludeProblemRows ? [m.admin_points_confirm_left_out({ count: preview.problemRows })] : []),
              ...(!excludeProblemRows && preview.problemRows > 0 ? [m.admin_points_confirm_below_zero({ count: preview.problemRows })] : []),
              ...(preview.alreadyCredited > 0 ? [m.admin_points_confirm_credited({ count: preview.alreadyCredited })] : []),
              ...(allowNegative ? [m.admin_points_confirm_negative()] : []),
              m.admin_points_confirm_history(),
            ].join(' ')}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            {m.admin_dialog_cancel()}
          </Button>
          <Button onClick={onConfirm}>{m.admin_points_apply_rows({ count: rows })}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function AppliedSummary({ preview, result }: { preview: BulkPreview; result: BulkApplyResult }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert variant="success" title={result.alreadyApplied ? m.admin_points_already_applied() : m.admin_points_applied_title()}>
        {result.alreadyApplied
          ? m.admin_points_applied_nothing()
          : [
              m.admin_points_applied_rows({ count: result.applied }),
              result.alreadyCredited > 0 ? m.admin_points_applied_credited({ count: result.alreadyCredited }) : '',
              result.skipped > 0 ? m.admin_points_applied_skipped({ count: result.skipped }) : '',
            ]
              .filter(Boolean)
              .join(' ')}
      </Alert>
      <p className="text-sm">
        <a href={`${BASE}/${preview.batchId}/rows.csv`} download className="font-medium text-primary underline-offset-4 hover:underline">
          {m.admin_points_download_results_of({ name: preview.fileName })}
        </a>
      </p>
    </div>
  );
}
