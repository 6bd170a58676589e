/**
 * Right to left (issue 31 §1): the .astro files' classes use logical sides, by the pattern ESLint
 * applies to the islands (`PHYSICAL_CLASS` in eslint.config.js; ESLint does not read .astro files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHYSICAL_CLASS } from '../../../eslint.config.js';

const physical = new RegExp(PHYSICAL_CLASS);

function astroFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return astroFiles(full);
    return entry.name.endsWith('.astro') ? [full] : [];
  });
}

/** Every class list in a file: `class="…"`, `class:list={[…]}` strings and `className="…"`. */
function classLists(source: string): string[] {
  const out: string[] = [];
  for (const match of source.matchAll(/\bclass(?:Name)?=(?:"([^"]*)"|'([^']*)'|\{`([^`]*)`\})/g)) out.push(match[1] ?? match[2] ?? match[3] ?? '');
  for (const match of source.matchAll(/class:list=\{([^}]*)\}/g)) for (const text of (match[1] ?? '').matchAll(/["'`]([^"'`]*)["'`]/g)) out.push(text[1] ?? '');
  return out;
}

describe('logical sides in the pages', () => {
  it('finds a physical class where there is one', () => {
    expect(classLists('<div class="flex ml-2">').some((list) => physical.test(list))).toBe(true);
    expect(classLists('<p class:list={["text-left", x]}>').some((list) => physical.test(list))).toBe(true);
    expect(classLists('<div class="flex ms-2 text-start">').some((list) => physical.test(list))).toBe(false);
  });

  it('no .astro file uses a physical side', () => {
    const found = astroFiles(path.resolve('src')).flatMap((file) =>
      classLists(fs.readFileSync(file, 'utf8'))
        .filter((list) => physical.test(list))
        .map((list) => `${path.relative(process.cwd(), file)}: ${list}`),
    );
    expect(found).toEqual([]);
  });
});
