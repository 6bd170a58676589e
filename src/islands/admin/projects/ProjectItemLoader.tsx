/**
 * The loading states of a page about one survey or mission of a project — its detail page and its
 * editor (`new` has no item yet): the project and the item load side by side; a skeleton while
 * they do; "No such …" when either is missing, or the item belongs to another project than the
 * address says; a failure with "Try again"; then the page itself, given both.
 */
import type { ReactNode } from 'react';
import type { AdminProject } from '../../../shared/projects.ts';
import type { RoutePattern } from '../../../shared/routes.ts';
import { useResource, useRouteIds } from '../../../lib/resource.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { NotFound } from '../../../components/states/NotFound.tsx';
import { ScreenSkeleton } from './kit.tsx';
import { m } from '../../../shared/i18n.ts';

/** The routes of a survey's or mission's pages: its page, and its editor (new and edit). */
const ROUTES = {
  survey: {
    item: '/admin/projects/:projectId/surveys/:surveyId',
    new: '/admin/projects/:projectId/surveys/new',
    edit: '/admin/projects/:projectId/surveys/:surveyId/edit',
  },
  mission: {
    item: '/admin/projects/:projectId/missions/:missionId',
    new: '/admin/projects/:projectId/missions/new',
    edit: '/admin/projects/:projectId/missions/:missionId/edit',
  },
} as const satisfies Record<'survey' | 'mission', Record<'item' | 'new' | 'edit', RoutePattern>>;

export interface ProjectItemLoaderProps<T extends { projectId: number }> {
  subject: 'survey' | 'mission';
  /** Which page: the item's own, or its editor (`new` has no item yet). */
  page: 'item' | 'new' | 'edit';
  /** The heights of the skeleton's cards. */
  cards: number[];
  /** `reloadProject`: reads the project again (e.g. after it was put live from the item's page). */
  children: (project: AdminProject, item: T | null, reloadProject: () => void) => ReactNode;
}

export function ProjectItemLoader<T extends { projectId: number }>({ subject, page, cards, children }: ProjectItemLoaderProps<T>) {
  const pattern = ROUTES[subject][page];
  const itemParam = page === 'new' ? null : subject === 'survey' ? 'surveyId' : 'missionId';
  // On the item's own page "No such …" points back to the project's list; in an editor to all projects.
  const notFound = page === 'item' ? 'item-page' : 'editor';
  const ids = useRouteIds(pattern);
  const itemId = ids && itemParam ? ids[itemParam] : undefined;
  const project = useResource<AdminProject>(ids ? `/api/admin/projects/${ids.projectId}` : null);
  const item = useResource<T>(itemId !== undefined ? `/api/admin/${subject}s/${itemId}` : null);
  const wantsItem = itemParam !== null;

  if (ids === undefined || (ids && (project.load.status === 'loading' || (wantsItem && item.load.status === 'loading')))) {
    const label = page === 'new' ? m.projects_loading() : subject === 'survey' ? m.projects_survey_loading() : m.projects_mission_loading();
    return <ScreenSkeleton label={label} cards={cards} />;
  }
  const wrongProject = item.load.status === 'ready' && ids !== null && item.load.data.projectId !== ids.projectId;
  const noSuchItem = subject === 'survey' ? m.projects_no_such_survey() : m.projects_no_such_mission();
  if (ids === null || project.load.status === 'missing' || item.load.status === 'missing' || wrongProject) {
    if (notFound === 'editor') {
      return (
        <NotFound
          title={!wantsItem || project.load.status === 'missing' ? m.projects_no_such_project() : noSuchItem}
          href="/admin/projects"
          linkLabel={m.projects_all_projects()}
        >
          {m.projects_item_missing_text()}
        </NotFound>
      );
    }
    const projectReady = ids !== null && project.load.status === 'ready';
    return (
      <NotFound
        title={noSuchItem}
        href={projectReady ? `/admin/projects/${ids.projectId}#${subject}s` : '/admin/projects'}
        linkLabel={projectReady ? (subject === 'survey' ? m.projects_project_surveys_link() : m.projects_project_missions_link()) : m.projects_all_projects()}
      >
        {subject === 'survey' ? m.projects_survey_missing_text() : m.projects_mission_missing_text()}
      </NotFound>
    );
  }
  if (project.load.status === 'error') return <Failed title={m.projects_project_failed()} message={project.load.message} onRetry={project.reload} />;
  if (item.load.status === 'error')
    return <Failed title={subject === 'survey' ? m.projects_survey_failed() : m.projects_mission_failed()} message={item.load.message} onRetry={item.reload} />;
  if (project.load.status !== 'ready' || (wantsItem && item.load.status !== 'ready')) return null;
  return <>{children(project.load.data, item.load.status === 'ready' ? item.load.data : null, project.reload)}</>;
}
