/**
 * The public pages' long text (src/content, Markdown) in a page's language: English is
 * `src/content/{name}.md`, every other language `src/content/{language}/{name}.md`, the same
 * sections under the same headings (tests/unit/i18n/public-pages.test.ts holds them to it).
 *
 *   const { Content, frontmatter } = publicPageMarkdown('terms', splitLanguage(Astro.url.pathname).language);
 *
 * Read at build time only (the pages are prerendered); nothing of it reaches the browser.
 */
import type { MarkdownInstance } from 'astro';
import { SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';

export const PUBLIC_PAGES = ['terms', 'privacy', 'contact', 'data-deletion'] as const;
export type PublicPageName = (typeof PUBLIC_PAGES)[number];

// YAML reads `updated: 2026-11-22` as a Date.
type PublicPageMarkdown = MarkdownInstance<{ title?: string; updated?: string | Date }>;

const FILES = import.meta.glob<PublicPageMarkdown>(['../../content/*.md', '../../content/*/*.md'], { eager: true });

/** A public page's Markdown in a language (its `Content` to render and its frontmatter). */
export function publicPageMarkdown(name: PublicPageName, language: Language): PublicPageMarkdown {
  const file = language === SOURCE_LANGUAGE ? `../../content/${name}.md` : `../../content/${language}/${name}.md`;
  const page = FILES[file];
  if (!page) throw new Error(`No ${language} text for the ${name} page: ${file.slice('../../'.length)} is missing`);
  return page;
}
