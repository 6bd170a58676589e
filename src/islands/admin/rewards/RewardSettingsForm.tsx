/**
 * The community's rewards settings (`GET/PUT /api/admin/rewards/settings`): points per unit of each
 * currency, the minimum, one open request at a time, review of a first redemption, the yearly
 * tax-form value and the approval value. Admins save the whole object; moderators read it (the
 * fields disabled, no Save).
 */
import { useId, useState } from 'react';
import { Controller, useFieldArray } from 'react-hook-form';
import type { AdminRewardSettings, RewardSettings } from '../../../shared/rewards.ts';
import { apiSend } from '../../../platform/api.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { FormAlert } from '../../../components/FormAlert.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { SETTINGS_FORM_FIELDS, settingsBody, settingsFormValues, type SettingsFormValues } from './logic.ts';

export function RewardSettingsForm({
  settings,
  canEdit,
  onSaved,
}: {
  settings: RewardSettings;
  canEdit: boolean;
  onSaved: (settings: AdminRewardSettings) => void;
}) {
  const id = useId();
  const [saved, setSaved] = useState(false);
  const form = useApiForm<SettingsFormValues>({
    schema: () => import('./form-schema.ts').then((module) => module.settingsFormSchema),
    defaultValues: settingsFormValues(settings),
    fields: SETTINGS_FORM_FIELDS,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      setSaved(false);
      const next = await apiSend<AdminRewardSettings>('PUT', '/api/admin/rewards/settings', settingsBody(values));
      form.reset(settingsFormValues(next));
      setSaved(true);
      onSaved(next);
    },
  });
  const {
    register,
    control,
    watch,
    onSubmit,
    alert,
    formState: { errors, isSubmitting },
  } = form;
  const rates = useFieldArray({ control, name: 'pointsPerUnit' });
  const [taxOn, approvalOn] = watch(['taxForm.on', 'approvalAbove.on']);
  const disabled = !canEdit;

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5" aria-label={m.admin_reward_settings_label()}>
      <FormAlert message={alert} />
      {saved && <Alert variant="success">{m.admin_reward_settings_saved()}</Alert>}
      <fieldset className="flex flex-col gap-3" disabled={disabled} aria-describedby={errors.pointsPerUnit?.message ? `${id}-rates-error` : `${id}-rates-help`}>
        <legend className="text-sm font-medium">{m.admin_reward_settings_rates()}</legend>
        <p id={`${id}-rates-help`} className="text-sm text-muted-foreground">
          {m.admin_reward_settings_rates_help()}
        </p>
        <ul className="flex flex-col gap-3">
          {rates.fields.map((row, index) => (
            <li key={row.id} className="flex flex-wrap items-end gap-3">
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${id}-rate-${index}-currency`}>{m.admin_reward_settings_currency()}</Label>
                <Input
                  id={`${id}-rate-${index}-currency`}
                  maxLength={3}
                  autoComplete="off"
                  className="w-24 uppercase"
                  {...register(`pointsPerUnit.${index}.currency`)}
                />
              </div>
              <div className="flex flex-col gap-2">
                <Label htmlFor={`${id}-rate-${index}-points`}>{m.admin_reward_settings_points_per_unit()}</Label>
                <Input
                  id={`${id}-rate-${index}-points`}
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  className="w-36"
                  {...register(`pointsPerUnit.${index}.points`)}
                />
              </div>
              {canEdit && (
                <Button type="button" variant="ghost" size="sm" onClick={() => rates.remove(index)}>
                  {m.admin_reward_settings_remove()}
                  <span className="sr-only"> {m.admin_reward_settings_remove_row({ row: formatCount(index + 1) })}</span>
                </Button>
              )}
            </li>
          ))}
        </ul>
        {canEdit && (
          <Button type="button" variant="outline" size="sm" className="self-start" onClick={() => rates.append({ currency: '', points: '' })}>
            {m.admin_reward_settings_add_currency()}
          </Button>
        )}
        {errors.pointsPerUnit?.message && <FieldError id={`${id}-rates-error`}>{errors.pointsPerUnit.message}</FieldError>}
      </fieldset>

      <FormField id={`${id}-minimum`} label={m.admin_reward_settings_minimum()} error={errors.minimumPoints?.message}>
        {(c) => <Input {...c} type="number" min={0} step={1} inputMode="numeric" className="w-40" disabled={disabled} {...register('minimumPoints')} />}
      </FormField>

      <Controller
        control={control}
        name="oneOpenRequest"
        render={({ field }) => (
          <CheckboxField
            id={`${id}-one-open`}
            label={m.admin_reward_settings_one_open()}
            description={m.admin_reward_settings_one_open_help()}
            checked={field.value}
            disabled={disabled}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            error={errors.oneOpenRequest?.message}
          />
        )}
      />
      <Controller
        control={control}
        name="reviewFirstRedemption"
        render={({ field }) => (
          <CheckboxField
            id={`${id}-review-first`}
            label={m.admin_reward_settings_review_first()}
            description={m.admin_reward_settings_review_first_help()}
            checked={field.value}
            disabled={disabled}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            error={errors.reviewFirstRedemption?.message}
          />
        )}
      />

      <ThresholdFields
        id={`${id}-tax`}
        legend={m.admin_reward_settings_tax()}
        switchLabel={m.admin_reward_settings_tax_switch()}
        description={m.admin_reward_settings_tax_help()}
        valueLabel={m.admin_reward_settings_yearly_value()}
        on={taxOn}
        disabled={disabled}
        error={errors.taxForm?.message}
        control={control}
        register={register}
        name="taxForm"
      />
      <ThresholdFields
        id={`${id}-approval`}
        legend={m.admin_reward_settings_approval()}
        switchLabel={m.admin_reward_settings_approval_switch()}
        description={m.admin_reward_settings_approval_help()}
        valueLabel={m.admin_reward_settings_value()}
        on={approvalOn}
        disabled={disabled}
        error={errors.approvalAbove?.message}
        control={control}
        register={register}
        name="approvalAbove"
      />

      {canEdit && (
        <Button type="submit" loading={isSubmitting} className="self-start">
          {m.admin_reward_settings_save()}
        </Button>
      )}
    </form>
  );
}

type Form = ReturnType<typeof useApiForm<SettingsFormValues>>;

/** An optional rule with a value and its currency: a checkbox, then the two fields while it is on. */
function ThresholdFields({
  id,
  legend,
  switchLabel,
  description,
  valueLabel,
  on,
  disabled,
  error,
  control,
  register,
  name,
}: {
  id: string;
  legend: string;
  switchLabel: string;
  description: string;
  valueLabel: string;
  on: boolean;
  disabled: boolean;
  error: string | undefined;
  control: Form['control'];
  register: Form['register'];
  name: 'taxForm' | 'approvalAbove';
}) {
  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="sr-only">{legend}</legend>
      <Controller
        control={control}
        name={`${name}.on`}
        render={({ field }) => (
          <CheckboxField
            id={`${id}-on`}
            label={switchLabel}
            description={description}
            checked={field.value}
            disabled={disabled}
            onCheckedChange={(checked) => field.onChange(checked === true)}
          />
        )}
      />
      {on && (
        <div className="flex flex-wrap gap-3 ps-8">
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-value`}>{valueLabel}</Label>
            <Input
              id={`${id}-value`}
              inputMode="decimal"
              autoComplete="off"
              className="w-36"
              aria-invalid={error ? true : undefined}
              {...register(name === 'taxForm' ? 'taxForm.yearlyValue' : 'approvalAbove.value')}
            />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor={`${id}-currency`}>{m.admin_reward_settings_currency()}</Label>
            <Input
              id={`${id}-currency`}
              maxLength={3}
              autoComplete="off"
              className="w-24 uppercase"
              aria-invalid={error ? true : undefined}
              {...register(`${name}.currency`)}
            />
          </div>
        </div>
      )}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </fieldset>
  );
}
