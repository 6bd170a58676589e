/** Boot steps of the shell (src/app/shell.ts), kept apart so they can be tested without a browser. */
import { yieldToMain } from './idle.ts';

export interface BootOptions {
  /** The steps from this index on each run after a pause: in tasks of their own, not the page's long first one. */
  apartFrom?: number;
  /** What hands the main thread back between two later steps (a fake in unit tests). */
  pause?: () => Promise<void>;
}

/**
 * Runs each boot step in order; the first failure becomes a startup error (the remaining steps
 * still run). The steps before `apartFrom` run at once, in the calling task; each later one after
 * a pause. Resolves with whether every step ran without failing.
 */
export async function bootSteps(
  steps: readonly (() => void)[],
  onError: (error: unknown) => void,
  { apartFrom = steps.length, pause = yieldToMain }: BootOptions = {},
): Promise<boolean> {
  let ok = true;
  for (const [index, step] of steps.entries()) {
    if (index >= apartFrom) await pause();
    try {
      step();
    } catch (error) {
      if (ok) onError(error);
      ok = false;
    }
  }
  return ok;
}
