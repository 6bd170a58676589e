import { asc, eq } from 'drizzle-orm';
import type { FlagValue } from '../../shared/flags.ts';
import type { Db } from '../db/index.ts';
import { featureFlags, type FeatureFlag } from '../db/schema/index.ts';

export async function getFlag(db: Db, key: string): Promise<FlagValue | undefined> {
  const [row] = await db.select({ value: featureFlags.value }).from(featureFlags).where(eq(featureFlags.key, key)).limit(1);
  return row?.value;
}

/** Sets a flag (made or replaced); the stored row. */
export async function setFlag(db: Db, key: string, value: FlagValue, updatedBy: number | null = null): Promise<FeatureFlag> {
  const now = new Date();
  const [row] = await db
    .insert(featureFlags)
    .values({ key, value, updatedAt: now, updatedBy })
    .onConflictDoUpdate({ target: featureFlags.key, set: { value, updatedAt: now, updatedBy } })
    .returning();
  if (!row) throw new Error('flag not stored');
  return row;
}

/** Removes a flag; false when it was not set. */
export async function unsetFlag(db: Db, key: string): Promise<boolean> {
  const removed = await db.delete(featureFlags).where(eq(featureFlags.key, key)).returning({ key: featureFlags.key });
  return removed.length > 0;
}

export function listFlags(db: Db): Promise<FeatureFlag[]> {
  return db.select().from(featureFlags).orderBy(asc(featureFlags.key));
}
