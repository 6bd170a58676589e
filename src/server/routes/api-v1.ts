/**
 * The token API (`/api/v1/`; issue 32; docs/api.md "API tokens and /api/v1"; decision 037): the
 * calls an integration makes with an API token, described with `createRoute` so the routes
 * validate with the very schemas (`src/shared/schemas/api-v1.ts`) that `GET /api/openapi.json`
 * describes. The token was checked before any of these runs (middleware/api-token.ts, from app.ts);
 * each call checks its scope (403 `insufficient_scope`) and the token's project limit (another
 * project's objects are 404, as unknown ones). The reads are the services' own (projects, members,
 * survey results, the review inbox, the points ledger); the writes are the admin calls' own (the
 * points adjustment; the webhook endpoints' calls, `webhooks:manage`, in their own section).
 *
 * Versioning: a change here only adds (a field, an optional parameter, a call); anything that
 * would break a caller is a `/api/v2/`.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { API_TOKEN_SCOPE_TEXT, API_TOKEN_SCOPES, type ApiTokenScope } from '../../shared/api-tokens.ts';
import { POINTS_LIMITS } from '../../shared/points.ts';
import {
  v1EntriesQuerySchema,
  v1ErrorSchema,
  v1IdParam,
  v1KeysetQuerySchema,
  v1MissionEntryPageSchema,
  v1ParticipantPageSchema,
  v1PointsCreditResultSchema,
  v1PointsCreditSchema,
  v1PointsQuerySchema,
  v1PointsSchema,
  v1ProjectListSchema,
  v1ProjectsQuerySchema,
  v1SurveyResponsePageSchema,
  v1WebhookCreatedSchema,
  v1WebhookCreateSchema,
  v1WebhookDeliveriesQuerySchema,
  v1WebhookDeliveryListSchema,
  v1WebhookEndpointListSchema,
  v1WebhookEndpointSchema,
  v1WebhookPatchSchema,
  v1WebhookResentSchema,
  v1WebhookSecretSchema,
  v1WebhooksQuerySchema,
  v1WebhookTestSentSchema,
  type V1PointsCreditResult,
} from '../../shared/schemas/api-v1.ts';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, webhookMessageSchema } from '../../shared/webhooks.ts';
import type { AppEnv } from '../context.ts';
import type { Config } from '../config.ts';
import { ApiError, notFound } from '../errors.ts';
import { check, clientIp, enforceRateLimits, jsonRequestBody, perRequest, validationError } from '../http.ts';
import { apiTokenOf, requireScope } from '../middleware/api-token.ts';
import { withAudit, type AuditInput } from '../services/audit.ts';
import { currentVersionsOf } from '../services/entry-versions.ts';
import { isProjectMember, membersAfter } from '../services/members.ts';
import { existingMission } from '../services/missions.ts';
import { adjustPointsAudited, pointsSummary } from '../services/points.ts';
import { auditChanges, existingProject, listProjects } from '../services/projects.ts';
import { reviewInbox } from '../services/review.ts';
import { submittedResponsesAfter } from '../services/survey-results.ts';
import { findSurvey } from '../services/surveys.ts';
import { findUserById } from '../services/users.ts';
import {
  createWebhook,
  deleteWebhook,
  existingDelivery,
  existingWebhook,
  listDeliveries,
  listWebhooks,
  refuseUnusableWebhookUrl,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  webhookSummary,
  webhookView,
} from '../services/webhooks.ts';

/** The security scheme's name in the description. */
const SECURITY = 'apiToken';

/** What the path's first segment names, for the 404 of an id that is not one. */
const PATH_OBJECTS: Readonly<Record<string, string>> = { projects: 'project', surveys: 'survey', missions: 'mission', participants: 'participant' };

/**
 * The token API's validation: a path id that is not a number 1 … 2^31−1 is 404 `No such …` (as an
 * unknown one, as everywhere in this API); any other failure the one 400 `validation_failed`.
 */
function v1Hook(result: { target: string; success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }, c: Context<AppEnv>): void {
  if (result.success || !result.error) return;
  if (result.target === 'param') throw notFound(PATH_OBJECTS[c.req.path.split('/')[3] ?? ''] ?? 'object');
  throw validationError(result.error);
}

const json = <S extends z.ZodType>(schema: S, description: string) => ({ description, content: { 'application/json': { schema } } });

