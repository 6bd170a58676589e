/**
 * Outgoing webhooks (issue 32 §1; docs/decisions/036-webhooks.md): the outbox of events, their
 * fan-out to the endpoints that ask for them, each delivery attempt and its retry schedule, the
 * endpoint that keeps failing, and what the admin calls do.
 *
 * - **Recording** (`recordWebhookEvent`, one line where a change happens): in the change's own
 *   transaction, an event row (the outbox; only when an enabled endpoint asks for its type) and its
 *   `webhooks.fan-out` job, queued through that transaction: a rolled-back change leaves neither.
 *   The queue is the one of the work in progress (`withWebhookQueue`: the app sets it for every
 *   request, the job runner for every job), so the services keep their signatures; an event
 *   recorded where no queue is set (a script) waits for the every-minute `webhooks.sweep`.
 * - **Fan-out** (`fanOutWebhookEvent`, `sweepWebhookEvents`): claims the event once
 *   (`fanned_out_at`), makes attempt 1 for every enabled endpoint whose events and project filter
 *   match, and queues a `webhooks.deliver` job for each, in one transaction.
 * - **Delivery** (`deliverWebhook`): signs (the current secret, and the one rotated out while it
 *   still signs), POSTs with `postSafely` (SSRF-safe, 10 s, no redirects, 64 KB kept) and records
 *   the outcome; a failure queues the next attempt itself on the Standard Webhooks schedule. The
 *   job's own pg-boss retries are for crashes only: a delivery not recorded is sent again, with the
 *   same `webhook-id` (at least once).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, asc, count, desc, eq, ilike, inArray, isNull, max, or, sql, type SQL } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import type { PointSource, PointState } from '../../shared/points.ts';
import type { RedemptionStatus } from '../../shared/rewards.ts';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  WEBHOOK_TEST_EVENT,
  type WebhookCreateInput,
  type WebhookCreated,
  type WebhookDeliveriesQuery,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookMessage,
  type WebhookMessageType,
  type WebhookPatchInput,
  type WebhookPayload,
} from '../../shared/webhooks.ts';
import type { Config } from '../config.ts';
import { queryRows, type Db } from '../db/index.ts';
import {
  missionEntries,
  missions,
  projects,
  surveys,
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEventRow,
} from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import type { Logger } from '../logger.ts';
import { mailLanguageOf, webhookDisabledNotice } from '../mail/templates.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { countOf, pageOf, paginate } from './list.ts';
import { checkWebhookUrl, postSafely, type Resolver } from './outgoing-http.ts';
import { containsPattern } from './search.ts';
import { openWebhookSecret, sealWebhookSecret, webhookSecretKey } from './secret-box.ts';
import { newWebhookSecret, webhookHeaders, webhookMessageId } from './webhook-signature.ts';

/** What the fan-out, the deliveries and the admin calls use. */
export interface WebhookDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'webhookSecretKey' | 'webhooksAllowLoopback' | 'publicUrl' | 'webhookTimeoutMs' | 'webhookRetrySeconds'>;
  jobs: JobSender;
  logger?: Logger;
  /** How host names are resolved at delivery (default: the system's). */
  resolve?: Resolver;
}

// ---------------------------------------------------------------------------------------------
// The queue of the work in progress

const queueOfWork = new AsyncLocalStorage<JobSender>();

/**
 * Runs `work` with `jobs` as the queue events are sent through (`recordWebhookEvent`): the app
 * wraps every request in it, the job runner every job.
 */
export function withWebhookQueue<T>(jobs: JobSender, work: () => T): T {
  return queueOfWork.run(jobs, work);
}

// ---------------------------------------------------------------------------------------------
// Recording events (the outbox)

/** One event to record: its type, its `data`, and the project it belongs to (null: none). */
export interface WebhookEventInput<T extends WebhookEventType = WebhookEventType> {
  type: T;
  data: WebhookPayload<T>;
  projectId: number | null;
}

/** What the enabled endpoints ask for: each one's events and project filter (a handful of rows). */
type Subscriptions = { events: readonly string[]; projectId: number | null }[];

async function subscriptions(tx: Db): Promise<Subscriptions> {
  return tx.select({ events: webhookEndpoints.events, projectId: webhookEndpoints.projectId }).from(webhookEndpoints).where(eq(webhookEndpoints.enabled, true));
}

