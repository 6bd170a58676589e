import { Hono, type Context } from 'hono';
import type { SurveyWebhookResult } from '../../shared/surveys.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, noStore, pathId } from '../http.ts';
import { checkWebhookSecret, findReference, isExternalOutcome, recordOutcome } from '../services/external-surveys.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { findSurvey } from '../services/surveys.ts';

/** The header Alchemer (or any sender) may carry the secret in, instead of a `secret` field. */
export const WEBHOOK_SECRET_HEADER = 'X-Fieldwork-Secret';

const STATUS_MESSAGE = 'Must be complete, screened_out or over_quota';

/** The body's string fields: JSON (an object) or `application/x-www-form-urlencoded`, as Alchemer's Webhook action sends them. */
async function readFields(c: Context<AppEnv>): Promise<Map<string, string>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = await c.req.text();
  if (type === 'application/x-www-form-urlencoded') return new Map(new URLSearchParams(text));
  if (type !== 'application/json') throw new ApiError(415, 'unsupported_media_type', 'Send JSON or form fields (application/x-www-form-urlencoded)');
  let body: unknown;
  try {
    body = text === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'invalid_json', 'Send a JSON object: { "pid": …, "status": … }');
  return new Map(Object.entries(body).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as const] : [])));
}

/**
 * `POST /api/surveys/{id}/webhook`: Alchemer's server-to-server confirmation of an outcome
 * (`docs/alchemer.md`). No session and no Origin (the CSRF check lets it through): the survey's
 * webhook secret, in `X-Fieldwork-Secret` or a `secret` field, compared in constant time. Answers
 * JSON, always `Cache-Control: no-store`.
 */
export const surveyWebhookRoutes = new Hono<AppEnv>().post('/:id/webhook', async (c) => {
  noStore(c);
  await enforceRateLimits(c, [[`external-webhook:ip:${clientIp(c)}`, RATE_LIMITS.externalWebhooksPerIp]]);
  const survey = await findSurvey(c.get('db'), pathId(c, 'id', 'survey'));
  if (!survey || survey.kind !== 'external') throw new ApiError(404, 'not_found', 'No such survey');
  const fields = await readFields(c);
  const secret = c.req.header(WEBHOOK_SECRET_HEADER) ?? fields.get('secret');
  if (!checkWebhookSecret(survey.webhookSecretHash, secret)) {
    c.get('logger').warn(
      { surveyId: survey.id, reason: survey.webhookSecretHash === null ? 'no_secret_made' : secret ? 'wrong_secret' : 'missing_secret' },
      'external webhook refused',
    );
    throw new ApiError(401, 'invalid_secret', 'Wrong or missing webhook secret');
  }
  const status = fields.get('status') ?? '';
  const pid = fields.get('pid') ?? '';
  const problems: Record<string, string[]> = {};
  if (!isExternalOutcome(status)) problems.status = [STATUS_MESSAGE];
  if (pid === '') problems.pid = ['Required'];
  else if (pid.length > 200) problems.pid = ['Too long'];
  if (Object.keys(problems).length > 0 || !isExternalOutcome(status))
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: problems });
  const found = await findReference(c.get('db'), pid);
  if (!found || found.surveyId !== survey.id) throw new ApiError(404, 'not_found', 'No such reference (pid) in this survey');
  const result = await recordOutcome(c.get('db'), c.get('deps').clock, found.refId, status, 'webhook');
  const answer: SurveyWebhookResult = { outcome: result.outcome ?? status, confirmed: result.confirmed, recorded: result.recorded };
  return c.json(answer, 200);
});
