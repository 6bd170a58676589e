/**
 * A local S3-protocol server for the tests (`s3rver`): the same S3Storage code that runs against
 * AWS S3, R2 or MinIO talks to it over HTTP, path-style. docs/deploy.md lists what it does not
 * check (signatures among them: s3rver accepts any V4 signature of a known access key).
 *
 * s3rver 3.7 speaks objects (Put, Get, Head, Copy, Delete, DeleteObjects, ListObjects) and three
 * multipart calls (CreateMultipartUpload, UploadPart, CompleteMultipartUpload). What tus' S3 store
 * (`@tus/s3-store`, resumable uploads) needs beyond them is added here by `multipartLayer`, a Koa
 * middleware placed before s3rver's router that answers from s3rver's own files, as the S3 API
 * reference describes them:
 * - ListParts (`GET /{bucket}/{key}?uploadId=`, `max-parts`, `part-number-marker`),
 * - AbortMultipartUpload (`DELETE /{bucket}/{key}?uploadId=`: 204, the parts gone),
 * - ListMultipartUploads (`GET /{bucket}?uploads`, `prefix`, `key-marker`, `upload-id-marker`,
 *   `max-uploads`; no `delimiter`),
 * - NoSuchUpload (404) for any call naming an upload that does not exist (never made, completed or
 *   aborted) or is another key's; s3rver would make its folder again or answer 500,
 * - EntityTooSmall (400) on CompleteMultipartUpload when a part other than the last one uploaded
 *   is under 5 MiB, as S3 refuses it (s3rver would join any parts).
 * These calls need the known access key (s3rver checks no more of a V4 signature either).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver, { type S3rverContext, type S3rverMiddleware } from 's3rver';
import type { S3Credentials } from '../../src/server/storage/index.ts';

/** s3rver's built-in account: any other access key is refused. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The S3_PREFIX the env names (every key of the app is under it). */
  prefix: string;
  credentials: NonNullable<S3Credentials>;
  /** MEDIA_STORE=s3 and the S3_* variables (delivery left to the caller), plus the access key as AWS_* variables. */
  env: Record<string, string>;
  /** A client of the bucket, to look behind the app's back. */
  client: S3Client;
  /** The app's keys (prefix removed) under `under`, sorted. */
  keys(under?: string): Promise<string[]>;
  /** Removes the object of an app key. */
  remove(key: string): Promise<void>;
  /** Stops the server and removes its folder (a second call does nothing). */
  stop(): Promise<void>;
}

