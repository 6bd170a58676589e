/**
 * When a participant is signed in: the sender runs when something of theirs waits to be sent. The
 * shell calls this when the browser is idle and the outbox's summary is in localStorage
 * (src/app/shell.ts), on any page, at load and after another sign-in without a page load.
 */
import { local } from '../../../platform/storage.ts';
import { loadOutbox } from './load.ts';
import { outboxOwner, somethingWaits } from './summary.ts';

export function resumeSending(): void {
  if (typeof window === 'undefined' || !somethingWaits(local(), outboxOwner())) return;
  // Also a runtime already loaded (the previous person's session on this page): it sends the rows of whoever is signed in now.
  void loadOutbox()
    .then((runtime) => runtime.kick())
    .catch(() => undefined);
}
