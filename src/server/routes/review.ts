import { Hono, type Context } from 'hono';
import {
  bulkReviewSchema,
  probeAnswerSchema,
  probeCreateSchema,
  reasonTemplateSchema,
  reviewDecisionSchema,
  reviewInboxQuerySchema,
  reviewNoteSchema,
  reviewQueueQuerySchema,
} from '../../shared/schemas/review.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, jsonBody, pathId, perRequest, query, signedIn, signedInUser, staffOnly } from '../http.ts';
import { answerProbe, askProbe } from '../services/probes.ts';
import { existingProject } from '../services/projects.ts';
import {
  addNote,
  bulkApprove,
  createReasonTemplate,
  deleteReasonTemplate,
  listReasonTemplates,
  requireMission,
  requireSubmission,
  reviewEntry,
  reviewInbox,
  reviewQueue,
  reviewSubmission,
} from '../services/review.ts';

/** The submission of the path, checked to exist (404) before any body is read. */
const submissionOf = perRequest(async (c) => {
  const id = pathId(c, 'id', 'submission');
  await requireSubmission(c.get('db'), id);
  return id;
});
const reviewerOf = (c: Context<AppEnv>) => ({ actorId: signedInUser(c.get('user')).id, ip: clientIp(c) });
const projectOf = perRequest((c) => existingProject(c.get('db'), pathId(c, 'id', 'project')));
/** The mission of the path, checked to exist (404): its id only, all the queue needs. */
const missionOf = perRequest(async (c) => {
  const id = pathId(c, 'id', 'mission');
  await requireMission(c.get('db'), id);
  return id;
});
const probeIdOf = perRequest(async (c) => pathId(c, 'id', 'probe'));

/**
 * Review (mounted at `/api`, so each call names its whole path): a mission's queue, the review
 * inbox (the queue across projects), submissions
 * (participants' mission entries) with their answers, photos, versions, notes and probes,
 * decisions (one, or bulk approve), probes and internal notes, and a project's reason templates,
 * for moderators and admins; and the participant's answer to a probe. Rules:
 * `services/review.ts`, `probes.ts`.
 */
export const reviewRoutes = new Hono<AppEnv>()
  /** The review queue of a mission. */
  /** An unknown mission is 404 whatever the query: `reviewQueue` looks for it when its page is empty, `query` before a 400. */
  .get('/admin/missions/:id/submissions', staffOnly, query(reviewQueueQuerySchema, missionOf), async (c) => {
    const query = c.req.valid('query');
    return c.json(await reviewQueue(c.get('db'), pathId(c, 'id', 'mission'), query), 200);
  })

  /** The review inbox: the queue across every project, oldest first, paged by cursor (a path of its own: not `/admin/submissions/:id`). */
  .get('/admin/submissions', staffOnly, query(reviewInboxQuerySchema), async (c) => {
    return c.json(await reviewInbox(c.get('db'), c.req.valid('query')), 200);
  })

  .post('/admin/submissions/review', staffOnly, jsonBody(bulkReviewSchema), async (c) => {
    const input = c.req.valid('json');
    return c.json(await bulkApprove(c.get('db'), c.get('deps').clock, input.ids, reviewerOf(c)), 200);
  })

  .get('/admin/submissions/:id', staffOnly, async (c) => {
    return c.json(await reviewSubmission(c.get('db'), pathId(c, 'id', 'submission')), 200);
  })

  .post('/admin/submissions/:id/review', staffOnly, check(submissionOf), jsonBody(reviewDecisionSchema), async (c) => {
    const id = await submissionOf(c);
    const input = c.req.valid('json');
    await reviewEntry(c.get('db'), c.get('deps').clock, id, input, reviewerOf(c), c.get('deps').jobs);
    return c.json(await reviewSubmission(c.get('db'), id), 200);
  })

  .post('/admin/submissions/:id/probes', staffOnly, check(submissionOf), jsonBody(probeCreateSchema), async (c) => {
    const id = await submissionOf(c);
    const input = c.req.valid('json');
    return c.json(await askProbe(c.get('db'), c.get('deps').clock, id, input.question, reviewerOf(c), c.get('deps').jobs), 201);
  })

  .post('/admin/submissions/:id/notes', staffOnly, check(submissionOf), jsonBody(reviewNoteSchema), async (c) => {
    const id = await submissionOf(c);
    const input = c.req.valid('json');
    return c.json(await addNote(c.get('db'), c.get('deps').clock, id, input.body, reviewerOf(c)), 201);
  })

  // A project's reason templates ------------------------------------------------------------

  .get('/admin/projects/:id/reason-templates', staffOnly, async (c) => {
    const project = await projectOf(c);
    return c.json({ items: await listReasonTemplates(c.get('db'), project.id) }, 200);
  })

  .post('/admin/projects/:id/reason-templates', staffOnly, check(projectOf), jsonBody(reasonTemplateSchema), async (c) => {
    const project = await projectOf(c);
    const input = c.req.valid('json');
    return c.json(await createReasonTemplate(c.get('db'), c.get('deps').clock, project.id, input, reviewerOf(c)), 201);
  })

  .delete('/admin/projects/:id/reason-templates/:templateId', staffOnly, async (c) => {
    const project = await projectOf(c);
    const templateId = pathId(c, 'templateId', 'reason template');
    await deleteReasonTemplate(c.get('db'), project.id, templateId, reviewerOf(c));
    return c.body(null, 204);
  })

  // The participant's side --------------------------------------------------------------------

  /** Answers a probe on one of the user's entries, once (404 for anyone else's; 409 `already_answered`). */
  .post('/account/probes/:id/answer', signedIn, check(probeIdOf), jsonBody(probeAnswerSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const probeId = await probeIdOf(c);
    const input = c.req.valid('json');
    return c.json(await answerProbe(c.get('db'), c.get('deps').clock, probeId, user.id, input.answer), 200);
  });
