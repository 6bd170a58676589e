import { useSyncExternalStore } from 'react';
import { splitLanguage } from '../shared/languages.ts';
import { matchRoute } from '../shared/routes.ts';
import { m } from '../shared/i18n.ts';
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
  /**
   * The static 404 page: tell an unmatched route (docs/product.md §2: "Page not found" followed by the
   * path) from a page whose parameters failed their check ("Page Not Found" and the path).
   */
  detectRoute?: boolean;
}

const noSubscription = (): (() => void) => () => {};
const getLocationPath = (): string => location.pathname;
const getServerPath = (): null => null;

/**
 * The error page (docs/product.md §2): a not-found variant for status 404 and a generic variant for any
 * other status. Usable as an Astro island (`client:load`), inside another React screen, or from
 * scripts through src/app/error-view.tsx.
 */
export default function ErrorPage({ statusCode, statusMessage, description, path, detectRoute = false }: ErrorPageProps) {
  const notFound = statusCode === 404;
  const locationPath = useSyncExternalStore(noSubscription, getLocationPath, getServerPath);
  const shownPath = path ?? locationPath;
  // An unmatched route names its path in the message itself.
  const unmatched = notFound && detectRoute && shownPath !== null && matchRoute(splitLanguage(shownPath).path) === null;
  const message = statusMessage ?? (unmatched ? m.shell_error_page_unmatched() : notFound ? m.shell_error_page_not_found() : m.shell_error_page_server_error());
  const text = description ?? (notFound ? m.shell_error_page_not_found_text() : m.shell_error_page_server_error_text());

  return (
    <section className="mx-auto flex max-w-xl flex-col items-start gap-4 py-6 sm:py-12" aria-labelledby="error-title" data-error-page={statusCode}>
      <p className="font-mono text-sm font-semibold tracking-wider text-primary">{m.shell_error_page_status({ status: String(statusCode) })}</p>
      <h1 id="error-title" className="wrap-anywhere text-3xl font-semibold tracking-tight sm:text-4xl">
        {message}
        {unmatched && (
          <>
            {': '}
            <code className="font-mono text-[0.8em] font-medium">{shownPath}</code>
          </>
        )}
      </h1>
      <p className="text-muted-foreground">{text}</p>
      {notFound && !unmatched && shownPath !== null && (
        <p className="max-w-full text-sm">
          <span className="text-muted-foreground">{m.shell_error_page_requested_path()} </span>
          <code className="wrap-anywhere rounded bg-muted px-1.5 py-0.5 font-mono text-foreground">{shownPath}</code>
        </p>
      )}
      <div className="mt-2 flex flex-wrap gap-3">
        <Button asChild>
          <a href="/">{m.shell_error_page_home()}</a>
        </Button>
        {!notFound && (
          <Button variant="outline" onClick={() => location.reload()}>
            {m.shell_common_try_again()}
          </Button>
        )}
      </div>
    </section>
  );
}