/** The refusals every call may answer, and a call's own. */
function errors(scope: ApiTokenScope | null, { notFoundOf, badRequest }: { notFoundOf?: string; badRequest?: string } = {}) {
  return {
    400: json(
      v1ErrorSchema,
      `${badRequest ?? '`validation_failed`: a parameter is not valid (`fields` says which and why).'} \`token_and_session\`: the request also carries a session cookie.`,
    ),
    401: json(
      v1ErrorSchema,
      '`token_required` (no `Authorization: Bearer` token), `invalid_token` (not a Fieldwork token — checksum failed — or unknown), `token_expired`, `token_revoked`.',
    ),
    ...(scope ? { 403: json(v1ErrorSchema, `\`insufficient_scope\`: the token does not have the \`${scope}\` scope (\`error.scope\` names it).`) } : {}),
    ...(notFoundOf ? { 404: json(v1ErrorSchema, `\`not_found\`: no such ${notFoundOf}, or it belongs to a project the token is not limited to.`) } : {}),
    429: {
      ...json(v1ErrorSchema, `\`rate_limited\`: more than the token's requests a minute; wait \`Retry-After\` seconds.`),
      headers: { 'Retry-After': { description: 'Seconds to wait before sending again', schema: { type: 'integer' as const } } },
    },
  };
}

/** A route's `security` (the scope it needs, named) and its guard. */
const needs = (scope: ApiTokenScope) => ({ security: [{ [SECURITY]: [scope] }], middleware: [requireScope(scope)] });

const idParams = (what: string) => z.object({ id: v1IdParam.meta({ description: `The ${what}'s id`, example: 42 }) });

// ---------------------------------------------------------------------------------------------
// What a token may reach

/** 404 unless the token may reach the project: its own project when it has a limit. */
function withinLimit(c: Context<AppEnv>, projectId: number, what: string): void {
  const { projectId: limit } = apiTokenOf(c);
  if (limit !== null && limit !== projectId) throw notFound(what);
}

/** The participant of the path, checked to exist and, for a token with a project limit, to be a member of its project (404 otherwise). */
const participantOf = perRequest(async (c) => {
  const raw = c.req.param('id') ?? '';
  const id = v1IdParam.safeParse(raw);
  if (!id.success) throw notFound('participant');
  const { db } = c.var;
  const user = await findUserById(db, id.data);
  if (!user) throw notFound('participant');
  const { projectId } = apiTokenOf(c);
  if (projectId !== null && !(await isProjectMember(db, projectId, user.id))) throw notFound('participant');
  return user.id;
});

// ---------------------------------------------------------------------------------------------
// The routes

const listProjectsRoute = createRoute({
  method: 'get',
  path: '/projects',
  tags: ['Projects'],
  operationId: 'listProjects',
  summary: 'The projects the token can see',
  description:
    'Every project but archived ones (`status=archived` for those), oldest first, as the list contract pages them; a token limited to a project sees that one alone. Needs no scope.',
  security: [{ [SECURITY]: [] }],
  request: { query: v1ProjectsQuerySchema },
  responses: { 200: json(v1ProjectListSchema, 'A page of projects'), ...errors(null) },
});

const listParticipantsRoute = createRoute({
  method: 'get',
  path: '/projects/{id}/participants',
  tags: ['Participants'],
  operationId: 'listParticipants',
  summary: "A project's participants",
  description: 'Its members (names, e-mail address, country), oldest member first, paged by keyset: members added later come after the last cursor.',
  ...needs('participants:read'),
  request: { params: idParams('project'), query: v1KeysetQuerySchema },
  responses: { 200: json(v1ParticipantPageSchema, 'A page of participants'), ...errors('participants:read', { notFoundOf: 'project' }) },
});

const listResponsesRoute = createRoute({
  method: 'get',
  path: '/surveys/{id}/responses',
  tags: ['Surveys'],
  operationId: 'listSurveyResponses',
  summary: "A survey's responses",
  description:
    "Its submitted responses (answers keyed by form element id, with the form version they answer), oldest submission first, paged by keyset: responses submitted later come after the last cursor. Drafts are not listed; an Alchemer survey's answers are Alchemer's (the list is empty).",
  ...needs('responses:read'),
  request: { params: idParams('survey'), query: v1KeysetQuerySchema },
  responses: { 200: json(v1SurveyResponsePageSchema, 'A page of responses'), ...errors('responses:read', { notFoundOf: 'survey' }) },
});

const listEntriesRoute = createRoute({
  method: 'get',
  path: '/missions/{id}/entries',
  tags: ['Missions'],
  operationId: 'listMissionEntries',
  summary: "A mission's entries",
  description:
    'Its entries with their review status and current version (the answers of the latest submission), oldest submission first, paged by keyset. Drafts are not listed; an entry submitted again moves after the cursors given out before.',
  ...needs('entries:read'),
  request: { params: idParams('mission'), query: v1EntriesQuerySchema },
  responses: { 200: json(v1MissionEntryPageSchema, 'A page of entries'), ...errors('entries:read', { notFoundOf: 'mission' }) },
});

