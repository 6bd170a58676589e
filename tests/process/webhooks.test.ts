/**
 * Outgoing webhooks in the real server (issue 32 §4), on PGlite and PostgreSQL: a survey submitted
 * through the API reaches a local receiver (127.0.0.1, `WEBHOOKS_ALLOW_LOOPBACK=1`) that
 * - first answers 500, then hangs past the delivery timeout, then recovers: the event arrives in
 *   the end, with the same `webhook-id` on every attempt, each verified by the `standardwebhooks`
 *   package, and the deliveries list tells each attempt's outcome;
 * - drops every connection while the server is killed (SIGKILL) with the next attempt waiting in
 *   the queue: started again on the same data, the server delivers the event (at least once, the
 *   same `webhook-id`).
 * A real process cannot wait the specification's 10 s timeout and 5 s, 5 min… between attempts:
 * the server runs with the test-only `FIELDWORK_TEST_WEBHOOK_TIMEOUT_MS` (1.5 s) and
 * `FIELDWORK_TEST_WEBHOOK_RETRY_SECONDS` (2 s between attempts; src/server/config.ts).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedWebhookSurvey, WEBHOOK_SURVEY_ANSWERS, type WebhookSurvey } from '../../scripts/bench-webhooks.ts';
import { openDatabase, type DatabaseTarget } from '../../src/server/db/index.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { WebhookCreated, WebhookDelivery } from '../../src/shared/webhooks.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const TIMEOUT_MS = 1500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the receiver does with a request: answer 500, never answer, drop the connection, or answer 200. */
type Mode = '500' | 'hang' | 'drop' | '200';

interface Received {
  userId: number | undefined;
  mode: Mode;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the whole request had arrived. */
  at: number;
}

/**
 * A receiver on 127.0.0.1: for each participant (the body's `data.userId`), the modes of the next
 * requests in turn (`plans`), then `fallback`'s (default '200'); keeps every request.
 */
