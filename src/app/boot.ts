/** Boot steps of the shell (src/app/shell.ts), kept apart so they can be tested without a browser. */

/** Hands the main thread back to the browser (it may paint or answer input) before the next step. */
export type Pause = () => Promise<void>;

/** `scheduler.yield()` where the browser has it (the rest of the boot keeps its place ahead of other tasks), else a new task. */
export const yieldToMain: Pause = () => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
};

export interface BootOptions {
  /** The steps from this index on each run after a pause: in tasks of their own, not the page's long first one. */
  apartFrom?: number;
  pause?: Pause;
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
