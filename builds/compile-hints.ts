/**
 * V8's explicit compile hints (decision 040): every script chunk of the site starts with the magic
 * comment `//# allFunctionsCalledOnLoad`, so that Chromium (136 and later) compiles all its functions
 * on a background thread while the file streams in, instead of compiling each function on the main
 * thread the first time it is called. The chunks are split by use (a page loads what it runs), so
 * most of a loaded chunk's functions run soon after it loads. Other engines ignore the comment.
 *
 * Written after `astro build` (builds/integration.ts `writeManifests`, before the build's digest,
 * the compressed copies and the service worker's precache are made from the files).
 */
import fs from 'node:fs/promises';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The built scripts' folder, relative to dist/. */
const SCRIPTS_FOLDER = '_astro';

/** The code with the hint on its first line (once). */
export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}\n${code}`;
}

/** Puts the hint at the top of every script in dist/_astro; answers how many files it changed. */
export async function markCompileHints(distDir: string): Promise<number> {
  const folder = path.join(distDir, SCRIPTS_FOLDER);
  const names = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let changed = 0;
  for (const name of names.filter((entry) => /\.m?js$/.test(entry))) {
    const file = path.join(folder, name);
    const code = await fs.readFile(file, 'utf8');
    const marked = withCompileHint(code);
    if (marked === code) continue;
    await fs.writeFile(file, marked);
    changed += 1;
  }
  return changed;
}
