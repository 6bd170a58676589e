import { useSyncExternalStore } from 'react';
import { matchRoute, type ParamKind } from '../../shared/routes.ts';
import { cn } from '../../lib/utils.ts';

interface Props {
  /** The route pattern of the page; parameters are shown only when the URL matches it. */
  pattern: string;
  kinds: Readonly<Record<string, ParamKind>>;
}

// The prerendered shell serves every URL of a dynamic route, so the values come from the
// address bar, not from the build. Client-side navigation remounts the island; page-load and
// popstate cover the rest.
function subscribe(onChange: () => void): () => void {
  document.addEventListener('astro:page-load', onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    document.removeEventListener('astro:page-load', onChange);
    window.removeEventListener('popstate', onChange);
  };
}

const getPathname = (): string => location.pathname;
const getServerPathname = (): null => null;

/** Link tokens are secrets: say that one arrived, never echo it onto the screen. */
function describe(kind: ParamKind | undefined, value: string): string {
  return kind === 'token' ? `received (${value.length} characters)` : value;
}

/** The parameters of the current URL, for screens that are not built yet. */
export default function RouteParams({ pattern, kinds }: Props) {
  const pathname = useSyncExternalStore(subscribe, getPathname, getServerPathname);
  if (pathname === null) return null;
  const match = matchRoute(pathname);
  if (!match || match.route.pattern !== pattern) return null;
  const entries = Object.entries(match.params);
  if (entries.length === 0) return null;

  return (
    <dl className="mb-4 flex flex-wrap gap-2 text-sm">
      {entries.map(([name, value]) => (
        <div key={name} className="inline-flex items-baseline gap-1.5 rounded-md border border-border bg-card px-2.5 py-1">
          <dt className="text-muted-foreground">{name}</dt>
          <dd className={cn('max-w-[60vw] truncate text-foreground', kinds[name] !== 'token' && 'font-mono')}>{describe(kinds[name], value)}</dd>
        </div>
      ))}
    </dl>
  );
}
