import { Hono } from 'hono';
import { missionGroupCreateSchema } from '../../shared/schemas/mission-groups.ts';
import { missionCreateSchema } from '../../shared/schemas/missions.ts';
import { announcementCreateSchema } from '../../shared/schemas/announcements.ts';
import { addMembersSchema, memberListQuerySchema, projectCreateSchema, projectListQuerySchema, projectPatchSchema } from '../../shared/schemas/projects.ts';
import { surveyCreateSchema } from '../../shared/schemas/surveys.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { check, clientIp, enforceRateLimits, jsonBody, pathId, perRequest, query, requestLanguage, signedInUser, staffOnly } from '../http.ts';
import { createAnnouncement, listAnnouncements, requireLiveProject } from '../services/announcements.ts';
import { withAudit } from '../services/audit.ts';
import { addMembers, listMembers, removeMember } from '../services/members.ts';
import { createMissionGroup, listProjectMissionGroups } from '../services/mission-groups.ts';
import { createMission, listProjectMissions, missionSummary, missionView } from '../services/missions.ts';
import { withNewWork } from '../services/new-work.ts';
import {
  auditSummary,
  createProject,
  existingProject,
  listProjects,
  projectSummary,
  projectView,
  updateProject,
  updateWithAudit,
} from '../services/projects.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { createSurvey, listProjectSurveys, surveySummary, surveyView } from '../services/surveys.ts';

/** The project of the path, loaded once a request: checked (404) before any body or query is read. */
const projectOf = perRequest((c) => existingProject(c.get('db'), pathId(c, 'id', 'project')));

/**
 * Projects, members, and the surveys, missions and mission groups created in a project
 * (moderators and admins; the project's reason templates for reviews are in `review.ts`). Every
 * change is audited with a small summary, in the change's transaction.
 */
