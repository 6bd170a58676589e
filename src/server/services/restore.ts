/**
 * `npm run cli -- restore FILE` (docs/decisions/029-backups.md): a file of `npm run cli -- backup`
 * into an empty DATA_DIR (a new embedded database) or an empty PostgreSQL database, never over
 * data. Either kind of backup goes into either kind of database (an embedded one restored into
 * PostgreSQL is how an install moves over).
 *
 * The file is read once, front to back, streamed (nothing of it is held whole):
 * 1. the manifest: the migrations the backed-up database had must be this code's first ones (a
 *    backup from a newer Fieldwork is refused);
 * 2. the new database is migrated up to the backup's migration, so its tables are the backup's;
 * 3. in one transaction: foreign keys and indexes (but those of primary keys and constraints)
 *    dropped, the tables emptied (a migration may seed rows), every table's rows inserted, a few MB
 *    a statement (their row counts checked against the manifest), the indexes built and the foreign
 *    keys added back (which checks every reference, as pg_restore does), the sequences set;
 * 4. the remaining migrations, as the server would at start;
 * 5. the photo files, into MEDIA_DIR; `end.json` tells a complete file from a cut one.
 * On failure a new embedded database and the photos written are removed again, so the DATA_DIR is
 * empty for the next try; on PostgreSQL the rows are rolled back but the migrated tables stay.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import tarStream from 'tar-stream';
import type { Config } from '../config.ts';
import { MIGRATIONS_DIR, openDatabase, queryRows, type Database, type Db } from '../db/index.ts';
import { acquireLock, readLock, type HeldLock } from '../db/lock.ts';
import { isValidStorageKey } from '../storage/storage.ts';
import {
  APP_SCHEMA,
  BackupError,
  END_NAME,
  MANIFEST_NAME,
  MEDIA_PREFIX,
  TEXT_SETTINGS,
  appTables,
  endSchema,
  ident,
  manifestSchema,
  type BackupManifest,
} from './backup.ts';

/** The target holds data already: nothing is written. */
export class RestoreRefusedError extends Error {}

/** Rows per INSERT at most, and about how many bytes of them. */
const ROWS_PER_INSERT = 2_000;
const BYTES_PER_INSERT = 4 * 1024 * 1024;
/** The manifest is read whole; a real one is a few kB. */
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export interface RestoreResult {
  target: string;
  tables: number;
  rows: number;
  mediaFiles: number;
  mediaBytes: number;
  manifest: BackupManifest;
  /** The backup's last migration, and the migrations applied after its rows. */
  backupMigration: string;
  newerMigrations: string[];
}

const journalTags = (): Map<number, string> => {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] };
  return new Map(journal.entries.map((entry) => [entry.when, entry.tag]));
};

