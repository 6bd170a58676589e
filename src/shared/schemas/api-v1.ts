/**
 * The token API (`/api/v1/`; issue 32; docs/api.md "API tokens and /api/v1"): the schemas its
 * calls validate with and answer in, one source for the routes (src/server/routes/api-v1.ts), the
 * OpenAPI description generated from them (`GET /api/openapi.json`) and any TypeScript client.
 * Documentation (descriptions, examples, component names) rides on zod's own `.meta()`, so these
 * stay plain zod schemas.
 *
 * Versioning (decision 037): a change under `/api/v1/` only adds (a field, an optional parameter,
 * a call); anything that would break a caller is a `/api/v2/`.
 */
import { API_TOKEN_SCOPES } from '../api-tokens.ts';
import { answersSchema } from '../forms/definition.ts';
import { LANGUAGES } from '../languages.ts';
import { MESSAGES } from '../messages.ts';
import { ENTRY_STATUSES } from '../mission-entries.ts';
import { POINT_SOURCES, POINT_STATES, POINTS_LIMITS } from '../points.ts';
import { PROJECT_STATUSES } from '../projects.ts';
import { decodeInboxCursor } from '../review.ts';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookPatchSchema,
} from '../webhooks.ts';
import { z } from '../zod.ts';
import { pointsAdjustSchema } from './points.ts';

/** Rows of a keyset page: 50 unless asked, at most 100. */
export const V1_PAGE_LIMIT = { default: 50, max: 100 } as const;
/** Ledger entries `GET /api/v1/participants/{id}/points` gives: 20 unless asked, at most 100. */
export const V1_POINTS_ENTRIES = { default: 20, max: 100 } as const;

export const V1_BAD_CURSOR_MESSAGE = 'This cursor is not one this list gave out: ask for the first page again';

const isoMoment = (description: string) => z.string().meta({ description, format: 'date-time', example: '2026-11-02T09:30:00.000Z' });
const idOf = (what: string) =>
  z
    .number()
    .int()
    .min(1)
    .meta({ description: `The ${what}'s id`, example: 42 });

// ---------------------------------------------------------------------------------------------
// Requests

/** A numeric id in the path: a whole number 1 … 2^31−1 (anything else is 404, as an unknown id). */
export const v1IdParam = z.coerce.number().int().min(1).max(2_147_483_647);

/** `cursor` (the `nextCursor` of the page before; 400 on `cursor` for one this API did not give out) and `limit` (1–100, 50). */
export const v1KeysetQuerySchema = z.object({
  cursor: z
    .string()
    .max(200, V1_BAD_CURSOR_MESSAGE)
    .meta({ description: 'The `nextCursor` of the page before; left out: the first page', example: 'v1.MjAyNi0xMS0wMlQwOTozMDowMC4wMDAwMDBafDEyMw' })
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      const cursor = decodeInboxCursor(raw);
      if (!cursor) {
        ctx.addIssue({ code: 'custom', message: V1_BAD_CURSOR_MESSAGE });
        return z.NEVER;
      }
      return cursor;
    }),
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'Must be 1 or more')
    .max(V1_PAGE_LIMIT.max, `At most ${V1_PAGE_LIMIT.max}`)
    .default(V1_PAGE_LIMIT.default)
    .meta({ description: `Rows a page: 1 to ${V1_PAGE_LIMIT.max}`, example: V1_PAGE_LIMIT.default }),
});

/** `GET /api/v1/projects`: the list contract's `page` and `pageSize`, and `status` (archived projects only when asked). */
export const v1ProjectsQuerySchema = z.object({
  page: z.coerce.number({ error: 'Must be a number' }).int('Must be a whole number').min(1, 'Must be 1 or more').max(100_000).default(1).meta({ example: 1 }),
  pageSize: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'Must be 1 or more')
    .max(100, 'At most 100')
    .default(20)
    .meta({ example: 20 }),
  status: z
    .enum(PROJECT_STATUSES, { error: MESSAGES.invalidEnumValue })
    .optional()
    .meta({ description: 'Only projects of this status; left out: every project but archived ones' }),
});

