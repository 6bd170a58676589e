import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md's "Layout" and README's "Where things are" are trees of the repository.
// They drift when a folder or a script is added without a word there: this reads both and the
// tree, and names what a tree misses. A folder counts as named when its name (`name/`) stands in
// the part of the tree under its nearest listed parent (`islands/` … `gallery/`); a file of
// scripts/ or docs/ when its name stands under `scripts/` or `docs/`.

const ROOT = join(import.meta.dirname, '../..');

/** Folders below `dir` (relative to the root), `depth` levels deep at most, dot-folders left out. */
function folders(dir: string, depth: number): string[] {
  if (depth === 0) return [];
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      return [path, ...folders(path, depth - 1)];
    });
}

function files(dir: string, ending: RegExp): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isFile() && ending.test(entry.name))
    .map((entry) => `${dir}/${entry.name}`);
}

/** What each tree must name: folders of src/ (to `srcDepth` levels), tests/ and docs/, the scripts and docs. */
function expected(srcDepth: number): string[] {
  return [
    ...folders('src', srcDepth),
    ...folders('tests', 1),
    ...folders('docs', 1),
    ...folders('scripts', 1),
    ...files('scripts', /\.(ts|cjs|mjs)$/),
    ...files('docs', /\.md$/),
  ];
}

/** The first fenced block after `heading` in a Markdown file. */
function treeAfter(file: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no heading ${heading}`);
  const fence = text.indexOf('\n```', start);
  const end = text.indexOf('\n```', fence + 4);
  return text
    .slice(fence + 4, end)
    .split('\n')
    .slice(1);
}

const indent = (line: string): number => line.length - line.trimStart().length;
const escape = (name: string): string => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The part of `lines` that the entry line starting with `name/` heads: down to the next entry at
 * its indentation or less (continuation lines, aligned at column 21, belong to it); undefined
 * when no line starts with `name/`.
 */
function entry(lines: string[], name: string): string[] | undefined {
  const at = lines.findIndex((line) => line.trimStart().startsWith(`${name}/`));
  if (at < 0) return undefined;
  const level = indent(lines[at] ?? '');
  const next = lines.findIndex((line, i) => i > at && /^\s*[^\s]/.test(line) && indent(line) <= level && !/^\s{20,}/.test(line));
  return lines.slice(at, next < 0 ? undefined : next);
}

/** True when the tree names `path`: down its parents that have a line of their own, then its name in the last one's part. */
function names(tree: string[], path: string): boolean {
  const parts = path.split('/');
  const last = parts.pop() ?? '';
  let region: string[] = tree;
  for (const part of parts) {
    const inner = entry(region, part);
    if (!inner) break;
    region = inner;
  }
  const isFile = /\.(ts|cjs|mjs|md)$/.test(last);
  const word = new RegExp(`(?<![\\w.-])${escape(last)}${isFile ? '(?![\\w-])' : '/'}`);
  return region.some((line) => word.test(line));
}

describe.each([
  { file: 'docs/architecture.md', heading: '## Layout', srcDepth: 3 },
  { file: 'README.md', heading: '## Where things are', srcDepth: 2 },
])('$file, $heading', ({ file, heading, srcDepth }) => {
  const tree = treeAfter(file, heading);
  it('names every folder of src/, tests/, docs/, every script and every doc', () => {
    const missing = expected(srcDepth).filter((path) => !names(tree, path));
    expect(missing).toEqual([]);
  });
});
