/**
 * The build the other tests run against (dist/, made by the web server's start when stale), read
 * as files: every page of every language within its JavaScript budget (`npm run page-js`), and
 * the reset and onboarding links' check free of React however its chunks are grouped
 * (astro.config.mjs, `codeSplitting.groups`: a React-free module grouped into a chunk that imports
 * React made the check wait for React, caught once by identity.spec.ts in English only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPageJsBudgets, scriptClosure } from '../../scripts/page-js.ts';
import { expect, test } from './fixtures.ts';

const dist = path.resolve(process.env.DIST_DIR ?? 'dist');
const assets = path.join(dist, '_astro');

test('every page of every language is within its JavaScript budget', () => {
  const { rows, over } = checkPageJsBudgets(dist);
  // Four languages' pages: a build that lost its pages would pass an empty check.
  expect(rows.length).toBeGreaterThan(100);
  expect(over.map((row) => `${row.pattern}: ${row.bytes} bytes of ${row.budget}`)).toEqual([]);
});

test('the link check of the reset and onboarding pages imports no React, in every language', () => {
  const files = fs.readdirSync(assets);
  const react = files.filter((name) => /^react\.[\w-]+\.js$/.test(name));
  const checks = files.filter((name) => /^token-check\.[\w-]+\.js$/.test(name));
  expect(react, "React's own chunk (astro.config.mjs names it)").not.toEqual([]);
  expect(checks, 'the link check’s chunk (lib/token-check.ts)').not.toEqual([]);
  for (const check of checks) {
    // Every file it imports statically, at any depth (`npm run page-js` follows them the same way).
    const { files: loaded } = scriptClosure(dist, [`/_astro/${check}`]);
    const needsReact = react.filter((name) => loaded.has(`/_astro/${name}`));
    expect(needsReact, `${check} imports`).toEqual([]);
  }
});
