import { useState } from 'react';
import { z } from '../../shared/zod.ts';
import type { FlagValue } from '../../shared/flags.ts';
import { isTruthyFlag, KNOWN_FLAGS } from '../../shared/flags.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useResource } from '../../lib/resource.ts';
import { useApiForm } from '../../lib/use-api-form.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { m } from '../../shared/i18n.ts';
import { ConfirmButton, ListBody, Section } from './admin-kit.tsx';

interface AdminFlag {
  key: string;
  value: FlagValue;
  public: boolean;
  updatedAt: string;
  updatedBy: number | null;
}

export const BANNER_MAX_LENGTH = 300;

/** The banner text an admin types (the flag itself takes any JSON; here it is a sentence). */
export const bannerTextSchema = z.strictObject({
  text: z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required, abort: true }).max(BANNER_MAX_LENGTH, MESSAGES.tooLong),
});
type BannerValues = z.input<typeof bannerTextSchema>;

/** "Site switches" (admin only): maintenance on/off with a confirm step, and the banner text. */
export function SiteSwitches() {
  const { load, reload, replace } = useResource<{ flags: AdminFlag[] }>('/api/admin/flags');
  const setFlag = (flag: AdminFlag | null, key: string) =>
    replace((data) => ({ flags: [...data.flags.filter((f) => f.key !== key), ...(flag ? [flag] : [])] }));

  return (
    <Section id="site-switches" title={m.admin_switches_title()} description={m.admin_switches_description()}>
      <ListBody load={load} reload={reload} loadingLabel={m.admin_switches_loading()} isEmpty={() => false} empty={null}>
        {(data) => {
          const maintenance = data.flags.find((f) => f.key === KNOWN_FLAGS.maintenance) ?? null;
          const banner = data.flags.find((f) => f.key === KNOWN_FLAGS.banner) ?? null;
          return (
            <div className="grid gap-6 lg:grid-cols-2">
              <MaintenanceSwitch flag={maintenance} onChange={(flag) => setFlag(flag, KNOWN_FLAGS.maintenance)} />
              <BannerSwitch flag={banner} onChange={(flag) => setFlag(flag, KNOWN_FLAGS.banner)} />
            </div>
          );
        }}
      </ListBody>
    </Section>
  );
}

function MaintenanceSwitch({ flag, onChange }: { flag: AdminFlag | null; onChange: (flag: AdminFlag | null) => void }) {
  const on = flag !== null && isTruthyFlag(flag.value);
  const [alert, setAlert] = useState<string | null>(null);

  async function turnOn() {
    setAlert(null);
    try {
      const { flag: saved } = await apiSend<{ flag: AdminFlag }>('PUT', `/api/admin/flags/${KNOWN_FLAGS.maintenance}`, { value: true });
      onChange(saved);
    } catch (error) {
      setAlert(errorMessage(error));
    }
  }
  async function turnOff() {
    setAlert(null);
    try {
      await apiSend<{ ok: true; removed: boolean }>('DELETE', `/api/admin/flags/${KNOWN_FLAGS.maintenance}`);
      onChange(null);
    } catch (error) {
      setAlert(errorMessage(error));
    }
  }

  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <div className="flex items-center justify-between gap-3">
        <h3 className="font-semibold">{m.admin_switches_maintenance()}</h3>
        <Badge variant={on ? 'default' : 'outline'}>{on ? m.admin_switches_on() : m.admin_switches_off()}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">{m.admin_switches_maintenance_help()}</p>
      {flag && <p className="text-xs text-muted-foreground">{m.admin_switches_last_changed({ date: formatDateTime(flag.updatedAt) })}</p>}
      <FormAlert message={alert} />
      {on ? (
        <ConfirmButton
          variant="outline"
          confirmLabel={m.admin_switches_turn_off()}
          question={m.admin_switches_turn_off_question()}
          onConfirm={turnOff}
          className="self-start"
        >
          {m.admin_switches_maintenance_off()}
        </ConfirmButton>
      ) : (
        <ConfirmButton
          variant="outline"
          confirmVariant="destructive"
          confirmLabel={m.admin_switches_turn_on()}
          question={m.admin_switches_turn_on_question()}
          onConfirm={turnOn}
          className="self-start"
        >
          {m.admin_switches_maintenance_on()}
        </ConfirmButton>
      )}
    </div>
  );
}

function bannerText(value: FlagValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

function BannerSwitch({ flag, onChange }: { flag: AdminFlag | null; onChange: (flag: AdminFlag | null) => void }) {
  const [saved, setSaved] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);
  const current = bannerText(flag?.value);
  const {
    onSubmit,
    alert,
    setAlert,
    register,
    reset,
    formState: { errors, isSubmitting },
  } = useApiForm<BannerValues>({
    schema: () => Promise.resolve(bannerTextSchema),
    defaultValues: { text: current },
    fields: [],
    submit: async (values) => {
      setSaved(null);
      const { flag: next } = await apiSend<{ flag: AdminFlag }>('PUT', `/api/admin/flags/${KNOWN_FLAGS.banner}`, { value: values.text });
      onChange(next);
      reset({ text: bannerText(next.value) });
      setSaved(m.admin_switches_banner_shown_saved());
    },
  });

  async function clear() {
    setAlert(null);
    setSaved(null);
    setClearing(true);
    try {
      await apiSend<{ ok: true; removed: boolean }>('DELETE', `/api/admin/flags/${KNOWN_FLAGS.banner}`);
      onChange(null);
      reset({ text: '' });
      setSaved(m.admin_switches_banner_cleared());
    } catch (error) {
      setAlert(errorMessage(error));
    } finally {
      setClearing(false);
    }
  }

  const shown = flag !== null && isTruthyFlag(flag.value);
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <div className="flex items-center justify-between gap-3">
        <h3 className="font-semibold">{m.admin_switches_banner()}</h3>
        <Badge variant={shown ? 'default' : 'outline'}>{shown ? m.admin_switches_shown() : m.admin_switches_hidden()}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">{m.admin_switches_banner_help()}</p>
      <FormAlert message={alert} />
      {saved && <Alert variant="success">{saved}</Alert>}
      <FormField id="banner-text" label={m.admin_switches_banner_text()} error={errors.text?.message}>
        {(c) => <Input {...c} maxLength={BANNER_MAX_LENGTH} {...register('text')} />}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={isSubmitting}>
          {m.admin_switches_save_banner()}
        </Button>
        {flag && (
          <Button type="button" variant="outline" loading={clearing} onClick={() => void clear()}>
            {m.admin_switches_clear_banner()}
          </Button>
        )}
      </div>
    </form>
  );
}
