import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { COLOR_MODES, preferencesSchema, type PreferencesInput } from '../../shared/schemas/account.ts';
import { apiSend, type AccountUser, type ColorMode } from '../../lib/api.ts';
import { applyApiError } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { FieldError, FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { RadioGroup, RadioGroupItem } from '../../components/ui/radio-group.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/ui/select.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { EditCard } from './EditCard.tsx';
import { AccountPending, useAccount } from './use-account.tsx';

const COLOR_MODE_OPTIONS: Readonly<Record<ColorMode, { label: string; description: string }>> = {
  system: { label: 'System', description: 'Follow the light or dark setting of your device' },
  light: { label: 'Light', description: 'Dark text on a light background' },
  dark: { label: 'Dark', description: 'Light text on a dark background' },
};

/** /account/edit/preferences: email notifications, language and colour mode. */
export default function PreferencesScreen() {
  const { load, reload, setUser } = useAccount();
  if (load.status !== 'ready') return <AccountPending load={load} reload={reload} />;
  return <PreferencesForm user={load.data.user} onSaved={setUser} />;
}

function PreferencesForm({ user, onSaved }: { user: AccountUser; onSaved: (user: AccountUser) => void }) {
  const [alert, setAlert] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PreferencesInput>({ resolver: zodResolver(preferencesSchema), defaultValues: user.preferences });

  useEffect(() => {
    if (isDirty) setSaved(null);
  }, [isDirty]);

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    setSaved(null);
    try {
      const result = await apiSend<{ user: AccountUser }>('PATCH', '/api/account/preferences', values);
      onSaved(result.user);
      reset(result.user.preferences);
      setSaved('Your preferences are saved.');
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(applyApiError(error, setError, ['emailNotifications', 'language', 'colorMode']));
    }
  });

  return (
    <EditCard description="How Fieldwork keeps in touch with you and how it looks." onSubmit={onSubmit} submitting={isSubmitting} saved={saved} alert={alert}>
      <Controller
        control={control}
        name="emailNotifications"
        render={({ field }) => (
          <div className="flex flex-col gap-2">
            <div className="flex items-start justify-between gap-4 rounded-lg border border-border p-4">
              <div className="flex flex-col gap-1">
                <Label htmlFor="prefs-email-notifications">Email notifications</Label>
                <p id="prefs-email-notifications-description" className="text-sm text-muted-foreground">
                  New surveys and missions, reviews of your submissions and points. Account and security emails are always sent.
                </p>
              </div>
              <Switch
                id="prefs-email-notifications"
                name={field.name}
                ref={field.ref}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                aria-describedby="prefs-email-notifications-description"
              />
            </div>
            {errors.emailNotifications?.message && <FieldError id="prefs-email-notifications-error">{errors.emailNotifications.message}</FieldError>}
          </div>
        )}
      />
      <Controller
        control={control}
        name="language"
        render={({ field }) => (
          <FormField id="prefs-language" label="Language" className="sm:max-w-xs" error={errors.language?.message}>
            {(c) => (
              <Select name={field.name} value={field.value} onValueChange={field.onChange}>
                <SelectTrigger {...c} ref={field.ref} onBlur={field.onBlur}>
                  <SelectValue placeholder="Choose a language" />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="en">English</SelectItem>
                </SelectContent>
              </Select>
            )}
          </FormField>
        )}
      />
      <Controller
        control={control}
        name="colorMode"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-3" aria-describedby={errors.colorMode?.message ? 'prefs-color-mode-error' : undefined}>
            <legend id="prefs-color-mode-legend" className="mb-3 text-sm font-medium">
              Colour mode
            </legend>
            <RadioGroup
              name={field.name}
              value={field.value}
              onValueChange={field.onChange}
              aria-labelledby="prefs-color-mode-legend"
              className="gap-3 sm:grid-cols-3"
            >
              {COLOR_MODES.map((mode) => (
                <label
                  key={mode}
                  htmlFor={`prefs-color-mode-${mode}`}
                  className="flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-accent"
                >
                  <RadioGroupItem
                    id={`prefs-color-mode-${mode}`}
                    value={mode}
                    className="mt-0.5"
                    aria-labelledby={`prefs-color-mode-${mode}-label`}
                    aria-describedby={`prefs-color-mode-${mode}-description`}
                  />
                  <span className="flex flex-col gap-0.5">
                    <span id={`prefs-color-mode-${mode}-label`} className="text-sm font-medium">{COLOR_MODE_OPTIONS[mode].label}</span>
                    <span id={`prefs-color-mode-${mode}-description`} className="text-sm text-muted-foreground">
                      {COLOR_MODE_OPTIONS[mode].description}
                    </span>
                  </span>
                </label>
              ))}
            </RadioGroup>
            {errors.colorMode?.message && <FieldError id="prefs-color-mode-error">{errors.colorMode.message}</FieldError>}
          </fieldset>
        )}
      />
    </EditCard>
  );
}
