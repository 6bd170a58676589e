import { useEffect, useMemo, useState } from 'react';
import { Controller, type Control } from 'react-hook-form';
import type { PreferencesInput } from '../../shared/schemas/account.ts';
import { COLOR_MODES, LANGUAGES } from '../../shared/limits.ts';
import { currentLanguage, m } from '../../shared/i18n.ts';
import { LANGUAGE_NAMES } from '../../shared/languages.ts';
import { goToLanguage } from '../../lib/language-switch.ts';
import { deviceTimeZone, timeZoneNames, utcOffsetLabel } from '../../shared/time-zone.ts';
import { MAIL_PREFERENCE_KEYS, type NotificationKind } from '../../shared/notifications.ts';
import { isElevated } from '../../shared/roles.ts';
import type { AccountUser, ColorMode } from '../../platform/api.ts';
import { FieldError, FormField } from '../../components/ui/form-field.tsx';
import { controlClasses } from '../../components/ui/input.tsx';
import { cn } from '../../lib/utils.ts';
import { Label } from '../../components/ui/label.tsx';
import { RadioCard, RadioCardGroup } from '../../components/ui/radio-card.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { EditCard } from './EditCard.tsx';
import { useAccountForm } from './use-account-form.ts';
import { AccountPending, InertForm, PLACEHOLDER_USER, useAccount } from './use-account.tsx';

const COLOR_MODE_OPTIONS: Readonly<Record<ColorMode, { label: () => string; description: () => string }>> = {
  system: { label: m.account_preferences_color_mode_system, description: m.account_preferences_color_mode_system_description },
  light: { label: m.account_overview_color_mode_light, description: m.account_preferences_color_mode_light_description },
  dark: { label: m.account_overview_color_mode_dark, description: m.account_preferences_color_mode_dark_description },
};

/** A per-kind mail switch (`MAIL_PREFERENCE_KEYS`, and the staff's review digest): its field and what it says. */
type MailKey = (typeof MAIL_PREFERENCE_KEYS)[NotificationKind] | 'mailReviewDigest';

/** The mail switches under "Email notifications", in the order of a participant's day (labels made at render). */
export const MAIL_SWITCHES: readonly { key: MailKey; label: () => string }[] = [
  { key: MAIL_PREFERENCE_KEYS.changes_requested, label: m.account_preferences_mail_changes_requested },
  { key: MAIL_PREFERENCE_KEYS.rejected, label: m.account_preferences_mail_rejected },
  { key: MAIL_PREFERENCE_KEYS.probe, label: m.account_preferences_mail_probe },
  { key: MAIL_PREFERENCE_KEYS.approved, label: m.account_preferences_mail_approved },
  { key: MAIL_PREFERENCE_KEYS.reminder, label: m.account_preferences_mail_reminder },
  { key: MAIL_PREFERENCE_KEYS.new_work, label: m.account_preferences_mail_new_work },
  { key: MAIL_PREFERENCE_KEYS.announcement, label: m.account_preferences_mail_announcement },
  { key: MAIL_PREFERENCE_KEYS.points, label: m.account_preferences_mail_points },
  { key: MAIL_PREFERENCE_KEYS.reward, label: m.account_preferences_mail_reward },
];

const MAIL_KEYS = MAIL_SWITCHES.map((each) => each.key);

/** Moderators and admins only (docs/product.md §2.5): off unless turned on, never shown to participants. */
export const REVIEW_DIGEST_SWITCH = { key: 'mailReviewDigest', label: m.account_preferences_mail_review_digest } as const;

/**
 * The form's values from the stored preferences: every mail switch present (on when never set),
 * so a save sends them all.
 */
