/** Rewards fixtures shared by the redemption API tests (issue 30): the settings row and a reward, written directly. */
import { rewardSettings, rewards, type Reward } from '../../src/server/db/schema/index.ts';
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from '../../src/shared/rewards.ts';
import type { TestContext } from './harness.ts';

/** The settings row as given (the rest: defaults with no minimum and several open requests, so each test says what it checks). */
export async function rewardSettingsAre(c: TestContext, given: Partial<RewardSettings> = {}): Promise<void> {
  const value: RewardSettings = { ...DEFAULT_REWARD_SETTINGS, minimumPoints: 0, oneOpenRequest: false, reviewFirstRedemption: false, ...given };
  await c.database.db
    .insert(rewardSettings)
    .values({ id: 1, settings: value })
    .onConflictDoUpdate({ target: rewardSettings.id, set: { settings: value } });
}

/** A reward of the catalogue (a EUR book voucher unless `input` says otherwise). */
export async function insertReward(
  c: TestContext,
  defaults: Partial<typeof rewards.$inferInsert>,
  input: Partial<typeof rewards.$inferInsert> = {},
): Promise<Reward> {
  const [row] = await c.database.db
    .insert(rewards)
    .values({ title: 'Book voucher', kind: 'gift_card', fulfilment: 'manual', currency: 'EUR', denominations: [5, 10], ...defaults, ...input })
    .returning();
  if (!row) throw new Error('no reward');
  return row;
}

/** A key for `Idempotency-Key`, new each call. */
let keys = 0;
export const newKey = () => `key-${++keys}-${Date.now().toString(36)}`;
