/**
 * The V8 flags a server on the embedded database runs with, to stay within 400 MiB
 * (docs/decisions/028-embedded-memory.md). They must be given on the command line (V8 freezes its
 * flags once it starts), so `npm start` (scripts/start.ts) and a direct `node src/server/main.ts`
 * restart themselves in place with them (`process.execve`: the same process id, nothing left
 * running), and the scripts that spawn the server pass them.
 *
 * - `--liftoff-only`: V8's optimising compiler spent up to ~500 MiB at once compiling the largest
 *   functions of PostgreSQL's WebAssembly (an embedded server peaked at ~1.1 GiB); its baseline
 *   compiler runs the engine at most ~25 % slower.
 * - `--max-semi-space-size=4`: V8 sizes its young generation from the machine's memory (tens of
 *   megabytes a half on a 24 GiB machine), mostly garbage kept around; 4 MiB halves keep the heap
 *   near what the server holds, for ~10 % more CPU a request.
 * - `--optimize-for-size`: V8 let the old generation grow to four times what is live before a full
 *   collection (a burst of requests took a heap of 56 MiB live to 225 MiB, and kept the pages);
 *   in this mode (V8's for small devices) it grows to twice at most.
 *
 * With PostgreSQL (`DATABASE_URL`) the server runs with V8's defaults: its memory is not the
 * embedded engine's, and throughput comes first there.
 * `FIELDWORK_NODE_FLAGS=0` turns the restart off (the server then runs with whatever it was given).
 */

/** The flags for a server with this environment. */
export function serverNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.DATABASE_URL?.trim() ? [] : ['--liftoff-only', '--max-semi-space-size=4', '--optimize-for-size'];
}

/** The flags this process lacks (a flag given with another value counts as given). */
export function missingNodeFlags(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): string[] {
  const given = new Set(execArgv.map((arg) => arg.split('=')[0]));
  return serverNodeFlags(env).filter((flag) => !given.has(flag.split('=')[0]));
}

/**
 * Restarts this process in place with the server's flags when it lacks them; returns when it has
 * them (or cannot restart: no `process.execve` on this platform, or `FIELDWORK_NODE_FLAGS=0`).
 */
export function runWithServerNodeFlags(): void {
  const missing = missingNodeFlags();
  if (missing.length === 0 || process.env.FIELDWORK_NODE_FLAGS === '0' || typeof process.execve !== 'function') return;
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...missing, ...process.argv.slice(1)], process.env);
}