export function preferencesFormValues(preferences: AccountUser['preferences']): PreferencesInput {
  const values: PreferencesInput = {
    emailNotifications: preferences.emailNotifications,
    language: preferences.language,
    colorMode: preferences.colorMode,
    // Never set (an account from before): empty here, this device's zone once mounted (the page
    // is prerendered: the build's zone is not the visitor's), saved with the form.
    timeZone: preferences.timeZone ?? '',
  };
  for (const key of MAIL_KEYS) values[key] = preferences[key] ?? true;
  // Only staff's preferences carry it (the API leaves it out for participants).
  if (preferences.mailReviewDigest !== undefined) values.mailReviewDigest = preferences.mailReviewDigest;
  return values;
}

/** /account/edit/preferences: email notifications (and which mails), language, time zone and colour mode. */
export default function PreferencesScreen() {
  const { load, reload, setUser } = useAccount();
  if (load.status !== 'ready') {
    return (
      <AccountPending
        load={load}
        reload={reload}
        skeleton={<InertForm>{(onSaved) => <PreferencesForm user={PLACEHOLDER_USER} onSaved={onSaved} />}</InertForm>}
      />
    );
  }
  return <PreferencesForm user={load.data.user} onSaved={setUser} />;
}

function PreferencesForm({ user, onSaved }: { user: AccountUser; onSaved: (user: AccountUser) => void }) {
  /** A saved change of language: the page again, in that language (a change of language is a full page load). */
  const onPreferencesSaved = (saved: AccountUser) => {
    onSaved(saved);
    const language = saved.preferences.language;
    if (language !== user.preferences.language && language !== currentLanguage()) {
      void goToLanguage(language, { saved: true });
    }
  };
  const form = useAccountForm<PreferencesInput>({
    schema: () => import('../../shared/schemas/account.ts').then((schemas) => schemas.preferencesSchema),
    user,
    valuesOf: (u) => preferencesFormValues(u.preferences),
    method: 'PATCH',
    path: '/api/account/preferences',
    fields: ['emailNotifications', 'language', 'timeZone', 'colorMode', ...MAIL_KEYS, REVIEW_DIGEST_SWITCH.key],
    savedMessage: m.account_preferences_saved(),
    onSaved: onPreferencesSaved,
  });
  const {
    control,
    formState: { errors },
    getValues,
    setValue,
    watch,
  } = form;
  const mailOn = watch('emailNotifications');
  // The full list only once mounted: the page is prerendered, and the zones and their offsets the
  // build's Node knows may differ from the browser's (a mismatch would break hydration).
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    if (!getValues('timeZone')) setValue('timeZone', deviceTimeZone());
  }, [getValues, setValue]);
  const current = watch('timeZone');
  const zones = useMemo(
    () =>
      mounted
        ? timeZoneNames(user.preferences.timeZone, current).map((zone) => ({
            zone,
            label: zone === 'UTC' ? 'UTC' : `${zone.replaceAll('_', ' ')} (${utcOffsetLabel(zone)})`,
          }))
        : [{ zone: current ?? '', label: (current ?? '').replaceAll('_', ' ') }],
    [mounted, current, user.preferences.timeZone],
  );

  return (
    <EditCard description={m.account_preferences_description()} form={form}>
      <div className="flex flex-col gap-2">
        <div className="flex flex-col rounded-lg border border-border">
          <Controller
            control={control}
            name="emailNotifications"
            render={({ field }) => (
              <div className="flex items-start justify-between gap-4 p-4">
                <div className="flex flex-col gap-1">
                  <Label htmlFor="prefs-email-notifications">{m.account_common_email_notifications()}</Label>
                  <p id="prefs-email-notifications-description" className="text-sm text-muted-foreground">
                    {m.account_preferences_email_notifications_description()}
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
            )}
          />
          <fieldset disabled={!mailOn} aria-describedby={mailOn ? undefined : 'prefs-mail-off'} className="flex flex-col border-t border-border px-4 pt-3 pb-2">
            <legend className="float-start w-full pb-1 text-sm font-medium">{m.account_preferences_email_me()}</legend>
            {!mailOn && (
              <p id="prefs-mail-off" className="clear-both pb-1 text-sm text-muted-foreground">
                {m.account_preferences_mail_off()}
              </p>
            )}
            <ul className="clear-both flex flex-col divide-y divide-border">
              {MAIL_SWITCHES.map(({ key, label }) => (
                <li key={key}>
                  <MailSwitch control={control} name={key} label={label()} disabled={!mailOn} />
                </li>
              ))}
              {isElevated(user.role) && (
                <li>
                  <MailSwitch control={control} name={REVIEW_DIGEST_SWITCH.key} label={REVIEW_DIGEST_SWITCH.label()} disabled={!mailOn} />
                </li>
              )}
            </ul>
          </fieldset>
        </div>
        {errors.emailNotifications?.message && <FieldError id="prefs-email-notifications-error">{errors.emailNotifications.message}</FieldError>}
      </div>
      <Controller
        control={control}
        name="language"
        render={({ field }) => (
          <FormField id="prefs-language" label={m.account_common_language()} className="sm:max-w-xs" error={errors.language?.message}>
            {(c) => (
              // A native select, as for the time zone: four choices, the phone's own picker, no popup library.
              <select
                {...c}
                ref={field.ref}
                name={field.name}
                value={field.value}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                className={cn(controlClasses, 'appearance-auto pe-2')}
              >
                {LANGUAGES.map((language) => (
                  // Each language in its own words and script, never translated.
                  <option key={language} value={language} lang={language}>
                    {LANGUAGE_NAMES[language]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
      />
      <Controller
        control={control}
        name="timeZone"
        render={({ field }) => (
          <FormField
            id="prefs-time-zone"
            label={m.account_preferences_time_zone()}
            description={m.account_preferences_time_zone_description()}
            className="sm:max-w-md"
            error={errors.timeZone?.message}
          >
            {(c) => (
              // A native select, as for countries: the phone's own picker, type-to-find, cheap with ~400 zones.
              <select
                {...c}
                ref={field.ref}
                name={field.name}
                value={field.value ?? ''}
                onChange={(event) => field.onChange(event.target.value)}
                onBlur={field.onBlur}
                className={cn(controlClasses, 'appearance-auto pe-2')}
              >
                {zones.map(({ zone, label }) => (
                  <option key={zone} value={zone}>
                    {label}
                  </option>
                ))}
              </select>
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
              {m.account_common_color_mode()}
            </legend>
            <RadioCardGroup
              name={field.name}
              value={field.value}
              onValueChange={field.onChange}
              aria-labelledby="prefs-color-mode-legend"
              className="sm:grid-cols-3"
            >
              {COLOR_MODES.map((mode) => (
                <RadioCard
                  key={mode}
                  id={`prefs-color-mode-${mode}`}
                  value={mode}
                  label={COLOR_MODE_OPTIONS[mode].label()}
                  description={COLOR_MODE_OPTIONS[mode].description()}
                  className="has-[[data-state=checked]]:bg-accent"
                />
              ))}
            </RadioCardGroup>
            {errors.colorMode?.message && <FieldError id="prefs-color-mode-error">{errors.colorMode.message}</FieldError>}
          </fieldset>
        )}
      />
    </EditCard>
  );
}

/** One mail switch: its label beside it, greyed and inert while email notifications are off. */
function MailSwitch({ control, name, label, disabled }: { control: Control<PreferencesInput>; name: MailKey; label: string; disabled: boolean }) {
  const id = `prefs-${name}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <div className="flex flex-col gap-1 py-2.5">
          <div className="flex items-center justify-between gap-4">
            <Label htmlFor={id} className={disabled ? 'leading-snug font-normal text-muted-foreground' : 'leading-snug font-normal'}>
              {label}
            </Label>
            <Switch
              id={id}
              name={field.name}
              ref={field.ref}
              checked={field.value ?? true}
              disabled={disabled}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              aria-invalid={fieldState.error ? true : undefined}
              aria-describedby={fieldState.error ? `${id}-error` : undefined}
            />
          </div>
          {fieldState.error?.message && <FieldError id={`${id}-error`}>{fieldState.error.message}</FieldError>}
        </div>
      )}
    />
  );
}
