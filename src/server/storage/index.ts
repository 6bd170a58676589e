import path from 'node:path';
import type { Config } from '../config.ts';
import { LocalStorage } from './local.ts';
import type { Storage } from './storage.ts';

export { LocalStorage } from './local.ts';
export { contentTypeOfKey, InvalidStorageKeyError, isValidStorageKey, type Storage, type StoredObject } from './storage.ts';

/** The uploads folder of a data folder. */
export function uploadsDir(dataDir: string): string {
  return path.join(dataDir, 'uploads');
}

/**
 * The storage the configuration asks for. Today always files under `DATA_DIR/uploads`; an
 * S3-compatible storage would be chosen here from its own environment variables.
 */
export function createStorage(config: Pick<Config, 'dataDir'>): Storage {
  return new LocalStorage(uploadsDir(config.dataDir));
}
