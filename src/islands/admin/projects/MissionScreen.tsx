/**
 * /admin/projects/{projectId}/missions/{missionId}: the mission's review workspace (the queue and
 * one submission at a time, with keyboard shortcuts: `../review/ReviewWorkspace.tsx`), then its
 * details, instructions and counts.
 */
import type { AdminMission } from '../../../shared/missions.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import { useResource, useRouteIds } from '../../../lib/resource.ts';
import { Markdown } from '../../../components/forms/Markdown.tsx';
import { Failed } from '../../../components/states/Failed.tsx';
import { NotFound } from '../../../components/states/NotFound.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Section } from '../admin-kit.tsx';
import { entriesRule } from './SurveyAndMissionLists.tsx';
import { ActivityStatusBadge, Breadcrumbs, CompletionBar, CountsRow, Detail, FormVersionLink, Moment, ScreenHeader, ScreenSkeleton } from './kit.tsx';
import { ReviewWorkspace } from '../review/ReviewWorkspace.tsx';

/** The island of the mission page. */
export default function MissionScreen() {
  const ids = useRouteIds('/admin/projects/:projectId/missions/:missionId');
  const project = useResource<AdminProject>(ids ? `/api/admin/projects/${ids.projectId}` : null);
  const mission = useResource<AdminMission>(ids ? `/api/admin/missions/${ids.missionId}` : null);

  if (ids === undefined || (ids && (project.load.status === 'loading' || mission.load.status === 'loading')))
    return <ScreenSkeleton label="Loading the mission…" cards={[14, 10, 24]} />;
  const wrongProject = mission.load.status === 'ready' && ids !== null && mission.load.data.projectId !== ids.projectId;
  if (ids === null || project.load.status === 'missing' || mission.load.status === 'missing' || wrongProject) {
    return (
      <NotFound
        title="No such mission"
        href={ids && project.load.status === 'ready' ? `/admin/projects/${ids.projectId}#missions` : '/admin#projects'}
        linkLabel={ids && project.load.status === 'ready' ? 'The project’s missions' : 'All projects'}
      >
        This mission does not exist in this project. It may have been mistyped in the address.
      </NotFound>
    );
  }
  if (project.load.status === 'error') return <Failed title="The project could not be loaded" message={project.load.message} onRetry={project.reload} />;
  if (mission.load.status === 'error') return <Failed title="The mission could not be loaded" message={mission.load.message} onRetry={mission.reload} />;
  if (project.load.status !== 'ready' || mission.load.status !== 'ready') return null;
  return <Mission project={project.load.data} mission={mission.load.data} />;
}

function Mission({ project, mission }: { project: AdminProject; mission: AdminMission }) {
  const projectHref = `/admin/projects/${project.id}`;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs items={[{ label: 'Dashboard', href: '/admin' }, { label: project.name, href: projectHref }, { label: mission.title }]} />
        <ScreenHeader
          title={mission.title}
          badges={<ActivityStatusBadge status={mission.status} />}
          actions={
            <a href={`${projectHref}/missions/${mission.id}/edit`} className={buttonVariants({ variant: 'outline' })}>
              Edit mission
            </a>
          }
        />
      </div>

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
