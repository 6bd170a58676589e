import { Hono } from 'hono';
import { missionPatchSchema } from '../../shared/schemas/missions.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, jsonBody, pathId, perRequest, signedInUser, staffOnly } from '../http.ts';
import { existingMission, missionSummary, missionView, updateMission } from '../services/missions.ts';
import { withNewWork } from '../services/new-work.ts';
import { updateWithAudit } from '../services/projects.ts';

/** The mission of the path, loaded once a request: checked (404) before any body is read. */
const missionOf = perRequest((c) => existingMission(c.get('db'), pathId(c, 'id', 'mission')));

/** One mission: details and edit (moderators and admins; its submissions are in `review.ts`). */
export const adminMissionRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/:id', async (c) => {
    const mission = await missionOf(c);
    return c.json(await missionView(c.get('db'), mission), 200);
  })

  .patch('/:id', check(missionOf), jsonBody(missionPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await missionOf(c);
    const { db, deps } = c.var;
    const patch = c.req.valid('json');
    const after = await updateWithAudit(
      db,
      withNewWork(
        deps,
        (tx) => updateMission(tx, deps.clock, id, patch, { id: user.id, storage: deps.storage }),
        (changed) => ({ kind: 'mission', ...changed }),
      ),
      { action: 'mission.update', type: 'mission', id, summary: missionSummary },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(await missionView(db, after), 200);
  });
