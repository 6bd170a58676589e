import { Hono, type Context } from 'hono';
import { missionPatchSchema } from '../../shared/schemas/missions.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, pathId, readJson, signedInUser, staffOnly } from '../http.ts';
import { withAudit } from '../services/audit.ts';
import { existingMission, missionSummary, missionView, updateMission } from '../services/missions-admin.ts';
import { auditChanges } from '../services/projects.ts';

const missionIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'mission');

/** One mission: details and edit (moderators and admins; its submissions are in `review.ts`). */
export const adminMissionRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/:id', async (c) => {
    const mission = await existingMission(c.var.db, missionIdOf(c));
    return c.json(await missionView(c.var.db, mission), 200);
  })

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const id = missionIdOf(c);
    const { db, deps } = c.var;
    await existingMission(db, id);
    const patch = await readJson(c, missionPatchSchema);
    const after = (
      await withAudit(
        db,
        (tx) => updateMission(tx, deps.clock, id, patch, { id: user.id, storage: deps.storage }),
        (changed) => ({
          actorId: user.id,
          via: 'api',
          action: 'mission.update',
          targetType: 'mission',
          targetId: id,
          ...auditChanges(missionSummary(changed.before), missionSummary(changed.after)),
          ip: clientIp(c),
        }),
      )
    ).after;
    return c.json(await missionView(db, after), 200);
  });
