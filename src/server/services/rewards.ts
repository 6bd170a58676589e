/**
 * The rewards catalogue and the community's rewards settings (issue 30; docs/api.md "Rewards"):
 * staff's list, create and update, the settings, the tax-form record, and the catalogue as a
 * participant sees it. Redemptions, which spend points on these, are services/redemptions.ts.
 */
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { ListPage } from '../../shared/list.ts';
import {
  DEFAULT_REWARD_SETTINGS,
  REWARD_UNAVAILABLE,
  type AdminReward,
  type RewardCatalogue,
  type RewardSettings,
  type RewardValues,
  type RewardView,
  type TaxFormRecord,
} from '../../shared/rewards.ts';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import {
  rewardShapeProblems,
  splitValues,
  type rewardCreateSchema,
  type rewardListQuerySchema,
  type rewardPatchSchema,
  type rewardSettingsSchema,
} from '../../shared/schemas/rewards.ts';
import type { Db } from '../db/index.ts';
import { media, rewardSettings, rewards, users, type Reward } from '../db/schema/index.ts';
import { ApiError, foundOr404 } from '../errors.ts';
import { withAudit } from './audit.ts';
import type { Clock } from './clock.ts';
import { countOf, listOrder, paginate } from './list.ts';
import { pointsBalance } from './points.ts';
import { auditSummary, copyDefined, fieldError, insertedRow } from './projects.ts';
import { containsPattern } from './search.ts';

export type RewardCreate = z.output<typeof rewardCreateSchema>;
export type RewardPatch = z.output<typeof rewardPatchSchema>;
export type RewardListQuery = z.output<typeof rewardListQuerySchema>;

/** The settings as last saved (`PUT /api/admin/rewards/settings`), or the defaults before anyone saved any. */
export async function getRewardSettings(db: Db): Promise<RewardSettings> {
  const [row] = await db.select({ settings: rewardSettings.settings }).from(rewardSettings).where(eq(rewardSettings.id, 1)).limit(1);
  return settingsOf(row?.settings ?? null);
}

/** Saved settings (or none) with the defaults under them. */
export const settingsOf = (saved: RewardSettings | null): RewardSettings => (saved ? { ...DEFAULT_REWARD_SETTINGS, ...saved } : DEFAULT_REWARD_SETTINGS);

/** The saved settings as a column of another query (`settingsOf` it): read with the reward, one statement. */
export const savedSettingsColumn =
  sql<RewardSettings | null>`(select ${rewardSettings.settings} from ${rewardSettings} where ${rewardSettings.id} = 1)`.mapWith((value: unknown) =>
    typeof value === 'string' ? (JSON.parse(value) as RewardSettings) : (value as RewardSettings | null),
  );

/** A reward by id, or null. */
export async function findReward(db: Db, id: number): Promise<Reward | null> {
  const [row] = await db.select().from(rewards).where(eq(rewards.id, id)).limit(1);
  return row ?? null;
}

/** The reward, or 404 `not_found`. */
export async function existingReward(db: Db, id: number): Promise<Reward> {
  return foundOr404(await findReward(db, id), 'No such reward');
}

/** Where a reward's image is served (`GET /api/media/{id}`). */
const imageUrlOf = (mediaId: string | null): string | null => (mediaId ? `/api/media/${encodeURIComponent(mediaId)}` : null);

// ---------------------------------------------------------------------------------------------
// The catalogue, for staff

export function adminRewardView(row: Reward): AdminReward {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    kind: row.kind,
    fulfilment: row.fulfilment,
    providerProductId: row.providerProductId,
    currency: row.currency,
    ...splitValues(row.denominations),
    countries: row.countries,
    active: row.active,
    stock: row.stock,
    imageMediaId: row.imageMediaId,
    imageUrl: imageUrlOf(row.imageMediaId),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a reward (`reward.create`, `reward.update`): every field it was given (not its id, author or times). */
export const rewardSummary = ({ id: _id, createdBy: _createdBy, createdAt: _createdAt, updatedAt: _updatedAt, ...given }: Reward) => auditSummary(given);

/**
 * A page of rewards (the list contract): `q` searches the title and the provider's product id;
 * `active` and `kind` filter; sorted by `updated` (default, most recently changed first), `title`
 * (A to Z) or `created` (newest first).
 */
export async function listRewards(db: Db, query: RewardListQuery): Promise<ListPage<AdminReward>> {
  const conditions: SQL[] = [];
  if (query.active) conditions.push(eq(rewards.active, query.active === 'true'));
  if (query.kind) conditions.push(eq(rewards.kind, query.kind));
  if (query.q) {
    const pattern = containsPattern(query.q);
    const search = or(ilike(rewards.title, pattern), ilike(rewards.providerProductId, pattern));
    if (search) conditions.push(search);
  }
  const where = and(...conditions);
  const order = listOrder(
    query,
    {
      updated: { by: rewards.updatedAt, dir: 'desc' },
      title: { by: sql`lower(${rewards.title})`, dir: 'asc' },
      created: { by: rewards.createdAt, dir: 'desc' },
    },
    rewards.id,
  );
  return paginate(query, {
    rows: async (limit, offset) =>
      (
        await db
          .select()
          .from(rewards)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset)
      ).map(adminRewardView),
    count: () => countOf(db.select({ value: count() }).from(rewards).where(where)),
  });
}

