/**
 * `npm run bench:tools`: the admin tools at real size, each part in `scripts/bench-tools/`:
 * the points bulk update (100,000 rows parsed, checked and applied, on PostgreSQL and on the
 * embedded database) and the Alchemer export append (a 200 MB CSV export of 500,000 rows, and the
 * largest XLSX within 512 MB, with the server's peak memory).
 *
 * Environment: BENCH_WRITE=1 rewrites the section between `<!-- tools:start -->` and
 * `<!-- tools:end -->` in docs/benchmarks.md; BENCH_TOOLS=points,alchemer picks parts.
 */
import { measure as measureAlchemer } from './bench-tools/alchemer-export-append.ts';
import { measure as measurePoints } from './bench-tools/points-bulk-update.ts';
import { writeBenchmarksSection } from './bench-server.ts';

const PARTS: Record<string, () => Promise<string>> = { points: measurePoints, alchemer: measureAlchemer };

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
  if (process.env.BENCH_WRITE === '1') writeBenchmarksSection('tools', `Measured ${new Date().toISOString().slice(0, 10)}.\n\n${sections.join('\n\n')}`);
}

await main();
