import { Hono, type Context } from 'hono';
import type { SurveyWebhookSecret } from '../../shared/surveys.ts';
import { responseExportQuerySchema, responseListQuerySchema, surveyPatchSchema, surveyResultsQuerySchema } from '../../shared/schemas/surveys.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, jsonBody, pathId, perRequest, query, recentAuth, signedInUser, staffOnly } from '../http.ts';
import { withAudit } from '../services/audit.ts';
import { withNewWork } from '../services/new-work.ts';
import { updateWithAudit } from '../services/projects.ts';
import { cachedSurveyResults, currentDefinition, listResponses, responsesCsv } from '../services/survey-results.ts';
import { webhookOf } from '../services/external-surveys.ts';
import { existingSurvey, makeWebhookSecret, surveySummary, surveyView, updateSurvey } from '../services/surveys.ts';

const surveyIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'survey');
/** The survey of the path, loaded once a request: checked (404) before any body or query is read. */
const surveyOf = perRequest((c) => existingSurvey(c.get('db'), surveyIdOf(c)));

/** One survey: details, edit, webhook secret, responses (a page, or all as CSV) and per-question results (moderators and admins). */
export const adminSurveyRoutes = new Hono<AppEnv>()
  .use('*', staffOnly)

  .get('/:id', async (c) => {
    const survey = await surveyOf(c);
    return c.json(await surveyView(c.get('db'), c.get('deps').config.publicUrl, survey), 200);
  })

  .patch('/:id', check(surveyOf), jsonBody(surveyPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await surveyOf(c);
    const { db, deps } = c.var;
    const patch = c.req.valid('json');
    const after = await updateWithAudit(
      db,
      withNewWork(
        deps,
        (tx) => updateSurvey(tx, deps.clock, id, patch),
        (changed) => ({ kind: 'survey', ...changed }),
      ),
      { action: 'survey.update', type: 'survey', id, summary: surveySummary },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(await surveyView(db, deps.config.publicUrl, after), 200);
  })

  // Makes or replaces the webhook secret of an external survey: answered this once (docs/alchemer.md).
  .post('/:id/webhook-secret', async (c) => {
    const user = signedInUser(c.get('user'));
    const id = surveyIdOf(c);
    const { db, deps } = c.var;
    const made = await withAudit(
      db,
      (tx) => makeWebhookSecret(tx, deps.clock, id),
      // Never the secret nor its hash in the log.
      (result) => ({
        actorId: user.id,
        via: 'api',
        action: 'survey.webhook_secret',
        targetType: 'survey',
        targetId: id,
        after: { replaced: result.replaced },
        ip: clientIp(c),
      }),
    );
    const answer: SurveyWebhookSecret = { secret: made.secret, webhook: webhookOf(deps.config.publicUrl, made.survey) };
    return c.json(answer, 200);
  })

  .get('/:id/responses', check(surveyOf), query(responseListQuerySchema), async (c) => {
    const survey = await surveyOf(c);
    const query = c.req.valid('query');
    return c.json(await listResponses(c.get('db'), survey.id, query), 200);
  })

  // Personal data (e-mails and names): a recent sign-in proof, as every export of it (issue 29 §4).
  .get('/:id/responses.csv', recentAuth, check(surveyOf), query(responseExportQuerySchema), async (c) => {
    const survey = await surveyOf(c);
    const { status, language } = c.req.valid('query');
    const definition = await currentDefinition(c.get('db'), survey);
    return c.body(responsesCsv(c.get('db'), survey, definition, status, language), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="survey-${survey.id}-responses.csv"`,
    });
  })

  .get('/:id/results', query(surveyResultsQuerySchema), async (c) => {
    const survey = await surveyOf(c);
    const { language } = c.req.valid('query');
    return c.json(await cachedSurveyResults(c.get('db'), c.get('deps').clock, survey, () => currentDefinition(c.get('db'), survey), language), 200);
  });