/** Whether an enabled endpoint asks for events of this type and project (an endpoint without a project filter takes every project's, and those of none). */
function wanted(subs: Subscriptions, type: string, projectId: number | null): boolean {
  return subs.some((sub) => sub.events.includes(type) && (sub.projectId === null || sub.projectId === projectId));
}

/**
 * Records an event in the transaction `tx` of the change it reports (one line where the change
 * happens), when an enabled endpoint asks for it: the outbox row and its `webhooks.fan-out` job,
 * which exist only if `tx` commits. Its id (`msg_…`), or null when no endpoint wants it.
 */
export async function recordWebhookEvent<T extends WebhookEventType>(
  tx: Db,
  type: T,
  data: WebhookPayload<T>,
  projectId: number | null,
): Promise<string | null> {
  const [id] = await recordWebhookEvents(tx, [{ type, data, projectId } as WebhookEventInput]);
  return id ?? null;
}

/** Events recorded together up to this many get a fan-out job each; more, one `webhooks.sweep`. */
const FAN_OUT_JOBS_MAX = 20;

/**
 * `recordWebhookEvent` for many events at once (bulk approvals, a points bulk update): the rows in
 * a few statements, and a fan-out job each — or, past `FAN_OUT_JOBS_MAX`, one `webhooks.sweep`
 * job that fans them all out.
 */
export async function recordWebhookEvents(tx: Db, events: readonly WebhookEventInput[], subs?: Subscriptions): Promise<string[]> {
  if (events.length === 0) return [];
  const asked = subs ?? (await subscriptions(tx));
  const kept = events.filter((event) => wanted(asked, event.type, event.projectId));
  if (kept.length === 0) return [];
  const rows = kept.map((event) => ({ id: webhookMessageId(), type: event.type, payload: event.data as Record<string, unknown>, projectId: event.projectId }));
  for (let at = 0; at < rows.length; at += 1000) await tx.insert(webhookEvents).values(rows.slice(at, at + 1000));
  const jobs = queueOfWork.getStore();
  if (jobs) {
    if (rows.length <= FAN_OUT_JOBS_MAX) for (const row of rows) await jobs.send('webhooks.fan-out', { eventId: row.id }, { tx });
    else await jobs.send('webhooks.sweep', {}, { tx });
  }
  return rows.map((row) => row.id);
}

/** A points ledger entry, as far as its events need it. */
export interface LedgerEntry {
  id: number;
  userId: number;
  points: number;
  state: PointState;
  reason: string;
  source: PointSource;
  reference: string;
}

/** `redemption.updated`: a redemption requested, or its new status (redemptions belong to no project). */
export async function recordRedemptionEvent(tx: Db, row: { id: number; userId: number; status: RedemptionStatus }): Promise<void> {
  await recordWebhookEvent(tx, 'redemption.updated', { redemptionId: row.id, userId: row.userId, status: row.status }, null);
}

/** The columns of `LedgerEntry` for a raw `returning` of `points_ledger` (qualified by `alias` when the statement joins). */
export function ledgerEntryColumns(alias?: string): SQL {
  const p = alias ? `${alias}.` : '';
  return sql.raw(`${p}id, ${p}user_id as "userId", ${p}points, ${p}state, ${p}reason, ${p}source, ${p}reference`);
}

/**
 * The events of points ledger entries (never a redemption's hold: `redemption.updated` tells of
 * those): `created` — `points.credited` for each, and `points.available` for those available at
 * once; `available` — entries whose state just became `available` (a confirmation).
 */
export async function recordPointsEvents(tx: Db, entries: readonly LedgerEntry[], change: 'created' | 'available'): Promise<void> {
  const told = entries.filter((entry) => entry.source !== 'redemption' && (entry.state === 'available' || (change === 'created' && entry.state === 'pending')));
  if (told.length === 0) return;
  const subs = await subscriptions(tx);
  if (!subs.some((sub) => sub.events.includes('points.credited') || sub.events.includes('points.available'))) return;
  const projectOf = await ledgerProjects(tx, told);
  const events: WebhookEventInput[] = [];
  for (const entry of told) {
    const projectId = projectOf.get(entry.id) ?? null;
    const about = { userId: entry.userId, projectId, points: entry.points, transactionId: entry.id, reason: entry.reason };
    if (change === 'created')
      events.push({
        type: 'points.credited',
        data: { ...about, state: entry.state === 'available' ? 'available' : 'pending' },
        projectId,
      } as WebhookEventInput);
    if (entry.state === 'available') events.push({ type: 'points.available', data: about, projectId } as WebhookEventInput);
  }
  await recordWebhookEvents(tx, events, subs);
}

