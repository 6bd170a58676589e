/**
 * "Invite from a CSV": choose a file (columns `email`, `first name`, `last name`, optional `role`
 * and `project`), see the preview — how many rows, how many can be invited, each problem by line —
 * before anything is sent, then send the valid rows' invitations and read the summary.
 */
import { useEffect, useRef, useState } from 'react';
import type { Role } from '../../../shared/roles.ts';
import { INVITE_CSV_MAX_BYTES, type BulkInviteResult } from '../../../shared/users.ts';
import { m } from '../../../shared/i18n.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { handleSessionLost } from '../../../lib/session.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { FileProblemsTable } from '../admin-kit.tsx';
import { uploadInviteCsv } from './parts.tsx';

type Step = { kind: 'choose' } | { kind: 'preview'; file: File; result: BulkInviteResult } | { kind: 'done'; result: BulkInviteResult };

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
      setAlert(m.users_bulk_too_large());
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
          <DialogTitle>{m.users_bulk_title()}</DialogTitle>
          <DialogDescription>
            {withNodes((marks) => (role === 'admin' ? m.users_bulk_description(marks) : m.users_bulk_description_moderator(marks)), {
              email: <code>email</code>,
              first: <code>first name</code>,
              last: <code>last name</code>,
              role: <code>role</code>,
              project: <code>project</code>,
            })}
          </DialogDescription>
        </DialogHeader>
        {alert && <Alert variant="destructive">{alert}</Alert>}
        <HiddenFileInput ref={input} accept=".csv,text/csv" onFile={(file) => void preview(file)} />
        {step.kind === 'choose' && (
          <div>
            <Button onClick={() => input.current?.click()} loading={busy}>
              {m.users_bulk_choose()}
            </Button>
          </div>
        )}
        {result && (
          <div className="flex flex-col gap-4" aria-live="polite">
            <p className="text-sm" role="status">
              {step.kind === 'done'
                ? `${m.users_bulk_done_sent({ count: result.invited })} ${m.users_bulk_done_left_out({ count: result.problems.length })}`
                : m.users_bulk_preview({
                    rows: m.users_bulk_rows_read({ count: result.rows }),
                    people: m.users_bulk_people_invitable({ count: result.valid }),
                    problems: m.users_bulk_problems({ count: result.problems.length }),
                  })}
            </p>
            {result.problems.length > 0 && <FileProblemsTable problems={result.problems} />}
          </div>
        )}
        <DialogFooter>
          {step.kind === 'preview' && (
            <>
              <Button variant="outline" onClick={() => input.current?.click()} disabled={busy}>
                {m.users_bulk_choose_another()}
              </Button>
              <Button onClick={() => void send(step.file)} loading={busy} disabled={step.result.valid === 0}>
                {m.users_bulk_send({ count: step.result.valid })}
              </Button>
            </>
          )}
          {step.kind !== 'preview' && (
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              {step.kind === 'done' ? m.users_bulk_done() : m.shell_common_cancel()}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