async function startReceiver() {
  const received: Received[] = [];
  const plans = new Map<number, Mode[]>();
  const fallback = new Map<number, Mode>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const userId = (JSON.parse(body) as { data?: { userId?: number } }).data?.userId;
      const mode = (userId === undefined ? undefined : plans.get(userId)?.shift()) ?? fallback.get(userId ?? 0) ?? '200';
      received.push({ userId, mode, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body, at: Date.now() });
      if (mode === '500') res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver broken');
      else if (mode === '200') res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      else if (mode === 'drop') req.socket.destroy();
      // 'hang': no answer; the server gives up after its timeout.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    plans,
    fallback,
    /** The requests for a participant once one of them was answered 200 (or what there is after `ms`). */
    async deliveredTo(userId: number, ms = 40_000): Promise<Received[]> {
      const deadline = Date.now() + ms;
      const mine = () => received.filter((r) => r.userId === userId);
      while (!mine().some((r) => r.mode === '200') && Date.now() < deadline) await sleep(100);
      return mine();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const tempDirs: string[] = [];
const databases: FreshDatabase[] = [];
afterAll(async () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

const backends: { name: string; database: (dataDir: string) => Promise<{ target: DatabaseTarget; env: Record<string, string> }> }[] = [
  { name: 'PGlite', database: async (dataDir) => ({ target: { kind: 'pglite', dataDir }, env: {} }) },
];
if (await postgresReachable()) {
  backends.push({
    name: 'PostgreSQL',
    database: async () => {
      const fresh = await createFreshDatabase();
      databases.push(fresh);
      return { target: { kind: 'postgres', connection: fresh.url, poolSize: 2 }, env: { DATABASE_URL: fresh.url } };
    },
  });
}

for (const backend of backends) {
  describe(`outgoing webhooks from the real server [${backend.name}]`, () => {
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let seeded: WebhookSurvey;
    let env: Record<string, string>;
    let server: ServerProcess;
    let endpoint: WebhookCreated;

    const call = async <T>(method: string, pathname: string, token: string, body?: unknown): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${server.url}${pathname}`, {
        method,
        headers: { cookie: `fw_session=${token}`, origin: server.url, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
    };
    const submit = async (participant: WebhookSurvey['participants'][number]) => {
      const res = await call('POST', `/api/surveys/${seeded.surveyId}/response/submit`, participant.token, { answers: WEBHOOK_SURVEY_ANSWERS });
      expect(res).toEqual({ status: 200, body: { status: 'submitted' } });
    };
    /** The endpoint's deliveries of a participant's event, oldest attempt first. */
    const deliveriesOf = async (received: Received[]): Promise<WebhookDelivery[]> => {
      const eventId = received[0]?.headers['webhook-id'] ?? '';
      const res = await call<ListPage<WebhookDelivery>>('GET', `/api/admin/webhooks/${endpoint.id}/deliveries?pageSize=50`, seeded.admin.token);
      expect(res.status).toBe(200);
      return res.body.items.filter((d) => d.eventId === eventId).sort((a, b) => a.attempt - b.attempt);
    };
    /** Each request verified as a receiver does: the payload `standardwebhooks` answers. */
    const verified = (received: Received[]) => received.map((r) => new Webhook(endpoint.secret).verify(r.body, r.headers));

    beforeAll(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-webhooks-'));
      tempDirs.push(dataDir);
      const { target, env: databaseEnv } = await backend.database(dataDir);
      const database = await openDatabase(target);
      try {
        seeded = await seedWebhookSurvey(database.db, 2);
      } finally {
        await database.close();
      }
      receiver = await startReceiver();
      env = {
        DATA_DIR: dataDir,
        SERVE_STATIC: '0',
        WEBHOOKS_ALLOW_LOOPBACK: '1',
        FIELDWORK_TEST_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        FIELDWORK_TEST_WEBHOOK_RETRY_SECONDS: '0,2,2,2,2,2,2,2',
        ...databaseEnv,
      };
      server = await startServerProcess(env);
      const created = await call<WebhookCreated>('POST', '/api/admin/webhooks', seeded.admin.token, {
        url: receiver.url,
        events: ['survey_response.submitted'],
        projectId: seeded.projectId,
      });
      expect(created.status).toBe(201);
      endpoint = created.body;
    });

    afterAll(async () => {
      await server?.stop('SIGKILL');
      await receiver?.close();
    });

    it('a receiver that answers 500, then hangs past the timeout, then recovers gets the event: one webhook-id, each attempt signed', async () => {
      const [participant] = seeded.participants;
      if (!participant) throw new Error('no participant');
      receiver.plans.set(participant.id, ['500', 'hang']);
      await submit(participant);

      const received = await receiver.deliveredTo(participant.id);
      expect(received.map((r) => r.mode)).toEqual(['500', 'hang', '200']);
      const [id] = new Set(received.map((r) => r.headers['webhook-id']));
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(id).toMatch(/^msg_/);
      for (const payload of verified(received)) {
        expect(payload).toEqual({
          type: 'survey_response.submitted',
          timestamp: expect.any(String),
          data: { projectId: seeded.projectId, surveyId: seeded.surveyId, responseId: expect.any(Number), userId: participant.id },
        });
      }
      // Each attempt waited for the schedule (2 s ± 20 %, from the previous one's end).
      const [first, second, third] = received;
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(1500);
      expect((third?.at ?? 0) - (second?.at ?? 0)).toBeGreaterThanOrEqual(TIMEOUT_MS + 1500);

      // The deliveries list tells each attempt's outcome (the last one is recorded just after its answer).
      let deliveries: WebhookDelivery[] = [];
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
        deliveries = await deliveriesOf(received);
        if (deliveries.at(-1)?.status === 'succeeded') break;
      }
      expect(deliveries.map((d) => [d.attempt, d.status, d.responseStatus, d.error])).toEqual([
        [1, 'failed', 500, 'answered 500'],
        [2, 'failed', null, 'timed out'],
        [3, 'succeeded', 200, null],
      ]);
      // Cut off at the (shortened) timeout, not the specification's 10 s.
      expect(deliveries[1]?.latencyMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(deliveries[1]?.latencyMs).toBeLessThan(5000);
    });

    it('a server killed (SIGKILL) while the next attempt waits loses no event: after the restart it is delivered, with the same webhook-id', async () => {
      const [, participant] = seeded.participants;
      if (!participant) throw new Error('no participant');
      receiver.fallback.set(participant.id, 'drop');
      await submit(participant);

      // Attempt 1 failed (the connection dropped) and attempt 2 waits in the queue: kill now.
      let before: WebhookDelivery[] = [];
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(50)) {
        const mine = receiver.received.filter((r) => r.userId === participant.id);
        if (mine.length > 0) before = await deliveriesOf(mine);
        if (before.some((d) => d.status === 'failed') && before.at(-1)?.status === 'pending') break;
      }
      await server.stop('SIGKILL');
      const killedAt = Date.now();
      expect(before.at(-1)).toMatchObject({ status: 'pending' });
      expect(before.slice(0, -1).every((d) => d.status === 'failed')).toBe(true);
      const beforeKill = receiver.received.filter((r) => r.userId === participant.id);
      expect(beforeKill.map((r) => r.mode)).toEqual(beforeKill.map(() => 'drop'));

      // The receiver is back; so is the server, on the same data.
      receiver.fallback.set(participant.id, '200');
      server = await startServerProcess(env);
      const received = await receiver.deliveredTo(participant.id);
      const delivered = received.filter((r) => r.mode === '200');
      expect(delivered.length).toBeGreaterThanOrEqual(1);
      for (const r of delivered) expect(r.at).toBeGreaterThan(killedAt);
      expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(verified(delivered)[0]).toMatchObject({ type: 'survey_response.submitted', data: { userId: participant.id, surveyId: seeded.surveyId } });

      // The attempt that waited at the kill is the one that went through.
      let after: WebhookDelivery[] = [];
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
        after = await deliveriesOf(received);
        if (after.some((d) => d.status === 'succeeded')) break;
      }
      expect(after.map((d) => [d.attempt, d.status])).toEqual(before.map((d) => [d.attempt, d.status === 'pending' ? 'succeeded' : d.status]));
      expect(await server.stop()).toBe(0);
    });
  });
}
