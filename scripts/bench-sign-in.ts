/**
 * The sign-in benchmark (docs/benchmarks.md, "Sign-in"; issue 29): how long a whole sign-in takes
 * through the production server's HTTP API, with a password alone and with a second step.
 *
 * Four cases, `SIGN_IN_BENCH_SAMPLES` each, taken in turns (one sample of each case, then the next
 * round: the machine's drift touches every case alike), one request at a time, each sample a
 * fresh cookie jar (a browser that never signed in) and an account of its own:
 * - **password only**: `POST /api/auth/login {email, password}` → 200 and the session cookie;
 * - **password + authenticator code**: the login answers 200 `{ ok, next: 'second_factor',
 *   methods }` and the pending cookie, then `POST /api/auth/second-factor {code}` → 200 and the
 *   session (the code is computed before the clock starts, as a person reads it off their app);
 * - **password + recovery code**: the same with `{recoveryCode}`;
 * - **passkey alone**: `POST /api/auth/passkey/options` (a discoverable sign-in: no credential
 *   listed), the assertion of a software authenticator (tests/support/soft-authenticator.ts: one
 *   P-256 signature, a fraction of a millisecond), `POST /api/auth/passkey` → 200 and the session.
 * The clock starts before the first request and stops once the answer that carries the session
 * cookie has been read; then (untimed) `GET /api/auth` with that cookie must answer 200 for that
 * account. Argon2id (m = 19 MiB, t = 2) is about half of a password sign-in: that is the point. The
 * first `WARMUP_ROUNDS` rounds warm the server's sign-in paths up (on a server that has not
 * signed anyone in yet, the first samples ran up to several times slower) and are not counted.
 *
 * Why an account per sample: an authenticator code's 30-second step, once accepted, is never
 * accepted again for that person, and a recovery code serves once; a fresh account each time
 * also keeps every sample alike (its first browser: remembered, no "new sign-in" mail). The rate
 * limits are not in the way: sign-in counts failures only (`RATE_LIMITS.signInFailuresPerIp`,
 * 300 per 15 minutes, and `signInFailuresPerEmail`, 10), each attempt is counted first and a
 * success takes its hit back, so these sign-ins, all from 127.0.0.1 (the bench server trusts no
 * proxy, `TRUST_PROXY` unset), leave the counters at zero; the passkey options, counted every time
 * (`passkeyOptionsPerIp`, 600 per 15 minutes), are called once a passkey sample, 23 times a run on
 * a database of its own. Any status but the expected one is a failure of that sample (in
 * `failures`, its time not counted).
 *
 * The accounts are made before the server starts, with the app's own services: `createActiveUser`
 * (argon2id), `startTotpEnrolment` then `confirmTotp` with a code of a minute earlier (as if the
 * app had been set up then: its confirmation's step is used up, the sign-in's is a later one),
 * `passkeyRegistrationOptions` then `registerPasskey` with the software authenticator's answer.
 * A passkey belongs to its relying party id, `PUBLIC_URL`'s host name (127.0.0.1, whatever the
 * port): registered for `http://127.0.0.1`, it signs in on the server's `http://127.0.0.1:<port>`.
 *
 * Use from another bench (`scripts/bench.ts` wires it in): `seedSignInBench(target)` on the
 * database before the server starts (PGlite allows one process), then
 * `measure(url)` against the running server (after the throughput cases).
 *
 * Standalone: `node_modules/.bin/node scripts/bench-sign-in.ts [--postgres]` makes only these
 * accounts (PGlite in a temporary folder, or a fresh PostgreSQL database), starts the API-only
 * server on them and prints the figures.
 */
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { Secret, TOTP as Totp } from 'otpauth';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase, type DatabaseTarget } from '../src/server/db/index.ts';
import { passkeyRegistrationOptions, registerPasskey } from '../src/server/services/passkeys.ts';
import { confirmTotp, startTotpEnrolment, totpCodeAt, totpStep, type SecondFactorDeps } from '../src/server/services/second-factors.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import { passkeyRegistrationResponseSchema } from '../src/shared/schemas/passkeys.ts';
import { TOTP } from '../src/shared/second-factors.ts';
import { SoftAuthenticator } from '../tests/support/soft-authenticator.ts';
import { percentile, runIfMain, runStandalone } from './bench-server.ts';

