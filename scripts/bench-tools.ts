/**
 * `npm run bench:tools`: the admin tools at real size, each part in `scripts/bench-tools/`:
 * the points bulk update (100,000 rows parsed, checked and applied, on PostgreSQL and on the
 * embedded database) and the Alchemer export append (a 200 MB CSV export of 500,000 rows, and the
 * largest XLSX within 512 MB, with the server's peak memory).
 *
 * Environment: BENCH_WRITE=1 rewrites the section between `<!-- tools:start -->` and
 * `<!-- tools:end -->` in docs/benchmarks.md; BENCH_TOOLS=points,alchemer picks parts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure as measureAlchemer } from './bench-tools/alchemer-export-append.ts';
import { measure as measurePoints } from './bench-tools/points-bulk-update.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOC_FILE = path.join(root, 'docs/benchmarks.md');
const START_MARKER = '<!-- tools:start -->';
const END_MARKER = '<!-- tools:end -->';

const PARTS: Record<string, () => Promise<string>> = { points: measurePoints, alchemer: measureAlchemer };

function writeDoc(section: string): void {
  const doc = fs.readFileSync(DOC_FILE, 'utf8');
  const start = doc.indexOf(START_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${START_MARKER} … ${END_MARKER} section`);
  fs.writeFileSync(DOC_FILE, `${doc.slice(0, start + START_MARKER.length)}\n${section}\n${doc.slice(end)}`);
}

async function main(): Promise<void> {
  const chosen = (process.env.BENCH_TOOLS ?? Object.keys(PARTS).join(',')).split(',').map((name) => name.trim());
  const sections: string[] = [];
  for (const name of chosen) {
    const part = PARTS[name];
    if (!part) throw new Error(`BENCH_TOOLS: no part named ${name} (${Object.keys(PARTS).join(', ')})`);
    console.log(`— ${name}`);
    const section = await part();
    console.log(`\n${section}\n`);
    sections.push(section);
  }
  if (process.env.BENCH_WRITE === '1') writeDoc(`Measured ${new Date().toISOString().slice(0, 10)}.\n\n${sections.join('\n\n')}`);
}

await main();
