/**
 * Google Analytics 4, gated by statistics consent (docs/product.md §4). The measurement id comes from
 * PUBLIC_GA_ID at build time, written into each page as <meta name="fieldwork-ga-id"> (BaseLayout).
 * Without an id nothing is loaded or sent, and without statistics consent the `_ga` / `_ga_*`
 * cookies are still deleted (one may be left by an earlier deployment or a parent-domain site).
 * With an id:
 * - statistics consent true → gtag.js is loaded (once), consent granted, the id configured and a
 *   page_view sent for each page (full loads and client-side navigations);
 * - false → GA is disabled (`window['ga-disable-<id>']`), consent denied and the `_ga` / `_ga_*`
 *   cookies deleted. Without consent the browser sends not one request to the analytics host.
 * Google never gets a live link token: the page's location, path and referrer are sent through
 * src/shared/redact.ts (`/reset-password/[token]`; docs/permissions.md, "Secrets").
 */
import { redactSecrets, reportPagePath } from '../shared/redact.ts';

export const GA_SCRIPT_ORIGIN = 'https://www.googletagmanager.com';
export const GA_COOKIE = '_ga';

type Gtag = (...args: unknown[]) => void;

interface AnalyticsWindow {
  dataLayer?: unknown[];
  gtag?: Gtag;
  [key: `ga-disable-${string}`]: boolean | undefined;
}

/** The id configured for this page, or null. */
export function readAnalyticsId(doc: Pick<Document, 'querySelector'> = document): string | null {
  const value = doc.querySelector<HTMLMetaElement>('meta[name="fieldwork-ga-id"]')?.content.trim() ?? '';
  return /^G-[A-Z0-9]{4,20}$/i.test(value) ? value : null;
}

/** `_ga` and every `_ga_*` cookie name in a cookie string. */
export function analyticsCookieNames(cookieString: string): string[] {
  return cookieString
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter((name) => name === GA_COOKIE || name.startsWith(`${GA_COOKIE}_`));
}

/** The host and each parent domain GA may have set its cookies on (no domain for IP addresses). */
export function cookieDomains(hostname: string): string[] {
  if (hostname === '' || /^[\d.]+$/.test(hostname) || hostname.includes(':')) return [];
  const labels = hostname.split('.');
  const domains: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) domains.push(`.${labels.slice(i).join('.')}`);
  return domains;
}

/** Deletes the analytics cookies on the current host and its parent domains (path /). */
export function deleteAnalyticsCookies(doc: Pick<Document, 'cookie'> = document, hostname: string = location.hostname): string[] {
  const names = analyticsCookieNames(doc.cookie);
  const expired = 'expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=/';
  for (const name of names) {
    doc.cookie = `${name}=; ${expired}`;
    for (const domain of cookieDomains(hostname)) doc.cookie = `${name}=; ${expired}; domain=${domain}`;
  }
  return names;
}

export interface Analytics {
  /** Applies the current statistics consent. */
  setEnabled(enabled: boolean): void;
  /** Sends a page_view for the page now shown (only while enabled). */
  pageView(): void;
  readonly enabled: boolean;
}

export interface AnalyticsDeps {
  id: string | null;
  win?: AnalyticsWindow;
  doc?: Pick<Document, 'cookie' | 'title' | 'createElement' | 'head'> & Partial<Pick<Document, 'referrer'>>;
  loc?: Pick<Location, 'href' | 'pathname' | 'hostname'>;
}

export function createAnalytics({ id, win = window as unknown as AnalyticsWindow, doc = document, loc = location }: AnalyticsDeps): Analytics {
  let enabled = false;
  let loaded = false;

  function gtag(...args: unknown[]): void {
    win.gtag?.(...args);
  }

  function install(): void {
    if (!id || loaded) return;
    loaded = true;
    win.dataLayer = win.dataLayer ?? [];
    const dataLayer = win.dataLayer;
    // gtag.js reads Arguments objects from the data layer, as Google's snippet pushes them.
    win.gtag = function gtagShim() {
      // eslint-disable-next-line prefer-rest-params
      dataLayer.push(arguments);
    };
    gtag('consent', 'default', { analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied' });
    gtag('js', new Date());
    const script = doc.createElement('script');
    script.async = true;
    script.src = `${GA_SCRIPT_ORIGIN}/gtag/js?id=${encodeURIComponent(id)}`;
    doc.head.appendChild(script);
  }

  /** Where the visitor is, without secrets: set for every later event (gtag would read location itself). */
  function setPage(): { page_location: string; page_path: string; page_referrer: string } {
    const page = { page_location: redactSecrets(loc.href), page_path: reportPagePath(loc.pathname), page_referrer: redactSecrets(doc.referrer ?? '') };
    gtag('set', page);
    return page;
  }

  function pageView(): void {
    if (!id || !enabled) return;
    const { page_location, page_path } = setPage();
    gtag('event', 'page_view', { page_location, page_path, page_title: doc.title, send_to: id });
  }

  return {
    get enabled() {
      return enabled;
    },
    setEnabled(next: boolean) {
      if (!id) {
        // No GA here, but a `_ga` cookie may be left by an earlier deployment or a parent-domain
        // site: without statistics consent it goes, whatever the configuration.
        if (!next) deleteAnalyticsCookies(doc, loc.hostname);
        return;
      }
      if (next) {
        if (enabled) return;
        win[`ga-disable-${id}`] = false;
        install();
        gtag('consent', 'update', { analytics_storage: 'granted' });
        setPage();
        gtag('config', id, { send_page_view: false, anonymize_ip: true });
        enabled = true;
        pageView();
      } else {
        enabled = false;
        win[`ga-disable-${id}`] = true;
        if (loaded) gtag('consent', 'update', { analytics_storage: 'denied' });
        deleteAnalyticsCookies(doc, loc.hostname);
      }
    },
    pageView,
  };
}
