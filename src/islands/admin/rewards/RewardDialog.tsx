/**
 * "New reward" / "Edit reward" (admins): every field of `POST` / `PATCH /api/admin/rewards`.
 * The form is checked by the API's own schema before it is sent (`form-schema.ts`), and the API's
 * field messages are shown beside the same fields; an edit sends only what changed (so the audit
 * row says what an admin did). The image is uploaded as photos are (`POST /api/media`).
 */
import { Alert } from '../../../components/ui/alert.tsx';
import { useId, useRef, useState } from 'react';
import { Controller } from 'react-hook-form';
import { MEDIA_ACCEPT, thumbnailUrl, type MediaUploaded } from '../../../shared/media.ts';
import { REWARD_FULFILMENTS, REWARD_KINDS, type AdminReward } from '../../../shared/rewards.ts';
import { apiSend } from '../../../platform/api.ts';
import { uploadForJson } from '../../../platform/upload.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { FilterSelect } from '../admin-kit.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import { m } from '../../../shared/i18n.ts';
import {
  FULFILMENT_LABELS,
  KIND_LABELS,
  REWARD_FORM_FIELDS,
  rewardBody,
  rewardFormValues,
  rewardPatch,
  type RewardFormValues,
  type ValuesMode,
} from './logic.ts';

const kindOptions = () => REWARD_KINDS.map((value) => ({ value, label: KIND_LABELS[value]() }));
const fulfilmentOptions = () => REWARD_FULFILMENTS.map((value) => ({ value, label: FULFILMENT_LABELS[value]() }));
const modeOptions = (): readonly { value: ValuesMode; label: string }[] => [
  { value: 'fixed', label: m.admin_reward_dialog_fixed() },
  { value: 'range', label: m.admin_reward_dialog_range_option() },
];