/**
 * A reward's image must be a photo uploaded by staff (`POST /api/media`): participants are shown
 * it, and a participant's own photo must never become visible to others that way (400 on
 * `imageMediaId` otherwise). It is marked attached, so the housekeeping of never-used uploads
 * leaves it; marking it first locks its row, so a removal at the same time waits for the reward
 * (or finds it gone, and the reward's insert never meets a missing photo). Runs in the change's
 * transaction: a refusal undoes the mark.
 */
async function attachImage(db: Db, now: Date, mediaId: string): Promise<void> {
  const [row] = await db
    .update(media)
    .set({ attachedAt: sql`coalesce(${media.attachedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(media.id, mediaId))
    .returning({ ownerId: media.ownerId });
  if (!row) throw fieldError('imageMediaId', 'No such image: upload it first');
  const [owner] = await db.select({ role: users.role }).from(users).where(eq(users.id, row.ownerId)).limit(1);
  if (!owner || !ELEVATED_ROLES.includes(owner.role)) throw fieldError('imageMediaId', 'Choose an image uploaded by staff');
}

/** The values as stored: the fixed denominations, or the range. */
function valuesOf(input: { denominations?: number[] | undefined; range?: { min: number; max: number; step: number } | undefined }): RewardValues | undefined {
  return input.denominations ?? input.range;
}

export async function createReward(db: Db, clock: Clock, input: RewardCreate, actorId: number): Promise<Reward> {
  const values = valuesOf(input);
  // The schema has checked that exactly one is given.
  if (!values) throw fieldError('denominations', 'Give fixed values or a range');
  const now = clock.now();
  if (input.imageMediaId) await attachImage(db, now, input.imageMediaId);
  const rows = await db
    .insert(rewards)
    .values({
      title: input.title,
      description: input.description,
      kind: input.kind,
      fulfilment: input.fulfilment,
      providerProductId: input.providerProductId ?? null,
      currency: input.currency,
      denominations: values,
      countries: input.countries,
      active: input.active,
      stock: input.stock ?? null,
      imageMediaId: input.imageMediaId ?? null,
      createdBy: actorId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return insertedRow(rows);
}

/**
 * Changes the given fields. The rules between fields are checked on the reward as it would be
 * (a provider reward keeps a product id, only custom rewards keep a stock), as 400s on the field
 * at fault. The row is locked first, so two edits at once apply one after the other. Returns the
 * reward before and after.
 */
export async function updateReward(db: Db, clock: Clock, id: number, patch: RewardPatch): Promise<{ before: Reward; after: Reward }> {
  const [before] = await db.select().from(rewards).where(eq(rewards.id, id)).for('update').limit(1);
  if (!before) throw new ApiError(404, 'not_found', 'No such reward');
  const values = valuesOf(patch) ?? before.denominations;
  const merged = {
    kind: patch.kind ?? before.kind,
    fulfilment: patch.fulfilment ?? before.fulfilment,
    providerProductId: patch.providerProductId === undefined ? before.providerProductId : patch.providerProductId,
    ...splitValues(values),
    stock: patch.stock === undefined ? before.stock : patch.stock,
  };
  const [problem] = Object.entries(rewardShapeProblems(merged));
  if (problem) throw fieldError(...problem);
  const now = clock.now();
  if (patch.imageMediaId && patch.imageMediaId !== before.imageMediaId) await attachImage(db, now, patch.imageMediaId);
  const set: Partial<typeof rewards.$inferInsert> = { updatedAt: now, denominations: values };
  copyDefined(set, patch, ['title', 'description', 'kind', 'fulfilment', 'providerProductId', 'currency', 'countries', 'active', 'stock', 'imageMediaId']);
  const [after] = await db.update(rewards).set(set).where(eq(rewards.id, id)).returning();
  if (!after) throw new ApiError(404, 'not_found', 'No such reward');
  return { before, after };
}

// ---------------------------------------------------------------------------------------------
// Settings

export type RewardSettingsSave = z.output<typeof rewardSettingsSchema>;

/**
 * Saves the whole settings object (the one row, id 1), with its audit row (`reward_settings.update`,
 * before and after) in the same transaction. The row is locked (or made) first, so two saves at
 * once each record the state the other left.
 */
export async function saveRewardSettings(db: Db, clock: Clock, settings: RewardSettingsSave, actor: { id: number; ip: string }): Promise<RewardSettings> {
  return withAudit(
    db,
    async (tx) => {
      const [kept] = await tx.select({ settings: rewardSettings.settings }).from(rewardSettings).where(eq(rewardSettings.id, 1)).for('update').limit(1);
      const before = kept ? { ...DEFAULT_REWARD_SETTINGS, ...kept.settings } : DEFAULT_REWARD_SETTINGS;
      const now = clock.now();
      await tx
        .insert(rewardSettings)
        .values({ id: 1, settings, updatedBy: actor.id, updatedAt: now })
        .onConflictDoUpdate({ target: rewardSettings.id, set: { settings, updatedBy: actor.id, updatedAt: now } });
      return { before, after: settings };
    },
    ({ before, after }) => ({
      actorId: actor.id,
      via: 'api',
      action: 'reward_settings.update',
      targetType: 'reward_settings',
      targetId: 1,
      before: { ...before },
      after: { ...after },
      ip: actor.ip,
    }),
  ).then(({ after }) => after);
}

// ---------------------------------------------------------------------------------------------
// The catalogue, for a participant

/**
 * Why this participant cannot choose the reward now, or null: no rate for its currency yet, not
 * offered in their country (or no address to tell), out of stock — in that order. Points are not
 * a reason here: the screen says how many more are needed from the costs and the balance.
 */
export function unavailableReason(reward: Pick<Reward, 'currency' | 'countries' | 'stock'>, settings: RewardSettings, country: string | null): string | null {
  if (!settings.pointsPerUnit[reward.currency]) return REWARD_UNAVAILABLE.noRate;
  if (reward.countries.length > 0) {
    if (!country) return REWARD_UNAVAILABLE.noCountry;
    if (!reward.countries.includes(country)) return REWARD_UNAVAILABLE.country;
  }
  if (reward.stock === 0) return REWARD_UNAVAILABLE.outOfStock;
  return null;
}

/**
 * `GET /api/rewards`: every active reward, A to Z, each with whether this participant may choose
 * it (never hidden: a reward not offered in their country says so), their balance, and the
 * settings that price them.
 */
export async function rewardCatalogue(db: Db, userId: number): Promise<RewardCatalogue> {
  const [rows, settings, balance, [account]] = await Promise.all([
    db
      .select()
      .from(rewards)
      .where(eq(rewards.active, true))
      .orderBy(asc(sql`lower(${rewards.title})`), asc(rewards.id)),
    getRewardSettings(db),
    pointsBalance(db, userId),
    db.select({ address: users.address }).from(users).where(eq(users.id, userId)).limit(1),
  ]);
  const country = account?.address?.country ?? null;
  const items = rows.map((row): RewardView => {
    const reason = unavailableReason(row, settings, country);
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      kind: row.kind,
      imageUrl: imageUrlOf(row.imageMediaId),
      currency: row.currency,
      denominations: row.denominations,
      pointsPerUnit: settings.pointsPerUnit[row.currency] ?? null,
      available: reason === null,
      unavailableReason: reason,
    };
  });
  return { items, balance, settings: { minimumPoints: settings.minimumPoints, pointsPerUnit: settings.pointsPerUnit } };
}

/** Whether a photo is the image of an active reward (participants may see it: `GET /api/media/{id}`). */
export async function isActiveRewardImage(db: Db, mediaId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: rewards.id })
    .from(rewards)
    .where(and(eq(rewards.imageMediaId, mediaId), eq(rewards.active, true)))
    .limit(1);
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Tax forms

/**
 * Records that a participant's tax form was received (`onFile: true`; the first date is kept when
 * it already was) or withdraws it, with its audit row (`user.tax_form`) in the same transaction.
 * 404 for an unknown user.
 */
export async function setTaxForm(db: Db, clock: Clock, userId: number, onFile: boolean, actor: { id: number; ip: string }): Promise<TaxFormRecord> {
  return withAudit(
    db,
    async (tx) => {
      const [before] = await tx.select({ at: users.taxFormOnFileAt }).from(users).where(eq(users.id, userId)).for('no key update').limit(1);
      if (!before) throw new ApiError(404, 'not_found', 'No such user');
      const at = onFile ? (before.at ?? clock.now()) : null;
      await tx.update(users).set({ taxFormOnFileAt: at }).where(eq(users.id, userId));
      return { before: before.at, after: at };
    },
    ({ before, after }) => ({
      actorId: actor.id,
      via: 'api',
      action: 'user.tax_form',
      targetType: 'user',
      targetId: userId,
      before: { taxFormOnFileAt: before?.toISOString() ?? null },
      after: { taxFormOnFileAt: after?.toISOString() ?? null },
      ip: actor.ip,
    }),
  ).then(({ after }) => ({ onFile: after !== null, taxFormOnFileAt: after?.toISOString() ?? null }));
}
