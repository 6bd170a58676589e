/** "Adjust points": a signed whole number and a reason (required), through `POST /api/admin/users/{id}/points` (admins only). */
import { useEffect } from 'react';
import { apiSend } from '../../../platform/api.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';

interface AdjustValues {
  points: number;
  reason: string;
}

const DEFAULTS = { points: Number.NaN, reason: '' };

export function AdjustPointsDialog({
  open,
  onOpenChange,
  userId,
  name,
  onAdjusted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: number;
  name: string;
  onAdjusted: () => void;
}) {
  const {
    onSubmit,
    alert,
    setAlert,
    register,
    reset,
    formState: { errors, isSubmitting },
  } = useApiForm<AdjustValues>({
    schema: () => import('../../../shared/schemas/points.ts').then((m) => m.pointsAdjustSchema),
    defaultValues: DEFAULTS,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      await apiSend('POST', `/api/admin/users/${userId}/points`, values);
      toast({ title: `${values.points > 0 ? '+' : ''}${values.points} points for ${name}` });
      onAdjusted();
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) {
      reset(DEFAULTS);
      setAlert(null);
    }
  }, [open, reset, setAlert]);

  return (
    <Dialog open={open} onOpenChange={(next) => !isSubmitting && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Adjust points</DialogTitle>
          <DialogDescription>Add points with a positive number, take some away with a negative one. They are available at once.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
          {alert && <Alert variant="destructive">{alert}</Alert>}
          <FormField id="adjust-points" label="Points" description="For example 50 or -20." error={errors.points?.message}>
            {(control) => <Input {...control} type="number" step={1} inputMode="numeric" {...register('points', { valueAsNumber: true })} />}
          </FormField>
          <FormField id="adjust-reason" label="Reason" description="They see it in their points history." error={errors.reason?.message}>
            {(control) => <Textarea {...control} rows={3} {...register('reason')} />}
          </FormField>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" loading={isSubmitting}>
              Save adjustment
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
