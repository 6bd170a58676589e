/**
 * The job queue in the real server: a mail queued while no server runs (the CLI only queues) is
 * sent once the server starts; mail asked for through the API goes out too; SIGTERM still exits 0.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readOutbox, type OutboxMail } from '../support/outbox.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { runCliAsync, runCliProcess, startServerProcess, type ServerProcess } from '../support/processes.ts';

const tempDirs: string[] = [];
const databases: FreshDatabase[] = [];
afterAll(async () => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

/** The mails to an address once there are `count` of them (or what there is after 20 s). */
async function mailsTo(dataDir: string, to: string, count: number): Promise<OutboxMail[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mails = (await readOutbox(dataDir)).filter((mail) => mail.to === to);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const backends: { name: string; env: () => Promise<Record<string, string>> }[] = [{ name: 'PGlite', env: async () => ({}) }];
if (await postgresReachable()) {
  backends.push({
    name: 'PostgreSQL',
    env: async () => {
      const fresh = await createFreshDatabase();
      databases.push(fresh);
      return { DATABASE_URL: fresh.url };
    },
  });
}

for (const backend of backends) {
  describe(`queued mail survives a restart [${backend.name}]`, () => {
    let server: ServerProcess | undefined;
    afterAll(async () => {
      await server?.stop('SIGKILL');
    });

    it('a mail the CLI queued with no server running goes out when the server starts', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-proc-jobs-'));
      tempDirs.push(dataDir);
      const env = { DATA_DIR: dataDir, PUBLIC_URL: 'http://fieldwork.test', ...(await backend.env()) };

      const invite = runCliProcess(['user:invite', '--email', 'later@example.org'], env);
      expect(invite.stderr).toBe('');
      expect(invite.code).toBe(0);
      expect(invite.stdout).toContain('The invitation mail is queued');
      const printed = /https?:\/\/\S+\/onboarding\/[A-Za-z0-9_-]{43}/.exec(invite.stdout)?.[0];
      expect(printed).toBeDefined();
      expect(await readOutbox(dataDir)).toEqual([]);

      server = await startServerProcess(env);
      const [mail, ...more] = await mailsTo(dataDir, 'later@example.org', 1);
      expect(more).toEqual([]);
      expect(mail?.subject).toBe('You are invited to Fieldwork');
      expect(mail?.links).toContain(printed);

      // Mail asked for through the API goes through the same queue.
      const forgot = await fetch(`${server.url}/api/auth/password/forgot`, {
        method: 'POST',
        headers: { Origin: server.url, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'later@example.org' }),
      });
      expect(forgot.status).toBe(202);
      const mails = await mailsTo(dataDir, 'later@example.org', 2);
      expect(mails.map((m) => m.subject)).toEqual(['You are invited to Fieldwork', 'You are invited to Fieldwork']);

      // While the server runs, the CLI's mail goes out too.
      const again = await runCliAsync(['user:invite', '--email', 'now@example.org'], env);
      expect(again.code).toBe(0);
      expect(await mailsTo(dataDir, 'now@example.org', 1)).toHaveLength(1);

      expect(await server.stop()).toBe(0);
      expect(server.output()).toContain('"msg":"job queue stopped"');
      server = undefined;
    });
  });
}