/** `GET /api/v1/missions/{id}/entries`: the keyset query and a status (drafts are never listed). */
export const v1EntriesQuerySchema = v1KeysetQuerySchema.extend({
  status: z
    .enum(ENTRY_STATUSES.filter((status) => status !== 'draft') as ['submitted', 'approved', 'changes_requested', 'rejected'], {
      error: MESSAGES.invalidEnumValue,
    })
    .optional()
    .meta({ description: 'Only entries of this status; left out: every status but drafts' }),
});

/** `GET /api/v1/participants/{id}/points`: how many of the latest ledger entries to give. */
export const v1PointsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'Must be a number' })
    .int('Must be a whole number')
    .min(1, 'Must be 1 or more')
    .max(V1_POINTS_ENTRIES.max, `At most ${V1_POINTS_ENTRIES.max}`)
    .default(V1_POINTS_ENTRIES.default)
    .meta({ description: `Ledger entries, newest first: 1 to ${V1_POINTS_ENTRIES.max}`, example: V1_POINTS_ENTRIES.default }),
});

/**
 * `POST /api/v1/participants/{id}/points`: the admin adjustment's rules (`pointsAdjustSchema`:
 * a whole number other than 0 within ±1,000,000, a reason, a reference), the reference required
 * (here or as the `Idempotency-Key` header): the same reference again answers the first credit.
 */
export const v1PointsCreditSchema = pointsAdjustSchema
  .omit({ allowNegative: true })
  .extend({
    reference: z.string({ error: 'Must be text' }).trim().min(1, MESSAGES.required).max(POINTS_LIMITS.referenceMax, MESSAGES.tooLong).optional().meta({
      description:
        'Your own key of this credit (at most 200 characters): sent again, it answers the first credit and credits nothing. Required here or as the `Idempotency-Key` header',
      example: 'crm-order-1042',
    }),
  })
  .meta({
    id: 'PointsCreditRequest',
    description: 'Points to credit (negative: to take away; never below zero available points) with the reason the participant sees',
    example: { points: 250, reason: 'Interview completed', reference: 'crm-order-1042' },
  });

// ---------------------------------------------------------------------------------------------
// Answers

/** Every error: `{ error: { code, message, fields?, … } }`. */
export const v1ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'What went wrong, for programs', example: 'insufficient_scope' }),
      message: z.string().meta({ description: 'What went wrong, in words', example: 'This API token does not have the responses:read scope' }),
      fields: z
        .record(z.string(), z.array(z.string()))
        .optional()
        .meta({ description: 'With 400 `validation_failed`: the messages of each field or parameter' }),
      scope: z.enum(API_TOKEN_SCOPES).optional().meta({ description: 'With 403 `insufficient_scope`: the scope the call needs' }),
    }),
  })
  .meta({
    id: 'Error',
    example: { error: { code: 'insufficient_scope', message: 'This API token does not have the responses:read scope', scope: 'responses:read' } },
  });

export const v1ProjectSchema = z
  .object({
    id: idOf('project'),
    name: z.string(),
    client: z.string(),
    status: z.enum(PROJECT_STATUSES),
    startsAt: z.string().nullable().meta({ description: 'Its first day (YYYY-MM-DD), or null', format: 'date' }),
    endsAt: z.string().nullable().meta({ description: 'Its last day (YYYY-MM-DD), or null', format: 'date' }),
    updatedAt: isoMoment('When it last changed'),
  })
  .meta({
    id: 'Project',
    example: {
      id: 7,
      name: 'Breakfast habits 2026',
      client: 'Acme Foods',
      status: 'live',
      startsAt: '2026-11-01',
      endsAt: '2026-12-15',
      updatedAt: '2026-11-02T09:30:00.000Z',
    },
  });

