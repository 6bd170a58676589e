/**
 * On a page load: the sender starts when something of the signed-in participant's waits to be sent. The shell loads this when the
 * browser is idle and the outbox's summary is in localStorage (src/app/shell.ts), on any page.
 */
import { local } from '../../../platform/storage.ts';
import { loadOutbox } from './load.ts';
import { outboxOwner, somethingWaits } from './summary.ts';

export function resumeSending(): void {
  if (typeof window === 'undefined' || !somethingWaits(local(), outboxOwner())) return;
  void loadOutbox().catch(() => undefined);
}
