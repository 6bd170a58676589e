/**
 * The cluster a new embedded database starts from (src/server/db/fresh-cluster.ts, decision 028):
 * shipped for the installed PGlite, and a database made from it is one PostgreSQL accepts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_VERSION, clusterFile, openPglite } from '../../src/server/db/fresh-cluster.ts';
import { PGLITE_OPTIONS } from '../../src/server/db/index.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-fresh-cluster-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

// Unpacking a cluster and starting PGlite on it (twice) takes seconds on a busy machine: not a timing test.
describe('the shipped cluster (src/server/db/fresh-cluster.ts)', { timeout: 60_000 }, () => {
  it(`is there for the installed PGlite (${PGLITE_VERSION}): after upgrading PGlite, run \`npm run db:cluster\` and commit the file`, () => {
    expect(fs.existsSync(clusterFile()), clusterFile()).toBe(true);
    const shipped = fs.readdirSync(path.dirname(clusterFile())).filter((name) => name.startsWith('fresh-cluster-pglite-'));
    expect(shipped).toEqual([path.basename(clusterFile())]);
  });

  it('makes a database in DATA_DIR that PostgreSQL opens (UTF-8, the C locale as PGlite’s initdb makes it, the settings of PGLITE_OPTIONS), and opens it again', async () => {
    const dataDir = tempDir();
    const warnings: string[] = [];
    const client = await openPglite(dataDir, PGLITE_OPTIONS, (message) => warnings.push(message));
    const { rows } = await client.query<{ encoding: string; collate: string; buffers: string }>(
      "select pg_encoding_to_char(encoding) as encoding, datcollate as collate, current_setting('shared_buffers') as buffers from pg_database where datname = current_database()",
    );
    expect(rows).toEqual([{ encoding: 'UTF8', collate: 'C', buffers: '32MB' }]);
    await client.exec('create table kept (id int); insert into kept values (7)');
    await client.close();
    expect(warnings).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'pgdata.creating'))).toBe(false);

    const again = await openPglite(dataDir, PGLITE_OPTIONS);
    expect((await again.query('select id from kept')).rows).toEqual([{ id: 7 }]);
    await again.close();
  });

  it('makes a half-written cluster again (the marker left by a start that was killed while writing it)', async () => {
    const dataDir = tempDir();
    fs.mkdirSync(path.join(dataDir, 'pgdata'));
    fs.writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '17\n');
    fs.writeFileSync(path.join(dataDir, 'pgdata.creating'), '');
    const client = await openPglite(dataDir, PGLITE_OPTIONS);
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.close();
    expect(fs.existsSync(path.join(dataDir, 'pgdata.creating'))).toBe(false);
  });
});
