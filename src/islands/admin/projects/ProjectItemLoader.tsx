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

export interface ProjectItemLoaderProps<T extends { projectId: number }> {
  /** The page's route; its `projectId` names the project, `itemParam` (when given) the item. */
  pattern: RoutePattern;
  itemParam: 'surveyId' | 'missionId' | null;
  /** The item's API path from its id. */
  itemPath: (id: number) => string;
  subject: 'survey' | 'mission';
  skeleton: { label: string; cards: number[] };
  /** What "No such …" says: the item's page points back to the project's list, an editor to all projects. */
  notFound: 'item-page' | 'editor';
  children: (project: AdminProject, item: T | null) => ReactNode;
}

export function ProjectItemLoader<T extends { projectId: number }>({
  pattern,
  itemParam,
  itemPath,
  subject,
  skeleton,
  notFound,
  children,
}: ProjectItemLoaderProps<T>) {
  const ids = useRouteIds(pattern);
  const itemId = ids && itemParam ? ids[itemParam] : undefined;
  const project = useResource<AdminProject>(ids ? `/api/admin/projects/${ids.projectId}` : null);
  const item = useResource<T>(itemId !== undefined ? itemPath(itemId) : null);
  const wantsItem = itemParam !== null;

  if (ids === undefined || (ids && (project.load.status === 'loading' || (wantsItem && item.load.status === 'loading')))) {
    return <ScreenSkeleton label={skeleton.label} cards={skeleton.cards} />;
  }
  const wrongProject = item.load.status === 'ready' && ids !== null && item.load.data.projectId !== ids.projectId;
  if (ids === null || project.load.status === 'missing' || item.load.status === 'missing' || wrongProject) {
    if (notFound === 'editor') {
      return (
        <NotFound
          title={!wantsItem || project.load.status === 'missing' ? 'No such project' : `No such ${subject}`}
          href="/admin#projects"
          linkLabel="All projects"
        >
          It does not exist. It may have been mistyped in the address.
        </NotFound>
      );
    }
    const projectReady = ids !== null && project.load.status === 'ready';
    return (
      <NotFound
        title={`No such ${subject}`}
        href={projectReady ? `/admin/projects/${ids.projectId}#${subject}s` : '/admin#projects'}
        linkLabel={projectReady ? `The project’s ${subject}s` : 'All projects'}
      >
        This {subject} does not exist in this project. It may have been mistyped in the address.
      </NotFound>
    );
  }
  if (project.load.status === 'error') return <Failed title="The project could not be loaded" message={project.load.message} onRetry={project.reload} />;
  if (item.load.status === 'error') return <Failed title={`The ${subject} could not be loaded`} message={item.load.message} onRetry={item.reload} />;
  if (project.load.status !== 'ready' || (wantsItem && item.load.status !== 'ready')) return null;
  return <>{children(project.load.data, item.load.status === 'ready' ? item.load.data : null)}</>;
}
