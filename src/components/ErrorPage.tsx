import { useSyncExternalStore } from 'react';
import { Button } from './ui/button.tsx';

export interface ErrorPageProps {
  statusCode: number;
  /** Defaults to "Page Not Found" for 404, "Internal Server Error" otherwise. */
  statusMessage?: string;
  description?: string;
  /**
   * The path the visitor asked for, shown on the not-found variant. Leave it out to read it from
   * the address bar in the browser (the static 404 page is served for every unknown URL).
   */
  path?: string;
}

const noSubscription = (): (() => void) => () => {};
const getLocationPath = (): string => location.pathname;
const getServerPath = (): null => null;

/**
 * The error page (SPEC.md §2): a not-found variant for status 404 and a generic variant for any
 * other status. Usable as an Astro island (`client:load`) or inside another React screen.
 */
export default function ErrorPage({ statusCode, statusMessage, description, path }: ErrorPageProps) {
  const notFound = statusCode === 404;
  const message = statusMessage ?? (notFound ? 'Page Not Found' : 'Internal Server Error');
  const text =
    description ??
    (notFound
      ? 'There is no page at this address. It may have moved, or the link may be mistyped.'
      : 'Something went wrong on our side. Please try again in a moment.');
  const locationPath = useSyncExternalStore(noSubscription, getLocationPath, getServerPath);
  const shownPath = path ?? locationPath;

  return (
    <section className="mx-auto flex max-w-xl flex-col items-start gap-4 py-6 sm:py-12" aria-labelledby="error-title">
      <p className="font-mono text-sm font-semibold tracking-wider text-primary">Error {statusCode}</p>
      <h1 id="error-title" className="text-3xl font-semibold tracking-tight sm:text-4xl">
        {message}
      </h1>
      <p className="text-muted-foreground">{text}</p>
      {notFound && shownPath !== null && (
        <p className="max-w-full text-sm">
          <span className="text-muted-foreground">Requested path: </span>
          <code className="wrap-anywhere rounded bg-muted px-1.5 py-0.5 font-mono text-foreground">{shownPath}</code>
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-3">
        <Button asChild>
          <a href="/">Go to the home page</a>
        </Button>
        {!notFound && (
          <Button variant="outline" onClick={() => location.reload()}>
            Try again
          </Button>
        )}
      </div>
    </section>
  );
}
