/**
 * Home's "Waiting to be sent": what the outbox holds that is not sent yet (photos, videos,
 * submits), from its summary in localStorage (no IndexedDB opened to show it), with each item's
 * state, why it failed, and "Try again" (the shell has started the sender when something waits).
 */
import { useEffect, useState } from 'react';
import { OUTBOX_SUMMARY_KEY } from '../../shared/offline.ts';
import { local } from '../../platform/storage.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { reasonText, stateText } from '../../components/forms/store-uploads.ts';
import { m } from '../../shared/i18n.ts';
import { outboxOwner, readSummary } from './outbox/summary.ts';
import { loadOutbox } from './outbox/load.ts';
import type { OutboxSummary, SummaryItem } from './outbox/types.ts';

function lineOf(item: SummaryItem): string {
  if (item.what !== 'submit') return stateText({ state: item.state as 'saved', progress: item.progress, reason: item.reason });
  if (item.state === 'failed') return reasonText(item.reason) ?? m.outbox_state_failed();
  return item.state === 'sending' ? m.outbox_state_sending() : m.outbox_state_waiting();
}

export function WaitingToSend() {
  const [summary, setSummary] = useState<OutboxSummary>({ items: [], updatedAt: 0 });
  useEffect(() => {
    const read = () => setSummary(readSummary(local(), outboxOwner()));
    read();
    const onStorage = (event: StorageEvent) => {
      if (event.key === OUTBOX_SUMMARY_KEY || event.key === null) read();
    };
    window.addEventListener('storage', onStorage);
    // This tab's sender writes the summary too (no storage event in the writing tab).
    const timer = setInterval(read, 2000);
    return () => {
      window.removeEventListener('storage', onStorage);
      clearInterval(timer);
    };
  }, []);
  if (summary.items.length === 0) return null;
  const retry = (id: string) =>
    void loadOutbox().then(async (runtime) => {
      await runtime.sender.retry(id);
      runtime.kick();
    });
  return (
    <section aria-labelledby="home-outbox" className="mb-8 flex flex-col gap-3">
      <h2 id="home-outbox" className="text-xl font-semibold tracking-tight">
        {m.outbox_home_title()}
      </h2>
      <Card className="p-2">
        <ul className="flex flex-col divide-y divide-border" aria-live="polite">
          {summary.items.map((item) => {
            const name = item.what === 'submit' ? m.outbox_home_submit({ name: item.name }) : item.name;
            return (
              <li key={item.id} className="flex flex-wrap items-center gap-3 p-2 text-sm" data-outbox-item={item.what}>
                <div className="flex min-w-0 flex-1 basis-40 flex-col">
                  <p dir="auto" className="truncate font-medium">
                    {name}
                  </p>
                  <p className={item.state === 'failed' ? 'font-medium text-destructive' : 'text-muted-foreground'}>{lineOf(item)}</p>
                </div>
                {item.retry && (
                  <Button variant="outline" className="h-11" onClick={() => retry(item.id)}>
                    {m.outbox_try_again()}
                    <span className="sr-only"> {name}</span>
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </Card>
    </section>
  );
}
