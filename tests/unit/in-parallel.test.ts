/** `inParallel` (src/shared/in-parallel.ts): every item once, never more than `limit` at a time, the first failure rejects. */
import { describe, expect, it } from 'vitest';
import { inParallel } from '../../src/shared/in-parallel.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('inParallel', () => {
  it('works through every item, at most `limit` at a time', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inParallel([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, async (item) => {
      running += 1;
      most = Math.max(most, running);
      await tick();
      done.push(item);
      running -= 1;
    });
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBe(4);
    await inParallel([], 4, async () => {
      throw new Error('never called');
    });
  });

  it('rejects with the first failure', async () => {
    await expect(
      inParallel(['a', 'b', 'c'], 2, async (item) => {
        await tick();
        if (item === 'b') throw new Error('b failed');
      }),
    ).rejects.toThrow('b failed');
  });
});
