/**
 * `npm run cli -- backup FILE` (docs/decisions/029-backups.md; docs/deploy.md "Backups"): the
 * whole application database, read in one snapshot, and the photos' folder, in one tar file, while
 * the server runs or not, on the embedded database or PostgreSQL.
 *
 * The file (`tar tvf FILE` lists it):
 * - `fieldwork-backup.json`: the manifest: the migrations the database had, every table of the
 *   `public` schema with its columns and row count, the sequences' values, where the photos are.
 * - `tables/NNN-name.jsonl.gz`: each table's rows, gzipped, one a line as PostgreSQL's `row_to_json`
 *   writes it (each value as its type writes it: times in UTC, ISO 8601; restore reads each back
 *   with `json_populate_recordset`, through the column type's own input function).
 * - `media/KEY`: every photo file of MEDIA_DIR (MEDIA_STORE=local), as stored.
 * - `end.json`: the photo files' count and bytes; a file without it was cut short.
 *
 * The schema itself is not in the file: it is the migrations' (restore replays them up to the
 * backup's, loads the rows, then migrates forward: services/restore.ts). The job queue's tables
 * (`pgboss`) are not in it either: mails waiting to be sent are lost, the schedules come back at start.
 *
 * The snapshot is one REPEATABLE READ, READ ONLY transaction: on PostgreSQL it costs the
 * application nothing; on the embedded database, reached through the server's socket, the
 * server's statements wait until it ends (PGlite has one backend: db/socket-gate.ts; ~2 s for
 * 100,000 rows). So the rows are read into gzipped files beside FILE first, as fast as they come, a
 * FETCH of 1,000 at a time, and the tar is written after the transaction, with the photos.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql, type SQL } from 'drizzle-orm';
import tarStream from 'tar-stream';
import { z } from 'zod';
import { parsedJson, queryRows, type Db } from '../db/index.ts';
import { isValidStorageKey } from '../storage/storage.ts';

export const BACKUP_FORMAT = 'fieldwork-backup';
export const MANIFEST_NAME = 'fieldwork-backup.json';
export const END_NAME = 'end.json';
export const MEDIA_PREFIX = 'media/';
/** The schema of the application's tables (the migrations' `drizzle` and the queue's `pgboss` are not backed up). */
export const APP_SCHEMA = 'public';
/** Rows read per FETCH: a few hundred kB at most, however many rows a table has. */
const FETCH_ROWS = 1000;

/**
 * Session settings of both the snapshot and the restore (SET LOCAL: on the embedded database the
 * session is the server's, and they end with the transaction), so that every value's text reads
 * back the same whatever the server's settings: times in UTC, intervals and bytea in one style,
 * floats exact, names resolved in the application's schema.
 */
export const TEXT_SETTINGS: readonly SQL[] = [
  sql.raw(`set local timezone = 'UTC'`),
  sql.raw(`set local datestyle = 'ISO, YMD'`),
  sql.raw(`set local intervalstyle = 'postgres'`),
  sql.raw(`set local extra_float_digits = 3`),
  sql.raw(`set local bytea_output = 'hex'`),
  sql.raw(`set local search_path = ${APP_SCHEMA}`),
];

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(1),
  createdAt: z.string(),
  /** Where it was read from: the embedded database (through the running server or not), or PostgreSQL. */
  source: z.enum(['embedded', 'embedded-server', 'postgresql']),
  postgresVersion: z.string(),
  /** The migrations the database had (drizzle's table), oldest first: `createdAt` is the journal's `when`. */
  migrations: z.array(z.object({ createdAt: z.number(), hash: z.string() })),
  tables: z.array(z.object({ name: z.string(), file: z.string(), columns: z.array(z.string()), rows: z.number().int().nonnegative() })),
  sequences: z.array(z.object({ name: z.string(), value: z.string(), called: z.boolean() })),
  /** `files`: MEDIA_DIR's files follow the tables; `bucket`: the photos are in the S3 bucket, not in the file. */
  media: z.enum(['files', 'bucket']),
  /** How long the snapshot transaction lasted. */
  snapshotMs: z.number(),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

export const endSchema = z.object({ mediaFiles: z.number().int().nonnegative(), mediaBytes: z.number().nonnegative() });

/** A backup cannot be made as asked (the file exists, no database): the message says what to do. */
export class BackupError extends Error {}