const getPointsRoute = createRoute({
  method: 'get',
  path: '/participants/{id}/points',
  tags: ['Points'],
  operationId: 'getParticipantPoints',
  summary: "A participant's points",
  description: 'The balance (available, pending, held) and the latest ledger entries, newest first.',
  ...needs('points:read'),
  request: { params: idParams('participant'), query: v1PointsQuerySchema },
  responses: { 200: json(v1PointsSchema, 'The balance and latest entries'), ...errors('points:read', { notFoundOf: 'participant' }) },
});

const creditPointsRoute = createRoute({
  method: 'post',
  path: '/participants/{id}/points',
  tags: ['Points'],
  operationId: 'creditParticipantPoints',
  summary: 'Credit points, once per reference',
  description:
    "Credits (or, negative, takes away) points at once, as an admin's adjustment does: the participant sees `Adjustment: {reason}` and is told. Idempotent by `reference` (or the `Idempotency-Key` header): the same reference for the same participant answers the first credit with 200 and credits nothing, whatever was sent with it. Taking points away never leaves the participant's available points below zero (409 `insufficient_points`). Audited with the token as the actor.",
  ...needs('points:write'),
  middleware: [requireScope('points:write'), check(participantOf), jsonRequestBody],
  request: {
    params: idParams('participant'),
    headers: z.object({
      'idempotency-key': v1PointsCreditSchema.shape.reference.meta({
        description: "The credit's reference, if not in the body (at most 200 characters); both given, they must be the same",
        example: 'crm-order-1042',
      }),
    }),
    body: { required: true, content: { 'application/json': { schema: v1PointsCreditSchema } } },
  },
  responses: {
    201: json(v1PointsCreditResultSchema, 'Credited'),
    200: json(v1PointsCreditResultSchema, 'Credited before under this reference: the first credit, nothing new'),
    ...errors('points:write', {
      notFoundOf: 'participant',
      badRequest: '`validation_failed` (`fields` says which: `reference` when neither the body nor the header gives one, or they differ), `invalid_json`.',
    }),
    409: json(v1ErrorSchema, "`insufficient_points`: taking these points away would leave the participant's available points below zero (`error.available`)."),
    415: json(v1ErrorSchema, '`unsupported_media_type`: send `Content-Type: application/json`.'),
  },
});

// ---------------------------------------------------------------------------------------------
// Webhook endpoints (`webhooks:manage`): an integration keeps its own endpoints, as Stripe's
// `/v1/webhook_endpoints`. The admin calls' services do the work (docs/api.md "Webhooks"; this
// section only decides what the token reaches and audits it as the token): a token with a project
// limit sees and touches only the endpoints filtered to its project (not those for every project,
// which would carry other projects' events), and makes endpoints for its project alone.

const WEBHOOKS = 'webhooks:manage' as const;

/** The webhook calls' validation: a path id that is not one is 404, as an unknown one; anything else the one 400. */
function webhookHook(result: { target: string; success: boolean; error?: { issues: readonly z.core.$ZodIssue[] } }, c: Context<AppEnv>): void {
  if (result.success || !result.error) return;
  if (result.target === 'param') throw notFound(c.req.path.includes('/webhooks/deliveries/') ? 'delivery' : 'webhook');
  throw validationError(result.error);
}

/** 404 unless the token may reach the endpoint: with a project limit, one filtered to that project. */
function endpointWithinLimit(c: Context<AppEnv>, endpoint: { projectId: number | null }, what: string): void {
  const { projectId: limit } = apiTokenOf(c);
  if (limit !== null && endpoint.projectId !== limit) throw notFound(what);
}

/** The endpoint of the path, checked to exist and to be within the token's reach (404 otherwise), before any body is read. */
const endpointOf = perRequest(async (c) => {
  const id = v1IdParam.safeParse(c.req.param('id') ?? '');
  if (!id.success) throw notFound('webhook');
  const row = await existingWebhook(c.var.db, id.data);
  endpointWithinLimit(c, row, 'webhook');
  return row;
});

/** The delivery of the path, its endpoint within the token's reach (404 `No such delivery` otherwise). */
const deliveryOf = perRequest(async (c) => {
  const id = v1IdParam.safeParse(c.req.param('id') ?? '');
  if (!id.success) throw notFound('delivery');
  const { db } = c.var;
  const row = await existingDelivery(db, id.data);
  endpointWithinLimit(c, await existingWebhook(db, row.endpointId), 'delivery');
  return row;
});