/** Sign-ins measured per case (after the warm-up round). */
export const SIGN_IN_BENCH_SAMPLES = 20;
/** Unmeasured rounds first (one sample of each case each), while V8 compiles these paths. */
const WARMUP_ROUNDS = 3;

const PASSWORD = 'bench-sign-in-not-secret';
/** The relying party the passkeys are registered for: the bench server's host (its port does not matter to WebAuthn). */
const PASSKEY_ORIGIN = 'http://127.0.0.1';

export type SignInCaseKey = 'password' | 'totp' | 'recovery' | 'passkey';

const CASE_NAMES: Record<SignInCaseKey, string> = {
  password: 'password only (`POST /api/auth/login`)',
  totp: 'password + authenticator code (`… /second-factor {code}`)',
  recovery: 'password + recovery code (`… /second-factor {recoveryCode}`)',
  passkey: 'passkey alone (`POST /api/auth/passkey/options`, `… /passkey`)',
};
const CASE_ORDER: readonly SignInCaseKey[] = ['password', 'totp', 'recovery', 'passkey'];

export interface SignInBenchCase {
  key: SignInCaseKey;
  name: string;
  /** Milliseconds of each sign-in that succeeded, in the order measured. */
  samples: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

export interface SignInBenchRun {
  cases: SignInBenchCase[];
  /** One message per sample that did not sign in as expected. */
  failures: string[];
}

interface Account {
  email: string;
  /** The authenticator app's secret (base32): `totp`. */
  secret?: string;
  /** An unused recovery code: `recovery`. */
  recoveryCode?: string;
  /** The authenticator holding the account's passkey: `passkey`. */
  authenticator?: SoftAuthenticator;
}

export interface SignInBench {
  /** Runs the four cases against the server at `url` (on the database seeded). */
  measure(url: string): Promise<SignInBenchRun>;
}

/** No job is sent while seeding (`confirmTotp` queues none); a call would be a mistake. */
const noJobs: SecondFactorDeps['jobs'] = {
  send: () => Promise.reject(new Error('the sign-in seed sends no jobs')),
  mail: () => Promise.reject(new Error('the sign-in seed sends no mail')),
};

/**
 * Makes `(samples + WARMUP_ROUNDS) × 4` active participants (`sign-in-{case}-{n}@bench.localhost`) with
 * their factors, on the database before the server starts; `measure` signs each in once.
 */
export async function seedSignInBench(target: DatabaseTarget, options: { samples?: number } = {}): Promise<SignInBench> {
  const samples = options.samples ?? SIGN_IN_BENCH_SAMPLES;
  const perCase = samples + WARMUP_ROUNDS;
  const started = performance.now();
  // The key the server will seal with: SECOND_FACTOR_KEY when the shell gives the server one, else the one kept in the database.
  const { secondFactorKey } = loadConfig({ SECOND_FACTOR_KEY: process.env.SECOND_FACTOR_KEY });
  // Set up a minute ago: the confirmation's step is used up, the sign-in's (now) is a later one.
  const deps: SecondFactorDeps = {
    clock: { now: () => new Date(Date.now() - 60_000) },
    config: { secondFactorKey, publicUrl: PASSKEY_ORIGIN },
    jobs: noJobs,
  };
  const accounts = Object.fromEntries(CASE_ORDER.map((key) => [key, [] as Account[]])) as Record<SignInCaseKey, Account[]>;
  const database = await openDatabase(target);
  try {
    const { db } = database;
    const nonce = Math.random().toString(36).slice(2, 8);
    for (const key of CASE_ORDER) {
      for (let i = 0; i < perCase; i++) {
        const email = `sign-in-${key}-${nonce}-${i}@bench.localhost`;
        const user = await createActiveUser(db, { email, password: PASSWORD, role: 'participant', firstName: 'Sign-in', lastName: `${key} ${i}` });
        const account: Account = { email };
        if (key === 'totp' || key === 'recovery') {
          const { secret } = await startTotpEnrolment(db, deps, user);
          const { recoveryCodes } = await confirmTotp(db, deps, user.id, totpCodeAt(secret, totpStep(deps.clock.now())), { ip: null });
          account.secret = secret;
          account.recoveryCode = recoveryCodes[0];
        } else if (key === 'passkey') {
          const authenticator = new SoftAuthenticator();
          const creation = await passkeyRegistrationOptions(db, deps, user);
          const response = passkeyRegistrationResponseSchema.parse(authenticator.register(creation, PASSKEY_ORIGIN));
          await registerPasskey(db, deps, user, { name: 'Bench authenticator', response }, { ip: '127.0.0.1' });
          account.authenticator = authenticator;
        }
        accounts[key].push(account);
      }
    }
  } finally {
    await database.close();
  }
  console.log(`seeded ${perCase * CASE_ORDER.length} sign-in accounts (argon2id each) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { measure: (url) => measureSignIns(url, accounts, samples) };
}

/** One browser's cookies, kept from the answers' Set-Cookie (a cleared one, or Max-Age=0, goes). */
class Jar {
  readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /;\s*Max-Age=0(?:;|$)/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

/** The code the account's authenticator app shows now. */
function codeNow(secret: string): string {
  return new Totp({ secret: Secret.fromBase32(secret), digits: TOTP.digits, period: TOTP.periodSeconds, algorithm: TOTP.algorithm }).generate();
}

function summary(key: SignInCaseKey, samples: number[]): SignInBenchCase {
  const sorted = [...samples].sort((a, b) => a - b);
  return { key, name: CASE_NAMES[key], samples, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? Number.NaN };
}

/** A refused step: what was asked, what came back. */
class Unexpected extends Error {}

async function measureSignIns(url: string, accounts: Record<SignInCaseKey, Account[]>, samples: number): Promise<SignInBenchRun> {
  if (new URL(url).origin.replace(/:\d+$/, '') !== PASSKEY_ORIGIN) throw new Error(`the sign-in bench's passkeys are for ${PASSKEY_ORIGIN}, not ${url}`);
  const failures: string[] = [];
  const times = Object.fromEntries(CASE_ORDER.map((key) => [key, [] as number[]])) as Record<SignInCaseKey, number[]>;

  /** A JSON POST as the login page sends it (same origin, JSON body), in `jar`'s browser; its status and body. */
  const post = async (jar: Jar, pathname: string, body: unknown, expected: number): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}${pathname}`, {
      method: 'POST',
      headers: { Origin: url, 'Content-Type': 'application/json', ...jar.header },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    jar.take(response);
    if (response.status !== expected) throw new Unexpected(`${pathname}: ${response.status}, not ${expected}: ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  /** The password step of an account with a second factor: the pending sign-in, with `method` offered. */
  const passwordStep = async (jar: Jar, account: Account, method: 'totp' | 'recovery') => {
    const answer = await post(jar, '/api/auth/login', { email: account.email, password: PASSWORD }, 200);
    if (answer.next !== 'second_factor' || !Array.isArray(answer.methods) || !answer.methods.includes(method) || !jar.cookies.has('fw_pending'))
      throw new Unexpected(`/api/auth/login: ${JSON.stringify(answer)} and no pending sign-in offering ${method}`);
  };

  /** One sign-in of `account` from a new browser: its time in ms, from the first request to the answer that carries the session. */
  const signIn = async (key: SignInCaseKey, account: Account): Promise<number> => {
    const jar = new Jar();
    const code = key === 'totp' && account.secret ? codeNow(account.secret) : '';
    const started = performance.now();
    if (key === 'password') {
      const answer = await post(jar, '/api/auth/login', { email: account.email, password: PASSWORD }, 200);
      if (answer.next !== undefined) throw new Unexpected(`/api/auth/login: ${JSON.stringify(answer)}, not a session`);
    } else if (key === 'totp') {
      await passwordStep(jar, account, 'totp');
      await post(jar, '/api/auth/second-factor', { code }, 200);
    } else if (key === 'recovery') {
      await passwordStep(jar, account, 'recovery');
      await post(jar, '/api/auth/second-factor', { recoveryCode: account.recoveryCode }, 200);
    } else {
      if (!account.authenticator) throw new Error(`${account.email} has no authenticator`);
      const options = (await post(jar, '/api/auth/passkey/options', {}, 200)) as unknown as PublicKeyCredentialRequestOptionsJSON;
      await post(jar, '/api/auth/passkey', { response: account.authenticator.assert(options, url) }, 200);
    }
    const elapsed = performance.now() - started;
    // Untimed: the cookie is a session of this account.
    if (!jar.cookies.has('fw_session')) throw new Unexpected('no session cookie');
    const me = await fetch(`${url}/api/auth`, { headers: jar.header });
    const who = (await me.json().catch(() => null)) as { email?: string } | null;
    if (me.status !== 200 || who?.email !== account.email) throw new Unexpected(`GET /api/auth with the new session: ${me.status} ${JSON.stringify(who)}`);
    return elapsed;
  };

  for (let round = 0; round < samples + WARMUP_ROUNDS; round++) {
    for (const key of CASE_ORDER) {
      const account = accounts[key][round];
      if (!account) throw new Error(`no ${key} account left for round ${round}: seeded for fewer samples`);
      try {
        const ms = await signIn(key, account);
        if (round >= WARMUP_ROUNDS) times[key].push(ms);
      } catch (error) {
        if (!(error instanceof Unexpected) && !(error instanceof TypeError)) throw error;
        failures.push(`sign-in, ${CASE_NAMES[key]} (${account.email}): ${error.message}`);
      }
    }
  }
  return { cases: CASE_ORDER.map((key) => summary(key, times[key])), failures };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

/** Each case's p50 minus the password alone's: what its step costs over a password sign-in (the second step's added cost). */
function overPassword(cases: readonly SignInBenchCase[], c: SignInBenchCase): string {
  const password = cases.find((other) => other.key === 'password');
  if (!password || c.key === 'password') return '—';
  const delta = c.p50Ms - password.p50Ms;
  return Number.isFinite(delta) ? `${delta < 0 ? '−' : '+'}${Math.abs(delta).toFixed(1)} ms` : 'n/a';
}

/** One line per case, for the console, and the second step's added cost. */
export function signInBenchLines(backend: string, cases: readonly SignInBenchCase[]): string[] {
  const lines = cases.map(
    (c) =>
      `  ${backend} sign-in, ${c.name}: p50 ${ms(c.p50Ms)}, p95 ${ms(c.p95Ms)}, max ${ms(c.maxMs)} over ${c.samples.length}; p50 vs password only ${overPassword(cases, c)}`,
  );
  const totp = cases.find((c) => c.key === 'totp');
  if (totp) lines.push(`  ${backend} sign-in: the authenticator code's second step adds ${overPassword(cases, totp)} at p50`);
  return lines;
}

/** The Markdown table of docs/benchmarks.md: one row per backend and case. */
export function signInBenchTable(rows: readonly { backend: string; cases: readonly SignInBenchCase[] }[]): string {
  return [
    `Taken ${new Date().toISOString().slice(0, 10)}; each sample a fresh browser and account, times from the first request to the answer with the session.`,
    '',
    '| backend | sign-in | samples | p50 | p95 | max | p50 − password only |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.flatMap(({ backend, cases }) =>
      cases.map((c) => `| ${backend} | ${c.name} | ${c.samples.length} | ${ms(c.p50Ms)} | ${ms(c.p95Ms)} | ${ms(c.maxMs)} | ${overPassword(cases, c)} |`),
    ),
  ].join('\n');
}

/** Standalone: the accounts alone, the API-only server on them, the four cases, the figures. */
runIfMain(import.meta.url, () =>
  runStandalone(
    'sign-in',
    (target) => seedSignInBench(target),
    async (url, backend, bench) => {
      const { cases, failures } = await bench.measure(url);
      for (const line of signInBenchLines(backend, cases)) console.log(line);
      console.log(`\n${signInBenchTable([{ backend, cases }])}`);
      for (const c of cases) console.log(`${c.name} samples (ms): ${c.samples.map((value) => value.toFixed(1)).join(', ')}`);
      if (failures.length > 0) console.error(`Failures:\n- ${failures.join('\n- ')}`);
      return failures.length === 0;
    },
  ),
);
