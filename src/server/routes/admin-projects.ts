import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  addMembersSchema,
  memberListQuerySchema,
  missionCreateSchema,
  missionGroupCreateSchema,
  projectCreateSchema,
  projectListQuerySchema,
  projectPatchSchema,
  surveyCreateSchema,
} from '../../shared/schemas/programme.ts';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import { idParamSchema } from '../../shared/schemas/admin.ts';
import { reasonTemplateSchema } from '../../shared/schemas/review.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { requireUser } from '../middleware/session.ts';
import { audit } from '../services/audit.ts';
import { addMembers, listMembers, removeMember } from '../services/members.ts';
import { createMissionGroup, listProjectMissionGroups } from '../services/mission-groups-admin.ts';
import { createMission, listProjectMissions, missionSummary, missionView } from '../services/missions-admin.ts';
import { auditChanges, auditSummary, createProject, existingProject, listProjects, projectSummary, projectView, updateProject } from '../services/projects.ts';
import { createReasonTemplate, deleteReasonTemplate, listReasonTemplates } from '../services/review.ts';
import { createSurvey, listProjectSurveys, surveySummary, surveyView } from '../services/surveys-admin.ts';
import { signedInUser } from './params.ts';

/** A numeric id in the path: digits only, then `idParamSchema`'s range; anything else is 404 like an unknown id. */
export function pathId(c: Context<AppEnv>, name: string, what: string): number {
  const raw = c.req.param(name) ?? '';
  const result = idParamSchema.safeParse({ id: raw });
  if (!/^\d{1,10}$/.test(raw) || !result.success) throw new ApiError(404, 'not_found', `No such ${what}`);
  return result.data.id;
}

/** The admin programme routes' common middleware: moderators and admins only, answers never cached. */
export const programmeAdminOnly = [
  requireUser(ELEVATED_ROLES),
  createMiddleware<AppEnv>(async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  }),
] as const;

const projectOf = (c: Context<AppEnv>) => existingProject(c.var.db, pathId(c, 'id', 'project'));

/**
 * Projects, members, the surveys, missions and mission groups created in a project, and the
 * project's reason templates for reviews (moderators and admins). Every change is audited with a
 * small summary.
 */
