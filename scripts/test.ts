/**
 * `npm test`: the type check (tsc), the format check (Prettier), the lint (ESLint, layer rule included), then unit, API and
 * process tests (vitest), then end-to-end tests
 * (Playwright on Debian's chromium against the built app started as `npm start` starts it).
 * Every step runs even when an earlier one fails; the exit code is non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });

interface Step {
  name: string;
  command: string;
  args: string[];
}

const steps: Step[] = [
  { name: 'types', command: bin('tsc'), args: ['--noEmit'] },
  { name: 'format', command: bin('prettier'), args: ['--check', '--log-level=warn', '.'] },
  { name: 'lint', command: bin('eslint'), args: ['--max-warnings=0', '.'] },
  {
    name: 'unit, api, process',
    command: bin('vitest'),
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, 'vitest.json')}`],
  },
  { name: 'e2e', command: bin('playwright'), args: ['test'] },
  // The built site through nginx with deploy:nginx's configuration, /api/ proxied to an API-only process (docs/deploy.md).
  { name: 'e2e (static host)', command: bin('playwright'), args: ['test', '-c', 'playwright.static-host.config.ts'] },
];

const only = process.argv.slice(2);
let failed = 0;
for (const step of steps) {
  if (only.length > 0 && !only.some((o) => step.name.includes(o))) continue;
  console.log(`\n▶ ${step.name}: ${path.basename(step.command)} ${step.args.join(' ')}`);
  const started = Date.now();
  const run = spawnSync(step.command, step.args, { cwd: root, stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status === 0) console.log(`✔ ${step.name} (${seconds} s)`);
  else {
    failed++;
    console.log(`✘ ${step.name} failed (exit ${run.status ?? run.signal}, ${seconds} s)`);
  }
}

/** Totals from the runners' JSON reports. */
function readJson<T>(file: string): T | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(results, file), 'utf8')) as T;
  } catch {
    return null;
  }
}
const vitest = readJson<{ numPassedTests: number; numFailedTests: number; numPendingTests: number }>('vitest.json');
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
const browsers = [readJson<PlaywrightReport>('e2e.json'), readJson<PlaywrightReport>('static-host.json')];
const sum = (pick: (report: PlaywrightReport) => number) => browsers.reduce((total, report) => total + (report ? pick(report) : 0), 0);
const passed = (vitest?.numPassedTests ?? 0) + sum((r) => r.stats.expected + r.stats.flaky);
const failedTests = (vitest?.numFailedTests ?? 0) + sum((r) => r.stats.unexpected);
const skipped = (vitest?.numPendingTests ?? 0) + sum((r) => r.stats.skipped);
console.log(`\n${failed === 0 ? 'All steps passed.' : `${failed} step(s) failed.`}`);
console.log(`tests: ${passed} passed, ${failedTests + (failed > 0 && failedTests === 0 ? failed : 0)} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