/** An identifier, quoted. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

// ---------------------------------------------------------------------------------------------
// Reading the database

interface TableInfo {
  name: string;
  columns: string[];
}

/** The application's tables (not an extension's), their columns in order (generated ones are computed again). */
export async function appTables(db: Db): Promise<TableInfo[]> {
  const rows = await queryRows<{ table_name: string; columns: unknown }>(
    db,
    sql`select c.relname::text as table_name,
          coalesce((select json_agg(a.attname::text order by a.attnum) from pg_attribute a
                    where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''), '[]'::json) as columns
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${APP_SCHEMA} and c.relkind = 'r'
          and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
        order by c.relname`,
  );
  return rows.map((row) => ({ name: row.table_name, columns: parsedJson<string[]>(row.columns) }));
}

/** The drizzle migrations the database has had, oldest first. */
async function appliedMigrations(db: Db): Promise<BackupManifest['migrations']> {
  const rows = await queryRows<{ hash: string; created_at: string }>(
    db,
    sql`select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  return rows.map((row) => ({ hash: row.hash, createdAt: Number(row.created_at) }));
}

/** Every sequence of the application's schema (identity columns' included) and its value now. */
async function sequenceValues(db: Db): Promise<BackupManifest['sequences']> {
  const names = await queryRows<{ name: string }>(
    db,
    sql`select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${APP_SCHEMA} and c.relkind = 'S' order by c.relname`,
  );
  const sequences: BackupManifest['sequences'] = [];
  for (const { name } of names) {
    const [row] = await queryRows<{ value: string; called: string }>(
      db,
      sql.raw(`select last_value::text as value, is_called::text as called from ${ident(APP_SCHEMA)}.${ident(name)}`),
    );
    if (row) sequences.push({ name, value: row.value, called: row.called === 'true' });
  }
  return sequences;
}

/** Writes a table's rows into a gzipped file, one JSON object a line, a FETCH at a time; its row count. */
async function dumpTable(db: Db, table: TableInfo, file: string): Promise<number> {
  const out = fs.createWriteStream(file, { mode: 0o600 });
  const gzip = zlib.createGzip({ level: 6 });
  const written = pipeline(gzip, out);
  const select = table.columns.map(ident).join(', ');
  await db.execute(
    sql.raw(
      `declare fw_backup no scroll cursor for select row_to_json(r)::text as r from (select ${select} from only ${ident(APP_SCHEMA)}.${ident(table.name)}) r`,
    ),
  );
  let rows = 0;
  try {
    for (;;) {
      const batch = await queryRows<{ r: string }>(db, sql.raw(`fetch forward ${FETCH_ROWS} from fw_backup`));
      if (batch.length === 0) break;
      let text = '';
      for (const row of batch) text += `${row.r}\n`;
      rows += batch.length;
      if (!gzip.write(text)) await once(gzip, 'drain');
      if (batch.length < FETCH_ROWS) break;
    }
    await db.execute(sql.raw('close fw_backup'));
  } finally {
    gzip.end();
    await written;
  }
  return rows;
}

/** The database part of a backup, read in one snapshot into files in `workDir`. */
async function dumpDatabase(
  db: Db,
  workDir: string,
  source: BackupManifest['source'],
): Promise<{ manifest: Omit<BackupManifest, 'media'>; files: Map<string, string> }> {
  const started = performance.now();
  const files = new Map<string, string>();
  const manifest = await db.transaction(
    async (tx) => {
      const snapshot = tx as unknown as Db;
      for (const setting of TEXT_SETTINGS) await snapshot.execute(setting);
      const [version] = await queryRows<{ server_version: string }>(snapshot, sql`show server_version`);
      const migrations = await appliedMigrations(snapshot);
      const tables: BackupManifest['tables'] = [];
      for (const [index, table] of (await appTables(snapshot)).entries()) {
        const name = `tables/${String(index + 1).padStart(3, '0')}-${table.name}.jsonl.gz`;
        const file = path.join(workDir, `${index + 1}.jsonl.gz`);
        const rows = await dumpTable(snapshot, table, file);
        files.set(name, file);
        tables.push({ name: table.name, file: name, columns: table.columns, rows });
      }
      // Last: a sequence is not part of the snapshot, and read now it is at least what every row read used.
      const sequences = await sequenceValues(snapshot);
      return {
        format: BACKUP_FORMAT,
        version: 1,
        createdAt: new Date().toISOString(),
        source,
        postgresVersion: version?.server_version ?? 'unknown',
        migrations,
        tables,
        sequences,
        snapshotMs: 0,
      } as const;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return { manifest: { ...manifest, snapshotMs: Math.round(performance.now() - started) }, files };
}

// ---------------------------------------------------------------------------------------------
// The photos

/** The files of MEDIA_DIR whose names are storage keys (no temporary dot-files), one at a time. */
async function* mediaFiles(dir: string, prefix = ''): AsyncGenerator<string> {
  let folder: fs.Dir;
  try {
    folder = await fs.promises.opendir(path.join(dir, prefix));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for await (const entry of folder) {
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* mediaFiles(dir, key);
    else if (entry.isFile() && isValidStorageKey(key)) yield key;
  }
}

/** Adds a file to the tar as it is on disk, streamed; false when it vanished meanwhile (a photo deleted since the snapshot). */
async function addFile(pack: tarStream.Pack, name: string, file: string): Promise<number | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const { size, mtime } = await handle.stat();
    if (size === 0) {
      pack.entry({ name, size, mtime, mode: 0o600 }, '');
      return 0;
    }
    await pipeline(handle.createReadStream({ start: 0, end: size - 1, autoClose: false }), pack.entry({ name, size, mtime, mode: 0o600 }));
    return size;
  } finally {
    await handle.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The command

export interface BackupOptions {
  /** The database to read (the CLI's connection: PostgreSQL, the running server's socket, or PGlite opened by the CLI). */
  db: Db;
  source: BackupManifest['source'];
  /** The photos' folder when MEDIA_STORE=local; null when they are in a bucket. */
  mediaDir: string | null;
  file: string;
  /** Called once the database has been read (the CLI lets go of it: a server may start meanwhile). */
  afterSnapshot?: () => Promise<void>;
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  mediaFiles: number;
  mediaBytes: number;
  snapshotMs: number;
  totalMs: number;
}

/** Writes the backup to `options.file` (which must not exist yet): written beside it under a dot-name, renamed when complete. */
export async function writeBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const target = path.resolve(options.file);
  if (fs.existsSync(target))
    throw new BackupError(`${options.file} already exists: give each backup a new name (e.g. with the date), or remove the old one first.`);
  const folder = path.dirname(target);
  if (!fs.existsSync(folder)) throw new BackupError(`The folder ${folder} does not exist.`);
  const workDir = fs.mkdtempSync(path.join(folder, '.fieldwork-backup-'));
  const partial = path.join(workDir, 'backup.tar');
  try {
    const { manifest: database, files } = await dumpDatabase(options.db, workDir, options.source);
    await options.afterSnapshot?.();
    const manifest: BackupManifest = { ...database, media: options.mediaDir ? 'files' : 'bucket' };

    const pack = tarStream.pack();
    const written = pipeline(pack, fs.createWriteStream(partial, { mode: 0o600 }));
    const writing = (async () => {
      pack.entry({ name: MANIFEST_NAME, mode: 0o600 }, JSON.stringify(manifest, null, 1));
      for (const [name, file] of files) {
        await addFile(pack, name, file);
        fs.rmSync(file);
      }
      let mediaFilesCount = 0;
      let mediaBytes = 0;
      if (options.mediaDir) {
        for await (const key of mediaFiles(options.mediaDir)) {
          const size = await addFile(pack, `${MEDIA_PREFIX}${key}`, path.join(options.mediaDir, key));
          if (size === null) continue;
          mediaFilesCount++;
          mediaBytes += size;
        }
      }
      pack.entry({ name: END_NAME, mode: 0o600 }, JSON.stringify({ mediaFiles: mediaFilesCount, mediaBytes }));
      pack.finalize();
      return { mediaFiles: mediaFilesCount, mediaBytes };
    })();
    // Either side failing fails the whole (a full disk, a photo unreadable).
    const [media] = await Promise.all([writing.catch((error: unknown) => (pack.destroy(error as Error), Promise.reject(error))), written]);
    fs.renameSync(partial, target);
    return {
      file: target,
      bytes: fs.statSync(target).size,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, table) => sum + table.rows, 0),
      ...media,
      snapshotMs: manifest.snapshotMs,
      totalMs: Math.round(performance.now() - started),
    };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** A size for the CLI's report: `12.3 MB`. */
export const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
