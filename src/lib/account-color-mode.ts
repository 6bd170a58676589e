/**
 * The account side of the colour mode (SPEC.md §3): signed in, the header switch saves the choice
 * into the account's preferences (PATCH /api/account/preferences needs all three fields, so the
 * current ones are read first). Failures keep the local choice and are only logged.
 */
import { $auth } from '../stores/auth.ts';
import type { ColorModeValue } from '../stores/color-mode.ts';
import { apiGet, apiSend, type AccountResponse } from './api.ts';

export async function saveAccountColorMode(mode: ColorModeValue): Promise<boolean> {
  if ($auth.get().status !== 'authenticated') return false;
  try {
    const { user } = await apiGet<AccountResponse>('/api/account');
    if (user.preferences.colorMode === mode) return true;
    await apiSend('PATCH', '/api/account/preferences', { ...user.preferences, colorMode: mode });
    return true;
  } catch (error) {
    console.warn('[colour mode] could not save to the account', error);
    return false;
  }
}
