/**
 * An address that leads to nothing: an id that does not exist, or the API's 404 (unknown, not a
 * member, not visible). With a `title`: the screen's own words (its <h1>), a line, and the way
 * back to its list. Without: the site's not-found page ("Page Not Found", the path, the way home),
 * named so in the tab; its code is loaded when needed.
 */
import { lazy, useEffect, type ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import { Later } from './Later.tsx';

const ErrorPage = lazy(() => import('../ErrorPage.tsx'));

type Props = { title: string; children: ReactNode; href: string; linkLabel: string; className?: string } | { title?: undefined };

export function NotFound(props: Props) {
  if (props.title === undefined) return <SiteNotFound />;
  const { title, children, href, linkLabel, className } = props;
  return (
    <div className={cn('flex max-w-xl flex-col items-start gap-3', className)}>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
      <a href={href} className="text-primary underline underline-offset-4">
        {linkLabel}
      </a>
    </div>
  );
}

function SiteNotFound() {
  useEffect(() => {
    document.title = `${m.shell_error_page_not_found()} · Fieldwork`;
  }, []);
  return (
    <Later fallback={null}>
      <ErrorPage statusCode={404} />
    </Later>
  );
}

/** For `lazy()` (components/states/RoutePage.tsx). */
export default NotFound;
