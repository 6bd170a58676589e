import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, SOURCE_LANGUAGE, localizedPath, type Language } from '../../../src/shared/languages.ts';

const CONTENT = path.resolve(import.meta.dirname, '../../../src/content');
// The names of src/islands/public/public-pages.ts (which is read through Vite's import.meta.glob).
const PAGES = ['terms', 'privacy', 'contact', 'data-deletion'] as const;

function read(name: string, language: Language): string {
  return fs.readFileSync(path.join(CONTENT, language === SOURCE_LANGUAGE ? `${name}.md` : `${language}/${name}.md`), 'utf8');
}

/** What every language's text must have as English has it: headings' levels, list items, links' targets, the date. */
function shape(markdown: string) {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, '');
  return {
    headings: body.match(/^#+ /gm) ?? [],
    bullets: (body.match(/^- /gm) ?? []).length,
    numbered: (body.match(/^\d+\. /gm) ?? []).length,
    links: [...body.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]),
    code: body.match(/`[^`]+`/g) ?? [],
    updated: /^updated: (.+)$/m.exec(markdown)?.[1] ?? null,
  };
}

describe('the public pages in every language (issue 31)', () => {
  for (const name of PAGES) {
    it(`${name}: the same sections, lists and links as the English, to the language's own pages`, () => {
      const english = shape(read(name, SOURCE_LANGUAGE));
      for (const language of LANGUAGES) {
        if (language === SOURCE_LANGUAGE) continue;
        const text = read(name, language);
        expect(text).not.toBe(read(name, SOURCE_LANGUAGE));
        expect(shape(text), `${language}/${name}.md`).toEqual({ ...english, links: english.links.map((link) => localizedPath(link as string, language)) });
      }
    });
  }
});
