/**
 * Markdown written by form authors (descriptions, statements, consent texts, mission
 * instructions), rendered safely as React elements: raw HTML is never parsed (it shows as text),
 * nothing goes through innerHTML, links open in a new tab and only http(s) and mailto links are
 * kept (any other link shows as its text). Images show only when they are photos uploaded to
 * Fieldwork (`/api/media/{id}`, e.g. pictures in mission instructions); any other image shows as
 * its alt text, so Markdown never makes the browser fetch from elsewhere. Its direction is the
 * text's own (`dir="auto"`): an English instruction on an Arabic page reads left to right with its
 * full stop at its end, as an Arabic one on an English page reads right to left.
 *
 * Most texts are plain sentences: those are rendered here, and the Markdown parser
 * (markdown-to-jsx, about 7 KB gzip) loads only for a text that has Markdown in it
 * (`markdown-full.tsx`), keeping it off the survey screens that do not need it.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { markdownClasses, type MarkdownProps } from './markdown-safe.tsx';

/**
 * Whether a text has nothing Markdown would change: no emphasis, code, links, images, headings,
 * quotes, lists, rules, tables, escapes, entities or bare URLs and addresses (which Markdown
 * links). Such a text is only paragraphs.
 */
const MARKDOWN_SYNTAX = /[*_`#>[\]!~|\\<&]|:\/\/|@|^\s*(?:[-+]|\d{1,9}[.)])(?:\s|$)|^\s*(?:=+|-+)\s*$|^ {4}|\t/m;

export function isPlainText(text: string): boolean {
  return !MARKDOWN_SYNTAX.test(text);
}

/** A plain text as Markdown would render it: a paragraph per blank-line-separated block. */
function PlainText({ children, className, id, inline = false }: MarkdownProps): ReactNode {
  const paragraphs = children
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
  if (inline) {
    return (
      <span id={id} dir="auto" className={cn('[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4', className)}>
        {paragraphs.map((text, index) => (
          <span key={index} className="block [&+&]:mt-2">
            {text}
          </span>
        ))}
      </span>
    );
  }
  return (
    <div id={id} dir="auto" className={cn(markdownClasses, className)}>
      {paragraphs.map((text, index) => (
        <p key={index}>{text}</p>
      ))}
    </div>
  );
}

const MarkdownFull = lazy(() => import('./markdown-full.tsx'));

/** Renders author-written Markdown safely (no raw HTML, safe links only). */
export function Markdown(props: MarkdownProps) {
  if (isPlainText(props.children)) return <PlainText {...props} />;
  // While the parser loads, the text shows as it is (no jump when it arrives for most texts).
  return (
    <Suspense fallback={<PlainText {...props} />}>
      <MarkdownFull {...props} />
    </Suspense>
  );
}
