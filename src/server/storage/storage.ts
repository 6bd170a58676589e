/**
 * Where uploaded files live. The server makes every key (`{mediaId}/display.jpg`); keys are never
 * taken from a client. `LocalStorage` keeps files under `DATA_DIR/uploads`; an S3-compatible
 * implementation can follow with the same four calls.
 */
export interface StoredObject {
  body: Uint8Array;
  /** The content type given to `put`. */
  contentType: string;
  /** The body's length in bytes. */
  bytes: number;
}

export interface Storage {
  /** Writes an object whole (readers see the old one or the new one, never a part). */
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes an object; removing one that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Copies an object to another key (same content type; written whole like `put`). False when
   * there is no object at `from` (nothing is written then).
   */
  copy(from: string, to: string): Promise<boolean>;
}

/** A key that breaks the rules (`isValidStorageKey`): a programming error, never user input. */
export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key)}`);
    this.name = 'InvalidStorageKeyError';
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/;

/**
 * Keys are 1 to 8 `/`-separated segments of letters, digits, `_`, `-` and `.`, none starting with
 * a dot (so no `.`, `..` or hidden files), at most 512 characters: safe as a relative path on any
 * file system and as an S3 object key.
 */
export function isValidStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((segment) => SEGMENT.test(segment));
}

/** The content types that storage keys may name through their extension. */
export const CONTENT_TYPES_BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
};

/** The content type a key's extension names, or null. */
export function contentTypeOfKey(key: string): string | null {
  const match = /\.([a-z0-9]+)$/.exec(key);
  return (match && CONTENT_TYPES_BY_EXTENSION[match[1] ?? '']) ?? null;
}
