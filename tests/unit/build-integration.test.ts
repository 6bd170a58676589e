import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, markCompileHints, withCompileHint } from '../../builds/compile-hints.ts';
import { inlineScriptHashes, routeFile } from '../../builds/integration.ts';
import { cacheControlFor } from '../../src/shared/static-headers.ts';
import { ROUTES } from '../../src/shared/routes.ts';

const sha256 = (content: string): string => `sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}`;

describe('inlineScriptHashes', () => {
  it('hashes the exact content of an inline script', () => {
    const code = '\n  window.__fw = { build: "abc" };\n  console.log("ünïcødé");\n';
    expect(inlineScriptHashes(`<html><head><script>${code}</script></head></html>`)).toEqual([sha256(code)]);
  });

  it('does not trim: whitespace changes the hash', () => {
    const [spaced] = inlineScriptHashes('<script> a() </script>');
    const [tight] = inlineScriptHashes('<script>a()</script>');
    expect(spaced).toBe(sha256(' a() '));
    expect(tight).toBe(sha256('a()'));
    expect(spaced).not.toBe(tight);
  });

  it('hashes every inline script, in page order, including modules and explicit JavaScript types', () => {
    const html = [
      '<script type="module">import "/_astro/a.js";</script>',
      '<SCRIPT>b()</SCRIPT>',
      "<script type='text/javascript'>c()</script>",
      '<script type=application/javascript>d()</script>',
      '<script type="MODULE" async>e()</script>',
    ].join('\n');
    expect(inlineScriptHashes(html)).toEqual([sha256('import "/_astro/a.js";'), sha256('b()'), sha256('c()'), sha256('d()'), sha256('e()')]);
  });

  it('skips external scripts', () => {
    const html = '<script type="module" src="/_astro/page.js"></script><script src=/x.js defer></script><script>inline()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha256('inline()')]);
  });

  it('hashes inline scripts whose data- attributes look like src or type', () => {
    const html = '<script data-src="/x.js">a()</script><script data-type="application/json">b()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha256('a()'), sha256('b()')]);
  });

  it('skips data blocks (JSON and JSON-LD)', () => {
    const html = [
      '<script type="application/json" id="data">{"a":1}</script>',
      '<script type="application/ld+json">{"@context":"https://schema.org"}</script>',
      '<script>run()</script>',
    ].join('');
    expect(inlineScriptHashes(html)).toEqual([sha256('run()')]);
  });

  it('spans lines inside a script', () => {
    const code = 'a();\n</p>\nb();';
    expect(inlineScriptHashes(`<script>${code}</script>`)).toEqual([sha256(code)]);
  });

  it('is empty for a page without inline scripts', () => {
    expect(inlineScriptHashes('<html><body><p>script</p></body></html>')).toEqual([]);
  });
});

describe('routeFile', () => {
  it.each([
    ['/', 'index.html'],
    ['/login', 'login/index.html'],
    ['/surveys/:id', 'surveys/_/index.html'],
    ['/admin/projects/:projectId/surveys/:surveyId/edit', 'admin/projects/_/surveys/_/edit/index.html'],
    ['/admin/projects/:projectId/surveys/new', 'admin/projects/_/surveys/new/index.html'],
  ])('%s → %s', (pattern, file) => {
    expect(routeFile(pattern)).toBe(file);
  });

  it('gives every route its own relative file', () => {
    const files = ROUTES.map((route) => routeFile(route.pattern));
    expect(new Set(files).size).toBe(files.length);
    for (const file of files) {
      expect(file.startsWith('/')).toBe(false);
      expect(file).not.toContain(':');
      expect(file.endsWith('index.html')).toBe(true);
    }
  });
});

describe('cacheControlFor', () => {
  const IMMUTABLE = 'public, max-age=31536000, immutable';

  it.each(['_astro/x.js', '_astro/page.Bx12ab.css', 'builds/meta/x.json', 'builds/meta/0123abcd.json'])('%s is immutable for a year', (file) => {
    expect(cacheControlFor(file)).toBe(IMMUTABLE);
  });

  it('builds/latest.json (what the build watcher polls) is never cached', () => {
    expect(cacheControlFor('builds/latest.json')).toBe('no-store');
  });

  it('the service worker (sw.js) is revalidated at every update check', () => {
    expect(cacheControlFor('sw.js')).toBe('no-cache');
  });

  it.each(['index.html', '404.html', 'surveys/_/index.html', '_payload.json', 'surveys/_/_payload.json'])('%s is always revalidated', (file) => {
    expect(cacheControlFor(file)).toBe('no-cache');
  });

  it.each(['favicon.svg', 'robots.txt', 'images/logo.png', 'builds/other.json', 'manifest.webmanifest'])('%s is cached for an hour', (file) => {
    expect(cacheControlFor(file)).toBe('public, max-age=3600');
  });
});

describe('compile hints', () => {
  it('puts the magic comment on the first line, once', () => {
    const code = 'const a=()=>1;export{a};';
    const marked = withCompileHint(code);
    expect(marked.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    expect(marked.slice(marked.indexOf('\n') + 1)).toBe(code);
    expect(withCompileHint(marked)).toBe(marked);
  });

  it('marks every script of dist/_astro and nothing else, and a second run changes nothing', async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'fw-hints-'));
    try {
      await fs.mkdir(path.join(dist, '_astro'));
      await fs.writeFile(path.join(dist, '_astro', 'shell.abc.js'), 'export const x=1;');
      await fs.writeFile(path.join(dist, '_astro', 'TopBar.abc.css'), '.a{color:red}');
      await fs.writeFile(path.join(dist, 'sw.js'), 'self.x=1;');
      expect(await markCompileHints(dist)).toBe(1);
      expect(await fs.readFile(path.join(dist, '_astro', 'shell.abc.js'), 'utf8')).toBe(`${COMPILE_HINT}\nexport const x=1;`);
      expect(await fs.readFile(path.join(dist, '_astro', 'TopBar.abc.css'), 'utf8')).toBe('.a{color:red}');
      expect(await fs.readFile(path.join(dist, 'sw.js'), 'utf8')).toBe('self.x=1;');
      expect(await markCompileHints(dist)).toBe(0);
    } finally {
      await fs.rm(dist, { recursive: true, force: true });
    }
  });

  it('finds nothing to mark in a dist/ without scripts', async () => {
    const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'fw-hints-'));
    try {
      expect(await markCompileHints(dist)).toBe(0);
    } finally {
      await fs.rm(dist, { recursive: true, force: true });
    }
  });
});
