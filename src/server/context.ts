import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataStore, Locker } from '@tus/server';
import type { ApiTokenScope } from '../shared/api-tokens.ts';
import type { Config } from './config.ts';
import type { Database, Db } from './db/index.ts';
import type { SessionUser } from './db/schema/index.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Clock } from './services/clock.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { Storage } from './storage/storage.ts';

/** What createApp needs; tests pass their own (in-memory database, fake clock, outbox mailer). */
export interface AppDeps {
  database: Database;
  mailer: Mailer;
  config: Config;
  logger: Logger;
  clock: Clock;
  /** The durable job queue: mail and other work that happens after the answer (`jobs/queue.ts`). */
  jobs: JobQueue;
  /** Uploaded files (`DATA_DIR/uploads` by default; see `storage/index.ts`). */
  storage: Storage;
  /** The resumable uploads' store (routes/uploads.ts); default the one the configuration names (services/uploads.ts). */
  uploadStore?: DataStore;
  /** The resumable uploads' lock across processes (services/upload-locker.ts; the server makes it); default tus' MemoryLocker (one process). */
  uploadLocker?: Locker;
}

/** Hono context variables set by the middleware. */
export interface AppVariables {
  db: Db;
  deps: AppDeps;
  requestId: string;
  logger: Logger;
  /** The signed-in user, or null. */
  user: SessionUser | null;
  sessionId: string | null;
  /** The session's sign-in or last re-authentication (`recentAuth`), or null without a session. */
  authenticatedAt: Date | null;
  /** The API token of a `/api/v1/` call (`middleware/api-token.ts`); unset on every other call (those never take one). */
  apiToken?: ApiTokenPrincipal;
}

/** What a `/api/v1/` call knows of the token that authenticated it. */
export interface ApiTokenPrincipal {
  id: number;
  scopes: readonly ApiTokenScope[];
  /** The one project it reaches, or null: every project. */
  projectId: number | null;
}

/**
 * What the Node adapter (`getRequestListener`, server.ts) hands the application beside the request:
 * the Node request and response. Absent in `app.request` (the API tests).
 */
export interface AppBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

export interface AppEnv {
  Bindings: AppBindings;
  Variables: AppVariables;
}
