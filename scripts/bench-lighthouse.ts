/**
 * The page-load part of `npm run bench`: Lighthouse 12 (its default, mobile: a mid-range phone on
 * a slow 4G link, simulated) on Debian's Chromium, the browser the tests use. Each page is audited
 * five times; each figure is the median of its five values (Lighthouse's own advice for its run-to-run
 * variance: total blocking time, from the machine's CPU, moved 34 → 222 ms between two runs of the
 * same build on the shared 2-core machine with three).
 *
 * Pages: /login (a guest page), /terms (a public page), and signed in (a session cookie sent with
 * every request) a participant's home, the home of a new participant (no project yet: its empty
 * state, `newParticipantCookie`), /account and a survey (the pages come from scripts/bench.ts).
 * Figures: the performance score, Largest Contentful Paint, Cumulative Layout Shift and the
 * JavaScript the page loads (bytes over the wire).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { runCli } from '../src/server/cli.ts';

export const LIGHTHOUSE_RUNS = 5;

export interface LighthousePage {
  path: string;
  /** Sent with every request of the page (e.g. the session cookie). */
  headers?: Record<string, string>;
  label: string;
}

export interface LighthouseRow {
  label: string;
  path: string;
  /** 0–100. */
  performance: number;
  lcpMs: number;
  /** Total blocking time. */
  tbtMs: number;
  cls: number;
  jsBytes: number;
  /**
   * Lighthouse's `benchmarkIndex`: the host's own CPU speed, measured by Lighthouse before each run.
   * Its simulation multiplies the main thread's observed time by four, so the blocking time (and the
   * score) moves with the host: the same build measured 78–98 on the Arabic survey on days when this
   * machine read 1,050–2,740, and 100 on a day it read 3,100–3,300 (docs/benchmarks.md).
   */
  benchmarkIndex: number;
  /** Every run's figures, for the log. */
  runs: { performance: number; lcpMs: number; tbtMs: number; cls: number; jsBytes: number; benchmarkIndex: number }[];
}

/**
 * A participant who has just joined (no project: the home shows its empty state), made with the
 * operator CLI on the running server's database (`env`: its DATA_DIR or DATABASE_URL) and signed
 * in through the API: the `Cookie` header of that session.
 */
export async function newParticipantCookie(baseUrl: string, env: Readonly<Record<string, string>>): Promise<string> {
  const email = `lighthouse-${Date.now().toString(36)}@example.org`;
  const password = 'Lighthouse-0nly!';
  const errors: string[] = [];
  const args = ['user:create', '--email', email, '--password', password, '--role', 'participant', '--first-name', 'Nova', '--last-name', 'Reed'];
  const code = await runCli(args, { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env }, { out: () => {}, err: (line) => errors.push(line) });
  if (code !== 0) throw new Error(`user:create failed (${code}): ${errors.join(' ')}`);
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { Origin: baseUrl, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('fw_session='));
  if (res.status !== 200 || !cookie) throw new Error(`sign-in of the new participant failed: ${res.status} ${await res.text()}`);
  return cookie;
}

const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

interface ResourceItem {
  resourceType?: string;
  transferSize?: number;
}

/** Tries that a run may take: Chromium's trace now and then misses the navigation start (NO_NAVSTART). */
const ATTEMPTS = 3;

/** One call of the browser's DevTools protocol (its browser target, over its WebSocket). */
async function browserCommand(port: number, method: string, params: Record<string, unknown>): Promise<void> {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { webSocketDebuggerUrl: string };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => socket.send(JSON.stringify({ id: 1, method, params })));
    socket.addEventListener('message', (event) => {
      const answer = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
      if (answer.id !== 1) return;
      socket.close();
      if (answer.error) reject(new Error(`${method}: ${answer.error.message}`));
      else resolve();
    });
    socket.addEventListener('error', () => reject(new Error(`${method}: the DevTools socket failed`)));
  });
}

