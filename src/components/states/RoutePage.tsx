/**
 * A page about one thing named in its address (`/surveys/{id}`): the id read from the address, the
 * thing loaded, and the states around it — its skeleton while it loads, the site's not-found page
 * for a malformed id or a 404, a failure with "Try again" under the page's heading — then the page.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { RoutePattern } from '../../shared/routes.ts';
import { useResource, useRouteIds, type Resource } from '../../lib/resource.ts';
import { m } from '../../shared/i18n.ts';
import { Failed } from './Failed.tsx';

/** The not-found page: loaded when an address names nothing (rare), not with every page of one thing. */
const NotFound = lazy(() => import('./NotFound.tsx'));

export interface RoutePageProps<T> {
  pattern: RoutePattern;
  /** The API path from the address's ids. */
  path: (ids: Record<string, number>) => string;
  /** The page's heading over a failure ("Survey"). */
  heading: string;
  skeleton: ReactNode;
  children: (data: T, resource: Resource<T>) => ReactNode;
}

export function RoutePage<T>({ pattern, path, heading, skeleton, children }: RoutePageProps<T>) {
  const ids = useRouteIds(pattern);
  const resource = useResource<T>(ids ? path(ids) : null);
  const { load, reload } = resource;
  if (ids === null || load.status === 'missing')
    return (
      <Suspense fallback={null}>
        <NotFound />
      </Suspense>
    );
  if (load.status === 'error') return <Failed heading={heading} title={m.shell_route_page_failed()} message={load.message} onRetry={reload} />;
  if (load.status === 'loading') return <>{skeleton}</>;
  return <>{children(load.data, resource)}</>;
}
