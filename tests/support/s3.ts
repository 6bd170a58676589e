/**
 * A local S3-protocol server for the tests (`s3rver`): the same S3Storage code that runs against
 * AWS S3, R2 or MinIO talks to it over HTTP, path-style. docs/deploy.md lists what it does not
 * check (signatures among them: s3rver accepts any V4 signature of a known access key).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
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

/** Starts s3rver on a free port of 127.0.0.1 with one empty bucket, in a temporary folder. */
export async function startS3(options: { bucket?: string; prefix?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'fieldwork-test';
  const prefix = options.prefix ?? 'photos/';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] });
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
