import { useState } from 'react';
import { apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { m } from '../../shared/i18n.ts';

/**
 * /maintenance for a signed-in admin (MaintenanceAdmin.tsx loads it for admins only): switch
 * maintenance off (DELETE /api/admin/flags/maintenance) and go home. While maintenance is on every
 * page comes here, so this is the way out without the CLI.
 */
export default function MaintenanceAdminPanel() {
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);

  async function turnOff() {
    setAlert(null);
    setBusy(true);
    try {
      await apiSend<{ ok: true; removed: boolean }>('DELETE', '/api/admin/flags/maintenance');
      location.assign('/');
    } catch (error) {
      setAlert(errorMessage(error));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="maintenance-admin-heading" className="mt-6 flex flex-col gap-3 border-t border-border pt-6">
      <h2 id="maintenance-admin-heading" className="text-base font-semibold">
        {m.public_maintenance_admin_heading()}
      </h2>
      <p className="text-sm text-muted-foreground">{m.public_maintenance_admin_text()}</p>
      <FormAlert message={alert} />
      <Button variant="outline" loading={busy} onClick={() => void turnOff()} className="self-start">
        {m.public_maintenance_admin_turn_off()}
      </Button>
    </section>
  );
}
