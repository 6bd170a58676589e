import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type GetObjectCommandOutput,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.ts';
import {
  type ByteRange,
  contentTypeOfKey,
  InvalidStorageKeyError,
  isValidStorageKey,
  StorageUnavailableError,
  type OpenedObject,
  type SignedUrlOptions,
  type Storage,
  type StoredObject,
} from './storage.ts';

/** Every object is written once for its key and never changes (keys name the media id). */
export const OBJECT_CACHE_CONTROL = 'private, max-age=31536000, immutable';

export type S3Credentials = S3ClientConfig['credentials'];

/** Connections to the store at once, per process (each streamed photo or ZIP holds one while read). */
const MAX_SOCKETS = 256;

export interface S3StorageOptions {
  /** Unset: the SDK's usual chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance roles…). */
  credentials?: S3Credentials;
}

/**
 * The access key of an environment when it names one (`AWS_ACCESS_KEY_ID` and
 * `AWS_SECRET_ACCESS_KEY`, with `AWS_SESSION_TOKEN` if set), else undefined: the SDK's own chain
 * then. For callers handed an environment other than `process.env` (the CLI's `runCli`).
 */
export function s3CredentialsFromEnv(env: NodeJS.ProcessEnv): S3Credentials {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
}

/** The default AWS endpoint of a region, as `loadConfig` names it when S3_ENDPOINT is unset. */
const awsEndpoint = (region: string) => `https://s3.${region}.amazonaws.com`;

/**
 * Whether the SDK puts a bucket in the host name (`bucket.endpoint`) rather than the path: names
 * of lower-case letters, digits and hyphens only (a dot would break the TLS certificate's match).
 */
const virtualHostable = (bucket: string) => /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket);

/**
 * The origin (`scheme://host[:port]`) signed photo links point at, which pages must allow as an
 * image source: null when photos are not redirected to (local disk, or S3_DELIVERY=stream). It
 * follows the SDK's addressing: path style (`S3_FORCE_PATH_STYLE`, or a bucket name with a dot)
 * keeps the endpoint's host; otherwise the bucket comes first (`https://bucket.s3.region.amazonaws.com`).
 */
export function s3RedirectOrigin(s3: S3Config | undefined): string | null {
  if (!s3 || s3.delivery !== 'redirect' || !s3.publicEndpoint) return null;
  const url = new URL(s3.publicEndpoint);
  if (s3.forcePathStyle || !virtualHostable(s3.bucket)) return url.origin;
  return `${url.protocol}//${s3.bucket}.${url.host}`;
}

const errorName = (error: unknown): string => (error instanceof Error ? error.name : '');

/** A missing object (GetObject's `NoSuchKey`, HeadObject's bodiless 404 `NotFound`). */
const isMissing = (error: unknown): boolean => ['NoSuchKey', 'NotFound'].includes(errorName(error));

/**
 * Objects in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO…), one per key under
 * `S3_PREFIX`. Each `put` is one PutObject (the body is a processed photo of a few hundred KB,
 * already in memory), which S3 makes visible whole or not at all; reads stream the object's body.
 * Any failure but a missing object becomes `StorageUnavailableError` (the API's 503).
 */
export class S3Storage implements Storage {
  readonly bucket: string;
  readonly prefix: string;
  readonly client: S3Client;
  /** Signs browser links with the public endpoint; null with S3_DELIVERY=stream. */
  private readonly presigner: S3Client | null;

