/**
 * The account side of the colour mode (docs/product.md §3): signed in, the header switch saves the choice
 * into the account's preferences (PATCH /api/account/preferences needs all three fields; the
 * current ones come from the shared account store, loaded once per page). Failures keep the local
 * choice and are only logged.
 */
import { loadAccount, setAccountUser } from '../stores/account.ts';
import { $auth } from '../stores/auth.ts';
import type { ColorModeValue } from '../stores/color-mode.ts';
import { apiSend, type AccountUser } from '../platform/api.ts';

export async function saveAccountColorMode(mode: ColorModeValue): Promise<boolean> {
  if ($auth.get().status !== 'authenticated') return false;
  try {
    const account = await loadAccount();
    if (!account) return false;
    const { preferences } = account.user;
    if (preferences.colorMode === mode) return true;
    const result = await apiSend<{ user: AccountUser }>('PATCH', '/api/account/preferences', { ...preferences, colorMode: mode });
    setAccountUser(result.user);
    return true;
  } catch (error) {
    console.warn('[colour mode] could not save to the account', error);
    return false;
  }
}
