/**
 * /admin/tools/alchemer-export-append: choose a client's Alchemer export (button or drop), see
 * what it holds (format, encoding, rows, the column of the participant reference with how many
 * sampled values match), choose the profile fields to append and whether to confirm completes,
 * then download the appended file and read the counts. Admins only (moderators are told so; the
 * API refuses them anyway). Decision 016; calls in docs/api.md "Alchemer export append".
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import {
  ALCHEMER_APPEND_LIMITS,
  APPEND_COUNT_HEADERS,
  APPEND_FIELD_LABELS,
  APPEND_FIELDS,
  APPEND_FORM_FIELDS,
  appendedFileName,
  ENCODING_LABELS,
  type AppendCounts,
  type AppendField,
  type ExportColumn,
  type ExportPreview,
} from '../../../shared/alchemer-export-append.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { cn } from '../../../lib/utils.ts';
import { formatBytes } from '../../../lib/ui-kit/bytes.ts';
import { saveBlob, uploadForFile, uploadForJson, type TransferProgress } from '../../../platform/upload.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { Section, transferProgress, type TransferWords } from '../admin-kit.tsx';

const PREVIEW_PATH = '/api/admin/tools/alchemer-export-append/preview';
const APPEND_PATH = '/api/admin/tools/alchemer-export-append';
const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DEFAULT_FIELDS: readonly AppendField[] = ['firstName', 'lastName', 'email'];

type Step =
  | { kind: 'choose' }
  | { kind: 'previewing'; file: File; progress: TransferProgress | null }
  | { kind: 'preview'; file: File; preview: ExportPreview }
  | { kind: 'appending'; file: File; preview: ExportPreview; progress: TransferProgress | null }
  | { kind: 'done'; file: File; preview: ExportPreview; counts: AppendCounts; fileName: string; confirmed: boolean };

const number = formatCount;
const transferWords = (): TransferWords => ({ starting: m.admin_alchemer_starting(), waiting: m.admin_alchemer_waiting(), uploads: true });

/** The columns to choose from: each name once (the first of a repeated name is the one read). */
function choosableColumns(columns: readonly ExportColumn[]): ExportColumn[] {
  const seen = new Set<string>();
  return columns.filter((column) => {
    const key = column.name.trim();
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export default function AlchemerExportAppend() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_alchemer_loading()} />;
  if (auth.user.role !== 'admin')
    return (
      <Alert variant="info" title={m.admin_alchemer_admins_only_title()}>
        {m.admin_alchemer_admins_only_text()}
      </Alert>
    );
  return <AppendTool />;
}

function AppendTool() {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [alert, setAlert] = useState<string | null>(null);
  const [idColumn, setIdColumn] = useState<string>('');
  const [fields, setFields] = useState<readonly AppendField[]>(DEFAULT_FIELDS);
  const [confirmCompletes, setConfirmCompletes] = useState(false);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ids = useId();

  async function choose(file: File | undefined) {
    if (!file) return;
    setAlert(null);
    if (file.size > ALCHEMER_APPEND_LIMITS.maxBytes) {
      setAlert(m.admin_alchemer_too_large({ name: file.name, max: formatBytes(ALCHEMER_APPEND_LIMITS.maxBytes, 1) }));
      return;
    }
    setStep({ kind: 'previewing', file, progress: null });
    const body = new FormData();
    body.append(APPEND_FORM_FIELDS.file, file, file.name);
    try {
      const preview = await uploadForJson<ExportPreview>(PREVIEW_PATH, body, {
        onProgress: (progress) => setStep((current) => (current.kind === 'previewing' ? { ...current, progress } : current)),
      });
      const columns = choosableColumns(preview.columns);
      setIdColumn(preview.proposedIdColumn ?? columns[0]?.name ?? '');
      setConfirmCompletes(false);
      setStep({ kind: 'preview', file, preview });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
      setStep({ kind: 'choose' });
    }
  }

  async function append(file: File, preview: ExportPreview) {
    setAlert(null);
    setStep({ kind: 'appending', file, preview, progress: null });
    const body = new FormData();
    body.append(APPEND_FORM_FIELDS.idColumn, idColumn);
    for (const field of APPEND_FIELDS) if (fields.includes(field)) body.append(APPEND_FORM_FIELDS.fields, field);
    body.append(APPEND_FORM_FIELDS.confirmCompletes, confirmCompletes ? 'true' : 'false');
    body.append(APPEND_FORM_FIELDS.file, file, file.name);
    try {
      const answer = await uploadForFile(APPEND_PATH, body, {
        onProgress: (progress) => setStep((current) => (current.kind === 'appending' ? { ...current, progress } : current)),
      });
      const fileName = answer.fileName ?? appendedFileName(file.name, preview.format);
      saveBlob(answer.blob, fileName);
      const counts = Object.fromEntries(
        Object.entries(APPEND_COUNT_HEADERS).map(([name, header]) => [name, Number(answer.headers(header) ?? 0)]),
      ) as AppendCounts;
      setStep({ kind: 'done', file, preview, counts, fileName, confirmed: confirmCompletes });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
      setStep({ kind: 'preview', file, preview });
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (step.kind === 'previewing' || step.kind === 'appending') return;
    void choose(event.dataTransfer.files[0]);
  }

  const busy = step.kind === 'previewing' || step.kind === 'appending';
  const preview = step.kind === 'choose' || step.kind === 'previewing' ? null : step.preview;
  const columns = preview ? choosableColumns(preview.columns) : [];
  const chosen = columns.find((column) => column.name === idColumn);

  return (
    <div className="flex flex-col gap-6">
      <Section id="alchemer-file" title={m.admin_alchemer_file_title()} description={m.admin_alchemer_file_description()}>
        {alert && <Alert variant="destructive">{alert}</Alert>}
        <HiddenFileInput ref={input} id={`${ids}-file`} accept={ACCEPT} onFile={(file) => void choose(file)} />
        <div
          onDragOver={(event) => {
            event.preventDefault();
            if (!busy) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-border p-6 text-center',
            dragging && 'border-primary bg-accent',
          )}
        >
          <p className="text-sm text-muted-foreground">
            {step.kind === 'choose' ? m.admin_alchemer_drop() : `${step.file.name} (${formatBytes(step.file.size, 1)})`}
          </p>
          <Button variant={step.kind === 'choose' ? 'default' : 'outline'} onClick={() => input.current?.click()} disabled={busy}>
            {step.kind === 'choose' ? m.admin_alchemer_choose() : m.admin_alchemer_choose_another()}
          </Button>
        </div>
        {step.kind === 'previewing' && <Progress {...transferProgress(step.progress, transferWords())} />}
      </Section>

      {preview && step.kind !== 'choose' && step.kind !== 'previewing' && (
        <Section id="alchemer-append" title={m.admin_alchemer_append_title()} description={m.admin_alchemer_append_description({ name: preview.fileName })}>
          <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
            <div className="flex flex-col gap-0.5">
              <dt className="text-muted-foreground">{m.admin_alchemer_format()}</dt>
              <dd className="font-medium">{preview.format.toUpperCase()}</dd>
            </div>
            <div className="flex flex-col gap-0.5">
              <dt className="text-muted-foreground">{m.admin_alchemer_encoding()}</dt>
              <dd className="font-medium">{preview.encoding ? ENCODING_LABELS[preview.encoding] : m.admin_alchemer_excel_workbook()}</dd>
            </div>
            <div className="flex flex-col gap-0.5">
              <dt className="text-muted-foreground">{m.admin_alchemer_rows()}</dt>
              <dd className="font-medium tabular-nums">{number(preview.rows)}</dd>
            </div>
          </dl>

          <div className="flex flex-col gap-2">
            <Label htmlFor={`${ids}-id-column`}>{m.admin_alchemer_id_column()}</Label>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
              <Select value={idColumn} onValueChange={setIdColumn} disabled={busy}>
                <SelectTrigger id={`${ids}-id-column`} className="sm:max-w-sm" aria-describedby={`${ids}-id-matches`}>
                  <SelectValue placeholder={m.admin_alchemer_choose_column()} />
                </SelectTrigger>
                <SelectContent>
                  {columns.map((column) => (
                    <SelectItem key={column.index} value={column.name}>
                      {column.name}
                      {column.matches > 0 ? ` (${m.admin_alchemer_column_matches({ count: column.matches })})` : ''}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <p id={`${ids}-id-matches`} className="text-sm text-muted-foreground" role="status">
                {chosen ? m.admin_alchemer_sampled_match({ matches: number(chosen.matches), sampled: number(chosen.sampled) }) : m.admin_alchemer_no_column()}
              </p>
            </div>
            {preview.proposedIdColumn === null && <p className="text-sm text-muted-foreground">{m.admin_alchemer_no_reference()}</p>}
          </div>

          <fieldset className="flex flex-col gap-3" disabled={busy}>
            <legend className="mb-2 text-sm font-medium">{m.admin_alchemer_fields()}</legend>
            <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {APPEND_FIELDS.map((field) => (
                <CheckboxField
                  key={field}
                  id={`${ids}-field-${field}`}
                  label={APPEND_FIELD_LABELS[field]}
                  description={field === 'ageBand' ? m.admin_alchemer_age_band_help() : undefined}
                  checked={fields.includes(field)}
                  onCheckedChange={(checked) => setFields((current) => (checked === true ? [...current, field] : current.filter((one) => one !== field)))}
                />
              ))}
            </div>
            <p className="text-sm text-muted-foreground">{m.admin_alchemer_match_column()}</p>
          </fieldset>

          <CheckboxField
            id={`${ids}-confirm`}
            label={m.admin_alchemer_confirm()}
            description={preview.hasStatus ? m.admin_alchemer_confirm_help() : m.admin_alchemer_no_status()}
            checked={confirmCompletes}
            disabled={busy || !preview.hasStatus}
            onCheckedChange={(checked) => setConfirmCompletes(checked === true)}
          />

          <div className="flex flex-col gap-3">
            <div>
              <Button onClick={() => void append(step.file, preview)} loading={step.kind === 'appending'} disabled={busy || !chosen}>
                {m.admin_alchemer_download()}
              </Button>
            </div>
            {step.kind === 'appending' && <Progress {...transferProgress(step.progress, transferWords())} />}
          </div>
        </Section>
      )}

      {step.kind === 'done' && (
        <Section id="alchemer-summary" title={m.admin_alchemer_done_title()} description={m.admin_alchemer_saved_as({ name: step.fileName })}>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" aria-live="polite">
            <Count label={m.admin_alchemer_rows()} value={step.counts.rows} />
            <Count label={m.admin_alchemer_matched()} value={step.counts.matched} />
            <Count label={m.admin_alchemer_unmatched()} value={step.counts.unmatched} />
            {step.confirmed && (
              <>
                <Count label={m.admin_alchemer_confirmed()} value={step.counts.confirmed} />
                <Count label={m.admin_alchemer_already_confirmed()} value={step.counts.alreadyConfirmed} />
                {step.counts.notConfirmed > 0 && <Count label={m.admin_alchemer_not_confirmed()} value={step.counts.notConfirmed} />}
              </>
            )}
          </dl>
          <p className="text-sm text-muted-foreground" role="status">
            {m.admin_alchemer_summary_rows({ count: step.counts.matched, unmatched: m.admin_alchemer_summary_unmatched({ count: step.counts.unmatched }) })}
            {step.confirmed ? ` ${m.admin_alchemer_summary_confirmed({ count: step.counts.confirmed, already: number(step.counts.alreadyConfirmed) })}` : ''}
          </p>
        </Section>
      )}
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg border border-border p-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{number(value)}</dd>
    </div>
  );
}
