/**
 * /admin/projects/{projectId}: the project's heading and status, then its cards: details (edited
 * in place, status moves), members, announcements, surveys, missions and mission groups, with a
 * short "On this page" list to jump between them.
 */
import type { AdminProject } from '../../../shared/projects.ts';
import { useResource } from '../../../lib/resource.ts';
import { SurveysSection, MissionsSection } from './SurveyAndMissionLists.tsx';
import { Breadcrumbs, projectCrumbs, ProjectStatusBadge, RecordScreen, ScreenHeader } from './kit.tsx';
import { ExportAnswers } from './ExportAnswers.tsx';
import { AnnouncementsPanel } from './AnnouncementsPanel.tsx';
import { MembersPanel } from './MembersPanel.tsx';
import { MissionGroupsPanel } from './MissionGroupsPanel.tsx';
import { ProjectDetails } from './ProjectDetails.tsx';
import type { MissionGroupList, MissionList, SurveyList } from './types.ts';
import { formatCount, m } from '../../../shared/i18n.ts';

/** The island of /admin/projects/{projectId}. */
export default function ProjectScreen() {
  return (
    <RecordScreen<AdminProject>
      pattern="/admin/projects/:projectId"
      path={(ids) => `/api/admin/projects/${ids.projectId}`}
      loading={m.projects_project_loading()}
      cards={[14, 22, 12, 12]}
      missing={{
        title: m.projects_no_such_project(),
        href: '/admin/projects',
        linkLabel: m.projects_all_projects(),
        text: m.projects_project_missing_text(),
      }}
      failed={m.projects_project_failed()}
    >
      {(project, { reload, replace }) => <Project project={project} onSaved={replace} onCountsChanged={reload} />}
    </RecordScreen>
  );
}

function Project({ project, onSaved, onCountsChanged }: { project: AdminProject; onSaved: (project: AdminProject) => void; onCountsChanged: () => void }) {
  const base = `/api/admin/projects/${project.id}`;
  const surveys = useResource<SurveyList>(`${base}/surveys`);
  const missions = useResource<MissionList>(`${base}/missions`);
  const groups = useResource<MissionGroupList>(`${base}/mission-groups`);

  const count = (load: typeof surveys.load | typeof missions.load | typeof groups.load, fallback: number) =>
    load.status === 'ready' ? load.data.items.length : fallback;
  const jumps: [string, string, number][] = [
    ['details', m.projects_details_title(), -1],
    ['members', m.projects_counts_members(), project.counts.members],
    ['announcements', m.projects_announcements_title(), -1],
    ['surveys', m.projects_list_column_surveys(), count(surveys.load, project.counts.surveys)],
    ['missions', m.projects_list_column_missions(), count(missions.load, project.counts.missions)],
    ['mission-groups', m.projects_groups_title(), count(groups.load, project.counts.missionGroups)],
  ];

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs items={projectCrumbs(project)} />
        <ScreenHeader
          title={project.name}
          badges={<ProjectStatusBadge status={project.status} />}
          subtitle={project.client || undefined}
          actions={<ExportAnswers scope={{ kind: 'project', id: project.id }} />}
        />
        <nav aria-label={m.projects_project_on_this_page()} className="mt-3">
          <ul className="flex flex-wrap gap-2">
            {jumps.map(([id, label, value]) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="inline-flex h-9 items-center gap-1.5 rounded-full border border-border bg-card px-3 text-sm no-underline hover:bg-accent"
                >
                  {label}
                  {value >= 0 && <span className="text-muted-foreground tabular-nums">{formatCount(value)}</span>}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <ProjectDetails project={project} onSaved={onSaved} />
      <MembersPanel projectId={project.id} onChanged={onCountsChanged} />
      <AnnouncementsPanel project={project} />
      <SurveysSection projectId={project.id} projectStatus={project.status} load={surveys.load} reload={surveys.reload} />
      <MissionsSection projectId={project.id} projectStatus={project.status} load={missions.load} reload={missions.reload} />
      <MissionGroupsPanel
        projectId={project.id}
        load={groups.load}
        reload={groups.reload}
        missions={missions.load.status === 'ready' ? missions.load.data.items : null}
      />
    </div>
  );
}