/** The project of each ledger entry that is for a survey or a mission entry (by its reference). */
async function ledgerProjects(tx: Db, entries: readonly LedgerEntry[]): Promise<Map<number, number>> {
  const idIn = (entry: LedgerEntry, prefix: string) => (entry.reference.startsWith(prefix) ? Number(entry.reference.slice(prefix.length)) : NaN);
  const surveyOf = new Map<number, number>();
  const entryOf = new Map<number, number>();
  for (const entry of entries) {
    const survey = entry.source === 'survey' ? idIn(entry, 'survey:') : entry.source === 'external_survey' ? idIn(entry, 'external-survey:') : NaN;
    if (Number.isSafeInteger(survey)) surveyOf.set(entry.id, survey);
    const missionEntry = entry.source === 'mission' ? idIn(entry, 'mission-entry:') : NaN;
    if (Number.isSafeInteger(missionEntry)) entryOf.set(entry.id, missionEntry);
  }
  const projectOfSurvey = new Map<number, number>();
  const projectOfEntry = new Map<number, number>();
  if (surveyOf.size > 0) {
    const rows = await tx
      .select({ id: surveys.id, projectId: surveys.projectId })
      .from(surveys)
      .where(inArray(surveys.id, [...new Set(surveyOf.values())]));
    for (const row of rows) projectOfSurvey.set(row.id, row.projectId);
  }
  if (entryOf.size > 0) {
    const rows = await tx
      .select({ id: missionEntries.id, projectId: missions.projectId })
      .from(missionEntries)
      .innerJoin(missions, eq(missions.id, missionEntries.missionId))
      .where(inArray(missionEntries.id, [...new Set(entryOf.values())]));
    for (const row of rows) projectOfEntry.set(row.id, row.projectId);
  }
  const found = new Map<number, number>();
  for (const [ledgerId, surveyId] of surveyOf) {
    const projectId = projectOfSurvey.get(surveyId);
    if (projectId !== undefined) found.set(ledgerId, projectId);
  }
  for (const [ledgerId, entryId] of entryOf) {
    const projectId = projectOfEntry.get(entryId);
    if (projectId !== undefined) found.set(ledgerId, projectId);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Fan-out

/** Attempt 1 of `event` for every enabled endpoint that asks for it, each with its `webhooks.deliver` job; how many. */
async function deliveriesFor(tx: Db, deps: Pick<WebhookDeps, 'clock' | 'jobs'>, event: WebhookEventRow): Promise<number> {
  const project =
    event.projectId === null ? isNull(webhookEndpoints.projectId) : or(isNull(webhookEndpoints.projectId), eq(webhookEndpoints.projectId, event.projectId));
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, true), sql`${event.type} = any(${webhookEndpoints.events})`, project));
  if (endpoints.length === 0) return 0;
  const now = deps.clock.now();
  const made = await tx
    .insert(webhookDeliveries)
    .values(endpoints.map((endpoint) => ({ endpointId: endpoint.id, eventId: event.id, attempt: 1, scheduledAt: now, createdAt: now })))
    .onConflictDoNothing()
    .returning({ endpointId: webhookDeliveries.endpointId });
  for (const { endpointId } of made) await deps.jobs.send('webhooks.deliver', { endpointId, eventId: event.id, attempt: 1 }, { tx });
  return made.length;
}

/** `webhooks.fan-out`: the event's deliveries, made once (a second run, or the sweep's, finds it claimed). How many were made. */
export async function fanOutWebhookEvent(deps: Pick<WebhookDeps, 'db' | 'clock' | 'jobs'>, eventId: string): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const [event] = await tx
      .update(webhookEvents)
      .set({ fannedOutAt: deps.clock.now() })
      .where(and(eq(webhookEvents.id, eventId), isNull(webhookEvents.fannedOutAt)))
      .returning();
    return event ? deliveriesFor(tx, deps, event) : 0;
  });
}

const SWEEP_BATCH = 200;