export function RewardDialog({
  open,
  onOpenChange,
  reward,
  provider,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The reward edited, or null for a new one. */
  reward: AdminReward | null;
  /** The gift-card provider this server orders from (null: none; undefined: not known yet). */
  provider?: string | null;
  onSaved: (reward: AdminReward) => void;
}) {
  const id = useId();
  const initial = rewardFormValues(reward);
  const form = useDialogForm<RewardFormValues>(
    { open, onOpenChange },
    {
      schema: () => import('./form-schema.ts').then((module) => module.rewardFormSchema),
      defaultValues: initial,
      fields: REWARD_FORM_FIELDS,
      submit: async (values) => {
        if (reward) {
          const patch = rewardPatch(initial, values);
          if (Object.keys(patch).length > 0) {
            const saved = await apiSend<AdminReward>('PATCH', `/api/admin/rewards/${reward.id}`, patch);
            toast({ title: m.admin_reward_dialog_saved({ title: saved.title }) });
            onSaved(saved);
          }
        } else {
          const saved = await apiSend<AdminReward>('POST', '/api/admin/rewards', rewardBody(values));
          toast({ title: m.admin_reward_dialog_added({ title: saved.title }) });
          onSaved(saved);
        }
        onOpenChange(false);
      },
    },
  );
  const {
    register,
    control,
    watch,
    setValue,
    formState: { errors },
  } = form;
  const [kind, fulfilment, mode, imageMediaId] = watch(['kind', 'fulfilment', 'valuesMode', 'imageMediaId']);

  return (
    <FormDialog
      form={form}
      title={reward ? m.admin_reward_dialog_edit_title({ title: reward.title }) : m.admin_rewards_new()}
      description={m.admin_reward_dialog_description()}
      submitLabel={reward ? m.admin_reward_dialog_save() : m.admin_reward_dialog_add()}
    >
      <FormField id={`${id}-title`} label={m.admin_reward_dialog_title_label()} error={errors.title?.message}>
        {(c) => <Input {...c} autoComplete="off" {...register('title')} />}
      </FormField>
      <FormField
        id={`${id}-description`}
        label={m.admin_reward_dialog_description_label()}
        hint={m.admin_reward_dialog_optional()}
        error={errors.description?.message}
      >
        {(c) => <Textarea {...c} rows={3} {...register('description')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="kind"
          render={({ field }) => <FilterSelect label={m.admin_reward_dialog_kind()} value={field.value} options={kindOptions()} onChange={field.onChange} />}
        />
        <Controller
          control={control}
          name="fulfilment"
          render={({ field }) => (
            <FilterSelect label={m.admin_reward_dialog_delivered()} value={field.value} options={fulfilmentOptions()} onChange={field.onChange} />
          )}
        />
      </div>
      {errors.kind?.message && <FieldError id={`${id}-kind-error`}>{errors.kind.message}</FieldError>}
      {errors.fulfilment?.message && <FieldError id={`${id}-fulfilment-error`}>{errors.fulfilment.message}</FieldError>}
      {fulfilment === 'provider' && provider === null && (
        <Alert variant="destructive" role="status" title={m.admin_reward_dialog_no_provider_title()}>
          {m.admin_reward_dialog_no_provider_text()}
        </Alert>
      )}
      {fulfilment === 'provider' && (
        <FormField
          id={`${id}-product`}
          label={m.admin_reward_dialog_product()}
          description={m.admin_reward_dialog_product_help()}
          error={errors.providerProductId?.message}
        >
          {(c) => <Input {...c} autoComplete="off" {...register('providerProductId')} />}
        </FormField>
      )}
      <FormField
        id={`${id}-currency`}
        label={m.admin_reward_dialog_currency()}
        description={m.admin_reward_dialog_currency_help()}
        error={errors.currency?.message}
      >
        {(c) => <Input {...c} autoComplete="off" maxLength={3} className="w-28 uppercase" {...register('currency')} />}
      </FormField>
      <Controller
        control={control}
        name="valuesMode"
        render={({ field }) => (
          <FilterSelect
            label={m.admin_reward_dialog_values_offered()}
            value={field.value}
            options={modeOptions()}
            onChange={field.onChange}
            className="sm:w-72"
          />
        )}
      />
      {mode === 'fixed' ? (
        <FormField
          id={`${id}-denominations`}
          label={m.admin_reward_dialog_values()}
          description={m.admin_reward_dialog_values_help()}
          error={errors.denominations?.message}
        >
          {(c) => <Input {...c} inputMode="decimal" autoComplete="off" {...register('denominations')} />}
        </FormField>
      ) : (
        <fieldset className="flex flex-col gap-2" aria-describedby={errors.range?.message ? `${id}-range-error` : undefined}>
          <legend className="mb-2 text-sm font-medium">{m.admin_reward_dialog_range()}</legend>
          <div className="grid grid-cols-3 gap-3">
            {(['min', 'max', 'step'] as const).map((part) => (
              <div key={part} className="flex flex-col gap-2">
                <Label htmlFor={`${id}-range-${part}`}>
                  {part === 'min' ? m.admin_reward_dialog_minimum() : part === 'max' ? m.admin_reward_dialog_maximum() : m.admin_reward_dialog_step()}
                </Label>
                <Input
                  id={`${id}-range-${part}`}
                  inputMode="decimal"
                  autoComplete="off"
                  aria-invalid={errors.range?.message ? true : undefined}
                  {...register(`range.${part}`)}
                />
              </div>
            ))}
          </div>
          {errors.range?.message && <FieldError id={`${id}-range-error`}>{errors.range.message}</FieldError>}
        </fieldset>
      )}
      <FormField
        id={`${id}-countries`}
        label={m.admin_reward_dialog_countries()}
        hint={m.admin_reward_dialog_optional()}
        description={m.admin_reward_dialog_countries_help()}
        error={errors.countries?.message}
      >
        {(c) => <Input {...c} autoComplete="off" className="uppercase" {...register('countries')} />}
      </FormField>
      {kind === 'custom' && (
        <FormField
          id={`${id}-stock`}
          label={m.admin_reward_dialog_stock()}
          hint={m.admin_reward_dialog_optional()}
          description={m.admin_reward_dialog_stock_help()}
          error={errors.stock?.message}
        >
          {(c) => <Input {...c} type="number" min={0} step={1} inputMode="numeric" className="w-40" {...register('stock')} />}
        </FormField>
      )}
      <ImageField
        id={`${id}-image`}
        value={imageMediaId}
        error={errors.imageMediaId?.message}
        onChange={(value) => setValue('imageMediaId', value, { shouldDirty: true })}
      />
      <Controller
        control={control}
        name="active"
        render={({ field }) => (
          <CheckboxField
            id={`${id}-active`}
            label={m.admin_reward_dialog_active()}
            description={m.admin_reward_dialog_active_help()}
            checked={field.value}
            onCheckedChange={(checked) => field.onChange(checked === true)}
            error={errors.active?.message}
          />
        )}
      />
    </FormDialog>
  );
}

/** The reward's picture: "Upload an image" (`POST /api/media`), its thumbnail, "Remove image". */
function ImageField({ id, value, error, onChange }: { id: string; value: string | null; error: string | undefined; onChange: (value: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function upload(file: File | undefined) {
    if (!file) return;
    setProblem(null);
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file);
      const media = await uploadForJson<MediaUploaded>('/api/media', body, { refusedMessage: m.admin_reward_dialog_upload_failed() });
      onChange(media.id);
    } catch (failure) {
      if (!handleSessionLost(failure)) setProblem(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const message = problem ?? error;
  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="text-sm font-medium">
        {m.admin_reward_dialog_image()} <span className="font-normal text-muted-foreground">{m.admin_reward_dialog_optional()}</span>
      </span>
      <HiddenFileInput ref={input} accept={MEDIA_ACCEPT} onFile={(file) => void upload(file)} />
      <div className="flex flex-wrap items-center gap-3">
        {value && <img src={thumbnailUrl(value)} alt={m.admin_reward_dialog_image_alt()} className="size-16 rounded-md border border-border object-cover" />}
        <Button
          type="button"
          variant="outline"
          size="sm"
          loading={busy}
          aria-describedby={message ? `${id}-error` : undefined}
          onClick={() => input.current?.click()}
        >
          {value ? m.admin_reward_dialog_replace_image() : m.admin_reward_dialog_upload_image()}
        </Button>
        {value && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
            {m.admin_reward_dialog_remove_image()}
          </Button>
        )}
      </div>
      {message && <FieldError id={`${id}-error`}>{message}</FieldError>}
    </div>
  );
}
