import type { Logger } from '../logger.ts';

/**
 * Work that runs after the answer is sent (mails of register and forgot-password), so that the
 * answer takes the same time whether or not the email is known. Failures are logged.
 * `idle()` resolves when nothing is running (tests, graceful shutdown).
 */
export class BackgroundTasks {
  private readonly running = new Set<Promise<void>>();
  private readonly logger: Logger;
  constructor(logger: Logger) {
    this.logger = logger;
  }

  run(name: string, task: () => Promise<unknown>): void {
    const promise: Promise<void> = Promise.resolve()
      .then(task)
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error, task: name }, 'background task failed'),
      )
      .finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
