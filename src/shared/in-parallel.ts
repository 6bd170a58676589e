/**
 * Runs `work` over `items`, `limit` at a time, in order of start; rejects with the first failure
 * (the others still running finish). One piece for the server (copying photos to S3) and the
 * browser (the service worker's precache, a few files at a time rather than all at once).
 */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
