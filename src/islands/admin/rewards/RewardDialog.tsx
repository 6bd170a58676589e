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

const KIND_OPTIONS = REWARD_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }));
const FULFILMENT_OPTIONS = REWARD_FULFILMENTS.map((value) => ({ value, label: FULFILMENT_LABELS[value] }));
const MODE_OPTIONS: readonly { value: ValuesMode; label: string }[] = [
  { value: 'fixed', label: 'Fixed values' },
  { value: 'range', label: 'A range (min, max, step)' },
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
      schema: () => import('./form-schema.ts').then((m) => m.rewardFormSchema),
      defaultValues: initial,
      fields: REWARD_FORM_FIELDS,
      submit: async (values) => {
        if (reward) {
          const patch = rewardPatch(initial, values);
          if (Object.keys(patch).length > 0) {
            const saved = await apiSend<AdminReward>('PATCH', `/api/admin/rewards/${reward.id}`, patch);
            toast({ title: `${saved.title} is saved` });
            onSaved(saved);
          }
        } else {
          const saved = await apiSend<AdminReward>('POST', '/api/admin/rewards', rewardBody(values));
          toast({ title: `${saved.title} is added` });
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
      title={reward ? `Edit ${reward.title}` : 'New reward'}
      description="What participants can turn their points into. A reward is never deleted: make it inactive to take it out of the catalogue."
      submitLabel={reward ? 'Save reward' : 'Add reward'}
    >
      <FormField id={`${id}-title`} label="Title" error={errors.title?.message}>
        {(c) => <Input {...c} autoComplete="off" {...register('title')} />}
      </FormField>
      <FormField id={`${id}-description`} label="Description" hint="(optional)" error={errors.description?.message}>
        {(c) => <Textarea {...c} rows={3} {...register('description')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="kind"
          render={({ field }) => <FilterSelect label="Kind" value={field.value} options={KIND_OPTIONS} onChange={field.onChange} />}
        />
        <Controller
          control={control}
          name="fulfilment"
          render={({ field }) => <FilterSelect label="Delivered" value={field.value} options={FULFILMENT_OPTIONS} onChange={field.onChange} />}
        />
      </div>
      {errors.kind?.message && <FieldError id={`${id}-kind-error`}>{errors.kind.message}</FieldError>}
      {errors.fulfilment?.message && <FieldError id={`${id}-fulfilment-error`}>{errors.fulfilment.message}</FieldError>}
      {fulfilment === 'provider' && provider === null && (
        <Alert variant="destructive" role="status" title="No gift-card provider is set up">
          This server orders from no provider (REWARDS_PROVIDER): requests for this reward wait, and cannot be approved, until one is set up (the deployment
          guide, “Rewards through Tremendous”).
        </Alert>
      )}
      {fulfilment === 'provider' && (
        <FormField
          id={`${id}-product`}
          label="Provider's product id"
          description="The gift card's product in the provider's catalogue."
          error={errors.providerProductId?.message}
        >
          {(c) => <Input {...c} autoComplete="off" {...register('providerProductId')} />}
        </FormField>
      )}
      <FormField id={`${id}-currency`} label="Currency" description="The ISO 4217 code, e.g. EUR." error={errors.currency?.message}>
        {(c) => <Input {...c} autoComplete="off" maxLength={3} className="w-28 uppercase" {...register('currency')} />}
      </FormField>
      <Controller
        control={control}
        name="valuesMode"
        render={({ field }) => <FilterSelect label="Values offered" value={field.value} options={MODE_OPTIONS} onChange={field.onChange} className="sm:w-72" />}
      />
      {mode === 'fixed' ? (
        <FormField
          id={`${id}-denominations`}
          label="Values"
          description="Separated by commas, e.g. 5, 10, 25 (at most two decimals)."
          error={errors.denominations?.message}
        >
          {(c) => <Input {...c} inputMode="decimal" autoComplete="off" {...register('denominations')} />}
        </FormField>
      ) : (
        <fieldset className="flex flex-col gap-2" aria-describedby={errors.range?.message ? `${id}-range-error` : undefined}>
          <legend className="mb-2 text-sm font-medium">Range</legend>
          <div className="grid grid-cols-3 gap-3">
            {(['min', 'max', 'step'] as const).map((part) => (
              <div key={part} className="flex flex-col gap-2">
                <Label htmlFor={`${id}-range-${part}`}>{part === 'min' ? 'Minimum' : part === 'max' ? 'Maximum' : 'Step'}</Label>
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
        label="Countries"
        hint="(optional)"
        description="ISO 3166 codes separated by commas, e.g. NL, BE. Empty: everywhere."
        error={errors.countries?.message}
      >
        {(c) => <Input {...c} autoComplete="off" className="uppercase" {...register('countries')} />}
      </FormField>
      {kind === 'custom' && (
        <FormField id={`${id}-stock`} label="Stock" hint="(optional)" description="How many are left. Empty: no limit." error={errors.stock?.message}>
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
            label="Active"
            description="Shown to participants, who may request it."
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
      const media = await uploadForJson<MediaUploaded>('/api/media', body, { refusedMessage: 'The picture could not be uploaded. Please try again.' });
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
        Image <span className="font-normal text-muted-foreground">(optional)</span>
      </span>
      <HiddenFileInput ref={input} accept={MEDIA_ACCEPT} onFile={(file) => void upload(file)} />
      <div className="flex flex-wrap items-center gap-3">
        {value && <img src={thumbnailUrl(value)} alt="Chosen for this reward" className="size-16 rounded-md border border-border object-cover" />}
        <Button
          type="button"
          variant="outline"
          size="sm"
          loading={busy}
          aria-describedby={message ? `${id}-error` : undefined}
          onClick={() => input.current?.click()}
        >
          {value ? 'Replace image' : 'Upload an image'}
        </Button>
        {value && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(null)}>
            Remove image
          </Button>
        )}
      </div>
      {message && <FieldError id={`${id}-error`}>{message}</FieldError>}
    </div>
  );
}
