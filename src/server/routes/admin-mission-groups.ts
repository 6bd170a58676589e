import { Hono } from 'hono';
import { missionGroupPatchSchema } from '../../shared/schemas/programme.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, readJson } from '../http.ts';
import { audit } from '../services/audit.ts';
import { deleteMissionGroup, existingMissionGroup, updateMissionGroup } from '../services/mission-groups-admin.ts';
import { auditChanges, auditSummary } from '../services/projects.ts';
import { pathId, programmeAdminOnly } from './admin-projects.ts';
import { signedInUser } from './params.ts';

/** What the audit log keeps of a group. */
const groupSummary = (group: { title: string; description: string; missionIds: number[]; unlock: string; unlockOn: string }) => ({
  title: group.title,
  description: group.description,
  missionIds: group.missionIds,
  unlock: group.unlock,
  unlockOn: group.unlockOn,
});

/** One mission group: edit (the mission list replaced in order), delete (moderators and admins). */
export const adminMissionGroupRoutes = new Hono<AppEnv>()
  .use('*', ...programmeAdminOnly)

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const id = pathId(c, 'id', 'mission group');
    const { db, deps } = c.var;
    await existingMissionGroup(db, id);
    const patch = await readJson(c, missionGroupPatchSchema);
    const after = await db.transaction(async (tx) => {
      const changed = await updateMissionGroup(tx, deps.clock, id, patch);
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'mission_group.update',
        targetType: 'mission_group',
        targetId: id,
        ...auditChanges(groupSummary(changed.before), groupSummary(changed.after)),
        ip: clientIp(c),
      });
      return changed.after;
    });
    return c.json(after, 200);
  })

  .delete('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const id = pathId(c, 'id', 'mission group');
    const { db } = c.var;
    await db.transaction(async (tx) => {
      const deleted = await deleteMissionGroup(tx, id);
      if (!deleted) throw new ApiError(404, 'not_found', 'No such mission group');
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'mission_group.delete',
        targetType: 'mission_group',
        targetId: id,
        before: { projectId: deleted.projectId, ...auditSummary(groupSummary(deleted)) },
        ip: clientIp(c),
      });
    });
    return c.body(null, 204);
  });