/**
 * `webhooks.sweep` (every minute, and queued by bulk recordings): fans out every event not fanned
 * out yet, oldest first, a batch per transaction; rows another run holds are skipped. The
 * deliveries made.
 */
export async function sweepWebhookEvents(deps: Pick<WebhookDeps, 'db' | 'clock' | 'jobs'>): Promise<number> {
  let made = 0;
  for (;;) {
    const claimed = await deps.db.transaction(async (tx) => {
      const ids = await queryRows<{ id: string }>(
        tx,
        sql`select id from ${webhookEvents} where fanned_out_at is null order by created_at, id limit ${SWEEP_BATCH} for update skip locked`,
      );
      if (ids.length === 0) return 0;
      const events = await tx
        .update(webhookEvents)
        .set({ fannedOutAt: deps.clock.now() })
        .where(
          inArray(
            webhookEvents.id,
            ids.map((row) => row.id),
          ),
        )
        .returning();
      events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
      for (const event of events) made += await deliveriesFor(tx, deps, event);
      return ids.length;
    });
    if (claimed < SWEEP_BATCH) return made;
  }
}

// ---------------------------------------------------------------------------------------------
// Delivery

/**
 * The wait after `automaticAttempts` failed attempts (ms, jittered by up to ±WEBHOOK_LIMITS.jitter);
 * null after the last. `schedule`: the Standard Webhooks one (the process tests shorten it).
 */
export function retryDelayMs(
  automaticAttempts: number,
  random: () => number = Math.random,
  schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_SECONDS,
): number | null {
  const seconds = schedule[automaticAttempts];
  if (seconds === undefined) return null;
  return Math.round(seconds * 1000 * (1 + (random() * 2 - 1) * WEBHOOK_LIMITS.jitter));
}

/** The body of a delivery: `{ type, timestamp, data }`. */
export function webhookBody(event: Pick<WebhookEventRow, 'type' | 'createdAt' | 'payload'>): string {
  const message = { type: event.type, timestamp: event.createdAt.toISOString(), data: event.payload } as WebhookMessage;
  return JSON.stringify(message);
}

/** The secrets that sign now: the current one, and the one rotated out while it still signs. */
async function signingSecrets(deps: Pick<WebhookDeps, 'db' | 'config'>, endpoint: WebhookEndpointRow, now: Date): Promise<string[]> {
  const key = await webhookSecretKey(deps.db, deps.config);
  const secrets = [openWebhookSecret(key, endpoint.id, endpoint.secretSealed)];
  if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil.getTime() > now.getTime())
    secrets.push(openWebhookSecret(key, endpoint.id, endpoint.previousSecretSealed));
  return secrets;
}

/** A receiver's text as PostgreSQL can keep it: a NUL character (which a text column refuses) replaced. */
const storable = (text: string): string => text.replaceAll('\u0000', '\uFFFD');

/** What an attempt ended with. */
interface Outcome {
  status: Exclude<WebhookDeliveryStatus, 'pending'>;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

/** Old events a `webhooks.prune` transaction removes at most (their deliveries go with them). */
const PRUNE_BATCH = 1_000;

/**
 * `webhooks.prune` (daily): events older than `WEBHOOK_LIMITS.retentionDays` are removed with
 * their deliveries (the foreign key cascades), a batch per transaction so no lock is held long;
 * an event with a delivery still pending (a retry, or a resend an admin asked for) stays until
 * it is done. How many events were removed.
 */
export async function pruneWebhookEvents(deps: Pick<WebhookDeps, 'db' | 'clock'>): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - WEBHOOK_LIMITS.retentionDays * 24 * 3600 * 1000);
  let removed = 0;
  for (;;) {
    const rows = await queryRows<{ id: string }>(
      deps.db,
      sql`delete from ${webhookEvents} where id in (
        select e.id from ${webhookEvents} e
        where e.created_at < ${cutoff.toISOString()}::timestamptz
          and not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id and d.status = 'pending')
        order by e.created_at, e.id
        limit ${PRUNE_BATCH}
      ) returning id`,
    );
    removed += rows.length;
    if (rows.length < PRUNE_BATCH) return removed;
  }
}

/**
 * `webhooks.deliver`: one attempt of an event to an endpoint, once (a delivery already finished is
 * left alone; one of a disabled endpoint fails unsent). Its status after, or null when there is
 * no such pending delivery.
 */