/**
 * The project a body's `projectId` may name: any existing one (or null: every project) for a token
 * without a limit; its own for one with a limit (null is 400: it would reach every project). An
 * unknown project, or one outside the limit, is 404 `No such project`, as everywhere in this API.
 */
async function reachableProject(c: Context<AppEnv>, given: number | null): Promise<number | null> {
  const { projectId: limit } = apiTokenOf(c);
  if (given === null) {
    if (limit === null) return null;
    throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', {
      fields: { projectId: [`This API token is limited to project ${limit}: leave projectId out, or give ${limit}`] },
    });
  }
  withinLimit(c, given, 'project');
  await existingProject(c.var.db, given);
  return given;
}

/** Who an audit row of these calls names: the token, no person. */
const byToken = (c: Context<AppEnv>): Pick<AuditInput, 'actorId' | 'via' | 'apiTokenId' | 'ip'> => ({
  actorId: null,
  via: 'token',
  apiTokenId: apiTokenOf(c).id,
  ip: clientIp(c),
});

/** Test events and resends: this many a minute per token (the admin calls' limit, per admin). */
const limitSends = (c: Context<AppEnv>) => enforceRateLimits(c, [[`webhooks:send:token:${apiTokenOf(c).id}`, WEBHOOK_LIMITS.sendsPerMinute]]);

/** The refusals of the webhook calls: the token API's, and the 404 of the object named. */
const webhookErrors = (notFoundOf: string, badRequest?: string) => errors(WEBHOOKS, { notFoundOf, ...(badRequest ? { badRequest } : {}) });
const sendsLimited = {
  ...json(
    v1ErrorSchema,
    `\`rate_limited\`: more than the token's requests a minute, or more than ${WEBHOOK_LIMITS.sendsPerMinute.limit} test events and resends a minute; wait \`Retry-After\` seconds.`,
  ),
  headers: { 'Retry-After': { description: 'Seconds to wait before sending again', schema: { type: 'integer' as const } } },
};
const webhookDisabled = json(v1ErrorSchema, '`webhook_disabled`: the endpoint is disabled; nothing is sent to it (enable it first).');
const bodyOfJson = json(v1ErrorSchema, '`unsupported_media_type`: send `Content-Type: application/json`.');
const endpointBadRequest =
  '`validation_failed` (`fields` says which: `url` for an address that may not be used — not https, credentials in it, or a host that is or resolves to a private, loopback, link-local or reserved address —; `projectId` null for a token with a project limit), `invalid_json`.';

const listWebhooksRoute = createRoute({
  method: 'get',
  path: '/webhooks',
  tags: ['Webhook endpoints'],
  operationId: 'listWebhookEndpoints',
  summary: 'The webhook endpoints',
  description:
    'Every endpoint, oldest first, with its last delivery (never its secret); a token with a project limit sees only the endpoints filtered to its project. `projectId`: only those filtered to that project.',
  ...needs(WEBHOOKS),
  request: { query: v1WebhooksQuerySchema },
  responses: { 200: json(v1WebhookEndpointListSchema, 'The endpoints'), ...webhookErrors('project (`projectId`)') },
});

const createWebhookRoute = createRoute({
  method: 'post',
  path: '/webhooks',
  tags: ['Webhook endpoints'],
  operationId: 'createWebhookEndpoint',
  summary: 'Add a webhook endpoint',
  description: `An endpoint that is sent the events it asks for, signed with its own secret — answered here only, never again (rotate it to get a new one). The address is checked as it is saved and again at every delivery. A token with a project limit makes endpoints for its project only (\`projectId\` left out: that project). At most ${WEBHOOK_LIMITS.endpointsMax} endpoints exist (409 \`too_many_webhooks\`). Audited with the token as the actor.`,
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), jsonRequestBody],
  request: { body: { required: true, content: { 'application/json': { schema: v1WebhookCreateSchema } } } },
  responses: {
    201: json(v1WebhookCreatedSchema, 'Made: the endpoint and its secret (this once)'),
    ...webhookErrors("project (`projectId`: unknown, or not the token's project)", endpointBadRequest),
    409: json(v1ErrorSchema, `\`too_many_webhooks\`: ${WEBHOOK_LIMITS.endpointsMax} endpoints exist already; delete one first.`),
    415: bodyOfJson,
  },
});