/** A copy of the migrations folder holding the first `count` migrations only (remove it after use). */
export function migrationsUpTo(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldwork-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

async function migrate(database: Database, migrationsFolder: string): Promise<void> {
  if (database.pglite) await migratePglite(drizzlePglite({ client: database.pglite }), { migrationsFolder });
  else await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
}

/** Whether a folder holds anything (a missing folder holds nothing). */
function holdsFiles(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

const REFUSED = 'restore only goes into an empty one, so that nothing is overwritten';

/** Relations in the database outside PostgreSQL's own schemas (an extension's aside): how many, and a few names. */
async function databaseContents(db: Db): Promise<{ count: number; names: string[] }> {
  const rows = await queryRows<{ name: string; total: string }>(
    db,
    sql`select n.nspname || '.' || c.relname as name, count(*) over ()::text as total
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%'
          and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
        order by 1 limit 3`,
  );
  return { count: Number(rows[0]?.total ?? 0), names: rows.map((row) => row.name) };
}

/** Opens the (empty) target, or refuses with what to do. */
async function openTarget(config: Config): Promise<{ database: Database; lock: HeldLock | null; createdPgdata: string | null; target: string }> {
  const refuseMedia = () => {
    if (config.mediaStore === 'local' && holdsFiles(config.mediaDir)) {
      throw new RestoreRefusedError(
        `MEDIA_DIR ${config.mediaDir} already holds files: ${REFUSED}. Point MEDIA_DIR (or DATA_DIR) at a new folder and run restore again.`,
      );
    }
  };
  if (config.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', connection: config.databaseUrl, poolSize: 1 }, { migrate: false });
    try {
      const contents = await databaseContents(database.db);
      if (contents.count > 0) {
        throw new RestoreRefusedError(
          `The database of DATABASE_URL is not empty (${contents.count} tables and other relations, such as ${contents.names.join(', ')}): ${REFUSED}. ` +
            'Create a new database (e.g. `createdb fieldwork_restored`), point DATABASE_URL at it and run restore again.',
        );
      }
      refuseMedia();
    } catch (error) {
      await database.close();
      throw error;
    }
    return { database, lock: null, createdPgdata: null, target: 'the PostgreSQL database of DATABASE_URL' };
  }
  const dataDir = config.dataDir;
  const holder = readLock(dataDir);
  if (holder) {
    throw new RestoreRefusedError(
      `A Fieldwork ${holder.kind} process (pid ${holder.pid}) is using DATA_DIR ${dataDir}: ${REFUSED}. Set DATA_DIR to a new folder and run restore again.`,
    );
  }
  const pgdata = path.join(dataDir, 'pgdata');
  const refuseFull = () => {
    if (holdsFiles(pgdata)) {
      throw new RestoreRefusedError(
        `DATA_DIR ${dataDir} already holds a database (${pgdata}): ${REFUSED}. Set DATA_DIR to a new folder (or move this one away) and run restore again.`,
      );
    }
  };
  refuseFull();
  refuseMedia();
  const lock = acquireLock(dataDir, 'cli');
  try {
    refuseFull(); // Again, now that nobody else can start on it.
    const database = await openDatabase({ kind: 'pglite', dataDir }, { migrate: false });
    return { database, lock, createdPgdata: pgdata, target: `DATA_DIR ${dataDir}` };
  } catch (error) {
    fs.rmSync(pgdata, { recursive: true, force: true });
    lock.release();
    throw error;
  }
}

/** An entry of the tar being read: its header and its bytes as a stream. */
type TarEntry = tarStream.Extract extends AsyncIterable<infer Entry> ? Entry : never;

async function readWhole(entry: TarEntry, limit: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BackupError(`${what} is larger than any real one: this is not a Fieldwork backup.`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Inserts a table's rows from its gzipped lines of JSON, a few MB of them per statement; the row count. */
async function loadTable(db: Db, table: BackupManifest['tables'][number], entry: TarEntry): Promise<number> {
  const name = `${ident(APP_SCHEMA)}.${ident(table.name)}`;
  const columns = table.columns.map(ident).join(', ');
  let batch: string[] = [];
  let batchBytes = 0;
  let rows = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    // Each value read by its column's own input function, as COPY would.
    await db.execute(
      sql`insert into ${sql.raw(name)} (${sql.raw(columns)}) overriding system value
          select ${sql.raw(columns)} from json_populate_recordset(null::${sql.raw(name)}, ${`[${batch.join(',')}]`}::json)`,
    );
    batch = [];
    batchBytes = 0;
  };
  const gunzip = zlib.createGunzip();
  const unpacking = pipeline(entry, gunzip);
  let rest = '';
  try {
    for await (const chunk of gunzip) {
      const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) throw new BackupError(`The backup file is damaged: a row of ${table.name} does not read.`);
        batch.push(line);
        batchBytes += line.length;
        rows++;
        if (batch.length >= ROWS_PER_INSERT || batchBytes >= BYTES_PER_INSERT) await flush();
      }
    }
    await unpacking;
  } catch (error) {
    unpacking.catch(() => {});
    throw error;
  }
  if (rest !== '') throw new BackupError(`The backup file is damaged: ${table.name}'s rows end in the middle of a row.`);
  await flush();
  return rows;
}

/** Steps 3 of the header comment: every row, in one transaction. */
async function loadRows(database: Database, manifest: BackupManifest, nextEntry: () => Promise<TarEntry | null>): Promise<number> {
  return database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    for (const setting of TEXT_SETTINGS) await db.execute(setting);
    const tables = new Map((await appTables(db)).map((table) => [table.name, table]));
    for (const table of manifest.tables) {
      const here = tables.get(table.name)?.columns;
      const missing = here ? table.columns.filter((column) => !here.includes(column)) : ['(the table)'];
      if (missing.length > 0) {
        throw new BackupError(
          `The backup's table ${table.name} does not match the schema of its migration here (missing: ${missing.join(', ')}): the migrations were changed since the backup.`,
        );
      }
    }
    const foreignKeys = await queryRows<{ table_name: string; name: string; definition: string }>(
      db,
      sql`select conrelid::regclass::text as table_name, conname::text as name, pg_get_constraintdef(oid) as definition
          from pg_constraint where contype = 'f' and connamespace = ${APP_SCHEMA}::regnamespace order by conname`,
    );
    for (const key of foreignKeys) await db.execute(sql.raw(`alter table ${key.table_name} drop constraint ${ident(key.name)}`));
    // Indexes are built once after the rows (as pg_restore does), not kept up to date row by row; those of constraints stay.
    const indexes = await queryRows<{ name: string; definition: string }>(
      db,
      sql`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
          from pg_index i join pg_class c on c.oid = i.indrelid
          where c.relnamespace = ${APP_SCHEMA}::regnamespace
            and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
          order by 1`,
    );
    for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
    const names = [...tables.keys()].map((name) => `${ident(APP_SCHEMA)}.${ident(name)}`);
    if (names.length > 0) await db.execute(sql.raw(`truncate table ${names.join(', ')}`));
    for (const name of names) await db.execute(sql.raw(`alter table ${name} disable trigger user`));

    let rows = 0;
    for (const table of manifest.tables) {
      const entry = await nextEntry();
      if (entry?.header.name !== table.file) throw new BackupError(`The backup file is damaged: ${table.file} is not where it should be.`);
      const loaded = await loadTable(db, table, entry);
      if (loaded !== table.rows) throw new BackupError(`The backup file is damaged: ${table.name} has ${loaded} rows, its manifest says ${table.rows}.`);
      rows += loaded;
    }

    for (const name of names) await db.execute(sql.raw(`alter table ${name} enable trigger user`));
    for (const index of indexes) await db.execute(sql.raw(index.definition));
    for (const key of foreignKeys) await db.execute(sql.raw(`alter table ${key.table_name} add constraint ${ident(key.name)} ${key.definition}`));
    for (const sequence of manifest.sequences) {
      await db.execute(sql`select setval(${`${ident(APP_SCHEMA)}.${ident(sequence.name)}`}::regclass, ${sequence.value}::bigint, ${sequence.called})`);
    }
    return rows;
  });
}