export async function deliverWebhook(deps: WebhookDeps, job: { endpointId: number; eventId: string; attempt: number }): Promise<WebhookDeliveryStatus | null> {
  const [row] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.endpointId, job.endpointId), eq(webhookDeliveries.eventId, job.eventId), eq(webhookDeliveries.attempt, job.attempt)));
  if (!row || row.delivery.status !== 'pending') return null;
  const { delivery, endpoint, event } = row;
  if (!endpoint.enabled) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: 'failed', error: 'not sent: the endpoint is disabled', finishedAt: deps.clock.now() })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')));
    return 'failed';
  }
  const now = deps.clock.now();
  const body = webhookBody(event);
  const headers = webhookHeaders(await signingSecrets(deps, endpoint, now), event.id, Math.floor(now.getTime() / 1000), body);
  const result = await postSafely({
    url: endpoint.url,
    headers,
    body,
    timeoutMs: deps.config.webhookTimeoutMs,
    maxResponseBytes: WEBHOOK_LIMITS.responseKeptBytes,
    allowLoopback: deps.config.webhooksAllowLoopback,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  const outcome: Outcome = {
    status: result.ok ? 'succeeded' : 'failed',
    responseStatus: result.status,
    latencyMs: result.latencyMs,
    responseExcerpt: result.responseExcerpt === '' ? null : storable(result.responseExcerpt),
    error: result.ok ? null : storable(result.error ?? `answered ${result.status ?? 'nothing'}`),
  };
  await recordOutcome(deps, delivery, outcome);
  return outcome.status;
}

/**
 * Records an attempt's outcome, in one transaction under the endpoint's lock: the delivery
 * finished; a success clears `failing_since`; a failure sets it (first one) and either disables an
 * endpoint failing for 5 days (mailing every admin; nothing more is sent to it) or queues the next
 * attempt on the schedule (not after a resend or a test).
 */
async function recordOutcome(deps: WebhookDeps, delivery: WebhookDeliveryRow, outcome: Outcome): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).for('update');
    if (!endpoint) return; // deleted meanwhile, its deliveries with it
    const at = deps.clock.now();
    const [finished] = await tx
      .update(webhookDeliveries)
      .set({ ...outcome, finishedAt: at })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    if (!finished) return; // another run recorded it first
    if (outcome.status === 'succeeded') {
      if (endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
      return;
    }
    const failingSince = endpoint.failingSince ?? at;
    if (!endpoint.failingSince) await tx.update(webhookEndpoints).set({ failingSince }).where(eq(webhookEndpoints.id, endpoint.id));
    if (!endpoint.enabled) return;
    if (at.getTime() - failingSince.getTime() >= WEBHOOK_LIMITS.disableAfterMs) await disableFailing(tx, deps, endpoint, failingSince, at);
    else if (!delivery.manual) await queueNextAttempt(tx, deps, delivery, at);
  });
}

/** The next automatic attempt of a failed one, at its time on the schedule; nothing after the eighth. */
async function queueNextAttempt(tx: Db, deps: WebhookDeps, delivery: WebhookDeliveryRow, at: Date): Promise<void> {
  const same = and(eq(webhookDeliveries.endpointId, delivery.endpointId), eq(webhookDeliveries.eventId, delivery.eventId));
  const [made] = await tx
    .select({ automatic: sql<number>`count(*) filter (where not ${webhookDeliveries.manual})`.mapWith(Number), last: max(webhookDeliveries.attempt) })
    .from(webhookDeliveries)
    .where(same);
  const wait = retryDelayMs(made?.automatic ?? 0, Math.random, deps.config.webhookRetrySeconds);
  if (wait === null) return;
  const attempt = (made?.last ?? delivery.attempt) + 1;
  await tx.insert(webhookDeliveries).values({
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    attempt,
    scheduledAt: new Date(at.getTime() + wait),
    createdAt: at,
  });
  // A delay, not a date: a database clock ahead of ours cannot send it early (as services/new-work.ts).
  await deps.jobs.send(
    'webhooks.deliver',
    { endpointId: delivery.endpointId, eventId: delivery.eventId, attempt },
    { tx, startAfter: Math.max(1, Math.ceil(wait / 1000)) },
  );
}

