/** Boot steps of the shell (src/app/shell.ts), kept apart so they can be tested without a browser. */

/** Runs each boot step; the first failure becomes a startup error (the remaining steps still run). */
export function bootSteps(steps: readonly (() => void)[], onError: (error: unknown) => void): boolean {
  let ok = true;
  for (const step of steps) {
    try {
      step();
    } catch (error) {
      if (ok) onError(error);
      ok = false;
    }
  }
  return ok;
}
