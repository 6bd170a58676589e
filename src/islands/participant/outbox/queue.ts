/**
 * A submit put in the outbox (it could not reach the server, or its files are not sent yet): the
 * sender sends it when it can, with the revision it was queued with; the screen that queued it
 * learns when it is sent (or refused) while it is open.
 */
import type { Answers } from '../../../shared/forms/definition.ts';
import type { Language } from '../../../shared/languages.ts';
import { loadOutbox } from './load.ts';
import type { OutboxRuntime } from './runtime.ts';

/**
 * The outbox, now or, when its code cannot come (the connection went before this page ever loaded
 * it and no service worker keeps it), as soon as the connection is back: the submit waits on
 * screen meanwhile, its answers in the draft kept on this device.
 */
async function outboxWhenLoaded(): Promise<OutboxRuntime> {
  for (;;) {
    try {
      return await loadOutbox();
    } catch {
      await new Promise<void>((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
    }
  }
}

/** Where a queued submit goes: `path` (with `{id}` of the entry `createPath` makes, when the entry did not exist yet). */
export interface QueuedTarget {
  title: string;
  path: string;
  createPath?: string | null;
  createBody?: Record<string, unknown> | null;
  /** More of the body (the survey's `today`). */
  extra?: Record<string, unknown>;
}

export async function queueSubmit(input: {
  formKey: string;
  target: QueuedTarget;
  answers: Answers;
  revision: number;
  language: Language;
  draftKey: string | null;
  onSent(): void;
  onFailed(reason: string): void;
}): Promise<{ online: boolean }> {
  const runtime = await outboxWhenLoaded();
  const { target } = input;
  const row = await runtime.outbox.queueSubmit({
    formKey: input.formKey,
    title: target.title,
    createPath: target.createPath ?? null,
    createBody: target.createBody ?? null,
    path: target.path,
    body: { ...target.extra, answers: input.answers, revision: input.revision, language: input.language },
    draftKey: input.draftKey,
  });
  const unsubscribe = runtime.outbox.subscribe(() => {
    void runtime.outbox.submits(input.formKey).then(async (rows) => {
      const mine = rows.find((each) => each.id === row.id);
      if (!mine) return unsubscribe();
      if (mine.state === 'sent') {
        unsubscribe();
        await runtime.outbox.removeSubmit(row.id);
        input.onSent();
      } else if (mine.state === 'failed' && mine.reason) {
        input.onFailed(mine.reason);
      }
    });
  });
  const online = await runtime.reachable();
  runtime.kick();
  return { online };
}