const updateWebhookRoute = createRoute({
  method: 'patch',
  path: '/webhooks/{id}',
  tags: ['Webhook endpoints'],
  operationId: 'updateWebhookEndpoint',
  summary: 'Change a webhook endpoint',
  description:
    'Any of its address (checked as on creation; the next attempts go there), events, description, project and `enabled`. Audited with the token as the actor.',
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(endpointOf), jsonRequestBody],
  request: { params: idParams('webhook endpoint'), body: { required: true, content: { 'application/json': { schema: v1WebhookPatchSchema } } } },
  responses: {
    200: json(v1WebhookEndpointSchema, 'The endpoint as it is now'),
    ...webhookErrors('webhook endpoint (or, `projectId`, project)', endpointBadRequest),
    415: bodyOfJson,
  },
});

const deleteWebhookRoute = createRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  tags: ['Webhook endpoints'],
  operationId: 'deleteWebhookEndpoint',
  summary: 'Delete a webhook endpoint',
  description: 'The endpoint and its deliveries; attempts still queued send nothing. Audited with the token as the actor.',
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(endpointOf)],
  request: { params: idParams('webhook endpoint') },
  responses: { 204: { description: 'Deleted' }, ...webhookErrors('webhook endpoint') },
});

const rotateWebhookSecretRoute = createRoute({
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  tags: ['Webhook endpoints'],
  operationId: 'rotateWebhookEndpointSecret',
  summary: "Rotate a webhook endpoint's secret",
  description:
    'A new secret, answered this once. For 24 hours the one before signs beside it (two `v1,` signatures), so the receiver can switch without losing a delivery; a secret rotated out earlier stops at once. Audited with the token as the actor.',
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(endpointOf)],
  request: { params: idParams('webhook endpoint') },
  responses: { 200: json(v1WebhookSecretSchema, 'The new secret (this once)'), ...webhookErrors('webhook endpoint') },
});

const testWebhookRoute = createRoute({
  method: 'post',
  path: '/webhooks/{id}/test',
  tags: ['Webhook endpoints'],
  operationId: 'testWebhookEndpoint',
  summary: 'Send a test event',
  description: `A \`webhook.test\` event (\`data: { endpointId }\`) to this endpoint alone, once (no retries); its delivery shows in the deliveries. At most ${WEBHOOK_LIMITS.sendsPerMinute.limit} test events and resends a minute per token. Audited with the token as the actor.`,
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(endpointOf)],
  request: { params: idParams('webhook endpoint') },
  responses: {
    202: json(v1WebhookTestSentSchema, 'Queued'),
    ...webhookErrors('webhook endpoint'),
    409: webhookDisabled,
    429: sendsLimited,
  },
});

const listDeliveriesRoute = createRoute({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  tags: ['Webhook endpoints'],
  operationId: 'listWebhookDeliveries',
  summary: "A webhook endpoint's deliveries",
  description:
    "Every attempt to send an event to it (the answer's status, latency and first characters, or why it failed), newest first, as the list contract pages them (`page`, `pageSize`; `total`).",
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(endpointOf)],
  request: { params: idParams('webhook endpoint'), query: v1WebhookDeliveriesQuerySchema },
  responses: { 200: json(v1WebhookDeliveryListSchema, 'A page of deliveries'), ...webhookErrors('webhook endpoint') },
});

const resendDeliveryRoute = createRoute({
  method: 'post',
  path: '/webhooks/deliveries/{id}/resend',
  tags: ['Webhook endpoints'],
  operationId: 'resendWebhookDelivery',
  summary: 'Send a delivery again',
  description: `A new attempt of that delivery's event to its endpoint, at once, with the same \`webhook-id\` (no retries after it). At most ${WEBHOOK_LIMITS.sendsPerMinute.limit} test events and resends a minute per token. Audited with the token as the actor.`,
  ...needs(WEBHOOKS),
  middleware: [requireScope(WEBHOOKS), check(deliveryOf)],
  request: { params: idParams('delivery') },
  responses: {
    202: json(v1WebhookResentSchema, 'Queued'),
    ...webhookErrors('delivery'),
    409: webhookDisabled,
    429: sendsLimited,
  },
});