/** Disables an endpoint whose deliveries have all failed for 5 days, audited, and mails every active admin in their language. */
async function disableFailing(tx: Db, deps: WebhookDeps, endpoint: WebhookEndpointRow, failingSince: Date, at: Date): Promise<void> {
  await tx.update(webhookEndpoints).set({ enabled: false, disabledReason: 'failing', updatedAt: at }).where(eq(webhookEndpoints.id, endpoint.id));
  await audit(tx, {
    via: 'system',
    action: 'webhook.disable',
    targetType: 'webhook',
    targetId: endpoint.id,
    before: { enabled: true },
    after: { enabled: false, disabledReason: 'failing', failingSince: failingSince.toISOString() },
  });
  const admins = await tx
    .select({ email: users.email, firstName: users.firstName, preferences: users.preferences })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active')));
  for (const admin of admins) {
    const message = webhookDisabledNotice({
      to: admin.email,
      language: mailLanguageOf(admin.preferences),
      firstName: admin.firstName,
      endpointUrl: endpoint.url,
      failingSince,
      timeZone: admin.preferences.timeZone ?? 'UTC',
      manageUrl: `${deps.config.publicUrl}/admin/integrations`,
    });
    await deps.jobs.mail(message, { tx });
  }
  deps.logger?.warn({ endpointId: endpoint.id, failingSince }, 'webhook endpoint disabled after 5 days of failures');
}

// ---------------------------------------------------------------------------------------------
// The admin calls

/** An endpoint as the calls answer it. */
function endpointView(row: WebhookEndpointRow, last: WebhookEndpoint['lastDelivery']): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    projectId: row.projectId,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretUntil: row.previousSecretUntil?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastDelivery: last,
  };
}

/** What the audit log keeps of an endpoint: never its secret. */
export function webhookSummary(row: Pick<WebhookEndpointRow, 'url' | 'description' | 'events' | 'projectId' | 'enabled'>) {
  return { url: row.url, description: row.description, events: row.events, projectId: row.projectId, enabled: row.enabled };
}

/** The endpoint of an id; 404 `No such webhook` otherwise. */
export async function existingWebhook(db: Db, id: number): Promise<WebhookEndpointRow> {
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw notFound('webhook');
  return row;
}

/** The last delivery of each endpoint (newest first by creation). */
async function lastDeliveries(db: Db, endpointIds: readonly number[]): Promise<Map<number, NonNullable<WebhookEndpoint['lastDelivery']>>> {
  const found = new Map<number, NonNullable<WebhookEndpoint['lastDelivery']>>();
  if (endpointIds.length === 0) return found;
  const rows = await db
    .selectDistinctOn([webhookDeliveries.endpointId], {
      endpointId: webhookDeliveries.endpointId,
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      type: webhookEvents.type,
      status: webhookDeliveries.status,
      responseStatus: webhookDeliveries.responseStatus,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(inArray(webhookDeliveries.endpointId, [...endpointIds]))
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  for (const { endpointId, createdAt, ...rest } of rows) found.set(endpointId, { ...rest, createdAt: createdAt.toISOString() });
  return found;
}

/** `GET /api/admin/webhooks`: every endpoint, oldest first, each with its last delivery. */
export async function listWebhooks(db: Db): Promise<{ items: WebhookEndpoint[] }> {
  const rows = await db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.id));
  const last = await lastDeliveries(
    db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => endpointView(row, last.get(row.id) ?? null)) };
}

/** One endpoint, with its last delivery. */
export async function webhookView(db: Db, row: WebhookEndpointRow): Promise<WebhookEndpoint> {
  return endpointView(row, (await lastDeliveries(db, [row.id])).get(row.id) ?? null);
}

/** 400 on `projectId` for a project that does not exist. */
async function checkProject(tx: Db, projectId: number | null | undefined): Promise<void> {
  if (projectId === null || projectId === undefined) return;
  const [project] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('key share');
  if (!project) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { projectId: ['No such project'] } });
}

/**
 * 400 `validation_failed` on `url` when the address may not be used (`checkWebhookUrl`: not https —
 * http and loopback only with WEBHOOKS_ALLOW_LOOPBACK=1 —, credentials in it, or a host that is or
 * resolves to a private, loopback, link-local or reserved address): the token API's check, the
 * admin calls' rule and messages.
 */
