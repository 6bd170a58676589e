/**
 * The embedded database's socket through the gate (src/server/db/socket-gate.ts): a socket
 * client's transaction is the one the engine runs, so the server's statements wait for it instead
 * of running inside it; what a client SET is reset when it leaves; and a client that keeps its
 * transaction open idle is rolled back and disconnected.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protocol, type PGlite } from '@electric-sql/pglite';
import { openPglite } from '../../src/server/db/fresh-cluster.ts';
import { PGLITE_OPTIONS } from '../../src/server/db/index.ts';
import { gatedSocketServer } from '../../src/server/db/socket-gate.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const IDLE_MS = 400;

describe('the socket gate of the embedded database', () => {
  let engine: PGlite;
  let dir: string;
  let stop: () => Promise<void>;
  let idleClients = 0;

  beforeAll(async () => {
    engine = await openPglite(null, PGLITE_OPTIONS);
    await engine.exec('create table t (n int)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-gate-'));
    const { server, gate } = gatedSocketServer(engine, {
      path: path.join(dir, '.s.PGSQL.5432'),
      maxConnections: 4,
      holdIdleMs: IDLE_MS,
      onIdleClient: () => idleClients++,
    });
    await server.start();
    stop = async () => {
      await server.stop();
      await gate.abandon();
    };
  });

  afterAll(async () => {
    await stop();
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const connect = async () => {
    const client = new pg.Client({ host: dir, port: 5432, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    return client;
  };

  it("keeps two clients' parameterised statements apart (each exchange runs whole: Parse to Sync), beside the server's own", async () => {
    const [a, b, c3] = await Promise.all([connect(), connect(), connect()]);
    // Each client its own statement, so that one bound to another's would answer another result.
    const run = async (client: pg.Client, base: number, sql: string, expected: (n: number) => number) => {
      for (let i = 0; i < 300; i++) {
        const { rows } = await client.query<{ n: number }>(sql, [base + i]);
        expect(rows).toEqual([{ n: expected(base + i) }]);
      }
    };
    const server = async () => {
      for (let i = 0; i < 300; i++) expect((await engine.query<{ n: number }>('select $1::int + 1 as n', [i])).rows).toEqual([{ n: i + 1 }]);
    };
    await Promise.all([
      run(a, 1000, 'insert into t values ($1::int) returning n', (n) => n),
      run(b, 2000, 'select $1::int * -1 as n', (n) => -n),
      run(c3, 3000, 'select $1::int * 2 as n', (n) => 2 * n),
      server(),
    ]);
    await Promise.all([a.end(), b.end(), c3.end()]);
    await engine.exec('delete from t where n >= 1000');
  });

  it("keeps another client's statement out of a client's exchange sent in parts (Parse, Bind … later Execute, Sync)", async () => {
    // A raw client: node-postgres sends a whole exchange in one write, psql and others may not.
    const socket = net.createConnection(path.join(dir, '.s.PGSQL.5432'));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    const until = async (text: string) => {
      for (let waited = 0; !received.includes(text); waited += 10) {
        if (waited > 5000) throw new Error(`no ${text} in ${received.toString('latin1')}`);
        await sleep(10);
      }
    };
    const { serialize } = protocol;
    socket.write(serialize.startup({ user: 'postgres', database: 'postgres' }));
    await until('Z\u0000\u0000\u0000\u0005I');
    const other = await connect();
    received = Buffer.alloc(0);
    socket.write(Buffer.concat([serialize.parse({ text: "select 'alpha-' || $1::text as v", types: [] }), serialize.bind({ values: ['7'] })]));
    await sleep(50);
    const otherAnswer = other.query<{ v: string }>("select 'beta' as v");
    await sleep(50);
    socket.write(Buffer.concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]));
    await until('Z\u0000\u0000\u0000\u0005I');
    expect(received.toString('latin1')).toContain('alpha-7');
    expect((await otherAnswer).rows).toEqual([{ v: 'beta' }]);
    socket.end();
    await other.end();
  });

  it("holds the server's statements until the client's transaction ends, and never runs them inside it", async () => {
    const client = await connect();
    await client.query('begin');
    await client.query('insert into t values (1)');
    let serverDone = false;
    const serverWrite = engine.query('insert into t values (2)').then(() => (serverDone = true));
    await sleep(100);
    expect(serverDone).toBe(false);
    await client.query('rollback');
    await serverWrite;
    expect((await engine.query<{ n: number }>('select n from t order by n')).rows).toEqual([{ n: 2 }]);
    // Outside a transaction, the client's statements and the server's take turns.
    await client.query('insert into t values (3)');
    await engine.query('insert into t values (4)');
    expect((await client.query<{ c: number }>('select count(*)::int as c from t')).rows[0]?.c).toBe(3);
    await client.end();
  });

  it('resets what a client SET when it leaves (pg_dump empties search_path first thing)', async () => {
    const searchPath = async () => (await engine.query<{ search_path: string }>('show search_path')).rows[0]?.search_path;
    const before = await searchPath();
    const client = await connect();
    await client.query("select pg_catalog.set_config('search_path', '', false)");
    expect(await searchPath()).toBe('');
    await client.end();
    await sleep(50);
    expect(await searchPath()).toBe(before);
    expect((await engine.query<{ c: number }>('select count(*)::int as c from t')).rows[0]?.c).toBeGreaterThan(0);
  });

  it("sends a client only its own answers: not the reset after another client left, nor the server's", async () => {
    // Another client leaves while this one's transaction is open: its settings are reset when the
    // transaction ends, and that RESET's answer is the gate's, not this client's next query's.
    const [client, leaver] = await Promise.all([connect(), connect()]);
    await leaver.query("select pg_catalog.set_config('application_name', 'leaver', false)");
    await client.query('begin');
    await client.query('insert into t values (7)');
    await leaver.end();
    await sleep(50);
    await client.query('commit');
    await engine.query('select 1');
    for (let n = 0; n < 3; n++) expect((await client.query<{ n: number }>('select $1::int as n', [n])).rows).toEqual([{ n }]);
    expect((await engine.query<{ n: number }>('select 5 as n')).rows).toEqual([{ n: 5 }]);
    await client.query('delete from t where n = 7');
    await client.end();
  });

  it('rolls back and disconnects a client idle in its transaction, and the server goes on', async () => {
    const client = await connect();
    const ended = new Promise((resolve) => client.once('end', resolve));
    await client.query('begin');
    await client.query('insert into t values (5)');
    const started = performance.now();
    await engine.query('insert into t values (6)');
    expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 50);
    await ended;
    expect(idleClients).toBe(1);
    expect((await engine.query<{ n: number }>('select n from t where n >= 5')).rows).toEqual([{ n: 6 }]);
  });
});
