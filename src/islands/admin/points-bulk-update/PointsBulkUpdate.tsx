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
import { FileProblemsTable, FilterSelect, ListBody, ListFooter, PER_PAGE, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';

const BASE = '/api/admin/tools/points-bulk-update';
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const SHOWN_PROBLEMS = 100;
const NONE = '__none__';

const number = (n: number) => n.toLocaleString('en-GB');
const signed = (n: number) => (n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : '0');
const plural = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;
const SHOWN_LINES = 20;

/** "Line 3." / "Lines 3, 4 and 5." / "Lines 3, 4, … 22 and 180 more." (the first 20 named) */
function linesText(lines: readonly number[], total: number): string {
  const shown = lines.slice(0, SHOWN_LINES).map(number);
  if (shown.length === 1 && total === 1) return `Line ${shown[0] ?? ''}.`;
  if (total > shown.length) return `Lines ${shown.join(', ')} and ${number(total - shown.length)} more.`;
  return `Lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}.`;
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const LIMIT = `${POINTS_BULK_LIMITS.maxBytes / 1024 / 1024} MB`;

const PHASE_LABELS: Record<string, string> = {
  upload: 'Uploading',
  reading: 'Reading the file',
  checking: 'Checking participants and points',
  saving: 'Saving the preview',
  applying: 'Applying to the points ledger',
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
  const label = PHASE_LABELS[phase] ?? phase;
  const value = total > 0 ? (done / total) * 100 : null;
  return { label, value, detail: phase === 'reading' ? `${mb(done)} of ${mb(total)}` : `${number(done)} of ${plural(total, 'row', 'rows')}` };
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
  if (auth.status !== 'authenticated') return <Loading label="Loading the tool…" />;
  if (auth.user.role !== 'admin') {
    return (
      <Alert variant="destructive" title="Only admins can run this tool">
        Points bulk updates change many participants&apos; balances at once, so only admins can run them. Ask an admin if a batch of points needs crediting.
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
      setAlert(`The file is too large (${mb(file.size)}; at most ${LIMIT}).`);
      return;
    }
    const body = new FormData();
    body.set('file', file, file.name);
    if (columns) body.set('columns', JSON.stringify(columns));
    setAllowNegative(false);
    setBelowZeroRefused(false);
    setStep({ kind: 'working', file, bar: { label: `Uploading ${file.name}`, value: 0 } });
    try {
      const preview = await uploadForNdjson<BulkPreview>(`${BASE}/preview`, body, {
        onProgress: (p) => {
          if (p.phase === 'upload' && p.total)
            setStep({
              kind: 'working',
              file,
              bar: { label: `Uploading ${file.name}`, value: (p.loaded / p.total) * 100, detail: `${mb(p.loaded)} of ${mb(p.total)}` },
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
    setStep({ kind: 'applying', file, preview, bar: { label: PHASE_LABELS.applying ?? 'Applying', value: 0, detail: `0 of ${plural(total, 'row', 'rows')}` } });
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
        title="Upload a points file"
        description={
          <>
            A CSV or XLSX (at most {LIMIT}, {number(POINTS_BULK_LIMITS.maxRows)} rows) with the columns <code>participant</code> (email or Fieldwork id),{' '}
            <code>points</code> (a whole number, negative to take points away), <code>reason</code> (shown to the participant) and optionally{' '}
            <code>reference</code> (your own key, unique in the file). A row credited before — the same reference, or without one the same participant, points
            and reason — is never credited twice, so a corrected file can be applied again. Nothing changes until you apply.
          </>
        }
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
            <p className="text-sm text-muted-foreground">Drop the file here, or</p>
            <Button onClick={() => input.current?.click()}>{step.kind === 'applied' ? 'Choose another file' : 'Choose a file'}</Button>
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
                setAlert('Choose the columns for participant, points and reason.');
                return;
              }
              void upload(step.file, { participant: map.participant, points: map.points, reason: map.reason, reference: map.reference });
            }}
          >
            <Alert variant="info">{step.message}.</Alert>
            <p className="text-sm">Choose which column of {step.file.name} holds each value:</p>
            <div className="grid gap-4 sm:grid-cols-2">
              {BULK_COLUMNS.map((column) => (
                <FilterSelect<string>
                  key={column}
                  label={
                    (REQUIRED_BULK_COLUMNS as readonly string[]).includes(column) ? `${column[0]?.toUpperCase()}${column.slice(1)}` : 'Reference (optional)'
                  }
                  value={step.map[column]}
                  options={[{ value: NONE, label: column === 'reference' ? 'None' : 'Choose a column' }, ...step.headers.map((h) => ({ value: h, label: h }))]}
                  onChange={(value) => setStep({ ...step, map: { ...step.map, [column]: value } })}
                />
              ))}
            </div>
            <div className="flex flex-wrap gap-2">
              <Button type="submit">Read with these columns</Button>
              <Button type="button" variant="outline" onClick={() => input.current?.click()}>
                Choose another file
              </Button>
            </div>
          </form>
        )}

        {preview && step.kind !== 'applied' && <PreviewSummary preview={preview} />}

        {offerNegative && (
          <CheckboxField
            id="bulk-allow-negative"
            label="Allow the balance to go below zero"
            description="Rows taking a participant's available points below zero are applied too; their balance becomes negative until they earn more."
            checked={allowNegative}
            onCheckedChange={(checked) => setAllowNegative(checked === true)}
          />
        )}
        {step.kind === 'preview' && (
          <div className="flex flex-wrap gap-2">
            {preview?.status === 'previewed' && (preview.problemCount === 0 || (allowNegative && onlyBelowZero(preview))) && (
              <Button onClick={() => setConfirm({ excludeProblemRows: false })}>{`Apply ${plural(preview.rows, 'row', 'rows')}`}</Button>
            )}
            {preview?.status === 'previewed' && preview.problemCount > 0 && preview.cleanRows > 0 && (
              <Button onClick={() => setConfirm({ excludeProblemRows: true })}>{`Apply clean rows only (${number(preview.cleanRows)})`}</Button>
            )}
            <Button variant="outline" onClick={() => input.current?.click()}>
              Choose another file
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

      <Section id="points-batches" title="Batches" description="Every file checked here, newest first, with what was applied to each row.">
        <ListBody load={history.load} reload={history.reload} isEmpty={(data) => data.items.length === 0} empty="No batch yet." loadingLabel="Loading batches…">
          {(data) => (
            <div className="flex flex-col gap-4">
              <TableScroller label="Batches table">
                <table className="w-full border-collapse">
                  <caption className="sr-only">Points batches, newest first</caption>
                  <TableHead columns={['When', 'File', 'By', 'Rows', 'Points', 'Status', { label: 'Download', hidden: true }]} />
                  <tbody>
                    {data.items.map((batch) => (
                      <tr key={batch.id}>
                        <td className={`${td} whitespace-nowrap`}>{formatDateTime(batch.appliedAt ?? batch.createdAt)}</td>
                        <td className={`${td} min-w-48 [overflow-wrap:anywhere]`}>{batch.fileName}</td>
                        <td className={td}>{(batch.appliedBy ?? batch.createdBy)?.name ?? '—'}</td>
                        <td className={`${td} tabular-nums`}>
                          {number(batch.rows)}
                          {batch.status === 'applied' && batch.appliedRows !== batch.rows && (
                            <span className="block text-xs text-muted-foreground">{number(batch.appliedRows)} credited</span>
                          )}
                        </td>
                        <td className={`${td} whitespace-nowrap tabular-nums`}>
                          {signed(batch.totals.positive)} / {signed(batch.totals.negative)}
                        </td>
                        <td className={td}>
                          <Badge variant={batch.status === 'applied' ? 'default' : 'outline'}>{batch.status === 'applied' ? 'Applied' : 'Not applied'}</Badge>
                        </td>
                        <td className={td}>
                          <a
                            href={`${BASE}/${batch.id}/rows.csv`}
                            download
                            className="whitespace-nowrap font-medium text-primary underline-offset-4 hover:underline"
                          >
                            Download results<span className="sr-only"> of {batch.fileName}</span>
                          </a>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroller>
              <ListFooter page={page} total={data.total} label="Batches pages" onPageChange={setPage} />
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
      <h3 className="text-base font-semibold">Preview of {preview.fileName}</h3>
      {preview.status === 'applied' && (
        <Alert variant="info" title="Already applied">
          This content was applied{preview.appliedAt ? ` on ${formatDateTime(preview.appliedAt)}` : ''}. Applying it again changes nothing.
        </Alert>
      )}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        <Figure label="Rows" value={number(preview.rows)} />
        <Figure label="Matched" value={number(preview.matched)} />
        <Figure label="Problems" value={number(preview.problemCount)} />
        <Figure label="Points added" value={signed(preview.totals.positive)} />
        <Figure label="Points taken away" value={signed(preview.totals.negative)} />
        <Figure label="Participants" value={number(preview.totals.participants)} />
      </dl>
      {preview.status === 'previewed' && preview.alreadyCredited > 0 && (
        <Alert variant="info" title="Credited before">
          {`${plural(preview.alreadyCredited, 'row was', 'rows were')} credited before (the same reference, or the same participant, points and reason): applying leaves ${preview.alreadyCredited === 1 ? 'it as it is' : 'them as they are'}. ${linesText(preview.alreadyCreditedLines, preview.alreadyCredited)}`}
        </Alert>
      )}
      {preview.problemCount === 0 && preview.status === 'previewed' && (
        <p className="text-sm">{`No problems: ${preview.rows === 1 ? 'the row' : `all ${plural(preview.rows, 'row', 'rows')}`} can be applied.`}</p>
      )}
      {preview.problemCount > 0 && (
        <p className="text-sm">
          {[
            preview.counts.unknownParticipants && plural(preview.counts.unknownParticipants, 'unknown participant', 'unknown participants'),
            preview.counts.disabledAccounts && plural(preview.counts.disabledAccounts, 'disabled account', 'disabled accounts'),
            preview.counts.invalidPoints && plural(preview.counts.invalidPoints, 'invalid points value', 'invalid points values'),
            preview.counts.invalidReasons && plural(preview.counts.invalidReasons, 'missing or long reason', 'missing or long reasons'),
            preview.counts.duplicateReferences && plural(preview.counts.duplicateReferences, 'duplicate reference', 'duplicate references'),
            preview.counts.insufficientPoints && plural(preview.counts.insufficientPoints, 'row below zero points', 'rows below zero points'),
          ]
            .filter(Boolean)
            .join(' · ')}
          . Totals count the {plural(preview.cleanRows, 'clean row', 'clean rows')} only.
        </p>
      )}
      {shown.length > 0 && (
        <>
          <FileProblemsTable problems={shown} />
          <p className="text-sm text-muted-foreground">
            {preview.problemCount > shown.length ? `The first ${number(shown.length)} of ${plural(preview.problemCount, 'problem', 'problems')}. ` : ''}
            <a href={`${BASE}/${preview.batchId}/problems.csv`} download className="font-medium text-primary underline-offset-4 hover:underline">
              Download the problems (CSV)
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
          <DialogTitle>{`Apply ${plural(rows, 'row', 'rows')}?`}</DialogTitle>
          <DialogDescription>
            {signed(preview.totals.positive)} points added and {signed(preview.totals.negative)} taken away (net {signed(preview.totals.net)}) for{' '}
            {plural(preview.totals.participants, 'participant', 'participants')}, at once and all together.
            {excludeProblemRows ? ` The ${plural(preview.problemRows, 'row', 'rows')} with problems are left out.` : ''}
            {!excludeProblemRows && preview.problemRows > 0 ? ` The ${plural(preview.problemRows, 'row', 'rows')} going below zero are applied too.` : ''}
            {preview.alreadyCredited > 0
              ? ` ${plural(preview.alreadyCredited, 'row was', 'rows were')} credited before and ${preview.alreadyCredited === 1 ? 'is' : 'are'} left as ${preview.alreadyCredited === 1 ? 'it is' : 'they are'}.`
              : ''}{' '}
            {allowNegative ? 'Balances may go below zero. ' : ''}Participants see each reason in their points history.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button onClick={onConfirm}>{`Apply ${plural(rows, 'row', 'rows')}`}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function AppliedSummary({ preview, result }: { preview: BulkPreview; result: BulkApplyResult }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert variant="success" title={result.alreadyApplied ? 'Already applied' : 'Applied'}>
        {result.alreadyApplied
          ? 'This batch was applied before: nothing changed.'
          : [
              `${plural(result.applied, 'row', 'rows')} credited to the points ledger.`,
              result.alreadyCredited > 0
                ? `${plural(result.alreadyCredited, 'row was', 'rows were')} credited before and left as ${result.alreadyCredited === 1 ? 'it was' : 'they were'}.`
                : '',
              result.skipped > 0 ? `${plural(result.skipped, 'row', 'rows')} with problems left out.` : '',
            ]
              .filter(Boolean)
              .join(' ')}
      </Alert>
      <p className="text-sm">
        <a href={`${BASE}/${preview.batchId}/rows.csv`} download className="font-medium text-primary underline-offset-4 hover:underline">
          Download the results of {preview.fileName} (CSV)
        </a>
      </p>
    </div>
  );
}
