import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { notFound, pathId, signedIn, signedInUser } from '../http.ts';
import { findVisibleGroup, participantGroup } from '../services/participation.ts';

/**
 * Mission groups as participants see them (`GET /api/mission-groups/{id}`): the missions in order
 * with their state (locked and why, open, in progress, submitted, approved) and progress. 404
 * unless the user is a member of the group's live (or closed) project.
 */
export const missionGroupRoutes = new Hono<AppEnv>().use('*', signedIn).get('/:id', async (c) => {
  const user = signedInUser(c.get('user'));
  const { db, deps } = c.var;
  const visible = await findVisibleGroup(db, user.id, pathId(c, 'id', 'mission group'));
  if (!visible) throw notFound('mission group');
  return c.json(await participantGroup(db, deps.clock.now(), visible, user.id, user.preferences.language), 200);
});
