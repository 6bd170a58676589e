/**
 * A mission's instructions (Markdown): a card with its heading, or, `collapsible`, folded under a
 * summary (beside an entry being answered, and atop the mission history).
 */
import { ChevronDownIcon } from './icons.tsx';
import { Markdown } from './forms/Markdown.tsx';
import { Card } from './ui/card.tsx';
import { m } from '../shared/i18n.ts';

/** Nothing when `text` is blank. */
export function Instructions({ text, collapsible = false }: { text: string; collapsible?: boolean }) {
  if (!text.trim()) return null;
  if (collapsible) {
    return (
      <Card asChild className="group">
        <details>
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-3 rounded-xl px-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
            {m.shell_instructions_title()}
            <ChevronDownIcon className="size-5 transition-transform group-open:rotate-180" />
          </summary>
          <div className="border-t border-border px-4 py-4">
            <Markdown headingLevel={3}>{text}</Markdown>
          </div>
        </details>
      </Card>
    );
  }
  return (
    <Card asChild className="flex flex-col gap-3 p-4 sm:p-6">
      <section aria-labelledby="mission-instructions">
        <h2 id="mission-instructions" className="text-lg font-semibold">
          {m.shell_instructions_title()}
        </h2>
        <Markdown headingLevel={3}>{text}</Markdown>
      </section>
    </Card>
  );
}
