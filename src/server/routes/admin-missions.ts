import { Hono, type Context } from 'hono';
import { missionPatchSchema } from '../../shared/schemas/programme.ts';
import { bulkReviewSchema, probeCreateSchema, reviewDecisionSchema, reviewNoteSchema, reviewQueueQuerySchema } from '../../shared/schemas/review.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { audit } from '../services/audit.ts';
import { existingMission, missionSummary, missionView, updateMission } from '../services/missions-admin.ts';
import { askProbe } from '../services/probes.ts';
import { auditChanges } from '../services/projects.ts';
import { addNote, bulkApprove, requireSubmission, reviewEntry, reviewQueue, reviewSubmission } from '../services/review.ts';
import { pathId, programmeAdminOnly } from './admin-projects.ts';
import { signedInUser } from './params.ts';

const missionIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'mission');

/** One mission: details, edit, submissions (moderators and admins). */
export const adminMissionRoutes = new Hono<AppEnv>()
  .use('*', ...programmeAdminOnly)

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
    const after = await db.transaction(async (tx) => {
      const changed = await updateMission(tx, deps.clock, id, patch, { id: user.id, storage: deps.storage });
      await audit(tx, {
        actorId: user.id,
        via: 'api',
        action: 'mission.update',
        targetType: 'mission',
        targetId: id,
        ...auditChanges(missionSummary(changed.before), missionSummary(changed.after)),
        ip: clientIp(c),
      });
      return changed.after;
    });
    return c.json(await missionView(db, after), 200);
  })

  /** The review queue (`services/review.ts`: `reviewQueue`). */
  .get('/:id/submissions', async (c) => {
    const mission = await existingMission(c.var.db, missionIdOf(c));
    const query = readQuery(c, reviewQueueQuerySchema);
    return c.json(await reviewQueue(c.var.db, mission.id, query), 200);
  });

const submissionIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'submission');
const reviewerOf = (c: Context<AppEnv>) => ({ actorId: signedInUser(c.var.user).id, ip: clientIp(c) });

/**
 * Submissions (participants' mission entries) for moderators and admins, mounted at
 * `/api/admin/submissions`: one with its answers, photos, versions, notes and probes; decisions
 * (one, or bulk approve); probes; internal notes. Rules: `services/review.ts`, `probes.ts`.
 */
export const adminSubmissionRoutes = new Hono<AppEnv>()
  .use('*', ...programmeAdminOnly)

  .post('/review', async (c) => {
    const input = await readJson(c, bulkReviewSchema);
    return c.json(await bulkApprove(c.var.db, c.var.deps.clock, input.ids, reviewerOf(c)), 200);
  })

  .get('/:id', async (c) => {
    return c.json(await reviewSubmission(c.var.db, submissionIdOf(c)), 200);
  })

  .post('/:id/review', async (c) => {
    const id = submissionIdOf(c);
    await requireSubmission(c.var.db, id);
    const input = await readJson(c, reviewDecisionSchema);
    await reviewEntry(c.var.db, c.var.deps.clock, id, input, reviewerOf(c));
    return c.json(await reviewSubmission(c.var.db, id), 200);
  })

  .post('/:id/probes', async (c) => {
    const id = submissionIdOf(c);
    await requireSubmission(c.var.db, id);
    const input = await readJson(c, probeCreateSchema);
    return c.json(await askProbe(c.var.db, c.var.deps.clock, id, input.question, reviewerOf(c)), 201);
  })

  .post('/:id/notes', async (c) => {
    const id = submissionIdOf(c);
    await requireSubmission(c.var.db, id);
    const input = await readJson(c, reviewNoteSchema);
    return c.json(await addNote(c.var.db, c.var.deps.clock, id, input.body, reviewerOf(c)), 201);
  });
