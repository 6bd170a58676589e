/**
 * `npm run fuzz`: property-based fuzzing of every API call that takes input (docs/fuzzing.md),
 * against a real server this script starts (PGlite in a fresh folder; FUZZ_POSTGRES=1 for a fresh
 * PostgreSQL database beside the tests' ones, `TEST_DATABASE_URL` or 127.0.0.1:5432, dropped after). Hostile paths, queries and bodies as each role; no 5xx, no hang, no dropped
 * connection, every 4xx in the one error shape.
 *
 * Environment: FUZZ_RUNS (cases, default 10,000), FUZZ_SEED (replay a run; printed at the start).
 * Exit code 1 with the seed and the smallest failing request when a property fails.
 */
import { runFuzz, startFuzzServer, summary } from '../tests/fuzz/harness.ts';
import { createFreshDatabase, type FreshDatabase } from '../tests/support/postgres.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 10_000);
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(runs) || runs < 1) throw new Error('FUZZ_RUNS: a positive whole number');
if (!Number.isSafeInteger(seed)) throw new Error('FUZZ_SEED: a whole number');

console.log(`fuzz: ${runs} cases, seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)`);
const postgres: FreshDatabase | null = process.env.FUZZ_POSTGRES === '1' ? await createFreshDatabase() : null;
const fuzzServer = await startFuzzServer(postgres?.url ?? '');
console.log(`server: ${fuzzServer.url} (${postgres ? 'PostgreSQL' : 'PGlite'})`);
let failed = true;
try {
  const result = await runFuzz({
    url: fuzzServer.url,
    env: fuzzServer.env,
    runs,
    seed,
    progressEvery: 1_000,
    log: (line) => console.log(line),
    serverOutput: fuzzServer.server.output,
  });
  console.log(summary(result));
  if (result.failure) console.error(`\nFAILED\n${result.failure}`);
  else console.log('passed: no 5xx, no hang, no dropped connection, every 4xx in the error shape');
  failed = result.failure !== null;
} finally {
  await fuzzServer.stop();
  await postgres?.drop();
}
process.exit(failed ? 1 : 0);