  constructor(config: S3Config, options: S3StorageOptions = {}) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    const common: S3ClientConfig = {
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 asks for them: the newer defaults (a CRC on every upload, a
      // checksum-mode parameter on every signed link) are not understood by every S3-compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer fails the request (503) instead of holding it. Streamed photos
      // hold a connection each while a slow client reads: more than the SDK's default 50.
      requestHandler: {
        connectionTimeout: 5_000,
        requestTimeout: 30_000,
        httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
        httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS },
      },
    };
    this.client = new S3Client({ ...common, ...(config.endpoint ? { endpoint: config.endpoint } : {}) });
    const serverEndpoint = config.endpoint ?? awsEndpoint(config.region);
    if (config.delivery !== 'redirect' || !config.publicEndpoint) this.presigner = null;
    else if (config.publicEndpoint === serverEndpoint) this.presigner = this.client;
    else this.presigner = new S3Client({ ...common, endpoint: config.publicEndpoint });
  }

  /** The object key of a storage key (`S3_PREFIX` + key), after checking the key. */
  private objectKey(key: string): string {
    if (!isValidStorageKey(key)) throw new InvalidStorageKeyError(key);
    return this.prefix + key;
  }

  private unavailable(action: string, key: string, error: unknown): StorageUnavailableError {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new StorageUnavailableError(`S3 ${action} of ${JSON.stringify(this.prefix + key)} in bucket ${this.bucket} failed (${detail})`, { cause: error });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.putObject(key, body, body.byteLength, contentType);
  }

  /**
   * Writes an object from a stream of known length (one PutObject, sent as it is read: the file
   * is never whole in memory). For copying files in (`media:migrate`).
   */
  async putStream(key: string, body: Readable, bytes: number, contentType: string): Promise<void> {
    try {
      await this.putObject(key, body, bytes, contentType);
    } finally {
      body.destroy();
    }
  }

  /**
   * Writes an object from a file on disk (a processed video): one PutObject of the file's length,
   * streamed as it is read. S3 takes up to 5 GB in one PutObject; videos are at most 1 GB.
   */
  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const { size } = await stat(file);
    await this.putStream(key, createReadStream(file), size, contentType);
  }

  /** One PutObject, after checking the key names the content type (as LocalStorage does). */
  private async putObject(key: string, body: Uint8Array | Readable, bytes: number, contentType: string): Promise<void> {
    const objectKey = this.objectKey(key);
    const expected = contentTypeOfKey(key);
    if (expected === null || expected !== contentType) {
      throw new Error(`S3Storage: key ${JSON.stringify(key)} does not name the content type ${contentType}`);
    }
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Body: body,
          ContentLength: bytes,
          ContentType: contentType,
          CacheControl: OBJECT_CACHE_CONTROL,
        }),
      );
    } catch (error) {
      throw this.unavailable('upload', key, error);
    }
  }

  /** The GetObject answer (of `range` only, when given), or null for a missing object. */
  private async getObject(key: string, range?: ByteRange): Promise<GetObjectCommandOutput | null> {
    const objectKey = this.objectKey(key);
    if (contentTypeOfKey(key) === null) return null;
    try {
      return await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: objectKey, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.unavailable('read', key, error);
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    const object = await this.getObject(key);
    if (!object?.Body) return null;
    try {
      const body = await object.Body.transformToByteArray();
      return { body, contentType: contentTypeOfKey(key) ?? '', bytes: body.byteLength };
    } catch (error) {
      throw this.unavailable('read', key, error);
    }
  }

  async open(key: string, range?: ByteRange): Promise<OpenedObject | null> {
    const object = await this.getObject(key, range);
    if (!object?.Body) return null;
    const body =
      object.Body instanceof Readable
        ? object.Body
        : Readable.fromWeb(object.Body.transformToWebStream() as import('node:stream/web').ReadableStream<Uint8Array>);
    // A ranged answer's length is the range's; the whole object's is in Content-Range (`bytes 0-99/1234`).
    const bytes = range ? Number(/\/(\d+)$/.exec(object.ContentRange ?? '')?.[1] ?? Number.NaN) : object.ContentLength;
    if (bytes === undefined || Number.isNaN(bytes)) {
      body.destroy();
      throw this.unavailable('read', key, new Error('no Content-Length'));
    }
    // The type the key names, as with local files (what was put; never what a store says).
    return { body, contentType: contentTypeOfKey(key) ?? '', bytes };
  }

  async stat(key: string): Promise<{ bytes: number; contentType: string } | null> {
    const objectKey = this.objectKey(key);
    const contentType = contentTypeOfKey(key);
    if (contentType === null) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return { bytes: head.ContentLength ?? 0, contentType };
    } catch (error) {
      if (isMissing(error)) return null;
      throw this.unavailable('look-up', key, error);
    }
  }

  async copy(from: string, to: string): Promise<boolean> {
    const source = this.objectKey(from);
    const target = this.objectKey(to);
    if (contentTypeOfKey(from) === null || contentTypeOfKey(from) !== contentTypeOfKey(to)) {
      throw new Error(`S3Storage: cannot copy ${JSON.stringify(from)} to ${JSON.stringify(to)}: the keys name different content types`);
    }
    try {
      // Inside the store (no bytes through the server); the type and Cache-Control go with it.
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: target,
          CopySource: `${this.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw this.unavailable('copy', from, error);
    }
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    try {
      // S3 answers 204 for a key that is not there too.
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    } catch (error) {
      if (isMissing(error)) return;
      throw this.unavailable('delete', key, error);
    }
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string | null> {
    const objectKey = this.objectKey(key);
    if (!this.presigner) return null;
    const contentType = contentTypeOfKey(key);
    try {
      return await getSignedUrl(
        this.presigner,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          ...(contentType ? { ResponseContentType: contentType } : {}),
          ...(options.contentDisposition ? { ResponseContentDisposition: options.contentDisposition } : {}),
          ...(options.cacheControl ? { ResponseCacheControl: options.cacheControl } : {}),
        }),
        { expiresIn: options.expiresInSeconds, signingDate: options.signedAt },
      );
    } catch (error) {
      // Signing needs no network, only credentials: none found is a store the server cannot use.
      throw this.unavailable('link signing', key, error);
    }
  }
}
