/**
 * What both Markdown renderers share (the plain-text one in Markdown.tsx and the full one,
 * markdown-full.tsx, loaded on demand): the props, the styles, and the only links and images
 * Markdown may show (see Markdown.tsx).
 */
import type { ReactNode } from 'react';
import { m } from '../../shared/i18n.ts';

/** The URLs a link may have: absolute http(s) and mailto. */
export function safeHref(value: string | null | undefined): string | null {
  if (!value) return null;
  const trimmed = value.trim();
  // Control characters and whitespace inside a scheme are how `java\tscript:` slips through.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point of this check
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) return null;
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : null;
}

export function SafeLink({ href, children, title }: { href?: string | null; children?: ReactNode; title?: string }) {
  const url = safeHref(href);
  if (!url) return <span>{children}</span>;
  return (
    <a href={url} title={title} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="sr-only"> {m.participant_form_opens_new_tab()}</span>
    </a>
  );
}

/** A photo uploaded to Fieldwork (its display size or thumbnail); nothing else is ever loaded. */
const UPLOADED_PHOTO = /^\/api\/media\/[A-Za-z0-9_-]{16,64}(\/thumbnail)?$/;

export function uploadedPhotoSrc(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return UPLOADED_PHOTO.test(trimmed) ? trimmed : null;
}

export function SafeImage({ src, alt, title }: { src?: string; alt?: string; title?: string }) {
  const url = uploadedPhotoSrc(src);
  if (!url) return alt ? <span>{alt}</span> : null;
  return (
    <img
      src={url}
      alt={alt ?? ''}
      title={title}
      loading="lazy"
      decoding="async"
      className="my-2 h-auto max-h-[32rem] max-w-full rounded-md border border-border"
    />
  );
}

/** Block-level markdown styled without a typography plugin (paragraphs, lists, links, code). */
// A plain string (no conflicting utilities to merge): see `controlLook` in ui/input.tsx.
export const markdownClasses = [
  'text-sm leading-6 break-words [&>*+*]:mt-3',
  '[&_ul]:list-disc [&_ol]:list-decimal [&_ul]:ps-5 [&_ol]:ps-5 [&_li]:my-1',
  '[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a:hover]:no-underline',
  '[&_strong]:font-semibold [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:py-0.5 [&_code]:text-[0.9em]',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-muted [&_pre]:p-3 [&_blockquote]:border-s-4 [&_blockquote]:border-border [&_blockquote]:ps-3',
  '[&_table]:w-full [&_th]:border [&_td]:border [&_th]:px-2 [&_td]:px-2 [&_th]:text-start',
].join(' ');

export interface MarkdownProps {
  /** The Markdown source. */
  children: string;
  className?: string;
  id?: string;
  /**
   * The HTML level `#` headings become (`##` one deeper, …, h6 at most). Without it headings
   * are bold paragraphs, which suits short texts such as a question's description.
   */
  headingLevel?: number;
  /** Render as phrasing content (a <span>), e.g. inside a <label>: paragraphs become blocks of spans. */
  inline?: boolean;
}
