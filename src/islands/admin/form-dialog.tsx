/**
 * A dialog holding one API form (new project, invite, adjust points): `useDialogForm` is
 * `useApiForm` whose lost session sends the visitor to sign in and whose values and alert start
 * afresh whenever the dialog closes; `FormDialog` is its frame — title, description, the alert,
 * the fields, Cancel and the submit button — and stays open while the form is being sent.
 */
import { useEffect, type ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useApiForm, type ApiForm, type ApiFormOptions } from '../../lib/use-api-form.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { m } from '../../shared/i18n.ts';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';

/** Whether the dialog is open, and how it asks to open or close. */
export interface DialogState {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function useDialogForm<T extends FieldValues>(
  dialog: DialogState,
  options: Omit<ApiFormOptions<T>, 'describeError'>,
): ApiForm<T> & { dialog: DialogState } {
  const form = useApiForm<T>({ ...options, describeError: (error) => (handleSessionLost(error) ? null : undefined) });
  const { reset, setAlert } = form;
  const { open } = dialog;
  useEffect(() => {
    if (!open) {
      reset();
      setAlert(null);
    }
  }, [open, reset, setAlert]);
  return { ...form, dialog };
}

export function FormDialog<T extends FieldValues>({
  form,
  title,
  description,
  submitLabel,
  className,
  children,
}: {
  form: ApiForm<T> & { dialog: DialogState };
  title: string;
  description: string;
  submitLabel: string;
  /** The form's classes beside its column of fields (e.g. a wider gap). */
  className?: string;
  children: ReactNode;
}) {
  const {
    onSubmit,
    alert,
    formState: { isSubmitting },
    dialog: { open, onOpenChange },
  } = form;
  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className={cn('flex flex-col gap-4', className)}>
          {alert && <Alert variant="destructive">{alert}</Alert>}
          {children}
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSubmitting}>
              {m.admin_dialog_cancel()}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
