/**
 * Outgoing webhooks (issue 32 §1; docs/api.md "Webhooks"): the events an endpoint may ask for, the
 * thin payload (`data`) of each, the admin calls' bodies and answers, and the delivery rules
 * (retry schedule, limits). An **endpoint** is an admin's receiving URL; an **event** is one row of
 * the outbox (`msg_…`, the `webhook-id` of every attempt); a **delivery** is one attempt to send an
 * event to an endpoint. The payload schemas are exported for the OpenAPI description (`webhooks`).
 */
import { listQuerySchema } from './list.ts';
import { MESSAGES } from './messages.ts';
import { REDEMPTION_STATUSES } from './rewards.ts';
import { REVIEW_DECISION_STATUSES } from './review.ts';
import { EXTERNAL_OUTCOMES } from './surveys.ts';
import { WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_MESSAGES } from './webhook-url.ts';
import { z } from './zod.ts';

// ---------------------------------------------------------------------------------------------
// Events and their payloads

/** The events an endpoint may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'participant.joined',
  'survey_response.submitted',
  'mission_entry.submitted',
  'mission_entry.decided',
  'points.credited',
  'points.available',
  'redemption.updated',
  'external_survey.returned',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What each event means, as the API reference (`GET /api/openapi.json`, `webhooks`) says it. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Readonly<Record<WebhookEventType, string>> = {
  'participant.joined': 'Someone became a member of a project: added by staff, or invited into it.',
  'survey_response.submitted': "A participant submitted a native survey's response (read it with `GET /api/v1/surveys/{id}/responses`).",
  'mission_entry.submitted':
    "A participant submitted a mission entry, or a new version of it; an automatic review's decision follows as `mission_entry.decided`.",
  'mission_entry.decided': 'Staff, or the automatic review, approved a mission entry, asked for changes or rejected it (`decision`).',
  'points.credited':
    "A new entry in a participant's points ledger (a survey, a mission entry, an external survey, an adjustment, a bulk update); `points` is signed.",
  'points.available': 'A ledger entry can be spent: credited so at once, or confirmed later (an approved entry, a confirmed external survey).',
  'redemption.updated': 'A participant asked to redeem points for a reward, or the request changed status.',
  'external_survey.returned': "An external survey's outcome was recorded: the participant's return, or the survey tool's confirmation (`confirmed`).",
};

/** The event `POST /api/admin/webhooks/{id}/test` sends: to that endpoint only, never subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Every type an event row may have: the subscribable ones and the test event. */
export type WebhookMessageType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

const id = z.number().int().min(1);

/** The `data` of each event: ids and the few fields needed to act; personal data only through the API with a token. */
export const WEBHOOK_PAYLOAD_SCHEMAS = {
  /** Someone became a member of a project (added by staff, or invited into it). */
  'participant.joined': z.object({ projectId: id, userId: id }),
  /** A native survey's response was submitted. */
  'survey_response.submitted': z.object({ projectId: id, surveyId: id, responseId: id, userId: id }),
  /** A mission entry was submitted (a new version; an automatic review's decision follows as `mission_entry.decided`). */
  'mission_entry.submitted': z.object({ projectId: id, missionId: id, entryId: id, userId: id }),
  /** Staff (or the automatic review) decided on a mission entry. */
  'mission_entry.decided': z.object({ projectId: id, missionId: id, entryId: id, userId: id, decision: z.enum(REVIEW_DECISION_STATUSES) }),
  /**
   * A new entry in the points ledger (a survey, a mission entry, an external survey, an admin's
   * adjustment or a bulk update; never a redemption's hold): `points` signed, `transactionId` the
   * ledger entry's id, `projectId` of the survey or mission it is for (null: an adjustment).
   */
  'points.credited': z.object({
    userId: id,
    projectId: id.nullable(),
    points: z.number().int(),
    transactionId: id,
    reason: z.string(),
    state: z.enum(['pending', 'available']),
  }),
  /** A ledger entry is available to spend: credited so at once, or confirmed later (an approved entry, a confirmed external survey). */
  'points.available': z.object({ userId: id, projectId: id.nullable(), points: z.number().int(), transactionId: id, reason: z.string() }),
  /** A redemption was requested or changed status. */
  'redemption.updated': z.object({ redemptionId: id, userId: id, status: z.enum(REDEMPTION_STATUSES) }),
  /** An external (Alchemer) survey's outcome was recorded: the participant's return, or Alchemer's confirmation (`confirmed`). */
  'external_survey.returned': z.object({ projectId: id, surveyId: id, userId: id, outcome: z.enum(EXTERNAL_OUTCOMES), confirmed: z.boolean() }),
  /** The test event of `POST /api/admin/webhooks/{id}/test`. */
  'webhook.test': z.object({ endpointId: id }),
} as const satisfies Record<WebhookMessageType, z.ZodType>;

/** The `data` of an event type. */
export type WebhookPayload<T extends WebhookMessageType> = z.infer<(typeof WEBHOOK_PAYLOAD_SCHEMAS)[T]>;

/** The JSON body of a delivery: `{ type, timestamp, data }` (`timestamp`: when the event happened, ISO 8601). */
export function webhookMessageSchema<T extends WebhookMessageType>(type: T) {
  return z.object({ type: z.literal(type), timestamp: z.iso.datetime(), data: WEBHOOK_PAYLOAD_SCHEMAS[type] });
}

export interface WebhookMessage<T extends WebhookMessageType = WebhookMessageType> {
  type: T;
  timestamp: string;
  data: WebhookPayload<T>;
}

// ---------------------------------------------------------------------------------------------
// Delivery rules

