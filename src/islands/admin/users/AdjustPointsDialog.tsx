/** "Adjust points": a signed whole number and a reason (required), through `POST /api/admin/users/{id}/points` (admins only). */
import { apiSend } from '../../../platform/api.ts';
import { toast } from '../../../stores/toasts.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';

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
  const form = useDialogForm<AdjustValues>(
    { open, onOpenChange },
    {
      schema: () => import('../../../shared/schemas/points.ts').then((m) => m.pointsAdjustSchema),
      defaultValues: DEFAULTS,
      submit: async (values) => {
        await apiSend('POST', `/api/admin/users/${userId}/points`, values);
        toast({ title: `${values.points > 0 ? '+' : ''}${values.points} points for ${name}` });
        onAdjusted();
        onOpenChange(false);
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
      title="Adjust points"
      description="Add points with a positive number, take some away with a negative one. They are available at once."
      submitLabel="Save adjustment"
    >
      <FormField id="adjust-points" label="Points" description="For example 50 or -20." error={errors.points?.message}>
        {(control) => <Input {...control} type="number" step={1} inputMode="numeric" {...register('points', { valueAsNumber: true })} />}
      </FormField>
      <FormField id="adjust-reason" label="Reason" description="They see it in their points history." error={errors.reason?.message}>
        {(control) => <Textarea {...control} rows={3} {...register('reason')} />}
      </FormField>
    </FormDialog>
  );
}
