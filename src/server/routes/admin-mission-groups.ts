import { Hono } from 'hono';
import { missionGroupPatchSchema } from '../../shared/schemas/mission-groups.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { check, clientIp, jsonBody, pathId, perRequest, signedInUser, staffOnly } from '../http.ts';
import { withAudit } from '../services/audit.ts';
import { deleteMissionGroup, existingMissionGroup, updateMissionGroup } from '../services/mission-groups.ts';
import { auditSummary, updateWithAudit } from '../services/projects.ts';

/** What the audit log keeps of a group. */
const groupSummary = (group: { title: string; description: string; missionIds: number[]; unlock: string; unlockOn: string }) => ({
  title: group.title,
  description: group.description,
  missionIds: group.missionIds,
  unlock: group.unlock,
  unlockOn: group.unlockOn,
});

/** The group of the path, loaded once a request: checked (404) before any body is read. */
const groupOf = perRequest((c) => existingMissionGroup(c.get('db'), pathId(c, 'id', 'mission group')));

/** One mission group: edit (the mission list replaced in order), delete (moderators and admins). */
export const adminMissionGroupRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .patch('/:id', check(groupOf), jsonBody(missionGroupPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await groupOf(c);
    const { db, deps } = c.var;
    const patch = c.req.valid('json');
    const after = await updateWithAudit(
      db,
      (tx) => updateMissionGroup(tx, deps.clock, id, patch),
      { action: 'mission_group.update', type: 'mission_group', id, summary: groupSummary },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(after, 200);
  })

  .delete('/:id', async (c) => {
    const user = signedInUser(c.get('user'));
    const id = pathId(c, 'id', 'mission group');
    const { db } = c.var;
    await withAudit(
      db,
      async (tx) => {
        const deleted = await deleteMissionGroup(tx, id);
        if (!deleted) throw new ApiError(404, 'not_found', 'No such mission group');
        return deleted;
      },
      (deleted) => ({
        actorId: user.id,
        via: 'api',
        action: 'mission_group.delete',
        targetType: 'mission_group',
        targetId: id,
        before: { projectId: deleted.projectId, ...auditSummary(groupSummary(deleted)) },
        ip: clientIp(c),
      }),
    );
    return c.body(null, 204);
  });
