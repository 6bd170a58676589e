/**
 * Puts the error page in place of the page's content from plain scripts (the route guard for a
 * failed parameter check, the shell for startup errors). Loaded on demand: React is only pulled
 * in when an error page is needed.
 */
import { createRoot, type Root } from 'react-dom/client';
import ErrorPage, { type ErrorPageProps } from '../components/ErrorPage.tsx';
import { m } from '../shared/i18n.ts';

let root: Root | null = null;
let host: Element | null = null;

export function renderErrorView(props: ErrorPageProps): void {
  const main = document.getElementById('main') ?? document.body;
  if (host !== main || !root) {
    root?.unmount();
    main.replaceChildren();
    root = createRoot(main);
    host = main;
  }
  const notFound = props.statusCode === 404;
  document.title = `${props.statusMessage ?? (notFound ? m.shell_error_page_not_found() : m.shell_error_page_server_error())} · Fieldwork`;
  root.render(<ErrorPage {...props} />);
  delete document.documentElement.dataset.guard;
}