export async function refuseUnusableWebhookUrl(config: Pick<Config, 'webhooksAllowLoopback'>, url: string): Promise<void> {
  const problem = await checkWebhookUrl(url, { allowLoopback: config.webhooksAllowLoopback });
  if (problem) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields: { url: [problem] } });
}

/**
 * `POST /api/admin/webhooks` (the address already checked): the endpoint with a new secret, sealed
 * for it; the secret is answered this once. 409 `too_many_webhooks` past `WEBHOOK_LIMITS.endpointsMax`.
 * `actorId` the admin who made it; null for an API token's (`POST /api/v1/webhooks`: the audit row names the token).
 */
export async function createWebhook(
  tx: Db,
  deps: Pick<WebhookDeps, 'clock' | 'config'>,
  input: WebhookCreateInput,
  actorId: number | null,
): Promise<{ row: WebhookEndpointRow; created: WebhookCreated }> {
  await checkProject(tx, input.projectId);
  // One creation at a time, so the limit holds (the table is tiny).
  await tx.execute(sql`lock table ${webhookEndpoints} in share row exclusive mode`);
  const total = await countOf(tx.select({ value: count() }).from(webhookEndpoints));
  if (total >= WEBHOOK_LIMITS.endpointsMax)
    throw new ApiError(409, 'too_many_webhooks', `At most ${WEBHOOK_LIMITS.endpointsMax} webhook endpoints: delete one you no longer use first`);
  const now = deps.clock.now();
  const [made] = await tx
    .insert(webhookEndpoints)
    .values({ ...input, secretSealed: '', createdBy: actorId, createdAt: now, updatedAt: now })
    .returning();
  if (!made) throw new Error('insert returned no endpoint');
  const secret = newWebhookSecret();
  const key = await webhookSecretKey(tx, deps.config);
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ secretSealed: sealWebhookSecret(key, made.id, secret) })
    .where(eq(webhookEndpoints.id, made.id))
    .returning();
  if (!row) throw new Error('the endpoint vanished');
  const created: WebhookCreated = {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    projectId: row.projectId,
    enabled: row.enabled,
    secret,
    createdAt: row.createdAt.toISOString(),
  };
  return { row, created };
}

/**
 * `PATCH /api/admin/webhooks/{id}` (a new address already checked): the fields given. Disabling
 * records `admin` as the reason; enabling clears the reason and `failing_since`.
 */
export async function updateWebhook(
  tx: Db,
  clock: Clock,
  id: number,
  patch: WebhookPatchInput,
): Promise<{ before: WebhookEndpointRow; after: WebhookEndpointRow }> {
  await checkProject(tx, patch.projectId);
  const [current] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('update');
  if (!current) throw notFound('webhook');
  const { enabled, ...fields } = patch;
  const switched =
    enabled === undefined || enabled === current.enabled
      ? {}
      : enabled
        ? { enabled: true, disabledReason: null, failingSince: null }
        : { enabled: false, disabledReason: 'admin' as const };
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ ...fields, ...switched, updatedAt: clock.now() })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw notFound('webhook');
  return { before: current, after: row };
}

/** `DELETE /api/admin/webhooks/{id}`: the endpoint and its deliveries (their jobs find nothing and end). */
export async function deleteWebhook(tx: Db, id: number): Promise<WebhookEndpointRow> {
  const [row] = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning();
  if (!row) throw notFound('webhook');
  return row;
}

/**
 * `POST /api/admin/webhooks/{id}/rotate-secret`: a new secret; the current one keeps signing
 * beside it for 24 hours (a secret rotated out earlier stops at once). The new secret, answered
 * this once.
 */
export async function rotateWebhookSecret(
  tx: Db,
  deps: Pick<WebhookDeps, 'clock' | 'config'>,
  id: number,
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  const [current] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('update');
  if (!current) throw notFound('webhook');
  const now = deps.clock.now();
  const secret = newWebhookSecret();
  const key = await webhookSecretKey(tx, deps.config);
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      secretSealed: sealWebhookSecret(key, id, secret),
      previousSecretSealed: current.secretSealed,
      previousSecretUntil: new Date(now.getTime() + WEBHOOK_LIMITS.previousSecretMs),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, id))
    .returning();
  if (!row) throw notFound('webhook');
  return { row, secret };
}