export const v1ProjectListSchema = z
  .object({
    items: z.array(v1ProjectSchema),
    total: z.number().int().meta({ example: 1 }),
    page: z.number().int().meta({ example: 1 }),
    pageSize: z.number().int().meta({ example: 20 }),
  })
  .meta({ id: 'ProjectList', description: 'A page of the list contract, oldest project first' });

const nextCursor = z
  .string()
  .nullable()
  .meta({ description: 'Send it as `cursor` for the rows after this page; null: this is the last page (for now: rows added later come after it)' });

export const v1ParticipantSchema = z
  .object({
    id: idOf('participant'),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().meta({ format: 'email' }),
    country: z.string().nullable().meta({ description: 'The country of their postal address (ISO 3166-1 alpha-2), or null' }),
    addedAt: isoMoment('When they joined the project'),
  })
  .meta({
    id: 'Participant',
    example: { id: 1234, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', country: 'GB', addedAt: '2026-11-02T09:30:00.000Z' },
  });

export const v1ParticipantPageSchema = z
  .object({ items: z.array(v1ParticipantSchema), nextCursor })
  .meta({ id: 'ParticipantPage', description: "A keyset page of a project's participants (not its staff), oldest member first" });

const answers = answersSchema.meta({
  description: 'Answers keyed by form element id; a choice is its option id (`{ other }` for an "Other" text); see the form version for what each element asks',
  example: { q_breakfast: 'opt_cereal', q_rating: 4, q_notes: 'Mostly on weekdays' },
});
const language = z.enum(LANGUAGES).meta({ description: 'The language the participant answered in' });

export const v1SurveyResponseSchema = z
  .object({
    id: idOf('response'),
    surveyId: idOf('survey'),
    userId: idOf('participant'),
    status: z.enum(['submitted']).meta({ description: 'Always `submitted`: drafts are not listed' }),
    formVersion: z.number().int().meta({ description: 'The version of the form the answers answer', example: 3 }),
    language,
    answers,
    submittedAt: isoMoment('When it was submitted'),
  })
  .meta({
    id: 'SurveyResponse',
    example: {
      id: 981,
      surveyId: 12,
      userId: 1234,
      status: 'submitted',
      formVersion: 3,
      language: 'en',
      answers: { q_breakfast: 'opt_cereal', q_rating: 4 },
      submittedAt: '2026-11-02T09:30:00.000Z',
    },
  });

export const v1SurveyResponsePageSchema = z
  .object({ items: z.array(v1SurveyResponseSchema), nextCursor })
  .meta({ id: 'SurveyResponsePage', description: "A keyset page of a survey's submitted responses, oldest submission first" });

export const v1MissionEntrySchema = z
  .object({
    id: idOf('entry'),
    missionId: idOf('mission'),
    userId: idOf('participant'),
    status: z.enum(ENTRY_STATUSES).meta({ description: 'submitted (waiting for review), approved, changes_requested or rejected' }),
    resubmission: z.boolean().meta({ description: 'Sent again after changes were asked' }),
    formVersion: z.number().int().meta({ description: 'The form version of its current version', example: 2 }),
    language,
    answers,
    localDate: z.string().meta({ description: "The participant's calendar day it was made on (YYYY-MM-DD)", format: 'date' }),
    createdAt: isoMoment('When it was started'),
    submittedAt: isoMoment('When it was last submitted'),
  })
  .meta({
    id: 'MissionEntry',
    description: 'An entry with its current version: the answers of its latest submission',
    example: {
      id: 5521,
      missionId: 31,
      userId: 1234,
      status: 'approved',
      resubmission: false,
      formVersion: 2,
      language: 'de',
      answers: { q_photo: ['m_3xK9aQ'], q_caption: 'Frühstück' },
      localDate: '2026-11-02',
      createdAt: '2026-11-02T08:10:00.000Z',
      submittedAt: '2026-11-02T09:30:00.000Z',
    },
  });

export const v1MissionEntryPageSchema = z
  .object({ items: z.array(v1MissionEntrySchema), nextCursor })
  .meta({ id: 'MissionEntryPage', description: "A keyset page of a mission's entries, oldest submission first" });

const pointsEntry = z
  .object({
    id: idOf('ledger entry'),
    points: z.number().int().meta({ description: 'Signed: negative points were taken away or spent', example: 250 }),
    state: z.enum(POINT_STATES).meta({ description: 'pending (waiting for a confirmation), available, voided, or held (a reward request)' }),
    reason: z.string().meta({ description: 'What the participant sees', example: 'Adjustment: Interview completed' }),
    source: z.enum(POINT_SOURCES),
    createdAt: isoMoment('When it was made'),
  })
  .meta({ id: 'PointsEntry' });

export const v1PointsSchema = z
  .object({
    userId: idOf('participant'),
    available: z.number().int().meta({ description: 'What can be spent (held points already taken off)', example: 1250 }),
    pending: z.number().int().meta({ description: 'Waiting for a confirmation', example: 100 }),
    held: z.number().int().meta({ description: 'Held by open reward requests', example: 0 }),
    entries: z.array(pointsEntry).meta({ description: 'The latest ledger entries, newest first' }),
    total: z.number().int().meta({ description: 'Ledger entries in all', example: 14 }),
  })
  .meta({ id: 'Points', description: "A participant's balance and latest ledger entries" });

export const v1PointsCreditResultSchema = z
  .object({
    id: idOf('ledger entry'),
    userId: idOf('participant'),
    points: z.number().int().meta({ example: 250 }),
    state: z.enum(POINT_STATES).meta({ description: 'Always `available`: a credit counts at once', example: 'available' }),
    reason: z.string().meta({ example: 'Adjustment: Interview completed' }),
    source: z.enum(POINT_SOURCES).meta({ description: 'Always `adjustment`', example: 'adjustment' }),
    reference: z.string().meta({ description: 'Your reference, as sent', example: 'crm-order-1042' }),
    createdAt: isoMoment('When it was credited (the first time)'),
  })
  .meta({ id: 'PointsCredit' });

export type V1PointsCreditResult = z.output<typeof v1PointsCreditResultSchema>;

// ---------------------------------------------------------------------------------------------
// Webhook endpoints (`webhooks:manage`): the admin calls' bodies and answers (`src/shared/webhooks.ts`),
// described. A token with a project limit gives its own project or none (then its own).

const webhookEvents = z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({
  description: `The events it is sent: one or more of ${WEBHOOK_EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}`,
  example: ['survey_response.submitted'],
});
const webhookUrlDoc = {
  description:
    'Where deliveries go: https, no credentials, a host that is and resolves to public addresses only (checked now and at every delivery); at most 2,000 characters',
  example: 'https://crm.example.org/hooks/fieldwork',
};
const webhookDescriptionDoc = { description: `A note of what it is for (at most ${WEBHOOK_LIMITS.descriptionMax} characters)`, example: 'CRM sync' };
const webhookProjectDoc =
  "Only this project's events (null: every project's, and those of no project). A token with a project limit: that project (left out: that project; null or another is refused)";
const messageType = z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]).meta({ description: 'The event type (`webhook.test`: a test event)' });
const eventId = z.string().meta({ description: "The event's id: the `webhook-id` header of every attempt to send it", example: 'msg_2b7Vq9xY4kHn3' });
const whsecSecret = z.string().meta({
  description: "The endpoint's signing secret, `whsec_` + base64 of 32 bytes: shown in this answer only (keep it: it is never answered again)",
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

/** `POST /api/v1/webhooks`: the admin call's body (`webhookCreateSchema`); `projectId` left out means the token's project, or none. */
export const v1WebhookCreateSchema = webhookCreateSchema
  .extend({
    url: webhookCreateSchema.shape.url.meta(webhookUrlDoc),
    events: webhookCreateSchema.shape.events.meta({ description: 'The events it is sent (one or more, each once)', example: ['survey_response.submitted'] }),
    description: webhookCreateSchema.shape.description.meta(webhookDescriptionDoc),
    projectId: webhookCreateSchema.shape.projectId.unwrap().optional().meta({ description: webhookProjectDoc, example: 7 }),
  })
  .meta({
    id: 'WebhookEndpointCreateRequest',
    example: {
      url: 'https://crm.example.org/hooks/fieldwork',
      events: ['survey_response.submitted', 'points.credited'],
      description: 'CRM sync',
      projectId: 7,
    },
  });

/** `PATCH /api/v1/webhooks/{id}`: the admin call's body (`webhookPatchSchema`). */
export const v1WebhookPatchSchema = webhookPatchSchema
  .extend({
    url: webhookPatchSchema.shape.url.meta(webhookUrlDoc),
    description: webhookPatchSchema.shape.description.meta(webhookDescriptionDoc),
    projectId: webhookPatchSchema.shape.projectId.meta({ description: webhookProjectDoc, example: 7 }),
    enabled: webhookPatchSchema.shape.enabled.meta({
      description: '`false` stops deliveries (`disabledReason: admin`); `true` starts them again and clears `disabledReason` and `failingSince`',
    }),
  })
  .meta({ id: 'WebhookEndpointPatchRequest', description: 'Any of the fields: the others stay as they are', example: { enabled: false } });

/** `GET /api/v1/webhooks`: optionally one project's endpoints. */
export const v1WebhooksQuerySchema = z.object({
  projectId: v1IdParam.optional().meta({
    description: 'Only the endpoints filtered to this project (not those for every project); a token with a project limit sees only its own anyway',
    example: 7,
  }),
});

const deliveriesQuery = webhookDeliveriesQuerySchema.shape;
/** `GET /api/v1/webhooks/{id}/deliveries`: the admin call's list contract (`webhookDeliveriesQuerySchema`), described. */
export const v1WebhookDeliveriesQuerySchema = webhookDeliveriesQuerySchema.extend({
  q: deliveriesQuery.q.meta({ description: 'An event id or type (contains)', example: 'survey_response' }),
  page: deliveriesQuery.page.meta({ description: 'The page, from 1', example: 1 }),
  pageSize: deliveriesQuery.pageSize.meta({ description: 'Rows a page: 1 to 100 (10)', example: 10 }),
  sort: deliveriesQuery.sort.meta({ description: '`created`: newest first' }),
  dir: deliveriesQuery.dir.meta({ description: '`asc`: oldest first' }),
  status: deliveriesQuery.status.meta({ description: 'Only deliveries of this status' }),
});

export const v1WebhookDeliverySummarySchema = z
  .object({
    id: idOf('delivery'),
    eventId,
    type: messageType,
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    responseStatus: z.number().int().nullable().meta({ description: "The receiver's HTTP status, or null (no answer yet, or none)" }),
    createdAt: isoMoment('When it was made'),
  })
  .meta({ id: 'WebhookDeliverySummary', description: 'The last delivery to an endpoint' });

export const v1WebhookEndpointSchema = z
  .object({
    id: idOf('webhook endpoint'),
    url: z.string().meta({ example: webhookUrlDoc.example }),
    description: z.string(),
    events: webhookEvents,
    projectId: idOf('project').nullable().meta({ description: "Only this project's events; null: every project's" }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(WEBHOOK_DISABLED_REASONS)
      .nullable()
      .meta({ description: '`failing` (every delivery failed for 5 days; admins were mailed) or `admin` (turned off); null while enabled' }),
    failingSince: isoMoment('Since when every delivery has failed (cleared by a success)').nullable(),
    previousSecretUntil: isoMoment('Until when the secret rotated out still signs beside the new one').nullable(),
    createdBy: z.number().int().nullable().meta({ description: 'The admin who made it; null when an API token made it (or the admin is gone)' }),
    createdAt: isoMoment('When it was made'),
    updatedAt: isoMoment('When it last changed'),
    lastDelivery: v1WebhookDeliverySummarySchema.nullable(),
  })
  .meta({
    id: 'WebhookEndpoint',
    description: 'An endpoint (never its secret)',
    example: {
      id: 3,
      url: 'https://crm.example.org/hooks/fieldwork',
      description: 'CRM sync',
      events: ['survey_response.submitted'],
      projectId: 7,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretUntil: null,
      createdBy: null,
      createdAt: '2026-11-02T09:30:00.000Z',
      updatedAt: '2026-11-02T09:30:00.000Z',
      lastDelivery: null,
    },
  });

export const v1WebhookEndpointListSchema = z
  .object({ items: z.array(v1WebhookEndpointSchema) })
  .meta({ id: 'WebhookEndpointList', description: `Every endpoint the token may see, oldest first (at most ${WEBHOOK_LIMITS.endpointsMax} exist)` });

export const v1WebhookCreatedSchema = z
  .object({
    id: idOf('webhook endpoint'),
    url: z.string(),
    events: webhookEvents,
    description: z.string(),
    projectId: idOf('project').nullable(),
    enabled: z.boolean(),
    secret: whsecSecret,
    createdAt: isoMoment('When it was made'),
  })
  .meta({ id: 'WebhookEndpointCreated', description: 'The endpoint, and its secret (this once)' });

export const v1WebhookSecretSchema = z
  .object({ secret: whsecSecret })
  .meta({ id: 'WebhookSecret', description: 'The new secret; the one before still signs beside it for 24 hours' });

export const v1WebhookTestSentSchema = z
  .object({ eventId, deliveryId: idOf('delivery') })
  .meta({ id: 'WebhookTestSent', description: 'The test event, queued for this endpoint alone' });

export const v1WebhookResentSchema = z
  .object({
    deliveryId: idOf('delivery'),
    eventId,
    attempt: z.number().int().meta({ description: 'The new attempt of the event to the endpoint', example: 2 }),
  })
  .meta({ id: 'WebhookResent', description: 'The new attempt, queued' });

export const v1WebhookDeliverySchema = z
  .object({
    id: idOf('delivery'),
    eventId,
    type: messageType,
    attempt: z.number().int().meta({ description: 'From 1, per event and endpoint', example: 1 }),
    manual: z.boolean().meta({ description: 'A resend or a test event (one attempt, no retries)' }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ description: '`pending` (queued, perhaps waiting for its time), `succeeded` (a 2xx answer) or `failed`' }),
    responseStatus: z.number().int().nullable().meta({ description: "The receiver's HTTP status, or null" }),
    latencyMs: z.number().int().nullable().meta({ description: 'How long the receiver took, or null' }),
    responseExcerpt: z
      .string()
      .nullable()
      .meta({ description: `The answer's first ${WEBHOOK_LIMITS.excerptListChars} characters, or null` }),
    error: z.string().nullable().meta({ description: 'Why it failed (`answered 503`, `timed out`, `redirect not followed`, …), or null', example: null }),
    scheduledAt: isoMoment('When it is, or was, due'),
    createdAt: isoMoment('When it was made'),
    finishedAt: isoMoment('When it ended, or null').nullable(),
  })
  .meta({
    id: 'WebhookDelivery',
    description: 'One attempt to send an event to an endpoint',
    example: {
      id: 88,
      eventId: 'msg_2b7Vq9xY4kHn3',
      type: 'survey_response.submitted',
      attempt: 1,
      manual: false,
      status: 'succeeded',
      responseStatus: 200,
      latencyMs: 84,
      responseExcerpt: 'ok',
      error: null,
      scheduledAt: '2026-11-02T09:30:00.000Z',
      createdAt: '2026-11-02T09:30:00.000Z',
      finishedAt: '2026-11-02T09:30:00.084Z',
    },
  });

export const v1WebhookDeliveryListSchema = z
  .object({
    items: z.array(v1WebhookDeliverySchema),
    total: z.number().int().meta({ example: 1 }),
    page: z.number().int().meta({ example: 1 }),
    pageSize: z.number().int().meta({ example: 10 }),
  })
  .meta({ id: 'WebhookDeliveryList', description: "A page of the list contract of an endpoint's deliveries, newest first" });
