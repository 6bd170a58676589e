/**
 * The shapes of the files the build writes into dist/ (builds/integration.ts writes them), read by
 * the Node server (src/server/static.ts) and by the browser's build watcher.
 */
import type { Language } from './languages.ts';
import type { Access, ParamKind } from './routes.ts';

/** dist/builds/latest.json (no-cache): the id of the newest build. */
export interface LatestBuild {
  id: string;
  timestamp: number;
}

/** A route rule: where a path redirects (absolute external URLs are followed with a full page load). */
export interface RouteRule {
  redirect?: { to: string; statusCode: 301 | 302 | 307 | 308 };
}

/** dist/builds/meta/{id}.json (immutable): route rules and the pages that have a payload. */
export interface BuildMeta {
  id: string;
  timestamp: number;
  matcher: {
    /** Rules for exact paths. */
    static: Record<string, RouteRule>;
    /** Rules for path prefixes (`/old/**` is stored as `/old`). */
    wildcard: Record<string, RouteRule>;
    dynamic: Record<string, RouteRule>;
  };
  /** Paths whose `_payload.json` sits beside their HTML. */
  prerendered: string[];
}

/** dist/<page>/_payload.json: data rendered into the page at build time. */
export interface PagePayload {
  data: { pattern: string; title: string; access: Access };
  prerenderedAt: number;
}

export interface RouteTableEntry {
  /** The pattern with its language's prefix (`/de/surveys/:id`; English: none). */
  pattern: string;
  /** Absent: the source language. */
  language?: Language;
  /** The prerendered HTML answering this pattern, relative to dist/. */
  file: string;
  access: Access;
  params: Record<string, ParamKind>;
}

/** dist/_routes.json: what the Node server needs to answer page requests. */
export interface RouteTable {
  buildId: string;
  routes: RouteTableEntry[];
  /** The not-found page, relative to dist/ (the source language's). */
  notFound: string;
  /** Each language's not-found page (issue 31); absent or missing one: `notFound`. */
  notFoundByLanguage?: Partial<Record<Language, string>>;
  /** Hashes ('sha256-…') of every inline script in the pages, for the CSP. */
  scriptHashes: string[];
}
