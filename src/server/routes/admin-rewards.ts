import { Hono, type Context } from 'hono';
import type { AdminRewardSettings, RewardSettings } from '../../shared/rewards.ts';
import { rewardCreateSchema, rewardListQuerySchema, rewardPatchSchema, rewardSettingsSchema, taxFormSchema } from '../../shared/schemas/rewards.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, check, clientIp, jsonBody, notFound, pathId, perRequest, query, signedInUser, staffOnly } from '../http.ts';
import { withAudit } from '../services/audit.ts';
import { updateWithAudit } from '../services/projects.ts';
import {
  adminRewardView,
  createReward,
  existingReward,
  getRewardSettings,
  listRewards,
  rewardSummary,
  saveRewardSettings,
  setTaxForm,
  updateReward,
} from '../services/rewards.ts';
import { findUserById } from '../services/users.ts';

/** The reward of the path, checked (404) before any body is read. */
const rewardOf = perRequest((c) => existingReward(c.get('db'), pathId(c, 'id', 'reward')));

/** The user of the path, checked (404) before the body is read. */
const userOf = perRequest(async (c) => {
  const user = await findUserById(c.get('db'), pathId(c, 'id', 'user'));
  if (!user) throw notFound('user');
  return user;
});

/**
 * The rewards catalogue and the community's rewards settings (issue 30; docs/api.md "Rewards"):
 * moderators read, admins change (docs/permissions.md). Mounted at `/`, each call names its whole
 * path and is guarded on its own; the settings come before `/:id`. Every change is audited in its
 * transaction. The tax-form record is here too: it is a rewards rule (the yearly value), kept on the user.
 */
/** The settings as staff see them: with the provider this server orders from (the screen warns when a provider reward has none). */
const withProvider = (c: Context<AppEnv>, settings: RewardSettings): AdminRewardSettings => ({
  ...settings,
  provider: c.get('deps').config.rewardsProvider?.name ?? null,
});

export const adminRewardRoutes = new Hono<AppEnv>()
  .get('/admin/rewards/settings', staffOnly, async (c) => c.json(withProvider(c, await getRewardSettings(c.get('db'))), 200))

  /** The whole object (every field), validated; audited `reward_settings.update` with before and after. */
  .put('/admin/rewards/settings', adminOnly, jsonBody(rewardSettingsSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    return c.json(withProvider(c, await saveRewardSettings(db, deps.clock, c.req.valid('json'), { id: user.id, ip: clientIp(c) })), 200);
  })

  .get('/admin/rewards', staffOnly, query(rewardListQuerySchema), async (c) => c.json(await listRewards(c.get('db'), c.req.valid('query')), 200))

  .post('/admin/rewards', adminOnly, jsonBody(rewardCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const reward = await withAudit(
      db,
      (tx) => createReward(tx, deps.clock, input, user.id),
      (row) => ({ actorId: user.id, via: 'api', action: 'reward.create', targetType: 'reward', targetId: row.id, after: rewardSummary(row), ip: clientIp(c) }),
    );
    return c.json(adminRewardView(reward), 201);
  })

  .get('/admin/rewards/:id', staffOnly, async (c) => c.json(adminRewardView(await rewardOf(c)), 200))

  /** Any of the fields; the rules between fields are checked on the reward as it would be. Audited `reward.update` (the fields that changed). */
  .patch('/admin/rewards/:id', adminOnly, check(rewardOf), jsonBody(rewardPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await rewardOf(c);
    const { db, deps } = c.var;
    const patch = c.req.valid('json');
    const after = await updateWithAudit(
      db,
      (tx) => updateReward(tx, deps.clock, id, patch),
      { action: 'reward.update', type: 'reward', id, summary: rewardSummary },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(adminRewardView(after), 200);
  })

  /** Admins record that a participant's tax form was received (or withdraw it); audited `user.tax_form`. */
  .put('/admin/users/:id/tax-form', adminOnly, check(userOf), jsonBody(taxFormSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id: userId } = await userOf(c);
    const { onFile } = c.req.valid('json');
    const { db, deps } = c.var;
    return c.json(await setTaxForm(db, deps.clock, userId, onFile, { id: user.id, ip: clientIp(c) }), 200);
  });