/** The webhook calls, mounted into `apiV1Routes` (their descriptions with them). */
const apiV1WebhookRoutes = new OpenAPIHono<AppEnv>({ defaultHook: webhookHook })
  .openapi(listWebhooksRoute, async (c) => {
    const { projectId } = c.req.valid('query');
    if (projectId !== undefined) {
      withinLimit(c, projectId, 'project');
      await existingProject(c.var.db, projectId);
    }
    const only = apiTokenOf(c).projectId ?? projectId;
    const { items } = await listWebhooks(c.var.db);
    return c.json({ items: only === undefined ? items : items.filter((item) => item.projectId === only) }, 200);
  })

  .openapi(createWebhookRoute, async (c) => {
    const body = c.req.valid('json');
    const projectId = await reachableProject(c, body.projectId === undefined ? apiTokenOf(c).projectId : body.projectId);
    const { db, deps } = c.var;
    await refuseUnusableWebhookUrl(deps.config, body.url);
    const { created } = await withAudit(
      db,
      (tx) => createWebhook(tx, deps, { ...body, projectId }, null),
      ({ row }) => ({ ...byToken(c), action: 'webhook.create', targetType: 'webhook', targetId: row.id, after: webhookSummary(row) }),
    );
    return c.json(created, 201);
  })

  .openapi(updateWebhookRoute, async (c) => {
    const { id } = await endpointOf(c);
    const patch = c.req.valid('json');
    if (patch.projectId !== undefined) await reachableProject(c, patch.projectId);
    const { db, deps } = c.var;
    if (patch.url !== undefined) await refuseUnusableWebhookUrl(deps.config, patch.url);
    const summary = (row: Parameters<typeof webhookSummary>[0] & { disabledReason: unknown }) => ({
      ...webhookSummary(row),
      disabledReason: row.disabledReason,
    });
    const { after } = await withAudit(
      db,
      (tx) => updateWebhook(tx, deps.clock, id, patch),
      (changed) => ({
        ...byToken(c),
        action: 'webhook.update',
        targetType: 'webhook',
        targetId: id,
        ...auditChanges(summary(changed.before), summary(changed.after)),
      }),
    );
    return c.json(await webhookView(db, after), 200);
  })

  .openapi(deleteWebhookRoute, async (c) => {
    const { id } = await endpointOf(c);
    await withAudit(
      c.var.db,
      (tx) => deleteWebhook(tx, id),
      (row) => ({ ...byToken(c), action: 'webhook.delete', targetType: 'webhook', targetId: id, before: webhookSummary(row) }),
    );
    return c.body(null, 204);
  })

  .openapi(rotateWebhookSecretRoute, async (c) => {
    const { id } = await endpointOf(c);
    const { db, deps } = c.var;
    const { secret } = await withAudit(
      db,
      (tx) => rotateWebhookSecret(tx, deps, id),
      ({ row }) => ({
        ...byToken(c),
        action: 'webhook.rotate_secret',
        targetType: 'webhook',
        targetId: id,
        after: { previousSecretUntil: row.previousSecretUntil?.toISOString() ?? null },
      }),
    );
    return c.json({ secret }, 200);
  })

  .openapi(testWebhookRoute, async (c) => {
    const { id } = await endpointOf(c);
    await limitSends(c);
    const { db, deps } = c.var;
    const sent = await withAudit(
      db,
      (tx) => sendTestEvent(tx, deps, id),
      (made) => ({ ...byToken(c), action: 'webhook.test', targetType: 'webhook', targetId: id, after: made }),
    );
    return c.json(sent, 202);
  })

  .openapi(listDeliveriesRoute, async (c) => {
    const { id } = await endpointOf(c);
    return c.json(await listDeliveries(c.var.db, id, c.req.valid('query')), 200);
  })

  .openapi(resendDeliveryRoute, async (c) => {
    const { id } = await deliveryOf(c);
    await limitSends(c);
    const { db, deps } = c.var;
    const made = await withAudit(
      db,
      (tx) => resendDelivery(tx, deps, id),
      (row) => ({
        ...byToken(c),
        action: 'webhook.resend',
        targetType: 'webhook',
        targetId: row.endpointId,
        after: { deliveryId: id, eventId: row.eventId, attempt: row.attempt },
      }),
    );
    return c.json({ deliveryId: made.id, eventId: made.eventId, attempt: made.attempt }, 202);
  });

/** The prefix a token's reference is kept under in the ledger: an admin's reference and a token's never meet. */
const REFERENCE_PREFIX = 'api:';