/** A manual attempt (a resend or a test): one delivery, no retries, queued now. */
async function manualDelivery(tx: Db, deps: Pick<WebhookDeps, 'clock' | 'jobs'>, endpointId: number, eventId: string): Promise<WebhookDeliveryRow> {
  const now = deps.clock.now();
  const [made] = await tx
    .select({ last: max(webhookDeliveries.attempt) })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)));
  const attempt = (made?.last ?? 0) + 1;
  const [row] = await tx.insert(webhookDeliveries).values({ endpointId, eventId, attempt, manual: true, scheduledAt: now, createdAt: now }).returning();
  if (!row) throw new Error('insert returned no delivery');
  await deps.jobs.send('webhooks.deliver', { endpointId, eventId, attempt }, { tx });
  return row;
}

/** 409 `webhook_disabled`: nothing is sent to a disabled endpoint. */
function refuseDisabled(endpoint: WebhookEndpointRow): void {
  if (!endpoint.enabled) throw new ApiError(409, 'webhook_disabled', 'This endpoint is disabled: enable it first');
}

/** `POST /api/admin/webhooks/{id}/test`: a `webhook.test` event delivered to this endpoint only. */
export async function sendTestEvent(tx: Db, deps: Pick<WebhookDeps, 'clock' | 'jobs'>, id: number): Promise<{ eventId: string; deliveryId: number }> {
  const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).for('key share');
  if (!endpoint) throw notFound('webhook');
  refuseDisabled(endpoint);
  const now = deps.clock.now();
  const data: WebhookPayload<typeof WEBHOOK_TEST_EVENT> = { endpointId: id };
  // Fanned out already: it goes to this endpoint alone.
  const [event] = await tx
    .insert(webhookEvents)
    .values({ id: webhookMessageId(), type: WEBHOOK_TEST_EVENT, payload: data, projectId: null, fannedOutAt: now })
    .returning();
  if (!event) throw new Error('insert returned no event');
  const delivery = await manualDelivery(tx, deps, id, event.id);
  return { eventId: event.id, deliveryId: delivery.id };
}

/** The delivery of an id; 404 `No such delivery` otherwise. */
export async function existingDelivery(db: Db, id: number): Promise<WebhookDeliveryRow> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!row) throw notFound('delivery');
  return row;
}

/** `POST /api/admin/webhooks/deliveries/{id}/resend`: a new attempt of that delivery's event to its endpoint. */
export async function resendDelivery(tx: Db, deps: Pick<WebhookDeps, 'clock' | 'jobs'>, deliveryId: number): Promise<WebhookDeliveryRow> {
  const [found] = await tx
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId))
    .for('key share', { of: webhookEndpoints });
  if (!found) throw notFound('delivery');
  refuseDisabled(found.endpoint);
  return manualDelivery(tx, deps, found.delivery.endpointId, found.delivery.eventId);
}

/** A delivery as its list shows it: the answer's first characters only. */
function deliveryView(row: WebhookDeliveryRow, type: WebhookMessageType): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    type,
    attempt: row.attempt,
    manual: row.manual,
    status: row.status,
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    responseExcerpt: row.responseExcerpt === null ? null : row.responseExcerpt.slice(0, WEBHOOK_LIMITS.excerptListChars),
    error: row.error,
    scheduledAt: row.scheduledAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** `GET /api/admin/webhooks/{id}/deliveries`: the list contract, newest first (`dir=asc`: oldest); `q` an event id or type, `status`. */
export async function listDeliveries(db: Db, endpointId: number, query: WebhookDeliveriesQuery): Promise<ListPage<WebhookDelivery>> {
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, endpointId)];
  if (query.status) conditions.push(eq(webhookDeliveries.status, query.status));
  if (query.q) {
    const like = containsPattern(query.q);
    const either = or(ilike(webhookDeliveries.eventId, like), ilike(webhookEvents.type, like));
    if (either) conditions.push(either);
  }
  const where = and(...conditions);
  const order = query.dir === 'asc' ? asc : desc;
  return paginate(query, {
    rows: pageOf(
      db
        .select({ row: webhookDeliveries, type: webhookEvents.type })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(where)
        .orderBy(order(webhookDeliveries.createdAt), order(webhookDeliveries.id)),
      ({ row, type }) => deliveryView(row, type),
    ),
    count: () =>
      countOf(db.select({ value: count() }).from(webhookDeliveries).innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId)).where(where)),
  });
}
