/**
 * `npm run cli -- media:migrate --to s3` (docs/deploy.md "Photos"): copies every photo the media
 * table names from the local folder (MEDIA_DIR) to the bucket of the S3_* variables. It switches
 * nothing: the server keeps serving from MEDIA_STORE until that is changed and it restarts.
 *
 * Idempotent and resumable: a file whose object is already in the bucket with the same length is
 * skipped, so a second run copies nothing and a run cut short picks up where it stopped (an object
 * appears whole or not at all). Only the files the table names are copied; anything else in the
 * folder (leftovers of deleted photos) is left behind.
 */
import { asc, gt } from 'drizzle-orm';
import { ConfigError, loadConfig, type S3Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { media } from '../db/schema/index.ts';
import { LocalStorage } from '../storage/local.ts';
import { S3Storage, s3CredentialsFromEnv } from '../storage/s3.ts';
import { inParallel } from '../../shared/in-parallel.ts';

/** Media rows read per page (the table is never read whole). */
export const MIGRATE_PAGE_SIZE = 200;
/** Files copied at once. */
const PARALLEL_COPIES = 4;
/** Missing files named one by one, at most. */
const MISSING_SHOWN = 20;

export interface MigrateIo {
  out(line: string): void;
  err(line: string): void;
}

export interface MigrateResult {
  /** Media rows looked at. */
  photos: number;
  /** Files copied to the bucket by this run. */
  copied: number;
  /** Files already in the bucket with the same length. */
  alreadyThere: number;
  /** Files the table names that are not in the local folder. */
  missing: string[];
}

/**
 * The bucket's settings from the S3_* variables, whatever MEDIA_STORE says (the copy comes
 * before the switch). ConfigError when S3_BUCKET is unset or a variable is invalid.
 */
export function migrationBucket(env: NodeJS.ProcessEnv): S3Config {
  if (!env.S3_BUCKET) {
    throw new ConfigError('S3_BUCKET is not set: media:migrate copies the photos to the bucket the S3_* variables name (docs/deploy.md "Photos").');
  }
  const s3 = loadConfig({ ...env, MEDIA_STORE: 's3' }).s3;
  if (!s3) throw new ConfigError('S3_BUCKET is not set.');
  return s3;
}

/** Copies one file unless the bucket has it already; what happened. */
async function copyOne(from: LocalStorage, to: S3Storage, key: string): Promise<'copied' | 'there' | 'missing'> {
  const local = await from.stat(key);
  if (!local) return 'missing';
  const remote = await to.stat(key);
  if (remote && remote.bytes === local.bytes) return 'there';
  const opened = await from.open(key);
  if (!opened) return 'missing';
  await to.putStream(key, opened.body, opened.bytes, opened.contentType);
  return 'copied';
}

/** Copies every photo of the table from `from` to `to`, page by page in id order, reporting each page. */
export async function migrateMedia(db: Db, from: LocalStorage, to: S3Storage, io: MigrateIo, pageSize = MIGRATE_PAGE_SIZE): Promise<MigrateResult> {
  const result: MigrateResult = { photos: 0, copied: 0, alreadyThere: 0, missing: [] };
  let after = '';
  for (;;) {
    const page = await db
      .select({ id: media.id, displayKey: media.displayKey, thumbnailKey: media.thumbnailKey })
      .from(media)
      .where(gt(media.id, after))
      .orderBy(asc(media.id))
      .limit(pageSize);
    if (page.length === 0) break;
    after = page[page.length - 1]?.id ?? after;
    const keys = page.flatMap((row) => [row.displayKey, row.thumbnailKey]).filter((key) => key !== null);
    await inParallel(keys, PARALLEL_COPIES, async (key) => {
      const outcome = await copyOne(from, to, key);
      if (outcome === 'copied') result.copied++;
      else if (outcome === 'there') result.alreadyThere++;
      else result.missing.push(key);
    });
    result.photos += page.length;
    if (page.length === pageSize) io.out(`… ${result.photos} photos looked at (${result.copied} files copied so far)`);
  }
  return result;
}

/** The whole command: checks the bucket's settings, copies, prints the counts. Exit code 0. */
export async function runMediaMigrate(options: { env: NodeJS.ProcessEnv; mediaDir: string; open: () => Promise<Db>; io: MigrateIo }): Promise<number> {
  const { env, io } = options;
  const bucket = migrationBucket(env);
  const from = new LocalStorage(options.mediaDir);
  const to = new S3Storage(bucket, { credentials: s3CredentialsFromEnv(env) });
  try {
    const where = `s3://${bucket.bucket}/${bucket.prefix}${bucket.endpoint ? ` at ${bucket.endpoint}` : ` (AWS, ${bucket.region})`}`;
    io.out(`Copying photos from ${from.dir} to ${where}…`);
    const result = await migrateMedia(await options.open(), from, to, io);
    io.out(
      `${result.photos} photos: ${result.copied} files copied, ${result.alreadyThere} already in the bucket, ${result.missing.length} missing from ${from.dir}.`,
    );
    if (result.missing.length > 0) {
      io.err(`These files are named in the database but not in ${from.dir} (those photos were already broken; nothing to copy):`);
      for (const key of result.missing.slice(0, MISSING_SHOWN)) io.err(`  ${key}`);
      if (result.missing.length > MISSING_SHOWN) io.err(`  … and ${result.missing.length - MISSING_SHOWN} more`);
    }
    io.out('Nothing was switched: the server still serves photos from MEDIA_STORE. Set MEDIA_STORE=s3 and restart to serve from the bucket.');
    return 0;
  } finally {
    to.client.destroy();
  }
}
