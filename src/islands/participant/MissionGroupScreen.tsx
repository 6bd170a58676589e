/**
 * `/mission-groups/{id}`: the missions of a group in order, each with its state (locked and why,
 * open, in progress, submitted, approved), the overall progress, and a link to each mission the
 * participant may open. Data: `GET /api/mission-groups/{id}` → ParticipantMissionGroup.
 */
import { RoutePage } from '../../components/states/RoutePage.tsx';
import type { GroupMissionState, ParticipantMissionGroup } from '../../shared/mission-groups.ts';
import { cn } from '../../lib/utils.ts';
import { CheckIcon } from '../../components/icons.tsx';
import { Markdown } from '../../components/forms/Markdown.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { closesLabel, closesSoon, GROUP_MISSION_STATE_LABELS, pointsLabel } from '../../lib/labels.ts';
import { formatCount, m } from '../../shared/i18n.ts';
import { ACTIVITY_COLUMN, ActivityHeader, ActivitySkeleton, Bone, CalendarIcon, LockIcon, MetaItem, ProgressBar, StarIcon } from './parts.tsx';

type GroupMission = ParticipantMissionGroup['missions'][number];

/** How the group unlocks its missions, in words. */
export function unlockText(group: Pick<ParticipantMissionGroup, 'unlock' | 'unlockOn'>): string {
  if (group.unlock === 'all_open') return m.participant_group_unlock_any();
  return group.unlockOn === 'approved' ? m.participant_group_unlock_approved() : m.participant_group_unlock_submitted();
}

/** The island of `/mission-groups/{id}`. */
export default function MissionGroupScreen() {
  return (
    <RoutePage<ParticipantMissionGroup>
      pattern="/mission-groups/:id"
      path={(ids) => `/api/mission-groups/${ids.id}`}
      heading={m.participant_group_heading()}
      skeleton={<GroupSkeleton />}
    >
      {(group) => <GroupView group={group} />}
    </RoutePage>
  );
}

function GroupView({ group }: { group: ParticipantMissionGroup }) {
  const { done, total } = group.progress;
  return (
    <div className={ACTIVITY_COLUMN}>
      <ActivityHeader projectName={group.projectName} title={group.title}>
        {group.description.trim() && <Markdown headingLevel={2}>{group.description}</Markdown>}
      </ActivityHeader>
      <Card asChild className="flex flex-col gap-2 p-4 sm:p-6">
        <section aria-labelledby="group-progress">
          <h2 id="group-progress" className="text-sm font-medium text-muted-foreground">
            {m.participant_group_progress()}
          </h2>
          <p className="text-2xl font-semibold tabular-nums">{m.participant_group_done_count({ done: formatCount(done), total })}</p>
          <ProgressBar value={total > 0 ? (done / total) * 100 : 0} label={m.participant_group_missions_done()} />
          <p className="text-sm text-muted-foreground">{unlockText(group)}</p>
        </section>
      </Card>
      <section aria-labelledby="group-missions" className="flex flex-col gap-3">
        <h2 id="group-missions" className="text-lg font-semibold">
          {m.participant_group_missions()}
        </h2>
        {group.missions.length === 0 ? (
          <p className="text-sm text-muted-foreground">{m.participant_group_no_missions()}</p>
        ) : (
          <ol className="flex flex-col gap-3">
            {group.missions.map((mission, index) => (
              <MissionRow key={mission.id} mission={mission} number={index + 1} />
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

/** What the button of a mission in each state says (none when locked). */
const ACTION_LABELS: Partial<Record<GroupMissionState, () => string>> = {
  open: m.participant_group_action_start,
  in_progress: m.participant_group_action_continue,
  submitted: m.participant_group_action_view,
  approved: m.participant_group_action_view,
};

function MissionRow({ mission, number }: { mission: GroupMission; number: number }) {
  const locked = mission.state === 'locked';
  const finished = mission.state === 'submitted' || mission.state === 'approved';
  const closes = finished || locked ? null : closesLabel(mission.closesAt);
  const action = ACTION_LABELS[mission.state]?.();
  const titleId = `group-mission-${mission.id}`;
  return (
    <Card asChild className={cn('flex gap-4 p-4', locked && 'bg-muted/60 shadow-none')}>
      <li aria-labelledby={titleId}>
        <span
          aria-hidden="true"
          className={cn(
            'flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold tabular-nums',
            finished ? 'bg-success text-background' : locked ? 'bg-muted text-muted-foreground' : 'bg-primary text-primary-foreground',
          )}
        >
          {finished ? <CheckIcon className="size-5" /> : locked ? <LockIcon className="size-4" /> : formatCount(number)}
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 id={titleId} className={cn('font-semibold break-words', locked && 'text-muted-foreground')}>
              <span className="sr-only">{formatCount(number)}. </span>
              {mission.title}
            </h3>
            <Badge variant={finished ? 'secondary' : 'outline'}>{GROUP_MISSION_STATE_LABELS[mission.state]}</Badge>
          </div>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <MetaItem icon={StarIcon}>{pointsLabel(mission.points, mission.pointsPerEntry)}</MetaItem>
            {closes && (
              <MetaItem icon={CalendarIcon} className={closesSoon(mission.closesAt) && 'font-medium text-destructive'}>
                {closes}
              </MetaItem>
            )}
          </ul>
          {locked && <p className="text-sm text-muted-foreground">{mission.lockedReason || m.participant_group_locked_default()}</p>}
          {action && (
            <Button asChild size="lg" variant={finished ? 'outline' : 'default'} className="w-full sm:w-auto sm:self-start">
              <a href={`/missions/${mission.id}`} aria-label={`${action}: ${mission.title}`}>
                {action}
              </a>
            </Button>
          )}
        </div>
      </li>
    </Card>
  );
}

function GroupSkeleton() {
  return (
    <ActivitySkeleton label={m.participant_group_loading()}>
      <Card variant="flat" aria-hidden="true" className="flex flex-col gap-2 p-4 sm:p-6">
        <Bone className="h-4 w-28" />
        <Bone className="h-8 w-48" />
        <Bone className="h-2 w-full" />
        <Bone className="h-4 w-64" />
      </Card>
      <div aria-hidden="true" className="flex flex-col gap-3">
        {[0, 1, 2].map((n) => (
          <Card variant="flat" key={n} className="flex h-[8.5rem] gap-4 p-4">
            <Bone className="size-9 rounded-full" />
            <div className="flex flex-1 flex-col gap-2">
              <Bone className="h-5 w-2/3" />
              <Bone className="h-4 w-32" />
            </div>
          </Card>
        ))}
      </div>
    </ActivitySkeleton>
  );
}
