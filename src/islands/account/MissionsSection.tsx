/**
 * `/account`, "Your missions" (`#mission-history`; `/account/mission-history` redirects here): the
 * missions the participant has entries in, latest activity first, each with its entries counted by
 * state and the moderators' questions waiting for an answer (highlighted), linking to the
 * mission's history. Its own call (`GET /api/account/mission-history`); a skeleton meanwhile.
 */
import type { ReactNode } from 'react';
import type { MissionHistoryItem } from '../../shared/review.ts';
import { formatRelative } from '../../lib/format.ts';
import { useResource } from '../../lib/resource.ts';
import { cn } from '../../lib/utils.ts';
import { ChevronRightIcon, FlagIcon, QuestionIcon } from '../../components/icons.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { pointsLabel } from '../../lib/labels.ts';
import { Bone } from '../../components/ui/skeleton.tsx';
import { m } from '../../shared/i18n.ts';
import { entriesLabel, entryCounts, probesWaitingLabel, type EntryCount } from './mission-history.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';

/** The id the list is reached at (`/account#mission-history`). */
export const MISSION_HISTORY_ANCHOR = 'mission-history';

/** The tone of each count: what needs the participant stands out. */
const COUNT_TONES: Readonly<Record<EntryCount['key'], string>> = {
  changesRequested: 'border-transparent bg-[color-mix(in_oklab,var(--destructive)_12%,var(--card))] text-foreground',
  waiting: 'border-border bg-muted text-foreground',
  approved: 'border-transparent bg-[color-mix(in_oklab,var(--success)_14%,var(--card))] text-foreground',
  rejected: 'border-border text-muted-foreground',
  drafts: 'border-dashed border-border text-muted-foreground',
};

function Frame({ children, busy = false }: { children: ReactNode; busy?: boolean }) {
  return (
    <Card id={MISSION_HISTORY_ANCHOR} role="region" aria-labelledby="missions-title" aria-busy={busy || undefined} className="scroll-mt-6">
      <CardHeader className="pb-4">
        <CardTitle id="missions-title" className="flex items-center gap-2 text-lg">
          <span className="text-primary">
            <FlagIcon className="size-5" />
          </span>
          {m.account_missions_title()}
        </CardTitle>
        <CardDescription>{m.account_missions_description()}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

/** The island part of `/account` that lists the participant's missions; the frame stays while its content loads. */
export default function MissionsSection() {
  const { load, reload } = useResource<{ items: MissionHistoryItem[] }>('/api/account/mission-history');
  return (
    <Frame busy={load.status === 'loading'}>
      {load.status === 'loading' ? (
        <MissionsSkeleton />
      ) : load.status === 'ready' ? (
        load.data.items.length === 0 ? (
          <p className="rounded-lg border border-border px-4 py-3 text-sm text-muted-foreground">{m.account_missions_none()}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {load.data.items.map((item) => (
              <MissionRow key={item.missionId} item={item} />
            ))}
          </ul>
        )
      ) : (
        <Failed title={m.account_missions_load_failed()} message={load.message} onRetry={reload} />
      )}
    </Frame>
  );
}

function MissionRow({ item }: { item: MissionHistoryItem }) {
  const counts = entryCounts(item.entries);
  const probes = probesWaitingLabel(item.probesWaiting);
  const titleId = `mission-history-${item.missionId}`;
  return (
    <li
      aria-labelledby={titleId}
      className={cn(
        'relative flex flex-col gap-2 rounded-lg border bg-card p-4 transition-colors has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-ring hover:border-primary/60',
        probes || item.entries.changesRequested > 0 ? 'border-primary/50' : 'border-border',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-0.5">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{item.projectName}</p>
          <h3 id={titleId} className="font-semibold break-words">
            <a
              href={`/account/mission-history/${item.missionId}`}
              className="text-foreground no-underline outline-none after:absolute after:inset-0 after:rounded-lg after:content-['']"
            >
              {item.title}
            </a>
          </h3>
        </div>
        <ChevronRightIcon className="mt-5 size-5 shrink-0 text-muted-foreground" />
      </div>
      {probes && (
        <p className="inline-flex items-center gap-1.5 self-start rounded-full bg-primary px-2.5 py-0.5 text-xs font-semibold text-primary-foreground">
          <QuestionIcon className="size-3.5" />
          {probes}
        </p>
      )}
      <ul aria-label={m.account_missions_entries_label()} className="flex flex-wrap gap-1.5">
        {counts.map((count) => (
          <li key={count.key} className={cn('rounded-full border px-2.5 py-0.5 text-xs font-medium', COUNT_TONES[count.key])}>
            {count.text}
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">
        {entriesLabel(item.entries.total)} · {pointsLabel(item.points, item.pointsPerEntry)} ·{' '}
        {withNodes((marks) => m.account_missions_last_activity({ when: marks.when }), {
          when: <time dateTime={item.lastActivityAt}>{formatRelative(item.lastActivityAt)}</time>,
        })}
      </p>
    </li>
  );
}

function MissionsSkeleton() {
  return (
    <>
      <LoadingNote label={m.account_missions_loading()} />
      <div aria-hidden="true" className="flex flex-col gap-3">
        {[0, 1].map((n) => (
          <div key={n} className="flex flex-col gap-2 rounded-lg border border-border p-4">
            <Bone className="h-3.5 w-28" />
            <Bone className="h-6 w-64 max-w-full" />
            <div className="flex gap-1.5">
              <Bone className="h-5 w-20 rounded-full" />
              <Bone className="h-5 w-28 rounded-full" />
            </div>
            <Bone className="h-4 w-48" />
          </div>
        ))}
      </div>
    </>
  );
}
