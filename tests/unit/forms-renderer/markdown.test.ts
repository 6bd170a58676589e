// @vitest-environment happy-dom
import './setup.ts';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { isPlainText, Markdown } from '../../../src/components/forms/Markdown.tsx';
import { safeHref } from '../../../src/components/forms/markdown-safe.tsx';

/** Renders Markdown; a text with Markdown in it is awaited until the parser (loaded on demand) has rendered it. */
async function renderMarkdown(source: string, props: { headingLevel?: number; inline?: boolean } = {}): Promise<HTMLElement> {
  const { container } = render(createElement(Markdown, { ...props, children: source }));
  if (!isPlainText(source)) await waitFor(() => expect(container.querySelector('[data-markdown="parsed"]')).not.toBeNull());
  return container;
}

describe('Markdown of form authors', () => {
  it('renders emphasis, lists and safe links; links open in a new tab', async () => {
    const container = await renderMarkdown('Hello **you**\n\n- one\n- two\n\n[Our site](https://example.org/a) and [mail us](mailto:team@example.org)');
    expect(screen.getByText('you').tagName).toBe('STRONG');
    expect(container.querySelectorAll('li')).toHaveLength(2);
    const link = screen.getByRole('link', { name: 'Our site (opens in a new tab)' });
    expect([link.getAttribute('href'), link.getAttribute('target'), link.getAttribute('rel')]).toEqual([
      'https://example.org/a',
      '_blank',
      'noopener noreferrer',
    ]);
    expect(screen.getByRole('link', { name: /mail us/ }).getAttribute('href')).toBe('mailto:team@example.org');
  });

  it('never renders raw HTML, and shows unsafe or relative links and images as text', async () => {
    const container = await renderMarkdown(
      '<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[click](javascript:alert(3)) [here](/admin) [data](data:text/html,hi)\n\n![a cat](https://example.org/cat.png)',
    );
    expect(container.querySelector('script, img, iframe, [onerror]')).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('click');
    expect(container.textContent).toContain('a cat');
  });

  it('shows photos uploaded to Fieldwork, and only those, as images', async () => {
    const container = await renderMarkdown(
      '![The shelf](/api/media/AbCdEfGhIjKlMnOpQrStUv)\n\n![thumb](/api/media/AbCdEfGhIjKlMnOpQrStUv/thumbnail)\n\n![elsewhere](/api/media/x/../../admin)\n\n![remote](https://example.org/api/media/AbCdEfGhIjKlMnOpQrStUv)',
    );
    const images = [...container.querySelectorAll('img')];
    expect(images.map((img) => [img.getAttribute('src'), img.getAttribute('alt')])).toEqual([
      ['/api/media/AbCdEfGhIjKlMnOpQrStUv', 'The shelf'],
      ['/api/media/AbCdEfGhIjKlMnOpQrStUv/thumbnail', 'thumb'],
    ]);
    expect(container.textContent).toContain('elsewhere');
    expect(container.textContent).toContain('remote');
  });

  it('renders plain texts itself and leaves Markdown to the parser', async () => {
    const cases: [string, boolean][] = [
      ['How often do you snack?', true],
      ['Pick one.\n\nThen tell us why, in a few words.', true],
      ['What’s your 2nd choice? (optional) It costs 3-4 euros.', true],
      ['It is *great*', false],
      ['see https://example.org', false],
      ['- one\n- two', false],
      ['1. first', false],
      ['Use [a link](https://example.org)', false],
      ['A <b>bold</b> move', false],
      ['Tom &amp; Jerry', false],
      ['Title\n===', false],
      ['write to team@example.org', false],
      ['    code', false],
    ];
    for (const [text, plain] of cases) expect([text, isPlainText(text)]).toEqual([text, plain]);
    const container = await renderMarkdown('First paragraph\nstill first.\n\nSecond one.');
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['First paragraph\nstill first.', 'Second one.']);
  });

  it('turns headings into bold paragraphs, or into headings from a given level', async () => {
    await renderMarkdown('# Big\n\ntext');
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByText('Big').tagName).toBe('P');
    await renderMarkdown('# Part\n\n## Detail', { headingLevel: 3 });
    expect(screen.getByRole('heading', { level: 3, name: 'Part' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 4, name: 'Detail' })).toBeTruthy();
  });

  it('renders phrasing content only when inline (inside a label)', async () => {
    const container = await renderMarkdown('First\n\nSecond', { inline: true });
    expect(container.querySelector('p, div')).toBeNull();
    expect(container.textContent).toBe('FirstSecond');
  });

  it('accepts only absolute http(s) and mailto links', async () => {
    expect(safeHref('https://example.org')).toBe('https://example.org');
    expect(safeHref(' HTTP://example.org ')).toBe('HTTP://example.org');
    expect(safeHref('mailto:a@example.org')).toBe('mailto:a@example.org');
    for (const bad of [
      'javascript:alert(1)',
      'java\tscript:alert(1)',
      'https://ex\u0000ample.org',
      '/relative',
      '#top',
      '//example.org',
      'data:text/html,x',
      '',
      null,
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
  });
});
