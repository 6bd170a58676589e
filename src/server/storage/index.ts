import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import { S3Storage, s3RedirectOrigin, type S3StorageOptions } from './s3.ts';
import type { Storage } from './storage.ts';

export { LocalStorage } from './local.ts';
export { OBJECT_CACHE_CONTROL, S3Storage, s3CredentialsFromEnv, s3RedirectOrigin, type S3Credentials, type S3StorageOptions } from './s3.ts';
export * from './storage.ts';

/** The default photos folder of a data folder (MEDIA_DIR overrides it). */
export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/**
 * The storage the configuration asks for: files under MEDIA_DIR (default `DATA_DIR/uploads`), or
 * the S3-compatible bucket of the S3_* variables with MEDIA_STORE=s3 (docs/deploy.md).
 */
export function createStorage(config: Pick<Config, 'mediaDir' | 'mediaStore' | 's3'>, options: S3StorageOptions = {}): Storage {
  if (config.mediaStore === 's3') {
    if (!config.s3) throw new Error('MEDIA_STORE=s3 needs S3_BUCKET');
    return new S3Storage(config.s3, options);
  }
  return new LocalStorage(config.mediaDir);
}

/**
 * The origin browsers are sent to for photos (signed links), which the pages' CSP must allow as
 * an image source; null when the API serves the bytes itself (local disk, S3_DELIVERY=stream).
 */
export function mediaRedirectOrigin(config: Pick<Config, 'mediaStore' | 's3'>): string | null {
  return config.mediaStore === 's3' ? s3RedirectOrigin(config.s3) : null;
}
