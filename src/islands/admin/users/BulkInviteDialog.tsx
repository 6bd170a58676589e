/**
 * "Invite from a CSV": choose a file (columns `email`, `first name`, `last name`, optional `role`
 * and `project`), see the preview — how many rows, how many can be invited, each problem by line —
 * before anything is sent, then send the valid rows' invitations and read the summary.
 */
import { useEffect, useRef, useState } from 'react';
import type { Role } from '../../../shared/roles.ts';
import { INVITE_CSV_MAX_BYTES, type BulkInviteResult } from '../../../shared/users.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { FileProblemsTable } from '../admin-kit.tsx';
import { uploadInviteCsv } from './parts.tsx';

type Step = { kind: 'choose' } | { kind: 'preview'; file: File; result: BulkInviteResult } | { kind: 'done'; result: BulkInviteResult };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function BulkInviteDialog({
  open,
  onOpenChange,
  role,
  onDone,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  role: Role | null;
  onDone: () => void;
}) {
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) {
      setStep({ kind: 'choose' });
      setAlert(null);
    }
  }, [open]);

  async function preview(file: File | undefined) {
    if (!file) return;
    setAlert(null);
    if (file.size > INVITE_CSV_MAX_BYTES) {
      setAlert('The file is too large (at most 1 MB).');
      return;
    }
    setBusy(true);
    try {
      setStep({ kind: 'preview', file, result: await uploadInviteCsv<BulkInviteResult>(file, true) });
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  async function send(file: File) {
    setAlert(null);
    setBusy(true);
    try {
      const result = await uploadInviteCsv<BulkInviteResult>(file, false);
      setStep({ kind: 'done', result });
      onDone();
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  const result = step.kind === 'choose' ? null : step.result;
  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Invite from a CSV</DialogTitle>
          <DialogDescription>
            The first line names the columns: <code>email</code>, <code>first name</code>, <code>last name</code>, and optionally <code>role</code>
            {role === 'admin' ? '' : ' (participants only for moderators)'} and <code>project</code> (its name or number). You see what will happen before
            anything is sent.
          </DialogDescription>
        </DialogHeader>
        {alert && <Alert variant="destructive">{alert}</Alert>}
        <HiddenFileInput ref={input} accept=".csv,text/csv" onFile={(file) => void preview(file)} />
        {step.kind === 'choose' && (
          <div>
            <Button onClick={() => input.current?.click()} loading={busy}>
              Choose a CSV file
            </Button>
          </div>
        )}
        {result && (
          <div className="flex flex-col gap-4" aria-live="polite">
            <p className="text-sm" role="status">
              {step.kind === 'done'
                ? `${plural(result.invited, 'invitation', 'invitations')} sent. ${plural(result.problems.length, 'problem', 'problems')} left out.`
                : `${plural(result.rows, 'row', 'rows')} read: ${plural(result.valid, 'person', 'people')} can be invited, ${plural(result.problems.length, 'problem', 'problems')}.`}
            </p>
            {result.problems.length > 0 && <FileProblemsTable problems={result.problems} />}
          </div>
        )}
        <DialogFooter>
          {step.kind === 'preview' && (
            <>
              <Button variant="outline" onClick={() => input.current?.click()} disabled={busy}>
                Choose another file
              </Button>
              <Button onClick={() => void send(step.file)} loading={busy} disabled={step.result.valid === 0}>
                {`Send ${plural(step.result.valid, 'invitation', 'invitations')}`}
              </Button>
            </>
          )}
          {step.kind !== 'preview' && (
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              {step.kind === 'done' ? 'Done' : 'Cancel'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