export const adminProjectRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/', query(projectListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listProjects(c.get('db'), query), 200);
  })

  .post('/', jsonBody(projectCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const project = await withAudit(
      db,
      (tx) => createProject(tx, deps.clock, input, user.id),
      (row) => ({
        actorId: user.id,
        via: 'api',
        action: 'project.create',
        targetType: 'project',
        targetId: row.id,
        after: auditSummary(projectSummary(row)),
        ip: clientIp(c),
      }),
    );
    return c.json(await projectView(db, project), 201);
  })

  .get('/:id', async (c) => {
    const project = await projectOf(c);
    return c.json(await projectView(c.get('db'), project), 200);
  })

  .patch('/:id', check(projectOf), jsonBody(projectPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await projectOf(c);
    const { db, deps } = c.var;
    const patch = c.req.valid('json');
    const after = await updateWithAudit(
      db,
      withNewWork(
        deps,
        (tx) => updateProject(tx, deps.clock, id, patch),
        (changed) => ({ kind: 'project', ...changed }),
      ),
      { action: 'project.update', type: 'project', id, summary: projectSummary },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(await projectView(db, after), 200);
  })

  // Members -----------------------------------------------------------------------------------

  .get('/:id/members', check(projectOf), query(memberListQuerySchema), async (c) => {
    const project = await projectOf(c);
    const query = c.req.valid('query');
    return c.json(await listMembers(c.get('db'), project.id, query), 200);
  })

  .post('/:id/members', check(projectOf), jsonBody(addMembersSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const AUDIT_EMAILS = 50;
    const result = await withAudit(
      db,
      (tx) =>
        addMembers(
          { db: tx, clock: deps.clock, jobs: deps.jobs },
          { projectId: project.id, emails: input.emails, invite: input.invite === true, actorId: user.id, language: requestLanguage(c) },
        ),
      (added) => ({
        actorId: user.id,
        via: 'api',
        action: 'project.members.add',
        targetType: 'project',
        targetId: project.id,
        after: {
          added: added.added.length,
          alreadyMembers: added.alreadyMembers.length,
          unknown: added.unknown.length,
          invalid: added.invalid.length,
          ...(added.invited ? { invited: added.invited.length } : {}),
          emails: [...added.added, ...(added.invited ?? [])].slice(0, AUDIT_EMAILS),
        },
        ip: clientIp(c),
      }),
    );
    return c.json(result, 200);
  })

  .delete('/:id/members/:userId', async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const userId = pathId(c, 'userId', 'member');
    const { db } = c.var;
    await withAudit(
      db,
      async (tx) => {
        const removed = await removeMember(tx, project.id, userId);
        if (!removed) throw new ApiError(404, 'not_found', 'No such member');
        return removed;
      },
      (removed) => ({
        actorId: user.id,
        via: 'api',
        action: 'project.members.remove',
        targetType: 'project',
        targetId: project.id,
        before: { userId, email: removed.email },
        ip: clientIp(c),
      }),
    );
    return c.body(null, 204);
  })

  // Announcements to the members ----------------------------------------------------------------

  .get('/:id/announcements', async (c) => {
    const project = await projectOf(c);
    return c.json(await listAnnouncements(c.get('db'), project.id), 200);
  })

  .post('/:id/announcements', check(projectOf), jsonBody(announcementCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    requireLiveProject(project);
    await enforceRateLimits(c, [
      [`announcement:project:${project.id}`, RATE_LIMITS.announcementsPerProject],
      [`announcement:user:${user.id}`, RATE_LIMITS.announcementsPerUser],
    ]);
    const made = await createAnnouncement(db, deps, project, input, { id: user.id, firstName: user.firstName, lastName: user.lastName, ip: clientIp(c) });
    return c.json(made, 201);
  })

  // Surveys, missions, mission groups of the project -------------------------------------------

  .get('/:id/surveys', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectSurveys(c.get('db'), c.get('deps').config.publicUrl, project.id) }, 200);
  })

  .post('/:id/surveys', check(projectOf), jsonBody(surveyCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const survey = await withAudit(
      db,
      withNewWork(
        deps,
        (tx) => createSurvey(tx, deps.clock, project.id, input, user.id),
        (row) => ({ kind: 'survey', before: null, after: row }),
      ),
      (row) => ({
        actorId: user.id,
        via: 'api',
        action: 'survey.create',
        targetType: 'survey',
        targetId: row.id,
        after: { projectId: project.id, ...auditSummary(surveySummary(row)) },
        ip: clientIp(c),
      }),
    );
    return c.json(await surveyView(db, deps.config.publicUrl, survey), 201);
  })

  .get('/:id/missions', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectMissions(c.get('db'), project.id) }, 200);
  })

  .post('/:id/missions', check(projectOf), jsonBody(missionCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const mission = await withAudit(
      db,
      withNewWork(
        deps,
        (tx) => createMission(tx, deps.clock, project.id, input, { id: user.id, storage: deps.storage }),
        (row) => ({ kind: 'mission', before: null, after: row }),
      ),
      (row) => ({
        actorId: user.id,
        via: 'api',
        action: 'mission.create',
        targetType: 'mission',
        targetId: row.id,
        after: { projectId: project.id, ...auditSummary(missionSummary(row)) },
        ip: clientIp(c),
      }),
    );
    return c.json(await missionView(db, mission), 201);
  })

  .get('/:id/mission-groups', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectMissionGroups(c.get('db'), project.id) }, 200);
  })

  .post('/:id/mission-groups', check(projectOf), jsonBody(missionGroupCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const project = await projectOf(c);
    const input = c.req.valid('json');
    const { db, deps } = c.var;
    const group = await withAudit(
      db,
      (tx) => createMissionGroup(tx, deps.clock, project.id, input),
      (made) => ({
        actorId: user.id,
        via: 'api',
        action: 'mission_group.create',
        targetType: 'mission_group',
        targetId: made.id,
        after: { projectId: project.id, title: made.title, missionIds: made.missionIds, unlock: made.unlock, unlockOn: made.unlockOn },
        ip: clientIp(c),
      }),
    );
    return c.json(group, 201);
  });