/** S3's smallest part of a multipart upload but the last (5 MiB). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;

const PAGE_MAX = 1000;

function s3Error(ctx: S3rverContext, status: number, code: string, message: string, detail: Record<string, string> = {}): void {
  ctx.status = status;
  ctx.body = { Error: { Code: code, Message: message, ...detail } };
}

/** A count query parameter (`max-parts`…): its value within 0..1000, `PAGE_MAX` when absent. */
function pageSize(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : PAGE_MAX;
  return Math.min(n, PAGE_MAX);
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The multipart calls s3rver lacks (see the top of the file), from s3rver's own files: an upload is
 * the folder `{directory}/{bucket}/._S3rver_uploads/{uploadId}` holding `key` (its object key), one
 * file per part (`1`, `2`…, each with `{n}.md5`), and is gone once completed.
 */
function multipartLayer(directory: string): S3rverMiddleware {
  return async (ctx, next) => {
    const [bucket = '', ...rest] = ctx.path.split('/').slice(1);
    const key = rest.map((segment) => decodeURIComponent(segment)).join('/');
    const uploadId = ctx.query.uploadId;
    const listUploads = ctx.method === 'GET' && key === '' && 'uploads' in ctx.query;
    if (uploadId === undefined && !listUploads) return next();
    const accessKey = /Credential=([^/,\s]+)\//.exec(ctx.get('authorization'))?.[1];
    if (accessKey !== S3RVER_CREDENTIALS.accessKeyId)
      return s3Error(ctx, 403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    const uploads = path.join(directory, bucket, '._S3rver_uploads');

    if (listUploads) {
      const prefix = text(ctx.query.prefix);
      const keyMarker = text(ctx.query['key-marker']);
      const idMarker = text(ctx.query['upload-id-marker']);
      const found: { Key: string; UploadId: string; Initiated: string }[] = [];
      for (const id of await fs.promises.readdir(uploads).catch(() => [])) {
        const keyFile = path.join(uploads, id, 'key');
        const [owner, stat] = await Promise.all([fs.promises.readFile(keyFile, 'utf8').catch(() => null), fs.promises.stat(keyFile).catch(() => null)]);
        if (owner === null || !stat || !owner.startsWith(prefix)) continue;
        if (keyMarker && (owner < keyMarker || (owner === keyMarker && (!idMarker || id <= idMarker)))) continue;
        found.push({ Key: owner, UploadId: id, Initiated: stat.mtime.toISOString() });
      }
      found.sort((a, b) => (a.Key === b.Key ? (a.UploadId < b.UploadId ? -1 : 1) : a.Key < b.Key ? -1 : 1));
      const max = pageSize(ctx.query['max-uploads']);
      const page = found.slice(0, max);
      const last = page.at(-1);
      const truncated = found.length > page.length;
      ctx.body = {
        ListMultipartUploadsResult: {
          Bucket: bucket,
          KeyMarker: keyMarker,
          UploadIdMarker: idMarker,
          ...(truncated && last ? { NextKeyMarker: last.Key, NextUploadIdMarker: last.UploadId } : {}),
          Prefix: prefix,
          MaxUploads: max,
          IsTruncated: truncated,
          Upload: page.map((upload) => ({ ...upload, StorageClass: 'STANDARD' })),
        },
      };
      return;
    }

    const id = text(uploadId);
    const folder = path.join(uploads, id);
    const owner = /^[0-9a-f]{32}$/.test(id) ? await fs.promises.readFile(path.join(folder, 'key'), 'utf8').catch(() => null) : null;
    if (owner !== key)
      return s3Error(
        ctx,
        404,
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
        { UploadId: id },
      );
    const parts = async () => {
      const numbers = (await fs.promises.readdir(folder)).filter((name) => /^\d+$/.test(name)).map(Number);
      return Promise.all(
        numbers
          .sort((a, b) => a - b)
          .map(async (n) => {
            const [stat, md5] = await Promise.all([
              fs.promises.stat(path.join(folder, String(n))),
              fs.promises.readFile(path.join(folder, `${n}.md5`), 'utf8'),
            ]);
            return { PartNumber: n, LastModified: stat.mtime.toISOString(), ETag: JSON.stringify(md5.trim()), Size: stat.size };
          }),
      );
    };

    if (ctx.method === 'GET') {
      const marker = Number(text(ctx.query['part-number-marker']) || 0);
      const after = (await parts()).filter((part) => part.PartNumber > marker);
      const max = pageSize(ctx.query['max-parts']);
      const page = after.slice(0, max);
      const truncated = after.length > page.length;
      ctx.body = {
        ListPartsResult: {
          Bucket: bucket,
          Key: key,
          UploadId: id,
          PartNumberMarker: marker,
          ...(truncated ? { NextPartNumberMarker: page.at(-1)?.PartNumber ?? marker } : {}),
          MaxParts: max,
          IsTruncated: truncated,
          StorageClass: 'STANDARD',
          Part: page,
        },
      };
      return;
    }
    if (ctx.method === 'DELETE') {
      await fs.promises.rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    if (ctx.method === 'POST') {
      const all = await parts();
      const small = all.slice(0, -1).find((part) => part.Size < S3_MIN_PART_BYTES);
      if (small)
        return s3Error(ctx, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', {
          ProposedSize: String(small.Size),
          MinSizeAllowed: String(S3_MIN_PART_BYTES),
          PartNumber: String(small.PartNumber),
        });
    }
    return next();
  };
}

/** Starts s3rver on a free port of 127.0.0.1 with one empty bucket, in a temporary folder. */
export async function startS3(options: { bucket?: string; prefix?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'fieldwork-test';
  const prefix = options.prefix ?? 'photos/';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
  // Before s3rver's router (the last middleware), after its XML writer.
  server.middleware.splice(server.middleware.length - 1, 0, multipartLayer(directory));
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  let stopped = false;
  return {
    endpoint,
    bucket,
    prefix,
    credentials: { ...S3RVER_CREDENTIALS },
    env: {
      MEDIA_STORE: 's3',
      S3_BUCKET: bucket,
      S3_PREFIX: prefix,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    client,
    async keys(under = '') {
      const found: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix + under, ContinuationToken: token }));
        for (const object of page.Contents ?? []) if (object.Key) found.push(object.Key.slice(prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort();
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + key }));
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