export const apiV1Routes = new OpenAPIHono<AppEnv>({ defaultHook: v1Hook })
  .openapi(listProjectsRoute, async (c) => {
    const { db } = c.var;
    const query = c.req.valid('query');
    const { projectId } = apiTokenOf(c);
    if (projectId !== null) {
      const project = await existingProject(db, projectId);
      const items = query.status ? (project.status === query.status ? [project] : []) : project.status === 'archived' ? [] : [project];
      const shown = query.page === 1 ? items : [];
      return c.json(
        {
          items: shown.map((row) => ({
            id: row.id,
            name: row.name,
            client: row.client,
            status: row.status,
            startsAt: row.startsAt,
            endsAt: row.endsAt,
            updatedAt: row.updatedAt.toISOString(),
          })),
          total: items.length,
          page: query.page,
          pageSize: query.pageSize,
        },
        200,
      );
    }
    const page = await listProjects(db, { page: query.page, pageSize: query.pageSize, sort: 'created', dir: 'asc', status: query.status });
    return c.json(
      {
        ...page,
        items: page.items.map(({ id, name, client, status, startsAt, endsAt, updatedAt }) => ({ id, name, client, status, startsAt, endsAt, updatedAt })),
      },
      200,
    );
  })

  .openapi(listParticipantsRoute, async (c) => {
    const { id } = c.req.valid('param');
    withinLimit(c, id, 'project');
    const { db } = c.var;
    await existingProject(db, id);
    return c.json(await membersAfter(db, id, c.req.valid('query')), 200);
  })

  .openapi(listResponsesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { db } = c.var;
    const survey = await findSurvey(db, id);
    if (!survey) throw notFound('survey');
    withinLimit(c, survey.projectId, 'survey');
    return c.json(await submittedResponsesAfter(db, survey.id, c.req.valid('query')), 200);
  })

  .openapi(listEntriesRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { db } = c.var;
    const mission = await existingMission(db, id);
    withinLimit(c, mission.projectId, 'mission');
    const { cursor, limit, status } = c.req.valid('query');
    const page = await reviewInbox(db, { status: status ?? 'all', missionId: mission.id, cursor, limit });
    const versions = await currentVersionsOf(
      db,
      page.items.map((item) => item.id),
    );
    return c.json(
      {
        items: page.items.map((item) => {
          const version = versions.get(item.id);
          return {
            id: item.id,
            missionId: mission.id,
            userId: item.user.id,
            status: item.status,
            resubmission: item.resubmission,
            formVersion: version?.formVersion ?? 0,
            language: item.language,
            answers: version?.answers ?? {},
            localDate: item.localDate,
            createdAt: item.createdAt,
            // Listed entries are never drafts, and every other status has its submission time.
            submittedAt: item.submittedAt ?? item.createdAt,
          };
        }),
        nextCursor: page.nextCursor,
      },
      200,
    );
  })

  .openapi(getPointsRoute, async (c) => {
    const userId = await participantOf(c);
    const summary = await pointsSummary(c.var.db, userId, { page: 1, pageSize: c.req.valid('query').limit });
    return c.json({ userId, available: summary.available, pending: summary.pending, held: summary.held, entries: summary.entries, total: summary.total }, 200);
  })

  .openapi(creditPointsRoute, async (c) => {
    const userId = await participantOf(c);
    const token = apiTokenOf(c);
    const body = c.req.valid('json');
    const header = c.req.valid('header')['idempotency-key'];
    if (body.reference !== undefined && header !== undefined && body.reference !== header) {
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { reference: ['Differs from the Idempotency-Key header'] } });
    }
    const reference = body.reference ?? header;
    if (reference === undefined) {
      throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', {
        fields: { reference: ['Required: in the body, or as the Idempotency-Key header'] },
      });
    }
    const { db, deps } = c.var;
    const done = await adjustPointsAudited(
      db,
      deps.clock,
      { userId, points: body.points, reason: body.reason, reference: `${REFERENCE_PREFIX}${reference}`, actorId: null },
      { ip: clientIp(c), apiTokenId: token.id },
    );
    const entry = done.entry;
    const result: V1PointsCreditResult = {
      id: entry.id,
      userId: entry.userId,
      points: entry.points,
      state: entry.state,
      reason: entry.reason,
      source: entry.source,
      reference: entry.reference.startsWith(REFERENCE_PREFIX) ? entry.reference.slice(REFERENCE_PREFIX.length) : entry.reference,
      createdAt: entry.createdAt.toISOString(),
    };
    return done.created ? c.json(result, 201) : c.json(result, 200);
  })

  .route('/', apiV1WebhookRoutes);

// ---------------------------------------------------------------------------------------------
// The description: GET /api/openapi.json

/** A webhook's payload as the description shows it under `webhooks` (issue 32 §1): its event type and its schema. */
export interface WebhookPayloadDoc {
  /** The event type, e.g. `survey_response.submitted`: the webhook's name in the description. */
  type: string;
  schema: z.ZodType;
  description?: string;
}

type Registry = (typeof apiV1Routes)['openAPIRegistry'];

/**
 * Describes outgoing webhooks' payloads under the document's `webhooks` (OpenAPI 3.1): each a
 * `POST` we send to the endpoint, its body the payload's schema, signed per the Standard Webhooks
 * headers. The webhooks' own module hands its list in (`WEBHOOK_PAYLOADS` below).
 */
