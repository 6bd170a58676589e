/**
 * /admin/projects/{projectId}/missions/{missionId}: the mission's review workspace (the queue and
 * one submission at a time, with keyboard shortcuts: `../review/ReviewWorkspace.tsx`), then its
 * details, instructions and counts.
 */
import { ProjectItemLoader } from './ProjectItemLoader.tsx';
import type { AdminMission } from '../../../shared/missions.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import { Markdown } from '../../../components/forms/Markdown.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Section } from '../admin-kit.tsx';
import { entriesRule } from './SurveyAndMissionLists.tsx';
import {
  ActivityStatusBadge,
  HiddenLiveAlert,
  Breadcrumbs,
  projectCrumbs,
  CompletionBar,
  CountsRow,
  Detail,
  FormVersionLink,
  Moment,
  ScreenHeader,
} from './kit.tsx';
import { ReviewWorkspace } from '../review/ReviewWorkspace.tsx';
import { ExportAnswers } from './ExportAnswers.tsx';

/** The island of the mission page. */
export default function MissionScreen() {
  return (
    <ProjectItemLoader<AdminMission> subject="mission" page="item" cards={[14, 10, 24]}>
      {(project, mission, reloadProject) => mission && <Mission project={project} mission={mission} onProjectLive={reloadProject} />}
    </ProjectItemLoader>
  );
}

function Mission({ project, mission, onProjectLive }: { project: AdminProject; mission: AdminMission; onProjectLive: () => void }) {
  const projectHref = `/admin/projects/${project.id}`;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs items={projectCrumbs(project, { label: mission.title })} />
        <ScreenHeader
          title={mission.title}
          badges={<ActivityStatusBadge status={mission.status} projectStatus={project.status} />}
          actions={
            <>
              <ExportAnswers scope={{ kind: 'mission', id: mission.id }} />
              <a href={`${projectHref}/missions/${mission.id}/edit`} className={buttonVariants({ variant: 'outline' })}>
                Edit mission
              </a>
            </>
          }
        />
      </div>

      <HiddenLiveAlert project={project} status={mission.status} subject="mission" onProjectLive={onProjectLive} />

      <ReviewWorkspace project={project} mission={mission} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Section id="details" title="Details">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Detail term="Form">
              <FormVersionLink formId={mission.formId} version={mission.formVersion} latest={mission.latestFormVersion} />
            </Detail>
            <Detail term="Points">{mission.points}</Detail>
            <Detail term="Entries">{entriesRule(mission.entries)}</Detail>
            <Detail term="Review">{mission.review === 'manual' ? 'Manual: a moderator approves each one' : 'Automatic: approved on arrival'}</Detail>
            <Detail term="Opens">
              <Moment value={mission.opensAt} empty="When it goes live" />
            </Detail>
            <Detail term="Closes">
              <Moment value={mission.closesAt} empty="When closed by hand" />
            </Detail>
          </dl>
          {mission.instructions.trim() && (
            <details className="group rounded-lg border border-border">
              <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
                Instructions
              </summary>
              <div className="border-t border-border px-4 py-3">
                <Markdown headingLevel={3}>{mission.instructions}</Markdown>
              </div>
            </details>
          )}
        </Section>
        <Section id="counts" title="Counts">
          <CountsRow counts={mission.counts} />
          <CompletionBar counts={mission.counts} />
        </Section>
      </div>
    </div>
  );
}
