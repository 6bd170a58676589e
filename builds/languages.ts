import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { LANGUAGES, SOURCE_LANGUAGE } from '../src/shared/languages.ts';

const pagesDir = fileURLToPath(new URL('../src/pages/', import.meta.url));

/** Every page file under src/pages with the route Astro gives it (`surveys/[id].astro` → `/surveys/[id]`). */
export function pageFiles(dir = pagesDir): { file: string; route: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    if (!entry.name.endsWith('.astro')) return [];
    const relative = path
      .relative(pagesDir, full)
      .split(path.sep)
      .join('/')
      .replace(/\.astro$/, '');
    const route = `/${relative.replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/';
    return [{ file: full, route }];
  });
}

/**
 * Each page again under every other language's prefix (issue 31; src/shared/languages.ts): the
 * same page file, prerendered with that language (src/middleware.ts gives the render its
 * language from the path), so `/de/login` is German at first paint, before any script runs.
 * `npm run build` (scripts/build.ts) builds one language at a time (`FW_BUILD_LANGUAGE`): then
 * only that language's pages are added, and its scripts carry its messages alone.
 */
export default function languagePages(): AstroIntegration {
  const only = process.env.FW_BUILD_LANGUAGE;
  return {
    name: 'fieldwork-language-pages',
    hooks: {
      'astro:config:setup': ({ injectRoute }) => {
        for (const language of LANGUAGES) {
          if (language === SOURCE_LANGUAGE || (only && language !== only)) continue;
          for (const { file, route } of pageFiles()) {
            injectRoute({ pattern: route === '/' ? `/${language}` : `/${language}${route}`, entrypoint: file, prerender: true });
          }
        }
      },
    },
  };
}