/**
 * The Standard Webhooks retry schedule: attempt n+1 waits `WEBHOOK_RETRY_SCHEDULE_SECONDS[n]`
 * after attempt n failed (attempt 1 goes at once), each wait varied by up to ±`WEBHOOK_LIMITS.jitter`.
 * Eight attempts over about 28 hours.
 */
export const WEBHOOK_RETRY_SCHEDULE_SECONDS = [0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

export const WEBHOOK_LIMITS = {
  urlMax: WEBHOOK_URL_MAX_LENGTH,
  descriptionMax: 500,
  /** Endpoints in all. */
  endpointsMax: 20,
  /** A delivery's timeout; redirects are never followed. */
  timeoutMs: 10_000,
  /** The receiver's answer kept per delivery. */
  responseKeptBytes: 64 * 1024,
  /** The answer's first characters a deliveries list shows. */
  excerptListChars: 500,
  /** ± this fraction of each retry wait, at random. */
  jitter: 0.2,
  /** An endpoint whose deliveries have all failed this long is disabled. */
  disableAfterMs: 5 * 24 * 3600 * 1000,
  /** A rotated-out secret still signs (beside the new one) this long. */
  previousSecretMs: 24 * 3600 * 1000,
  /** Test events and resends an admin may ask for (a rate limit). */
  sendsPerMinute: { limit: 30, windowMs: 60_000 },
  /** Events (and their deliveries) are kept this many days, then removed by the daily `webhooks.prune`; never one with a delivery still pending. */
  retentionDays: 30,
} as const;

/** A delivery's state: `pending` (queued, perhaps waiting for its time), then `succeeded` (a 2xx answer) or `failed`. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Why an endpoint is disabled: `failing` (every delivery failed for 5 days; its admins were mailed) or `admin` (turned off by an admin). */
export const WEBHOOK_DISABLED_REASONS = ['failing', 'admin'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

// ---------------------------------------------------------------------------------------------
// The admin calls' bodies

/**
 * The endpoint's address as a form can check it (a web address, not too long); whether it may be
 * used — https, no credentials, a public host — is the server's `checkWebhookUrl`
 * (services/outgoing-http.ts), with the same messages (`webhook-url.ts`).
 */
const urlSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(WEBHOOK_URL_MAX_LENGTH, WEBHOOK_URL_MESSAGES.tooLong)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, WEBHOOK_URL_MESSAGES.invalid);

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `Unknown event: choose from ${WEBHOOK_EVENT_TYPES.join(', ')}` }), { error: 'Choose the events to send' })
  .min(1, 'Choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));

const descriptionSchema = z.string({ error: 'Must be text' }).trim().max(WEBHOOK_LIMITS.descriptionMax, MESSAGES.tooLong);
const projectIdSchema = z.number({ error: 'Choose a project, or null for all' }).int().min(1).max(2_147_483_647).nullable();

/** `POST /api/admin/webhooks`. */
export const webhookCreateSchema = z.strictObject({
  url: urlSchema,
  events: eventsSchema,
  description: descriptionSchema.default(''),
  projectId: projectIdSchema.default(null),
});
export type WebhookCreateInput = z.infer<typeof webhookCreateSchema>;

/** `PATCH /api/admin/webhooks/{id}`: any of these; `enabled: true` on a disabled endpoint clears its reason and failing time. */
export const webhookPatchSchema = z.strictObject({
  url: urlSchema.optional(),
  events: eventsSchema.optional(),
  description: descriptionSchema.optional(),
  projectId: projectIdSchema.optional(),
  enabled: z.boolean({ error: 'Must be true or false' }).optional(),
});
export type WebhookPatchInput = z.infer<typeof webhookPatchSchema>;

export const WEBHOOK_DELIVERY_SORTS = ['created'] as const;

/** `GET /api/admin/webhooks/{id}/deliveries`: the list contract (`q`: an event id or type), newest first, optionally one `status`. */
export const webhookDeliveriesQuerySchema = listQuerySchema(WEBHOOK_DELIVERY_SORTS).extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Answers

/** The last delivery to an endpoint, as its list shows it. */
export interface WebhookDeliverySummary {
  id: number;
  eventId: string;
  type: WebhookMessageType;
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  createdAt: string;
}

/** An endpoint as the admin calls answer it (never its secret). */
export interface WebhookEndpoint {
  id: number;
  url: string;
  description: string;
  events: WebhookEventType[];
  projectId: number | null;
  enabled: boolean;
  disabledReason: WebhookDisabledReason | null;
  /** Since when every delivery has failed (cleared by a success); null: not failing. */
  failingSince: string | null;
  /** Until when the secret rotated out still signs (beside the new one); null: none. */
  previousSecretUntil: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
  lastDelivery: WebhookDeliverySummary | null;
}

/** `POST /api/admin/webhooks`'s 201: the endpoint and its secret, shown this once. */
export interface WebhookCreated {
  id: number;
  url: string;
  events: WebhookEventType[];
  description: string;
  projectId: number | null;
  enabled: boolean;
  secret: string;
  createdAt: string;
}

/** One attempt to send an event to an endpoint, as `GET /api/admin/webhooks/{id}/deliveries` lists it. */
export interface WebhookDelivery {
  id: number;
  eventId: string;
  type: WebhookMessageType;
  attempt: number;
  /** A resend or a test event: one attempt, no retries. */
  manual: boolean;
  status: WebhookDeliveryStatus;
  responseStatus: number | null;
  latencyMs: number | null;
  /** The answer's first characters (`WEBHOOK_LIMITS.excerptListChars`). */
  responseExcerpt: string | null;
  error: string | null;
  /** When it is (or was) due. */
  scheduledAt: string;
  createdAt: string;
  finishedAt: string | null;
}
