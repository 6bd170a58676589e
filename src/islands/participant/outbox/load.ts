/**
 * The outbox, loaded on first use (a capture, a queued submit) or at page load when the summary
 * says something waits: Dexie and tus-js-client stay out of the pages' first-load JavaScript.
 */
import { local } from '../../../platform/storage.ts';
import { somethingWaits } from './summary.ts';
import type { OutboxRuntime } from './runtime.ts';

let loading: Promise<OutboxRuntime> | null = null;

export function loadOutbox(): Promise<OutboxRuntime> {
  loading ??= import('./runtime.ts').then(
    (module) => module.outboxRuntime(),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** On a page load: starts the sender when something waits to be sent. */
export function resumeSending(): void {
  if (typeof window === 'undefined' || !somethingWaits(local())) return;
  void loadOutbox().catch(() => undefined);
}
