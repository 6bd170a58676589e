import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type ByteRange,
  contentTypeOfKey,
  InvalidStorageKeyError,
  isValidStorageKey,
  type OpenedObject,
  type SignedUrlOptions,
  type Storage,
  type StoredObject,
} from './storage.ts';

const isErrorCode = (error: unknown, ...codes: string[]): boolean =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' && codes.includes(error.code);

/**
 * The disk of the folder is full (ENOSPC) or the user's quota is used up (EDQUOT): nothing of
 * the object was kept (the temporary file is removed). The API answers 507 `storage_full`
 * (routes/media.ts; docs/deploy.md, "What happens when…").
 */
export class StorageFullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageFullError';
  }
}

/**
 * Files in a folder (MEDIA_DIR, default `DATA_DIR/uploads`), one per key: `{dir}/{key}`. Writes go to a temporary
 * file beside the target, are flushed to disk, then renamed over it, so a crash or a concurrent
 * reader never sees half a file. A key's extension names its content type (`.jpg` →
 * `image/jpeg`, see `CONTENT_TYPES_BY_EXTENSION`): `put` refuses a type the key does not name, so
 * `get` always answers the type that was put without keeping a second file.
 */
export class LocalStorage implements Storage {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** The file of a key, after checking the key cannot leave the folder. */
  private fileOf(key: string): string {
    if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key);
    const file = path.resolve(this.dir, key);
    if (!file.startsWith(this.dir + path.sep)) throw new InvalidStorageKeyError(key);
    return file;
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.write(key, contentType, async (temporary) => {
      const handle = await fs.open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  /** Copies the file in (the kernel's copy, never through memory), flushed, then renamed over the key's file. */
  async putFile(key: string, source: string, contentType: string): Promise<void> {
    await this.write(key, contentType, async (temporary) => {
      await fs.copyFile(source, temporary, fs.constants.COPYFILE_EXCL);
      await fs.chmod(temporary, 0o600);
      const handle = await fs.open(temporary, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    });
  }

  /**
   * Writes a key's file through `fill` (which makes the temporary file), after checking the key
   * names the content type: the folder made, the temporary file renamed over the target, or
   * removed on any failure (ENOSPC/EDQUOT → `StorageFullError`).
   */
  private async write(key: string, contentType: string, fill: (temporary: string) => Promise<void>): Promise<void> {
    const file = this.fileOf(key);
    const expected = contentTypeOfKey(key);
    if (expected === null || expected !== contentType) {
      throw new Error(`LocalStorage: key ${JSON.stringify(key)} does not name the content type ${contentType}`);
    }
    try {
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    } catch (error) {
      if (isErrorCode(error, 'ENOSPC', 'EDQUOT')) throw new StorageFullError(`No room left in ${this.dir}`, { cause: error });
      throw error;
    }
    // A dot-name is never a valid key, so a leftover temporary file can never be read as an object.
    const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fill(temporary);
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true });
      if (isErrorCode(error, 'ENOSPC', 'EDQUOT')) throw new StorageFullError(`No room left in ${this.dir}`, { cause: error });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const file = this.fileOf(key);
    const contentType = contentTypeOfKey(key);
    if (contentType === null) return null;
    try {
      const body = await fs.readFile(file);
      return { body, contentType, bytes: body.byteLength };
    } catch (error) {
      if (isErrorCode(error, 'ENOENT', 'EISDIR', 'ENOTDIR')) return null;
      throw error;
    }
  }

  async open(key: string, range?: ByteRange): Promise<OpenedObject | null> {
    const file = this.fileOf(key);
    const contentType = contentTypeOfKey(key);
    if (contentType === null) return null;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if (isErrorCode(error, 'ENOENT', 'EISDIR', 'ENOTDIR')) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      // The stream closes the handle when it ends or is destroyed; a rename over the file meanwhile
      // does not change what this handle reads.
      const body = range ? handle.createReadStream({ autoClose: true, start: range.start, end: range.end }) : handle.createReadStream({ autoClose: true });
      return { body, contentType, bytes: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<{ bytes: number; contentType: string } | null> {
    const file = this.fileOf(key);
    const contentType = contentTypeOfKey(key);
    if (contentType === null) return null;
    try {
      const info = await fs.stat(file);
      return info.isFile() ? { bytes: info.size, contentType } : null;
    } catch (error) {
      if (isErrorCode(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }

  /** Local files have no link of their own: the API streams them. */
  signedUrl(key: string, _options?: SignedUrlOptions): Promise<string | null> {
    this.fileOf(key);
    return Promise.resolve(null);
  }

  async copy(from: string, to: string): Promise<boolean> {
    this.fileOf(to);
    const object = await this.get(from);
    if (!object) return false;
    // Through `put`: the same content-type check, temporary file, fsync and rename.
    await this.put(to, object.body, object.contentType);
    return true;
  }

  async delete(key: string): Promise<void> {
    const file = this.fileOf(key);
    await fs.rm(file, { force: true });
    // Tidy the folders the key made (`{mediaId}/`), up to but never including the root.
    let folder = path.dirname(file);
    while (folder.startsWith(this.dir + path.sep)) {
      try {
        await fs.rmdir(folder);
      } catch (error) {
        if (isErrorCode(error, 'ENOTEMPTY', 'EEXIST', 'ENOENT')) break;
        throw error;
      }
      folder = path.dirname(folder);
    }
  }
}
