/**
 * "Export answers" (issue 28 §14): a button opening a dialog that downloads a mission's or a
 * project's entries, one row per entry and one column per question, as CSV or Excel, filtered like
 * the review queue (status, submitted from / to). The download is a plain link, so the browser
 * streams the file to disk however large it is (docs/api.md "Answers export").
 */
import { useId, useState, type MouseEvent } from 'react';
import {
  ENTRY_EXPORT_FORMAT_LABELS,
  ENTRY_EXPORT_FORMATS,
  ENTRY_EXPORT_STATUSES,
  entryExportHref,
  type EntryExportFilters,
  type EntryExportScope,
  type EntryExportStatus,
} from '../../../shared/entry-exports.ts';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { RadioCard, RadioCardGroup } from '../../../components/ui/radio-card.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { downloadAfterSignInProof } from '../../../platform/download.ts';
import { ENTRY_STATUS_LABELS } from './logic.ts';
import { m } from '../../../shared/i18n.ts';

const statusWord = (status: EntryExportStatus): string => (status === 'all' ? m.projects_export_status_all() : ENTRY_STATUS_LABELS[status]);

/** A format's line under its name; Excel of a project adds its sheets. */
function formatDescription(format: 'csv' | 'xlsx', project: boolean): string {
  if (format === 'csv') return m.projects_export_csv_description();
  return project ? m.projects_export_xlsx_project_description() : m.projects_export_xlsx_description();
}

const isStatus = (value: string): value is EntryExportStatus => (ENTRY_EXPORT_STATUSES as readonly string[]).includes(value);

/** The "Export answers" button and its dialog; `scope` says whose entries. */
export function ExportAnswers({ scope }: { scope: EntryExportScope }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [filters, setFilters] = useState<EntryExportFilters>({ format: 'csv', status: 'all', from: '', to: '' });
  const daysError = filters.from && filters.to && filters.to < filters.from ? m.validation_entry_export_days() : undefined;
  const project = scope.kind === 'project';

  function download(event: MouseEvent<HTMLAnchorElement>) {
    if (daysError) {
      event.preventDefault();
      document.getElementById(`${id}-to`)?.focus();
      return;
    }
    // Personal data: a recent sign-in proof first (the re-authentication dialog if it is old); then
    // the link downloads the file, and the dialog has done its part.
    downloadAfterSignInProof(event, () => setOpen(false));
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">{m.projects_export_title()}</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{m.projects_export_title()}</DialogTitle>
          <DialogDescription>{project ? m.projects_export_project_description() : m.projects_export_mission_description()}</DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">{m.projects_export_format()}</legend>
            <RadioCardGroup
              value={filters.format}
              onValueChange={(value) => setFilters({ ...filters, format: value === 'xlsx' ? 'xlsx' : 'csv' })}
              className="grid sm:grid-cols-2"
              aria-label={m.projects_export_format()}
            >
              {ENTRY_EXPORT_FORMATS.map((format) => (
                <RadioCard
                  key={format}
                  id={`${id}-format-${format}`}
                  value={format}
                  label={ENTRY_EXPORT_FORMAT_LABELS[format]}
                  description={formatDescription(format, project)}
                />
              ))}
            </RadioCardGroup>
          </fieldset>
          <FormField id={`${id}-status`} label={m.projects_export_status()}>
            {(control) => (
              <Select value={filters.status} onValueChange={(value) => isStatus(value) && setFilters({ ...filters, status: value })}>
                <SelectTrigger {...control}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {ENTRY_EXPORT_STATUSES.map((status) => (
                    <SelectItem key={status} value={status}>
                      {statusWord(status)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </FormField>
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField id={`${id}-from`} label={m.projects_export_from()} hint={m.projects_optional()}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  value={filters.from}
                  max={filters.to || undefined}
                  onChange={(event) => setFilters({ ...filters, from: event.target.value })}
                />
              )}
            </FormField>
            <FormField id={`${id}-to`} label={m.projects_export_to()} hint={m.projects_export_to_hint()} error={daysError}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  value={filters.to}
                  min={filters.from || undefined}
                  onChange={(event) => setFilters({ ...filters, to: event.target.value })}
                />
              )}
            </FormField>
          </div>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            {m.projects_cancel()}
          </Button>
          <a href={entryExportHref(scope, filters)} download onClick={download} className={buttonVariants()}>
            {m.projects_export_download({ format: ENTRY_EXPORT_FORMAT_LABELS[filters.format] })}
          </a>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
