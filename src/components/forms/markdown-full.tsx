/**
 * The full Markdown renderer (markdown-to-jsx), loaded only when a text has Markdown in it: see
 * Markdown.tsx, which renders plain texts itself.
 */
import { createElement, Fragment, useMemo, type ComponentProps } from 'react';
import { compiler, type MarkdownToJSX } from 'markdown-to-jsx';
import { cn } from '../../lib/utils.ts';
import { markdownClasses, SafeImage, SafeLink, type MarkdownProps } from './markdown-safe.tsx';

type HeadingTag = 'h2' | 'h3' | 'h4' | 'h5' | 'h6';

function headingOverride(level: number | undefined, depth: number) {
  if (level === undefined) {
    return (props: ComponentProps<'p'>) => <p {...props} className="font-semibold" />;
  }
  const tag = `h${Math.min(6, Math.max(2, level + depth - 1))}` as HeadingTag;
  return (props: ComponentProps<'h2'>) => createElement(tag, { ...props, className: 'text-base font-semibold' });
}

/** A block paragraph as phrasing content, for Markdown shown inside a <label>. */
function InlineParagraph(props: ComponentProps<'span'>) {
  return <span {...props} className="block [&+&]:mt-2" />;
}

/** Renders author-written Markdown safely (no raw HTML, safe links only). */
export default function MarkdownFull({ children, className, id, headingLevel, inline = false }: MarkdownProps) {
  const content = useMemo(() => {
    const overrides: MarkdownToJSX.Overrides = {
      a: SafeLink,
      img: SafeImage,
      h1: headingOverride(headingLevel, 1),
      h2: headingOverride(headingLevel, 2),
      h3: headingOverride(headingLevel, 3),
      h4: headingOverride(headingLevel, 4),
      h5: headingOverride(headingLevel, 5),
      h6: headingOverride(headingLevel, 6),
    };
    if (inline) overrides.p = InlineParagraph;
    return compiler(children, {
      disableParsingRawHTML: true,
      forceBlock: !inline,
      forceWrapper: false,
      wrapper: Fragment,
      overrides,
    });
  }, [children, headingLevel, inline]);
  if (inline) {
    return (
      <span
        id={id}
        dir="auto"
        data-markdown="parsed"
        className={cn('[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4', className)}
      >
        {content}
      </span>
    );
  }
  return (
    <div id={id} dir="auto" data-markdown="parsed" className={cn(markdownClasses, className)}>
      {content}
    </div>
  );
}
