/**
 * /maintenance: the way out for a signed-in admin (MaintenanceAdminPanel.tsx). Everyone else sees
 * nothing, so the panel — a button, an alert and tailwind-merge with them — loads for admins only,
 * keeping the page everyone comes to during maintenance light.
 */
import { useEffect } from 'react';
import { lazyModule, useLazyModule } from '../../lib/lazy-module.ts';
import { useAuth } from '../../lib/use-auth.ts';

const panel = lazyModule(() => import('./MaintenanceAdminPanel.tsx'));

export default function MaintenanceAdmin() {
  const auth = useAuth();
  const admin = auth.status === 'authenticated' && auth.user.role === 'admin';
  const Panel = useLazyModule(panel);
  useEffect(() => {
    if (admin) panel.load().catch(() => {});
  }, [admin]);
  return admin && Panel ? <Panel.default /> : null;
}
