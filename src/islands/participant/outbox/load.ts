/**
 * The outbox, loaded on first use (a capture, a queued submit) or, by the shell, at page load when
 * the summary says something waits (`resume.ts`): Dexie and tus-js-client stay out of the pages'
 * first-load JavaScript.
 */
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
