/**
 * The kill between "ordered" and "recorded" (issue 30 §4): the real server (PostgreSQL) orders a
 * provider reward from the Tremendous stand-in, which makes the order and holds its answer; the
 * server is killed (SIGKILL) before the answer comes. Started again, it asks about the order left
 * `ordering` with the same key (`rewards.poll` at start): the stand-in answers the order it made,
 * and there is exactly one order, the redemption is delivered, and its points are spent once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/index.ts';
import { pointsLedger, rewardSettings, rewards } from '../../src/server/db/schema/index.ts';
import { systemClock } from '../../src/server/services/clock.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import { DEFAULT_REWARD_SETTINGS, type Redemption } from '../../src/shared/rewards.ts';
import { createFreshDatabase, postgresReachable } from '../support/postgres.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { startTremendousStandin } from '../support/tremendous-standin.ts';

const reachable = await postgresReachable();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function rows<T>(url: string, query: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(!reachable)('a provider order: the server killed between the order and its record [PostgreSQL]', () => {
  it('after the restart the same order is asked for with the same key: one order, delivered, the points spent once', async () => {
    const fresh = await createFreshDatabase();
    cleanups.push(() => fresh.drop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-rewards-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const standin = await startTremendousStandin();
    cleanups.push(() => standin.stop());

    const database = await openDatabase({ kind: 'postgres', connection: fresh.url, poolSize: 2 });
    const who = await createActiveUser(database.db, {
      email: 'pat@rewards.test',
      password: 'Rewards-kill-9',
      role: 'participant',
      firstName: 'Pat',
      lastName: 'Doe',
    });
    const { token } = await createSession(database.db, systemClock, who.id);
    await database.db
      .insert(rewardSettings)
      .values({ id: 1, settings: { ...DEFAULT_REWARD_SETTINGS, pointsPerUnit: { USD: 100 }, reviewFirstRedemption: false } });
    const [card] = await database.db
      .insert(rewards)
      .values({ title: 'Shop card', kind: 'gift_card', fulfilment: 'provider', providerProductId: 'OKMHM2X2OHYV', currency: 'USD', denominations: [10] })
      .returning();
    await database.db
      .insert(pointsLedger)
      .values({ userId: who.id, points: 1500, state: 'available', reason: 'Surveys', source: 'adjustment', reference: 'fixture:1' });
    await database.close();
    if (!card) throw new Error('no reward');

    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: fresh.url,
      PUBLIC_URL: 'http://fieldwork.test',
      REWARDS_PROVIDER: 'tremendous',
      TREMENDOUS_API_KEY: standin.apiKey,
      TREMENDOUS_BASE_URL: standin.url,
      TREMENDOUS_WEBHOOK_SECRET: standin.webhookSecret,
      // At start, the poll asks about every order left `ordering` (not only those 10 minutes old).
      FIELDWORK_TEST_REWARDS_STALE_MS: '0',
    };
    let server: ServerProcess = await startServerProcess(env);
    cleanups.push(() => server.stop('SIGKILL'));
    const call = (method: string, pathname: string, body?: unknown) =>
      fetch(`${server.url}${pathname}`, {
        method,
        headers: { cookie: `fw_session=${token}`, origin: server.url, 'content-type': 'application/json', 'idempotency-key': 'kill-9-once' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const held = standin.holdNext();
    const created = await call('POST', '/api/redemptions', { rewardId: card.id, value: 10 });
    expect(created.status).toBe(201);
    const made = (await created.json()) as Redemption;
    expect(made).toMatchObject({ status: 'approved', points: 1000 });

    // The order reached the provider, which made it; its answer has not left: kill now.
    const order = await held.received;
    expect(order.external_id).toBe(`redemption:${made.id}`);
    await server.stop('SIGKILL');
    held.release();
    expect(await rows(fresh.url, 'select status, provider_order_id from redemptions where id = $1', [made.id])).toEqual([
      { status: 'ordering', provider_order_id: null },
    ]);

    server = await startServerProcess(env);
    let seen: Redemption | undefined;
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 250))) {
      seen = (await (await call('GET', `/api/redemptions/${made.id}`)).json()) as Redemption;
      if (seen.status !== 'ordering') break;
    }
    expect(seen).toMatchObject({ status: 'delivered', delivery: { link: order.reward.link } });
    expect(standin.orders).toHaveLength(1);
    expect(standin.orderCalls()).toBe(2);
    expect(await rows(fresh.url, `select state, points from points_ledger where reference = $1`, [`redemption:${made.id}`])).toEqual([
      { state: 'available', points: -1000 },
    ]);
    expect(await rows(fresh.url, `select status, provider_order_id from redemptions`)).toEqual([{ status: 'delivered', provider_order_id: order.id }]);
    expect(await server.stop()).toBe(0);
  });
});
