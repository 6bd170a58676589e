/**
 * `npm test`: the type check (tsc), the format check (Prettier), the lint (ESLint, layer rule included), then unit, API and
 * process tests (vitest), then end-to-end tests
 * (Playwright on Debian's chromium against the built app started as `npm start` starts it).
 * Every step runs even when an earlier one fails; the exit code is non-zero if any failed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
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
  // The messages compiled into src/paraglide/ (everything below imports them; the check is a unit test).
  { name: 'messages', command: process.execPath, args: [path.join(root, 'scripts', 'messages.ts')] },
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
interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults?: { name: string; message?: string; assertionResults?: { status: string; fullName: string; failureMessages?: string[] }[] }[];
}
const vitest = readJson<VitestReport>('vitest.json');
interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file?: string; line?: number; tests?: { status: string }[] }[];
}
type PlaywrightReport = { stats: { expected: number; unexpected: number; flaky: number; skipped: number }; suites?: PlaywrightSuite[] };
const browsers = [readJson<PlaywrightReport>('e2e.json'), readJson<PlaywrightReport>('static-host.json')];
const sum = (pick: (report: PlaywrightReport) => number) => browsers.reduce((total, report) => total + (report ? pick(report) : 0), 0);
const passed = (vitest?.numPassedTests ?? 0) + sum((r) => r.stats.expected + r.stats.flaky);
const failedTests = (vitest?.numFailedTests ?? 0) + sum((r) => r.stats.unexpected);
const skipped = (vitest?.numPendingTests ?? 0) + sum((r) => r.stats.skipped);

/** The failed tests by name, last, where a log cut to its tail still shows them. */
const firstLine = (text: string | undefined) =>
  stripVTControlCharacters(text ?? '')
    .trim()
    .split('\n')[0]
    ?.slice(0, 300) ?? '';
const failures: string[] = [];
for (const file of vitest?.testResults ?? []) {
  const where = path.relative(root, file.name);
  const failedInFile = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
  for (const test of failedInFile) failures.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  if (failedInFile.length === 0 && file.message) failures.push(`${where}: ${firstLine(file.message)}`);
}
const walk = (suite: PlaywrightSuite) => {
  for (const spec of suite.specs ?? [])
    if (spec.tests?.some((test) => test.status === 'unexpected')) failures.push(`${spec.file ?? suite.file ?? suite.title}:${spec.line ?? ''} › ${spec.title}`);
  for (const child of suite.suites ?? []) walk(child);
};
for (const report of browsers) for (const suite of report?.suites ?? []) walk(suite);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ✘ ${line}`).join('\n')}`);
console.log(`\n${failed === 0 ? 'All steps passed.' : `${failed} step(s) failed.`}`);
console.log(`tests: ${passed} passed, ${failedTests + (failed > 0 && failedTests === 0 ? failed : 0)} failed, ${skipped} skipped`);
process.exit(failed === 0 ? 0 : 1);
