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
import { formatCount, m } from '../../../shared/i18n.ts';

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
                {m.projects_mission_edit()}
              </a>
            </>
          }
        />
      </div>

      <HiddenLiveAlert project={project} status={mission.status} subject="mission" onProjectLive={onProjectLive} />

      <ReviewWorkspace project={project} mission={mission} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Section id="details" title={m.projects_details_title()}>
          <dl className="grid gap-4 sm:grid-cols-2">
            <Detail term={m.projects_detail_form()}>
              <FormVersionLink formId={mission.formId} version={mission.formVersion} latest={mission.latestFormVersion} />
            </Detail>
            <Detail term={m.projects_detail_points()}>{formatCount(mission.points)}</Detail>
            <Detail term={m.projects_detail_entries()}>{entriesRule(mission.entries)}</Detail>
            <Detail term={m.projects_detail_review()}>
              {mission.review === 'manual' ? m.projects_mission_review_manual_detail() : m.projects_mission_review_automatic_detail()}
            </Detail>
            <Detail term={m.projects_detail_opens()}>
              <Moment value={mission.opensAt} empty={m.projects_detail_opens_empty()} />
            </Detail>
            <Detail term={m.projects_detail_closes()}>
              <Moment value={mission.closesAt} empty={m.projects_detail_closes_empty()} />
            </Detail>
          </dl>
          {mission.instructions.trim() && (
            <details className="group rounded-lg border border-border">
              <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
                {m.projects_mission_instructions()}
              </summary>
              <div className="border-t border-border px-4 py-3">
                <Markdown headingLevel={3}>{mission.instructions}</Markdown>
              </div>
            </details>
          )}
        </Section>
        <Section id="counts" title={m.projects_counts_title()}>
          <CountsRow counts={mission.counts} />
          <CompletionBar counts={mission.counts} />
        </Section>
      </div>
    </div>
  );
}
