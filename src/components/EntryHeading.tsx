/**
 * The heading of one of a participant's mission entries ("Entry 2") with its day, as the mission
 * screen and the mission history list them; `entryTitleId` names it for the entry's landmark and
 * its links.
 */
import { entryDateLabel } from '../lib/labels.ts';
import { cn } from '../lib/utils.ts';
import { m, formatCount } from '../shared/i18n.ts';

export const entryTitleId = (entry: { id: number }): string => `entry-${entry.id}-title`;

export function EntryHeading({
  entry,
  number,
  className,
}: {
  entry: { id: number; localDate: string | null; submittedAt: string | null; createdAt: string };
  number: number;
  /** The heading's classes beside its weight (e.g. a larger size). */
  className?: string;
}) {
  const date = entryDateLabel(entry);
  return (
    <div className="flex min-w-0 flex-col">
      <h3 id={entryTitleId(entry)} className={cn('font-semibold', className)}>
        {m.shell_entry_heading({ number: formatCount(number) })}
      </h3>
      {date && <p className="text-sm text-muted-foreground">{date}</p>}
    </div>
  );
}
