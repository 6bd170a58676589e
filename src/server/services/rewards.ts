/**
 * The rewards catalogue and the community's rewards settings (issue 30; docs/api.md "Rewards").
 * Redemptions, which spend points on these, are services/redemptions.ts.
 */
import { eq } from 'drizzle-orm';
import { DEFAULT_REWARD_SETTINGS, type RewardSettings } from '../../shared/rewards.ts';
import type { Db } from '../db/index.ts';
import { rewardSettings, rewards, type Reward } from '../db/schema/index.ts';

/** The settings as last saved (`PUT /api/admin/rewards/settings`), or the defaults before anyone saved any. */
export async function getRewardSettings(db: Db): Promise<RewardSettings> {
  const [row] = await db.select({ settings: rewardSettings.settings }).from(rewardSettings).where(eq(rewardSettings.id, 1)).limit(1);
  return row ? { ...DEFAULT_REWARD_SETTINGS, ...row.settings } : DEFAULT_REWARD_SETTINGS;
}

/** A reward by id, or null. */
export async function findReward(db: Db, id: number): Promise<Reward | null> {
  const [row] = await db.select().from(rewards).where(eq(rewards.id, id)).limit(1);
  return row ?? null;
}
