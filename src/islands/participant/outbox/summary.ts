/**
 * The outbox's summary mirror in localStorage (`OUTBOX_SUMMARY_KEY`): home lists what waits to be
 * sent, and a page knows whether to load the sender, without opening IndexedDB.
 */
import { OUTBOX_SUMMARY_KEY } from '../../../shared/offline.ts';
import type { StorageLike } from '../../../platform/storage.ts';
import { currentUser } from '../../../stores/auth.ts';
import type { OutboxFile, OutboxSubmit, OutboxSummary, SummaryItem } from './types.ts';

/** Whose rows the outbox shows and sends now: the signed-in participant's id, or null (nobody, or staff). */
export function outboxOwner(): string | null {
  const user = currentUser();
  return user && user.role === 'participant' ? String(user.id) : null;
}

const EMPTY: OutboxSummary = { items: [], updatedAt: 0 };

function isItem(value: unknown): value is SummaryItem {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item.id === 'string' &&
    typeof item.owner === 'string' &&
    typeof item.name === 'string' &&
    typeof item.state === 'string' &&
    typeof item.what === 'string'
  );
}

/** The lines of `owner` (the signed-in participant; null: none). */
export function readSummary(storage: StorageLike | null, owner: string | null): OutboxSummary {
  if (owner === null) return EMPTY;
  try {
    const text = storage?.getItem(OUTBOX_SUMMARY_KEY);
    if (!text) return EMPTY;
    const data = JSON.parse(text) as { items?: unknown; updatedAt?: unknown };
    const items = Array.isArray(data.items) ? data.items.filter(isItem).filter((item) => item.owner === owner) : [];
    return { items, updatedAt: typeof data.updatedAt === 'number' ? data.updatedAt : 0 };
  } catch {
    return EMPTY;
  }
}

/** The lines of a summary: files not yet ready and submits not yet sent, oldest first, whoever's they are. */
export function summaryOf(files: readonly OutboxFile[], submits: readonly OutboxSubmit[], now = Date.now()): OutboxSummary {
  const items: SummaryItem[] = [
    ...files
      .filter((file) => file.state !== 'ready')
      .map((file): SummaryItem & { at: number } => ({
        id: file.id,
        owner: file.owner,
        what: file.kind,
        name: file.name,
        state: file.state,
        progress: file.progress,
        reason: file.reason,
        retry: file.state === 'failed' && !file.final,
        at: file.createdAt,
      })),
    ...submits
      .filter((submit) => submit.state !== 'sent')
      .map((submit): SummaryItem & { at: number } => ({
        id: submit.id,
        owner: submit.owner,
        what: 'submit',
        name: submit.title,
        state: submit.state,
        progress: 0,
        reason: submit.reason,
        retry: submit.state === 'failed',
        at: submit.createdAt,
      })),
  ]
    .sort((a, b) => a.at - b.at)
    .map(({ at: _, ...item }) => item);
  return { items, updatedAt: now };
}

export function writeSummary(storage: StorageLike | null, summary: OutboxSummary): void {
  try {
    if (summary.items.length === 0) storage?.removeItem(OUTBOX_SUMMARY_KEY);
    else storage?.setItem(OUTBOX_SUMMARY_KEY, JSON.stringify(summary));
  } catch {
    // A full or blocked localStorage: home shows less, nothing is lost (IndexedDB holds the rows).
  }
}

/** Whether anything of `owner`'s waits to be sent (the page then loads the sender at once). */
export const somethingWaits = (storage: StorageLike | null, owner: string | null): boolean =>
  readSummary(storage, owner).items.some((item) => item.state !== 'failed');