export function registerWebhookPayloads(registry: Registry, payloads: readonly WebhookPayloadDoc[]): void {
  for (const payload of payloads) {
    registry.registerWebhook({
      method: 'post',
      path: payload.type,
      summary: payload.type,
      ...(payload.description ? { description: payload.description } : {}),
      tags: ['Webhooks'],
      request: {
        headers: z.object({
          'webhook-id': z.string().meta({ description: "The event's id: the same on every retry (deduplicate by it)", example: 'msg_2b7Vq9xY4kHn3' }),
          'webhook-timestamp': z.string().meta({ description: 'When it was sent, in seconds since 1970 (refuse one too far from now)', example: '1793606400' }),
          'webhook-signature': z.string().meta({
            description:
              "`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the endpoint's secret; several, space-separated, during a rotation",
          }),
        }),
        body: { required: true, content: { 'application/json': { schema: payload.schema } } },
      },
      responses: { 200: { description: 'Any 2xx: delivered. Anything else, or no answer within 10 s: retried.' } },
    });
  }
}

/** The webhooks' bodies to describe: every event an endpoint may subscribe to, `{ type, timestamp, data }` (`src/shared/webhooks.ts`). */
export const WEBHOOK_PAYLOADS: readonly WebhookPayloadDoc[] = WEBHOOK_EVENT_TYPES.map((type) => ({
  type,
  schema: webhookMessageSchema(type),
  description: WEBHOOK_EVENT_DESCRIPTIONS[type],
}));

let described = false;
/** The security scheme and the webhooks, registered once (the registry is the module's). */
function describeOnce(): void {
  if (described) return;
  described = true;
  apiV1Routes.openAPIRegistry.registerComponent('securitySchemes', SECURITY, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'fw_ + 30 base62 characters + a 6-character checksum',
    description: `An API token an admin made (Admin → Integrations → API tokens), sent as \`Authorization: Bearer fw_…\`. Each call names the scope it needs: ${API_TOKEN_SCOPES.map((scope) => `\`${scope}\` (${API_TOKEN_SCOPE_TEXT[scope]})`).join(', ')}.`,
  });
  registerWebhookPayloads(apiV1Routes.openAPIRegistry, WEBHOOK_PAYLOADS);
}

const documents = new Map<string, unknown>();

/** `GET /api/openapi.json`'s document for this server's public address (made once per address). */
export function openApiDocument(config: Pick<Config, 'publicUrl'>): unknown {
  const cached = documents.get(config.publicUrl);
  if (cached) return cached;
  describeOnce();
  const document = apiV1Routes.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Fieldwork API',
      version: '1',
      description: [
        "The calls an integration makes with an API token (`Authorization: Bearer fw_…`): a project's participants, survey responses, mission entries and points, and its own webhook endpoints.",
        '',
        `Each token has scopes (${API_TOKEN_SCOPES.map((scope) => `\`${scope}\``).join(', ')}) and may be limited to one project: another project's objects are 404, as unknown ones. A token makes at most 600 requests a minute (429 with \`Retry-After\`). It works on these calls only, never with a session cookie besides (400).`,
        '',
        "Lists that grow long page by keyset: send the answer's `nextCursor` as `cursor` until it is null; rows added later come after the last cursor, so keeping it lets an integration read only what is new.",
        '',
        `Versioning: changes under /api/v1 only add (a field, an optional parameter, a call); a breaking change is a /api/v2. Ignore fields you do not know. Points references are at most ${POINTS_LIMITS.referenceMax} characters.`,
      ].join('\n'),
    },
    servers: [{ url: `${config.publicUrl}/api/v1`, description: 'This Fieldwork' }],
    security: [{ [SECURITY]: [] }],
    tags: [
      { name: 'Projects' },
      { name: 'Participants' },
      { name: 'Surveys' },
      { name: 'Missions' },
      { name: 'Points' },
      { name: 'Webhook endpoints', description: 'Where we send the events below: an integration keeps its own (`webhooks:manage`)' },
      ...(WEBHOOK_PAYLOADS.length > 0 ? [{ name: 'Webhooks', description: 'What we send to a webhook endpoint (signed per Standard Webhooks)' }] : []),
    ],
  });
  documents.set(config.publicUrl, document);
  return document;
}

/** `GET /api/openapi.json`: public (it describes calls, holds no data) and cacheable. Mounted at `/api`. */
export const openApiRoutes = new Hono<AppEnv>().get('/openapi.json', (c) => {
  c.header('Cache-Control', 'public, max-age=3600');
  return c.json(openApiDocument(c.var.deps.config) as Record<string, unknown>, 200);
});
