/** The part of s3rver (v3, no types of its own) the tests use: tests/support/s3.ts. */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  /** The part of Koa's context a middleware of tests/support/s3.ts uses (s3rver is a Koa app). */
  export interface S3rverContext {
    method: string;
    /** The path as sent (not decoded). */
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    /** A plain object is written as XML by s3rver (`{ Root: { Child: value, Repeated: [..] } }`). */
    body: unknown;
    get(header: string): string;
  }

  export type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list: s3rver's router (every S3 operation) is the last one. */
    middleware: S3rverMiddleware[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