/** Writes one photo file into MEDIA_DIR as LocalStorage does (a temporary dot-file, then renamed). */
async function writeMediaFile(mediaDir: string, key: string, entry: TarEntry): Promise<number> {
  const root = path.resolve(mediaDir);
  const file = path.resolve(root, key);
  if (!isValidStorageKey(key) || !file.startsWith(root + path.sep))
    throw new BackupError(`The backup file is damaged: ${MEDIA_PREFIX}${key} is not a photo's name.`);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.restore.tmp`);
  await pipeline(entry, fs.createWriteStream(temporary, { mode: 0o600 }));
  fs.renameSync(temporary, file);
  return entry.header.size;
}

/** Restores `file` into the empty database and MEDIA_DIR of `config`. */
export async function restoreBackup(config: Config, file: string): Promise<RestoreResult> {
  if (!fs.existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const { database, lock, createdPgdata, target } = await openTarget(config);
  const extract = tarStream.extract();
  const reading = pipeline(fs.createReadStream(file), extract);
  /** The file's own failure (not a tar, cut short), whatever step met it. */
  let unreadable: Error | null = null;
  reading.catch((error: unknown) => (unreadable = error as Error));
  const cutShort = (error: Error) => new BackupError(`${file} cannot be read as a backup (${error.message}): it is not one, or it was cut short.`);
  const entries = extract[Symbol.asyncIterator]() as AsyncIterator<TarEntry>;
  const nextEntry = async (): Promise<TarEntry | null> => {
    try {
      const next = await entries.next();
      return next.done ? null : next.value;
    } catch (error) {
      throw cutShort(error as Error);
    }
  };
  /** Top folders of MEDIA_DIR written by this restore (removed again if it fails), and whether MEDIA_DIR was there. */
  const mediaWritten = new Set<string>();
  const mediaDirExisted = fs.existsSync(config.mediaDir);
  let migrationsDir: string | null = null;
  let closed = false;
  try {
    const first = await nextEntry();
    if (first?.header.name !== MANIFEST_NAME) throw new BackupError(`${file} is not a Fieldwork backup (it does not start with ${MANIFEST_NAME}).`);
    let parsedManifest: unknown;
    try {
      parsedManifest = JSON.parse(await readWhole(first, MANIFEST_MAX_BYTES, MANIFEST_NAME));
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${file} is not a Fieldwork backup (its ${MANIFEST_NAME} does not read).`);
    }
    const checked = manifestSchema.safeParse(parsedManifest);
    if (!checked.success) throw new BackupError(`${file} is not a Fieldwork backup this version reads (its ${MANIFEST_NAME} is not as expected).`);
    const manifest = checked.data;

    const known = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
    const tags = journalTags();
    manifest.migrations.forEach((migration, index) => {
      if (known[index]?.folderMillis !== migration.createdAt) {
        throw new BackupError(
          tags.has(migration.createdAt)
            ? "The backup's migrations are not this Fieldwork's (not in the same order): it cannot be restored here."
            : 'The backup was made by a newer Fieldwork (its database has migrations this one does not know): update Fieldwork, then restore it.',
        );
      }
    });
    const level = manifest.migrations.length;
    const backupMigration = level === 0 ? '(none)' : (tags.get(manifest.migrations[level - 1]?.createdAt ?? 0) ?? 'unknown');

    migrationsDir = migrationsUpTo(level);
    await migrate(database, migrationsDir);
    const rows = await loadRows(database, manifest, nextEntry);
    await migrate(database, MIGRATIONS_DIR);
    const newerMigrations = known.slice(level).map((migration) => tags.get(migration.folderMillis) ?? String(migration.folderMillis));

    let mediaFiles = 0;
    let mediaBytes = 0;
    let end: unknown = null;
    for (let entry = await nextEntry(); entry; entry = await nextEntry()) {
      const name = entry.header.name;
      if (name.startsWith(MEDIA_PREFIX) && entry.header.type === 'file') {
        const key = name.slice(MEDIA_PREFIX.length);
        mediaWritten.add(key.split('/')[0] ?? key);
        mediaBytes += await writeMediaFile(config.mediaDir, key, entry);
        mediaFiles++;
      } else if (name === END_NAME) {
        end = JSON.parse(await readWhole(entry, MANIFEST_MAX_BYTES, END_NAME));
      } else {
        entry.resume();
      }
    }
    await reading.catch((error: unknown) => {
      throw cutShort(error as Error);
    });
    const ending = endSchema.safeParse(end);
    if (!ending.success) throw new BackupError(`${file} ends early (it was cut short while being written or copied): it cannot be restored whole.`);
    if (ending.data.mediaFiles !== mediaFiles)
      throw new BackupError(`The backup file is damaged: it has ${mediaFiles} photo files, its end says ${ending.data.mediaFiles}.`);

    closed = true;
    await database.close();
    return { target, tables: manifest.tables.length, rows, mediaFiles, mediaBytes, manifest, backupMigration, newerMigrations };
  } catch (caught) {
    await new Promise((resolve) => setImmediate(resolve));
    const error = unreadable && !(caught instanceof BackupError) ? cutShort(unreadable) : caught;
    extract.destroy();
    if (!closed) await database.close().catch(() => {});
    if (createdPgdata) fs.rmSync(createdPgdata, { recursive: true, force: true });
    for (const top of mediaWritten) fs.rmSync(path.join(config.mediaDir, top), { recursive: true, force: true });
    if (!mediaDirExisted && !holdsFiles(config.mediaDir)) fs.rmSync(config.mediaDir, { recursive: true, force: true });
    throw error;
  } finally {
    if (migrationsDir) fs.rmSync(migrationsDir, { recursive: true, force: true });
    lock?.release();
  }
}