/**
 * A signed-in page's session goes into the browser's cookie jar before the run: Chromium 156 no
 * longer sends a `Cookie` given as an extra header with the page's own `fetch` calls, so the
 * guard found no session and the audit measured the sign-in page. Lighthouse's storage reset
 * keeps cookies (its `clearStorageTypes` are caches, storage and service workers), so every run
 * still starts cold.
 */
async function setSessionCookie(url: string, port: number, cookie: string): Promise<void> {
  const { origin } = new URL(url);
  const cookies = cookie.split(';').map((pair) => {
    const [name = '', ...value] = pair.trim().split('=');
    return { name, value: value.join('='), url: origin };
  });
  await browserCommand(port, 'Storage.setCookies', { cookies });
}

async function auditOnce(url: string, port: number, headers: Record<string, string> | undefined) {
  let failure = '';
  const { Cookie: cookie, ...otherHeaders } = headers ?? {};
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    // Each run starts from an empty cookie jar: a guest page audited after a signed-in one would
    // otherwise carry its session and be sent home (`/de/login` ended at `/`).
    await browserCommand(port, 'Storage.clearCookies', {});
    if (cookie) await setSessionCookie(url, port, cookie);
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(Object.keys(otherHeaders).length > 0 ? { extraHeaders: otherHeaders } : {}),
    });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (!lhr.runtimeError) return lhr;
    failure = `${lhr.runtimeError.code} ${lhr.runtimeError.message}`;
  }
  throw new Error(`Lighthouse failed on ${url} ${ATTEMPTS} times: ${failure}`);
}

/** Audits each page LIGHTHOUSE_RUNS times in one Chromium; a fresh profile state per run (Lighthouse clears storage). */
export async function lighthousePages(baseUrl: string, pages: readonly LighthousePage[], chromePath: string): Promise<LighthouseRow[]> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const rows: LighthouseRow[] = [];
    for (const page of pages) {
      const runs: LighthouseRow['runs'] = [];
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
        const lhr = await auditOnce(`${baseUrl}${page.path}`, chrome.port, page.headers);
        if (lhr.finalDisplayedUrl !== `${baseUrl}${page.path}`) throw new Error(`Lighthouse on ${page.path} ended at ${lhr.finalDisplayedUrl} (redirected?)`);
        const items = ((lhr.audits['resource-summary']?.details as { items?: ResourceItem[] } | undefined)?.items ?? []) as ResourceItem[];
        runs.push({
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
          tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
          jsBytes: items.find((item) => item.resourceType === 'script')?.transferSize ?? 0,
          benchmarkIndex: lhr.environment.benchmarkIndex,
        });
      }
      rows.push({
        label: page.label,
        path: page.path,
        performance: median(runs.map((r) => r.performance)),
        lcpMs: median(runs.map((r) => r.lcpMs)),
        tbtMs: median(runs.map((r) => r.tbtMs)),
        cls: median(runs.map((r) => r.cls)),
        jsBytes: median(runs.map((r) => r.jsBytes)),
        benchmarkIndex: median(runs.map((r) => r.benchmarkIndex)),
        runs,
      });
    }
    return rows;
  } finally {
    chrome.kill();
  }
}

export function lighthouseTable(rows: readonly LighthouseRow[]): string {
  return [
    `Lighthouse 12, mobile preset (simulated slow 4G, 4× CPU slowdown), median of ${LIGHTHOUSE_RUNS} runs per figure, on Debian's Chromium. ` +
      "The last column is Lighthouse's `benchmarkIndex` of the host during the runs: the higher, the faster this machine was (the score moves with it).",
    '',
    '| page | performance | LCP ms | TBT ms | CLS | JS KiB (transferred) | host benchmark index |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.performance} | ${Math.round(row.lcpMs).toLocaleString('en-US')} | ${Math.round(row.tbtMs)} | ${row.cls.toFixed(3)} | ${(row.jsBytes / 1024).toFixed(1)} | ${Math.round(row.benchmarkIndex).toLocaleString('en-US')} |`,
    ),
  ].join('\n');
}
