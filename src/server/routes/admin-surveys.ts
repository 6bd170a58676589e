import { Hono, type Context } from 'hono';
import { responseExportQuerySchema, responseListQuerySchema, surveyPatchSchema } from '../../shared/schemas/programme.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, readJson, readQuery } from '../http.ts';
import { audit } from '../services/audit.ts';
import { auditChanges } from '../services/projects.ts';
import { currentDefinition, listResponses, responsesCsv, surveyResults } from '../services/survey-results.ts';
import { existingSurvey, surveySummary, surveyView, updateSurvey } from '../services/surveys-admin.ts';
import { pathId, programmeAdminOnly } from './admin-projects.ts';
import { signedInUser } from './params.ts';

const surveyIdOf = (c: Context<AppEnv>) => pathId(c, 'id', 'survey');

/** One survey: details, edit, responses (a page, or all as CSV) and per-question results (moderators and admins). */
export const adminSurveyRoutes = new Hono<AppEnv>()
  .use('*', ...programmeAdminOnly)

  .get('/:id', async (c) => {
    const survey = await existingSurvey(c.var.db, surveyIdOf(c));
    return c.json(await surveyView(c.var.db, c.var.deps.config.publicUrl, survey), 200);
  })

  .patch('/:id', async (c) => {
    const user = signedInUser(c.var.user);
    const id = surveyIdOf(c);
    const { db, deps } = c.var;
    await existingSurvey(db, id);
    const patch = await readJson(c, surveyPatchSchema);
    const { before, after } = await updateSurvey(db, deps.clock, id, patch);
    await audit(db, { actorId: user.id, via: 'api', action: 'survey.update', targetType: 'survey', targetId: id, ...auditChanges(surveySummary(before), surveySummary(after)), ip: clientIp(c) });
    return c.json(await surveyView(db, deps.config.publicUrl, after), 200);
  })

  .get('/:id/responses', async (c) => {
    const survey = await existingSurvey(c.var.db, surveyIdOf(c));
    const query = readQuery(c, responseListQuerySchema);
    return c.json(await listResponses(c.var.db, survey.id, query), 200);
  })

  .get('/:id/responses.csv', async (c) => {
    const survey = await existingSurvey(c.var.db, surveyIdOf(c));
    const { status } = readQuery(c, responseExportQuerySchema);
    const definition = await currentDefinition(c.var.db, survey);
    return c.body(responsesCsv(c.var.db, survey, definition, status), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="survey-${survey.id}-responses.csv"`,
    });
  })

  .get('/:id/results', async (c) => {
    const survey = await existingSurvey(c.var.db, surveyIdOf(c));
    const definition = await currentDefinition(c.var.db, survey);
    return c.json(await surveyResults(c.var.db, survey, definition), 200);
  });
