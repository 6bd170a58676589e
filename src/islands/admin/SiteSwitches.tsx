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
    <Section id="site-switches" title="Site switches" description="Take effect at once for everyone, without a new build. Only admins see this.">
      <ListBody load={load} reload={reload} loadingLabel="Loading switches…" isEmpty={() => false} empty={null}>
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
        <h3 className="font-semibold">Maintenance mode</h3>
        <Badge variant={on ? 'default' : 'outline'}>{on ? 'On' : 'Off'}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">
        While it is on, every page sends visitors (you too) to the maintenance page; the API keeps working. An admin can turn it off from that page.
      </p>
      {flag && <p className="text-xs text-muted-foreground">Last changed {formatDateTime(flag.updatedAt)}</p>}
      <FormAlert message={alert} />
      {on ? (
        <ConfirmButton variant="outline" confirmLabel="Turn off" question="Bring the site back for everyone?" onConfirm={turnOff} className="self-start">
          Turn maintenance off
        </ConfirmButton>
      ) : (
        <ConfirmButton
          variant="outline"
          confirmVariant="destructive"
          confirmLabel="Turn on"
          question="Every visitor will see the maintenance page. Continue?"
          onConfirm={turnOn}
          className="self-start"
        >
          Turn maintenance on
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
      setSaved('The banner is shown.');
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
      setSaved('The banner is cleared.');
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
        <h3 className="font-semibold">Site banner</h3>
        <Badge variant={shown ? 'default' : 'outline'}>{shown ? 'Shown' : 'Hidden'}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">A short message at the top of every page, for example planned downtime or a new project.</p>
      <FormAlert message={alert} />
      {saved && <Alert variant="success">{saved}</Alert>}
      <FormField id="banner-text" label="Banner text" error={errors.text?.message}>
        {(c) => <Input {...c} maxLength={BANNER_MAX_LENGTH} {...register('text')} />}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={isSubmitting}>
          Save banner
        </Button>
        {flag && (
          <Button type="button" variant="outline" loading={clearing} onClick={() => void clear()}>
            Clear banner
          </Button>
        )}
      </div>
    </form>
  );
}
