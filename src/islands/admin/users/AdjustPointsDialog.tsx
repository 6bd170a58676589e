/**
 * "Adjust points": a signed whole number and a reason (required), through `POST /api/admin/users/{id}/points` (admins only).
 * Taking away more than they have available is refused (409 `insufficient_points`, said in the
 * alert); then "Allow the balance to go below zero" is offered, and sent as `allowNegative`.
 */
import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import { ApiError, apiSend } from '../../../platform/api.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { toast } from '../../../stores/toasts.ts';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';

interface AdjustValues {
  points: number;
  reason: string;
  allowNegative: boolean;
}

const DEFAULTS = { points: Number.NaN, reason: '', allowNegative: false };

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
  // Offered once the API said the balance would go below zero; gone when the dialog closes.
  const [belowZero, setBelowZero] = useState(false);
  useEffect(() => {
    if (!open) setBelowZero(false);
  }, [open]);
  const form = useDialogForm<AdjustValues>(
    { open, onOpenChange },
    {
      schema: () => import('../../../shared/schemas/points.ts').then((schemas) => schemas.pointsAdjustSchema),
      defaultValues: DEFAULTS,
      submit: async ({ allowNegative, ...values }) => {
        try {
          await apiSend('POST', `/api/admin/users/${userId}/points`, allowNegative && values.points < 0 ? { ...values, allowNegative: true } : values);
        } catch (error) {
          if (error instanceof ApiError && error.code === 'insufficient_points') setBelowZero(true);
          throw error;
        }
        toast({
          title: m.users_points_adjusted({
            count: Math.abs(values.points),
            points: `${values.points > 0 ? '+' : values.points < 0 ? '-' : ''}${formatCount(Math.abs(values.points))}`,
            name,
          }),
        });
        onAdjusted();
        onOpenChange(false);
      },
    },
  );
  const {
    register,
    control,
    formState: { errors },
  } = form;

  return (
    <FormDialog form={form} title={m.users_points_title()} description={m.users_points_description()} submitLabel={m.users_points_submit()}>
      <FormField id="adjust-points" label={m.users_points_field()} description={m.users_points_field_hint()} error={errors.points?.message}>
        {(control) => <Input {...control} type="number" step={1} inputMode="numeric" {...register('points', { valueAsNumber: true })} />}
      </FormField>
      <FormField id="adjust-reason" label={m.users_points_reason()} description={m.users_points_reason_hint()} error={errors.reason?.message}>
        {(control) => <Textarea {...control} rows={3} {...register('reason')} />}
      </FormField>
      {belowZero && (
        <Controller
          control={control}
          name="allowNegative"
          render={({ field }) => (
            <CheckboxField
              id="adjust-allow-negative"
              label={m.users_points_allow_negative()}
              description={m.users_points_allow_negative_hint()}
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
            />
          )}
        />
      )}
    </FormDialog>
  );
}