export const adminProjectRoutes = new Hono<AppEnv>()
  .use('*', ...programmeAdminOnly)

  .get('/', async (c) => {
    const query = readQuery(c, projectListQuerySchema);
    return c.json(await listProjects(c.var.db, query), 200);
  })

  .post('/', async (c) => {
    const user = signedInUser(c.var.user);
    const input = await readJson(c, projectCreateSchema);
    const { db, deps } = c.var;
    const project = await db.transaction(async (tx) => {
      const row = await createProject(tx, deps.clock, input, user.id);
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'project.create',
        targetType: 'project',
        targetId: row.id,
        after: auditSummary(projectSummary(row)),
        ip: clientIp(c),
      });
      return row;
    });
    return c.json(await projectView(db, project), 201);
  })

  .get('/:id', async (c) => {
    const project = await projectOf(c);
    return c.json(await projectView(c.var.db, project), 200);
  })

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const id = pathId(c, 'id', 'project');
    const { db, deps } = c.var;
    await existingProject(db, id);
    const patch = await readJson(c, projectPatchSchema);
    const after = await db.transaction(async (tx) => {
      const changed = await updateProject(tx, deps.clock, id, patch);
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'project.update',
        targetType: 'project',
        targetId: id,
        ...auditChanges(projectSummary(changed.before), projectSummary(changed.after)),
        ip: clientIp(c),
      });
      return changed.after;
    });
    return c.json(await projectView(db, after), 200);
  })

  // Members -----------------------------------------------------------------------------------

  .get('/:id/members', async (c) => {
    const project = await projectOf(c);
    const query = readQuery(c, memberListQuerySchema);
    return c.json(await listMembers(c.var.db, project.id, query), 200);
  })

  .post('/:id/members', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const input = await readJson(c, addMembersSchema);
    const { db, deps } = c.var;
    const AUDIT_EMAILS = 50;
    const result = await db.transaction(async (tx) => {
      const added = await addMembers(
        { db: tx, clock: deps.clock, jobs: deps.jobs },
        { projectId: project.id, emails: input.emails, invite: input.invite === true, actorId: user.id },
      );
      await audit(tx, {
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
      });
      return added;
    });
    return c.json(result, 200);
  })

  .delete('/:id/members/:userId', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const userId = pathId(c, 'userId', 'member');
    const { db } = c.var;
    await db.transaction(async (tx) => {
      const removed = await removeMember(tx, project.id, userId);
      if (!removed) throw new ApiError(404, 'not_found', 'No such member');
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'project.members.remove',
        targetType: 'project',
        targetId: project.id,
        before: { userId, email: removed.email },
        ip: clientIp(c),
      });
    });
    return c.body(null, 204);
  })

  // Surveys, missions, mission groups of the project -------------------------------------------

  .get('/:id/surveys', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectSurveys(c.var.db, c.var.deps.config.publicUrl, project.id) }, 200);
  })

  .post('/:id/surveys', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const input = await readJson(c, surveyCreateSchema);
    const { db, deps } = c.var;
    const survey = await db.transaction(async (tx) => {
      const row = await createSurvey(tx, deps.clock, project.id, input, user.id);
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'survey.create',
        targetType: 'survey',
        targetId: row.id,
        after: { projectId: project.id, ...auditSummary(surveySummary(row)) },
        ip: clientIp(c),
      });
      return row;
    });
    return c.json(await surveyView(db, deps.config.publicUrl, survey), 201);
  })

  .get('/:id/missions', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectMissions(c.var.db, project.id) }, 200);
  })

  .post('/:id/missions', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const input = await readJson(c, missionCreateSchema);
    const { db, deps } = c.var;
    const mission = await db.transaction(async (tx) => {
      const row = await createMission(tx, deps.clock, project.id, input, { id: user.id, storage: deps.storage });
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'mission.create',
        targetType: 'mission',
        targetId: row.id,
        after: { projectId: project.id, ...auditSummary(missionSummary(row)) },
        ip: clientIp(c),
      });
      return row;
    });
    return c.json(await missionView(db, mission), 201);
  })

  .get('/:id/mission-groups', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listProjectMissionGroups(c.var.db, project.id) }, 200);
  })

  .post('/:id/mission-groups', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const input = await readJson(c, missionGroupCreateSchema);
    const { db, deps } = c.var;
    const group = await db.transaction(async (tx) => {
      const made = await createMissionGroup(tx, deps.clock, project.id, input);
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'mission_group.create',
        targetType: 'mission_group',
        targetId: made.id,
        after: { projectId: project.id, title: made.title, missionIds: made.missionIds, unlock: made.unlock, unlockOn: made.unlockOn },
        ip: clientIp(c),
      });
      return made;
    });
    return c.json(group, 201);
  })

  // Reason templates (review) -----------------------------------------------------------------

  .get('/:id/reason-templates', async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listReasonTemplates(c.var.db, project.id) }, 200);
  })

  .post('/:id/reason-templates', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const input = await readJson(c, reasonTemplateSchema);
    return c.json(await createReasonTemplate(c.var.db, c.var.deps.clock, project.id, input, { actorId: user.id, ip: clientIp(c) }), 201);
  })

  .delete('/:id/reason-templates/:templateId', async (c) => {
    const user = signedInUser(c.var.user);
    const project = await projectOf(c);
    const templateId = pathId(c, 'templateId', 'reason template');
    await deleteReasonTemplate(c.var.db, project.id, templateId, { actorId: user.id, ip: clientIp(c) });
    return c.body(null, 204);
  });
