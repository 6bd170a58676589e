/**
 * Outgoing webhooks (issue 32 §1): endpoints and their secrets, the outbox written only when the
 * change commits, deliveries to a local receiver signed as the Standard Webhooks library verifies,
 * the retry schedule on a moved clock, an endpoint disabled after 5 days of failures, secret
 * rotation, the project filter, resends and test events, and who may call what.
 *
 * The receiver is a node:http server on 127.0.0.1 (WEBHOOKS_ALLOW_LOOPBACK=1), one path per
 * endpoint; each test makes its own project and endpoints filtered to it, so tests do not see each
 * other's events. Retries wait in pg-boss (`startAfter`, the database's time): `runDue` makes an
 * endpoint's waiting attempts due once the test clock has reached them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { auditLog, pointsLedger, webhookEvents } from '../../src/server/db/schema/index.ts';
import { queryRows } from '../../src/server/db/index.ts';
import { recordOutcome } from '../../src/server/services/external-surveys.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { recordWebhookEvent, withWebhookQueue } from '../../src/server/services/webhooks.ts';
import { REAUTH_MAX_AGE_MS } from '../../src/shared/second-factors.ts';
import type { ListPage } from '../../src/shared/list.ts';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_RETRY_SCHEDULE_SECONDS,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../src/shared/webhooks.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, signedInUser, type SignedIn } from './helpers.ts';
import { callAs, createMission, createProject, createSurvey, insertExternalRef, member, okJson } from './programme-fixtures.ts';
import { insertReward, newKey, rewardSettingsAre } from './reward-fixtures.ts';

// ---------------------------------------------------------------------------------------------
// The receiver

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

const received: Received[] = [];
/** What a path answers (default 200), and with what body (default `thanks for {path}`, or `receiver broken`). */
const answers = new Map<string, number>();
const bodies = new Map<string, string>();
let receiver: http.Server;
let base = '';
let paths = 0;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers.get(path) ?? 200;
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(bodies.get(path) ?? (status < 300 ? `thanks for ${path}` : 'receiver broken'));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** A path of its own for an endpoint. */
const newPath = () => `/hook/${++paths}`;
const receivedAt = (path: string) => received.filter((r) => r.path === path);

