import type { Readable } from 'node:stream';

/**
 * Where uploaded files live. The server makes every key (`{mediaId}/display.jpg`); keys are never
 * taken from a client. `LocalStorage` keeps files under MEDIA_DIR (default `DATA_DIR/uploads`);
 * `S3Storage` keeps them in an S3-compatible bucket (MEDIA_STORE=s3, docs/deploy.md).
 */
export interface StoredObject {
  body: Uint8Array;
  /** The content type given to `put`. */
  contentType: string;
  /** The body's length in bytes. */
  bytes: number;
}

/** An object being read: its bytes as a stream (nothing held whole in memory). */
export interface OpenedObject {
  /** Read it to the end or destroy it: an unread S3 body holds a connection. */
  body: Readable;
  contentType: string;
  bytes: number;
}

/** Bytes `start` to `end` of an object, both included (an HTTP byte range, already checked against its length). */
export interface ByteRange {
  start: number;
  end: number;
}

/** What `signedUrl` signs. */
export interface SignedUrlOptions {
  /** The moment the link is signed at (a rounded time gives the same link for a while). */
  signedAt: Date;
  /** How long the link works, from `signedAt`. */
  expiresInSeconds: number;
  /** The `Content-Disposition` the store answers with. */
  contentDisposition?: string;
  /** The `Cache-Control` the store answers with. */
  cacheControl?: string;
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
  /**
   * The object as a stream with its type and length, or null when there is none. With `range`,
   * the stream holds only those bytes (`bytes` is still the whole object's length): videos are
   * played with HTTP byte ranges.
   */
  open(key: string, range?: ByteRange): Promise<OpenedObject | null>;
  /**
   * Writes an object from a file on disk, streamed (a processed video can be hundreds of MB: it
   * is never whole in memory). Readers see the old object or the new one, never a part.
   */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** The object's length and type without reading it, or null when there is none. */
  stat(key: string): Promise<{ bytes: number; contentType: string } | null>;
  /**
   * A link a browser can fetch the object from without a session (a signed, short-lived URL), or
   * null when this store has none (local disk; S3 with `S3_DELIVERY=stream`): the API streams the
   * bytes then. The link is signed whether or not the object exists.
   */
  signedUrl(key: string, options: SignedUrlOptions): Promise<string | null>;
}

/**
 * The store could not be reached or refused the server (network down, a timeout, bad
 * credentials): not the caller's fault; the API answers 503 `storage_unavailable`.
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageUnavailableError';
  }
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
  mp4: 'video/mp4',
};

/** The content type a key's extension names, or null. */
export function contentTypeOfKey(key: string): string | null {
  const match = /\.([a-z0-9]+)$/.exec(key);
  return (match && CONTENT_TYPES_BY_EXTENSION[match[1] ?? '']) ?? null;
}