/** Whether `secret` verifies the delivery, with the library's clock at `at` (the test clock's time of the attempt). */
function verifies(secret: string, delivery: Received, at: Date): boolean {
  vi.setSystemTime(at);
  try {
    new Webhook(secret).verify(delivery.body, delivery.headers);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}

// ---------------------------------------------------------------------------------------------

describeEachBackend(
  'outgoing webhooks',
  (ctx) => {
    let adminUser: SignedIn | undefined;
    /** The suite's admin with a fresh sign-in (the clock moves: creation, deletion and rotation need a recent one). */
    async function admin(): Promise<SignedIn> {
      const c = ctx();
      adminUser ??= await signedInUser(c, 'admin');
      const { token } = await createSession(c.database.db, c.clock, adminUser.id);
      return { ...adminUser, headers: { Cookie: `fw_session=${token}` } };
    }

    async function createEndpoint(input: { events: WebhookEventType[]; projectId: number | null; path?: string }): Promise<WebhookCreated & { path: string }> {
      const path = input.path ?? newPath();
      const as = callAs(ctx(), await admin());
      const made = await okJson<WebhookCreated>(
        await as('POST', '/api/admin/webhooks', { url: `${base}${path}`, events: input.events, projectId: input.projectId }),
        201,
      );
      return { ...made, path };
    }

    async function deliveries(endpointId: number, query = 'dir=asc&pageSize=100'): Promise<WebhookDelivery[]> {
      const page = await okJson<ListPage<WebhookDelivery>>(await callAs(ctx(), await admin())('GET', `/api/admin/webhooks/${endpointId}/deliveries?${query}`));
      return page.items;
    }

    async function endpoint(id: number): Promise<WebhookEndpoint | undefined> {
      const list = await okJson<{ items: WebhookEndpoint[] }>(await callAs(ctx(), await admin())('GET', '/api/admin/webhooks'));
      return list.items.find((item) => item.id === id);
    }

    /** Records an event as a change would (in a transaction, with the app's queue), then runs the jobs. */
    async function happen(projectId: number, userId = 1): Promise<string | null> {
      const c = ctx();
      const id = await withWebhookQueue(c.jobs, () =>
        c.database.db.transaction((tx) => recordWebhookEvent(tx, 'participant.joined', { projectId, userId }, projectId)),
      );
      await c.jobs.drain();
      return id;
    }

    /** The endpoint's attempts waiting in the queue: made due now (the test clock has reached them), then run. */
    async function runDue(endpointId: number): Promise<void> {
      const c = ctx();
      await c.database.db.execute(
        sql`update pgboss.job set start_after = now() where name = 'webhooks.deliver' and state in ('created', 'retry') and (data->>'endpointId')::int = ${endpointId}`,
      );
      await c.jobs.drain();
    }

    /** The seconds pg-boss holds the endpoint's waiting attempt back (start_after − created_on). */
    async function queuedDelay(endpointId: number): Promise<number[]> {
      const rows = await queryRows<{ wait: number }>(
        ctx().database.db,
        sql`select extract(epoch from start_after - created_on)::float8 as wait from pgboss.job
            where name = 'webhooks.deliver' and state = 'created' and (data->>'endpointId')::int = ${endpointId}`,
      );
      return rows.map((row) => Number(row.wait));
    }

    it('answers the secret once, never lists it nor audits it; refuses private addresses (400 on url); admins only, with a recent sign-in to create', async () => {
      const c = ctx();
      const project = await createProject(c);
      const made = await createEndpoint({ events: ['survey_response.submitted', 'participant.joined'], projectId: project.id });
      expect(made).toMatchObject({
        url: `${base}${made.path}`,
        events: ['participant.joined', 'survey_response.submitted'],
        description: '',
        projectId: project.id,
        enabled: true,
      });
      expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      const listed = await okJson<{ items: WebhookEndpoint[] }>(await callAs(c, await admin())('GET', '/api/admin/webhooks'));
      const text = JSON.stringify(listed);
      expect(text).not.toContain(made.secret);
      expect(text).not.toContain('"secret"');
      expect(listed.items.find((item) => item.id === made.id)).toMatchObject({ enabled: true, disabledReason: null, failingSince: null, lastDelivery: null });
      const [audited] = await c.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'webhook.create'), eq(auditLog.targetId, String(made.id))));
      expect(audited?.after).toMatchObject({ url: made.url, projectId: project.id });
      expect(JSON.stringify(audited)).not.toContain(made.secret);

      const as = callAs(c, await admin());
      for (const url of [
        'https://169.254.169.254/latest/meta-data',
        'http://10.0.0.7/hook',
        'https://[::ffff:10.1.2.3]/hook',
        'https://user:pw@example.org/hook',
      ]) {
        expect((await fieldsOf(await as('POST', '/api/admin/webhooks', { url, events: ['points.credited'] }))).url, url).toHaveLength(1);
      }
      expect((await fieldsOf(await as('PATCH', `/api/admin/webhooks/${made.id}`, { url: 'http://192.168.1.1/' }))).url).toHaveLength(1);
      expect(Object.keys(await fieldsOf(await as('POST', '/api/admin/webhooks', { url: `${base}/x`, events: ['nope'] })))).toEqual(['events']);
      expect(await fieldsOf(await as('POST', '/api/admin/webhooks', { url: `${base}/x`, events: ['points.credited'], projectId: 999999999 }))).toEqual({
        projectId: ['No such project'],
      });

      const moderator = await signedInUser(c, 'moderator');
      const participant = await signedInUser(c);
      for (const who of [moderator, participant]) {
        expect((await errorOf(await callAs(c, who)('GET', '/api/admin/webhooks'), 403)).code).toBe('forbidden');
        expect((await errorOf(await callAs(c, who)('POST', `/api/admin/webhooks/${made.id}/test`), 403)).code).toBe('forbidden');
      }
      expect((await errorOf(await callAs(c, null)('GET', '/api/admin/webhooks'), 401)).code).toBe('unauthenticated');
      expect((await errorOf(await as('PATCH', '/api/admin/webhooks/999999999', {}), 404)).code).toBe('not_found');
      expect((await errorOf(await as('GET', '/api/admin/webhooks/999999999/deliveries'), 404)).code).toBe('not_found');
      expect((await errorOf(await as('POST', '/api/admin/webhooks/deliveries/999999999/resend'), 404)).code).toBe('not_found');

      // An old sign-in: creating, rotating and deleting ask for it again; the rest does not.
      c.clock.advance(REAUTH_MAX_AGE_MS + 60_000);
      for (const [method, path, body] of [
        ['POST', '/api/admin/webhooks', { url: `${base}/y`, events: ['points.credited'] }],
        ['POST', `/api/admin/webhooks/${made.id}/rotate-secret`, undefined],
        ['DELETE', `/api/admin/webhooks/${made.id}`, undefined],
      ] as const)
        expect((await errorOf(await as(method, path, body), 403)).code, path).toBe('reauth_required');
      expect((await as('PATCH', `/api/admin/webhooks/${made.id}`, { description: 'CRM' })).status).toBe(200);
      expect((await callAs(c, await admin())('DELETE', `/api/admin/webhooks/${made.id}`)).status).toBe(204);
      expect(await endpoint(made.id)).toBeUndefined();
    });

    it('delivers a survey submit, signed as standardwebhooks verifies, with a thin body; only to the endpoints of its project', async () => {
      const c = ctx();
      const [mine, other] = [await createProject(c), await createProject(c)];
      const hook = await createEndpoint({ events: ['survey_response.submitted'], projectId: mine.id });
      const elsewhere = await createEndpoint({ events: ['survey_response.submitted'], projectId: other.id });
      const survey = await createSurvey(c, mine.id);
      const ada = await member(c, mine.id);
      await okJson(await c.json('POST', `/api/surveys/${survey.id}/response/submit`, { answers: { name: 'Ada' } }, ada.headers));
      await c.jobs.drain();

      const [delivery] = receivedAt(hook.path);
      expect(receivedAt(hook.path)).toHaveLength(1);
      expect(receivedAt(elsewhere.path)).toHaveLength(0);
      if (!delivery) throw new Error('not delivered');
      expect(verifies(hook.secret, delivery, c.clock.now())).toBe(true);
      expect(verifies(elsewhere.secret, delivery, c.clock.now())).toBe(false);
      const body = JSON.parse(delivery.body) as { type: string; timestamp: string; data: Record<string, unknown> };
      const [event] = await c.database.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.id, delivery.headers['webhook-id'] ?? ''));
      expect(event).toBeDefined();
      expect(body).toEqual({
        type: 'survey_response.submitted',
        timestamp: event?.createdAt.toISOString(),
        data: { projectId: mine.id, surveyId: survey.id, responseId: expect.any(Number), userId: ada.id },
      });
      expect(delivery.headers['webhook-id']).toMatch(/^msg_[0-9A-Z]{26}$/);
      expect(delivery.headers['webhook-timestamp']).toBe(String(Math.floor(c.clock.now().getTime() / 1000)));
      expect(delivery.headers['content-type']).toBe('application/json');

      expect(await deliveries(hook.id)).toEqual([
        expect.objectContaining({
          eventId: delivery.headers['webhook-id'],
          type: 'survey_response.submitted',
          attempt: 1,
          manual: false,
          status: 'succeeded',
          responseStatus: 200,
          latencyMs: expect.any(Number),
          responseExcerpt: `thanks for ${hook.path}`,
          error: null,
        }),
      ]);
      expect((await endpoint(hook.id))?.lastDelivery).toMatchObject({ type: 'survey_response.submitted', status: 'succeeded', responseStatus: 200 });
    });

    it('records each event where its change happens, with its thin data; the sweep fans out an event recorded outside a request', async () => {
      const c = ctx();
      const project = await createProject(c);
      const all = [...WEBHOOK_EVENT_TYPES];
      const scoped = await createEndpoint({ events: all, projectId: project.id });
      // Redemptions belong to no project: an endpoint without a filter hears them (this test's alone: it is deleted at the end).
      const everywhere = await createEndpoint({ events: ['redemption.updated'], projectId: null });
      const moderator = await signedInUser(c, 'moderator');
      const staffAs = callAs(c, moderator);
      const db = c.database.db;
      const since = await db.select({ id: webhookEvents.id }).from(webhookEvents);
      const seen = new Set(since.map((row) => row.id));
      const recorded = async () => {
        const rows = await db.select().from(webhookEvents).orderBy(webhookEvents.createdAt, webhookEvents.id);
        const fresh = rows.filter((row) => !seen.has(row.id));
        for (const row of fresh) seen.add(row.id);
        return fresh.map((row) => ({ type: row.type, data: row.payload }));
      };

      const ada = await signedInUser(c);
      await okJson(await staffAs('POST', `/api/admin/projects/${project.id}/members`, { emails: [ada.email] }));
      expect(await recorded()).toEqual([{ type: 'participant.joined', data: { projectId: project.id, userId: ada.id } }]);

      const mission = await createMission(c, project.id, { points: 20 });
      const entry = await okJson<{ id: number }>(await callAs(c, ada)('POST', `/api/missions/${mission.id}/entries`, {}), 201);
      await okJson(await callAs(c, ada)('POST', `/api/missions/${mission.id}/entries/${entry.id}/submit`, { answers: { name: 'Done' } }));
      const about = { projectId: project.id, missionId: mission.id, entryId: entry.id, userId: ada.id };
      const reason = expect.stringContaining(mission.title);
      const credit = { userId: ada.id, projectId: project.id, points: 20, transactionId: expect.any(Number), reason };
      expect(await recorded()).toEqual([
        { type: 'mission_entry.submitted', data: about },
        { type: 'points.credited', data: { ...credit, state: 'pending' } },
      ]);
      await okJson(await staffAs('POST', `/api/admin/submissions/${entry.id}/review`, { decision: 'approve' }));
      expect(await recorded()).toEqual([
        { type: 'points.available', data: credit },
        { type: 'mission_entry.decided', data: { ...about, decision: 'approved' } },
      ]);

      // Alchemer's return, recorded by the service outside any request: written, and fanned out by the sweep.
      const external = await createSurvey(c, project.id, { kind: 'external', points: 0 });
      const ref = await insertExternalRef(c, external.id, ada.id, { outcome: null });
      await recordOutcome(db, c.clock, ref.id, 'complete', 'browser');
      const returned = await recorded();
      expect(returned).toEqual([
        { type: 'external_survey.returned', data: { projectId: project.id, surveyId: external.id, userId: ada.id, outcome: 'complete', confirmed: false } },
      ]);
      const typesHeard = () => receivedAt(scoped.path).map((r) => (JSON.parse(r.body) as { type: string }).type);
      // The requests' events went out with their jobs; this one has none.
      await c.jobs.drain();
      expect(typesHeard().sort()).toEqual(['mission_entry.decided', 'mission_entry.submitted', 'participant.joined', 'points.available', 'points.credited']);
      await c.jobs.send('webhooks.sweep', {});
      await c.jobs.drain();
      expect(typesHeard().slice(5)).toEqual(['external_survey.returned']);

      await rewardSettingsAre(c);
      const voucher = await insertReward(c, {});
      await db
        .insert(pointsLedger)
        .values({ userId: ada.id, points: 2000, state: 'available', reason: 'Fixture', source: 'adjustment', reference: `fixture:${newKey()}` });
      const made = await okJson<{ id: number }>(
        await c.json('POST', '/api/redemptions', { rewardId: voucher.id, value: 10 }, { ...ada.headers, 'Idempotency-Key': newKey() }),
        201,
      );
      await okJson(await callAs(c, ada)('POST', `/api/redemptions/${made.id}/cancel`));
      expect(await recorded()).toEqual([
        { type: 'redemption.updated', data: { redemptionId: made.id, userId: ada.id, status: 'requested' } },
        { type: 'redemption.updated', data: { redemptionId: made.id, userId: ada.id, status: 'cancelled' } },
      ]);
      await c.jobs.drain();
      expect(receivedAt(everywhere.path)).toHaveLength(2);
      expect((await callAs(c, await admin())('DELETE', `/api/admin/webhooks/${everywhere.id}`)).status).toBe(204);
    });

    it('writes the event only when the change commits: a rolled-back change sends nothing', async () => {
      const c = ctx();
      const project = await createProject(c);
      const hook = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      const db = c.database.db;
      let recorded: string | null = null;
      await expect(
        withWebhookQueue(c.jobs, () =>
          db.transaction(async (tx) => {
            recorded = await recordWebhookEvent(tx, 'participant.joined', { projectId: project.id, userId: 1 }, project.id);
            throw new Error('the change failed after the event');
          }),
        ),
      ).rejects.toThrow('the change failed');
      expect(recorded).toMatch(/^msg_/);
      expect(
        await db
          .select()
          .from(webhookEvents)
          .where(eq(webhookEvents.id, recorded ?? '')),
      ).toEqual([]);
      expect(await c.jobs.waiting('webhooks.fan-out')).toBe(0);
      await c.jobs.drain();
      expect(receivedAt(hook.path)).toHaveLength(0);

      // The same change committed: its event and delivery.
      const id = await happen(project.id);
      expect(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).toEqual([id]);
      // No endpoint asks for this project's events: nothing is written at all.
      const quiet = await createProject(c);
      expect(await happen(quiet.id)).toBeNull();
    });

    it('retries on the schedule with a moved clock (0, 5 s, 5 min, 30 min…), the same webhook-id; a success clears failing_since', async () => {
      const c = ctx();
      const project = await createProject(c);
      const hook = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      answers.set(hook.path, 503);
      const eventId = await happen(project.id);
      expect(receivedAt(hook.path)).toHaveLength(1);
      const failedAt = c.clock.now();
      expect((await endpoint(hook.id))?.failingSince).toBe(failedAt.toISOString());

      for (let attempt = 2; attempt <= 4; attempt++) {
        const list = await deliveries(hook.id);
        const [previous, next] = [list[attempt - 2], list[attempt - 1]];
        expect(previous).toMatchObject({
          attempt: attempt - 1,
          status: 'failed',
          responseStatus: 503,
          error: 'answered 503',
          responseExcerpt: 'receiver broken',
        });
        expect(next).toMatchObject({ attempt, status: 'pending' });
        const wait = Date.parse(next?.scheduledAt ?? '') - Date.parse(previous?.finishedAt ?? '');
        const planned = (WEBHOOK_RETRY_SCHEDULE_SECONDS[attempt - 1] ?? 0) * 1000;
        expect(wait).toBeGreaterThanOrEqual(planned * (1 - WEBHOOK_LIMITS.jitter));
        expect(wait).toBeLessThanOrEqual(planned * (1 + WEBHOOK_LIMITS.jitter));
        // pg-boss holds the job back as long (whole seconds).
        expect(await queuedDelay(hook.id)).toEqual([Math.max(1, Math.ceil(wait / 1000))]);
        // Not due yet: nothing is sent.
        await c.jobs.drain();
        expect(receivedAt(hook.path)).toHaveLength(attempt - 1);
        c.clock.advance(wait);
        await runDue(hook.id);
        expect(receivedAt(hook.path)).toHaveLength(attempt);
      }
      expect(new Set(receivedAt(hook.path).map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
      expect((await endpoint(hook.id))?.failingSince).toBe(failedAt.toISOString());

      // The receiver recovers: attempt 5 succeeds, and nothing more is queued.
      answers.set(hook.path, 200);
      const fifth = (await deliveries(hook.id))[4];
      c.clock.advance(Date.parse(fifth?.scheduledAt ?? '') - c.clock.now().getTime());
      await runDue(hook.id);
      expect((await deliveries(hook.id)).map((d) => `${d.attempt} ${d.status}`)).toEqual(['1 failed', '2 failed', '3 failed', '4 failed', '5 succeeded']);
      expect(await queuedDelay(hook.id)).toEqual([]);
      expect((await endpoint(hook.id))?.failingSince).toBeNull();
    });

    it('stops after the eighth attempt; an endpoint failing for 5 days is disabled, its admins mailed, and sent nothing more', async () => {
      const c = ctx();
      const project = await createProject(c);
      const creator = await admin();
      const hook = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      answers.set(hook.path, 500);
      await happen(project.id);
      const failingSince = c.clock.now();
      for (let attempt = 2; attempt <= WEBHOOK_RETRY_SCHEDULE_SECONDS.length; attempt++) {
        const next = (await deliveries(hook.id)).find((d) => d.attempt === attempt);
        c.clock.advance(Date.parse(next?.scheduledAt ?? '') - c.clock.now().getTime());
        await runDue(hook.id);
      }
      expect((await deliveries(hook.id)).map((d) => d.status)).toEqual(Array(8).fill('failed'));
      expect(await queuedDelay(hook.id)).toEqual([]);
      expect(receivedAt(hook.path)).toHaveLength(8);
      expect(await endpoint(hook.id)).toMatchObject({ enabled: true, failingSince: failingSince.toISOString() });

      // Five days after the first failure, the next failure disables it.
      c.clock.advance(failingSince.getTime() + WEBHOOK_LIMITS.disableAfterMs - c.clock.now().getTime());
      await happen(project.id);
      expect(receivedAt(hook.path)).toHaveLength(9);
      expect(await endpoint(hook.id)).toMatchObject({ enabled: false, disabledReason: 'failing', failingSince: failingSince.toISOString() });
      expect(await queuedDelay(hook.id)).toEqual([]);
      const [mail] = await mailsTo(c, creator.email);
      expect(mail?.subject).toBe('A webhook endpoint of Fieldwork was turned off');
      expect(mail?.raw).toContain(hook.url);
      // Disabled: its events are not even written, and a test or a resend is refused.
      expect(await happen(project.id)).toBeNull();
      expect(receivedAt(hook.path)).toHaveLength(9);
      const as = callAs(c, await admin());
      expect((await errorOf(await as('POST', `/api/admin/webhooks/${hook.id}/test`), 409)).code).toBe('webhook_disabled');

      // Turned on again: the reason and the failing time are cleared.
      answers.set(hook.path, 200);
      expect(await okJson<WebhookEndpoint>(await as('PATCH', `/api/admin/webhooks/${hook.id}`, { enabled: true }))).toMatchObject({
        enabled: true,
        disabledReason: null,
        failingSince: null,
      });
      await happen(project.id);
      expect(receivedAt(hook.path)).toHaveLength(10);
    });

    it('during a rotation both secrets sign for 24 hours, then only the new one', async () => {
      const c = ctx();
      const project = await createProject(c);
      const hook = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      const { secret } = await okJson<{ secret: string }>(await callAs(c, await admin())('POST', `/api/admin/webhooks/${hook.id}/rotate-secret`));
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(hook.secret);
      expect((await endpoint(hook.id))?.previousSecretUntil).toBe(new Date(c.clock.now().getTime() + WEBHOOK_LIMITS.previousSecretMs).toISOString());
      await happen(project.id);
      const [during] = receivedAt(hook.path);
      if (!during) throw new Error('not delivered');
      expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
      expect([verifies(secret, during, c.clock.now()), verifies(hook.secret, during, c.clock.now())]).toEqual([true, true]);

      c.clock.advance(WEBHOOK_LIMITS.previousSecretMs + 1000);
      await happen(project.id);
      const after = receivedAt(hook.path)[1];
      if (!after) throw new Error('not delivered');
      expect([verifies(secret, after, c.clock.now()), verifies(hook.secret, after, c.clock.now())]).toEqual([true, false]);
    });

    it('sends a test event to one endpoint, and resends a delivery as a new attempt with the same webhook-id (202 each)', async () => {
      const c = ctx();
      const project = await createProject(c);
      const hook = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      const other = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      // An answer PostgreSQL could not keep as text (a NUL character) is kept all the same.
      bodies.set(hook.path, 'ok\u0000done');
      const as = callAs(c, await admin());
      const test = await okJson<{ eventId: string; deliveryId: number }>(await as('POST', `/api/admin/webhooks/${hook.id}/test`), 202);
      await c.jobs.drain();
      expect(receivedAt(other.path)).toHaveLength(0);
      const [tested] = receivedAt(hook.path);
      expect(tested?.headers['webhook-id']).toBe(test.eventId);
      expect(JSON.parse(tested?.body ?? '{}')).toMatchObject({ type: 'webhook.test', data: { endpointId: hook.id } });
      expect(await deliveries(hook.id)).toEqual([
        expect.objectContaining({ id: test.deliveryId, type: 'webhook.test', attempt: 1, manual: true, status: 'succeeded', responseExcerpt: 'ok\uFFFDdone' }),
      ]);

      const eventId = await happen(project.id);
      const original = (await deliveries(hook.id, 'q=participant')).find((d) => d.eventId === eventId);
      expect(original).toMatchObject({ attempt: 1, status: 'succeeded' });
      const resent = await okJson<{ deliveryId: number; attempt: number }>(await as('POST', `/api/admin/webhooks/deliveries/${original?.id}/resend`), 202);
      expect(resent.attempt).toBe(2);
      await c.jobs.drain();
      expect(receivedAt(hook.path).map((r) => r.headers['webhook-id'])).toEqual([test.eventId, eventId, eventId]);
      expect((await deliveries(hook.id, `q=${eventId}&dir=asc`)).map((d) => `${d.attempt} ${d.manual} ${d.status}`)).toEqual([
        '1 false succeeded',
        '2 true succeeded',
      ]);
      expect(await deliveries(hook.id, 'status=failed')).toEqual([]);
    });

    it('prunes events older than 30 days with their deliveries, but never one with a delivery still pending', async () => {
      const c = ctx();
      const project = await createProject(c);
      const done = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      const failing = await createEndpoint({ events: ['participant.joined'], projectId: project.id });
      answers.set(failing.path, 500);
      const old = await happen(project.id);
      expect((await deliveries(done.id)).map((d) => d.status)).toEqual(['succeeded']);
      // The failing endpoint's second attempt waits (pending): the event must stay for it.
      expect((await deliveries(failing.id)).map((d) => d.status)).toEqual(['failed', 'pending']);
      answers.delete(failing.path);
      const recent = await happen(project.id);
      // The first event was recorded a day more than the retention ago (by the app's clock, which the prune reads).
      const longAgo = new Date(c.clock.now().getTime() - (WEBHOOK_LIMITS.retentionDays + 1) * 24 * 3600 * 1000);
      await c.database.db
        .update(webhookEvents)
        .set({ createdAt: longAgo })
        .where(eq(webhookEvents.id, old ?? ''));
      const events = async () =>
        (await queryRows<{ id: string }>(c.database.db, sql`select id from ${webhookEvents} where id in (${old}, ${recent})`)).map((row) => row.id).sort();

      await c.jobs.send('webhooks.prune', {});
      await c.jobs.drain();
      expect(await events()).toEqual([old, recent].sort());

      // Its last attempt done, the old event goes at the next prune, its deliveries with it.
      await runDue(failing.id);
      expect((await deliveries(failing.id)).filter((d) => d.eventId === old).map((d) => d.status)).toEqual(['failed', 'succeeded']);
      await c.jobs.send('webhooks.prune', {});
      await c.jobs.drain();
      expect(await events()).toEqual([recent]);
      expect((await deliveries(done.id)).map((d) => d.eventId)).toEqual([recent]);
    });
  },
  { env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } },
);
