import path from 'node:path';
import { z } from 'zod';
import { API_TOKEN_LIMITS } from '../shared/api-tokens.ts';
import { MEDIA_LIMITS } from '../shared/media.ts';
import { WEBHOOK_LIMITS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '../shared/webhooks.ts';

/** A 32-byte key written as 64 hex digits or as base64 (padded or not, standard or URL-safe); null otherwise. */
function aesKeyBytes(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes : null;
}

/** An AES-256-GCM key setting: 32 bytes as 64 hex digits or base64 (optional). */
const aesKeySetting = () =>
  z
    .string()
    .transform((value, ctx) => {
      const bytes = aesKeyBytes(value);
      if (bytes) return bytes;
      ctx.addIssue({ code: 'custom', message: 'must be 32 bytes: 64 hex digits or base64 (openssl rand -base64 32)' });
      return z.NEVER;
    })
    .optional();

/** Every environment variable the server and the CLI read. README.md has the same table (but for the test-only knob). */
const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number (0 to 65535)')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be a port number (0 to 65535)'))
    .default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z.url().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Fieldwork <no-reply@fieldwork.localhost>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MAINTENANCE: z.enum(['0', '1', 'true', 'false', '']).optional(),
  /** How many proxies in front add to X-Forwarded-For (`1`: nginx alone; `true` as `1`); `0`/`false`: none, the socket's peer is the client. */
  TRUST_PROXY: z
    .string()
    .regex(/^(?:\d{1,2}|true|false)$/, 'must be the number of proxies in front (0 to 10), or true / false')
    .transform((value) => (value === 'true' ? 1 : value === 'false' ? 0 : Number(value)))
    .pipe(z.number().max(10, 'must be the number of proxies in front (0 to 10), or true / false'))
    .optional(),
  DIST_DIR: z.string().min(1).default('./dist'),
  SUPPORT_EMAIL: z.email('must be an email address').default('support@fieldwork.localhost'),
  PUBLIC_GA_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'must be a Google Analytics 4 measurement id (G-XXXXXXXXXX)')
    .optional(),
  /** `0`: the API only, no pages (a static host or CDN serves `dist/`; docs/deploy.md). */
  SERVE_STATIC: z.enum(['0', '1', 'true', 'false']).optional(),
  /** How many API processes `npm start` runs on this machine (node:cluster); PostgreSQL only. */
  WEB_CONCURRENCY: z
    .string()
    .regex(/^\d{1,2}$/, 'must be a number of processes (1 to 32)')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a number of processes (1 to 32)').max(32, 'must be a number of processes (1 to 32)'))
    .default(1),
  /** Where photos are kept on disk (MEDIA_STORE=local); default `DATA_DIR/uploads`. */
  MEDIA_DIR: z.string().min(1).optional(),
  /** `local` (files under MEDIA_DIR, the default) or `s3` (an S3-compatible bucket). */
  MEDIA_STORE: z.enum(['local', 's3'], 'must be local or s3').default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)')
    .optional(),
  /** A folder inside the bucket for every key, e.g. `fieldwork/` (optional). */
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_./-]{0,200}$/, 'must be letters, digits and _ . / - (200 at most)')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** R2, MinIO and the like: the endpoint the server talks to (unset: AWS S3 of S3_REGION). */
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be a URL (https://…)' }).optional(),
  /** Where browsers fetch signed photo links from, when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be a URL (https://…)' }).optional(),
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and most stand-ins need; default on with S3_ENDPOINT. */
  S3_FORCE_PATH_STYLE: z.enum(['0', '1', 'true', 'false']).optional(),
  /** `redirect` (a short-lived signed link, the default) or `stream` (the API relays the photo: a store browsers cannot reach). */
  S3_DELIVERY: z.enum(['redirect', 'stream'], 'must be redirect or stream').default('redirect'),
  /** The key of signed photo links (review exports); unset: one made once and kept in the database (`server_secrets`). */
  MEDIA_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** The AES-256-GCM key of second-factor secrets: 32 bytes as 64 hex digits or base64; unset: one made once and kept in the database. */
  SECOND_FACTOR_KEY: aesKeySetting(),
  /** The AES-256-GCM key of delivered rewards' codes and links (issue 30): as SECOND_FACTOR_KEY; unset: one made once and kept in the database. */
  REWARD_DELIVERY_KEY: aesKeySetting(),
  /** The AES-256-GCM key of outgoing webhooks' signing secrets (issue 32): as SECOND_FACTOR_KEY; unset: one made once and kept in the database. */
  WEBHOOK_SECRET_KEY: aesKeySetting(),
  /** The gift-card provider that fulfils `provider` rewards (issue 30 §4): `none` (the default: such rewards cannot be approved) or `tremendous`. */
  REWARDS_PROVIDER: z.enum(['none', 'tremendous'], 'must be none or tremendous').default('none'),
  /** Tremendous: the API key (sandbox or production), sent as a Bearer token; required with REWARDS_PROVIDER=tremendous. */
  TREMENDOUS_API_KEY: z.string().min(8, 'must be a Tremendous API key').optional(),
  /** Tremendous: the API's origin (the sandbox by default); every call goes there and nowhere else. */
  TREMENDOUS_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be a URL (https://…)' }).default('https://testflight.tremendous.com'),
  /** Tremendous: the webhook's private key, which signs each webhook (unset: webhooks are refused and polling alone follows orders). */
  TREMENDOUS_WEBHOOK_SECRET: z.string().min(8, 'must be the webhook private key').optional(),
  /** Tremendous: the funding source orders are paid from (`balance`: the account's balance). */
  TREMENDOUS_FUNDING_SOURCE: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be a funding source id (letters, digits, _ and -)')
    .default('balance'),
  /** `0`: staff need no second factor (development only; default on). */
  REQUIRE_STAFF_SECOND_FACTOR: z.enum(['0', '1', 'true', 'false'], 'must be 0 or 1').optional(),
  /** Staff sessions end this many hours after sign-in, however active (12). */
  STAFF_SESSION_HOURS: z
    .string()
    .regex(/^\d{1,3}$/, 'must be a number of hours (1 to 720)')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a number of hours (1 to 720)').max(720, 'must be a number of hours (1 to 720)'))
    .default(12),
  /** Staff sessions end after this many minutes without a request (60). */
  STAFF_SESSION_IDLE_MINUTES: z
    .string()
    .regex(/^\d{1,5}$/, 'must be a number of minutes (5 to 43200)')
    .transform(Number)
    .pipe(z.number().min(5, 'must be a number of minutes (5 to 43200)').max(43200, 'must be a number of minutes (5 to 43200)'))
    .default(60),
  /** `1`: outgoing webhooks may go to loopback addresses and over http:// (development and tests; never in production). */
  WEBHOOKS_ALLOW_LOOPBACK: z.enum(['0', '1', 'true', 'false'], 'must be 0 or 1').optional(),
  /** Requests an API token may make a minute (600): an agency whose integration reads more raises it. */
  API_TOKEN_RATE_LIMIT: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a number of requests a minute (1 to 1000000)')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a number of requests a minute (1 to 1000000)').max(1_000_000, 'must be a number of requests a minute (1 to 1000000)'))
    .default(API_TOKEN_LIMITS.requestsPerMinute),
  /**
   * Tests only (not an operator setting, so not in README.md): how many milliseconds an upload's
   * body may send nothing before it is cut off with 408, instead of `MEDIA_LIMITS.stallSeconds`.
   * The process tests shorten it so as not to wait 15 real seconds.
   */
  FIELDWORK_TEST_UPLOAD_STALL_MS: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a number of milliseconds')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a number of milliseconds'))
    .optional(),
  /**
   * Tests only (not an operator setting, so not in README.md): how many milliseconds an order may
   * stay `ordering` before `rewards.poll` asks the provider about it, instead of 10 minutes. The
   * process test of a kill between order and record sets 0.
   */
  FIELDWORK_TEST_REWARDS_STALE_MS: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a number of milliseconds')
    .transform(Number)
    .optional(),
  /**
   * Tests only (not an operator setting, so not in README.md): how many milliseconds a webhook
   * delivery may take before it is cut off as "timed out", instead of `WEBHOOK_LIMITS.timeoutMs`
   * (10 s). The process test of a receiver that hangs shortens it so as not to wait 10 real seconds.
   */
  FIELDWORK_TEST_WEBHOOK_TIMEOUT_MS: z
    .string()
    .regex(/^\d{1,6}$/, 'must be a number of milliseconds')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a number of milliseconds'))
    .optional(),
  /**
   * Tests only (not an operator setting, so not in README.md): the webhook retry schedule, seconds
   * separated by commas, in place of `WEBHOOK_RETRY_SCHEDULE_SECONDS` (0, 5 s, 5 min, 30 min…): the
   * n-th the wait after n failed attempts (the first, attempt 1's, is always at once), so `0,1,1`
   * makes three attempts a second apart. The process tests cannot wait 5 real minutes.
   */
  FIELDWORK_TEST_WEBHOOK_RETRY_SECONDS: z
    .string()
    .regex(/^\d{1,6}(,\d{1,6}){0,15}$/, 'must be seconds separated by commas')
    .transform((value) => value.split(',').map(Number))
    .optional(),
});

/** The names of every setting above (the bench starts its servers with none of them inherited). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data folder (embedded database, outbox, uploads). */
  dataDir: string;
  databaseUrl: string | undefined;
  /** The origin users reach the app at; mail links start with it. */
  publicUrl: string;
  /** False when PUBLIC_URL was not given and publicUrl is derived from HOST and PORT. */
  publicUrlExplicit: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** MAINTENANCE=1 at start switches the maintenance flag on. */
  maintenanceAtStart: boolean;
  /**
   * How many proxies in front of the API add to X-Forwarded-For (TRUST_PROXY; 0: none). The client
   * is the entry the nearest one added (that many from the right), and X-Forwarded-Proto is
   * believed when it is above 0.
   */
  trustProxy: number;
  distDir: string;
  /** Where contact-form messages are mailed. */
  supportEmail: string;
  /** Google Analytics 4 measurement id; when set, the page CSP allows Google Analytics. */
  gaId: string | undefined;
  /** The key of signed photo links; undefined: the one kept in the database (`services/media-links.ts`). */
  mediaLinkSecret: string | undefined;
  /** The AES-256-GCM key of second-factor secrets (SECOND_FACTOR_KEY); undefined: the one kept in the database (`services/secret-box.ts`). */
  secondFactorKey: Buffer | undefined;
  /** The AES-256-GCM key of delivered rewards' codes and links (REWARD_DELIVERY_KEY); undefined: the one kept in the database (`services/secret-box.ts`). */
  rewardDeliveryKey: Buffer | undefined;
  /** The AES-256-GCM key of outgoing webhooks' signing secrets (WEBHOOK_SECRET_KEY); undefined: the one kept in the database (`services/secret-box.ts`). */
  webhookSecretKey: Buffer | undefined;
  /** Staff (moderators, admins) must have a second factor to use the admin area (REQUIRE_STAFF_SECOND_FACTOR, default on). */
  requireStaffSecondFactor: boolean;
  /** Staff sessions end this many hours after sign-in (STAFF_SESSION_HOURS, 12; services/sessions.ts). */
  staffSessionHours: number;
  /** …and after this many minutes without a request (STAFF_SESSION_IDLE_MINUTES, 60). */
  staffSessionIdleMinutes: number;
  /** False (SERVE_STATIC=0): the API only; requests outside /api get 404. */
  serveStatic: boolean;
  /** API processes on this machine (WEB_CONCURRENCY; more than one needs DATABASE_URL). */
  webConcurrency: number;
  /** Absolute path of the photos folder (MEDIA_DIR, default `DATA_DIR/uploads`). */
  mediaDir: string;
  mediaStore: 'local' | 's3';
  /** The bucket's settings when MEDIA_STORE=s3. */
  s3: S3Config | undefined;
  /** The gift-card provider (REWARDS_PROVIDER and its settings); null: none, provider rewards cannot be approved. */
  rewardsProvider: RewardsProviderConfig | null;
  /** An order `ordering` this long (ms) is asked about by `rewards.poll` (10 minutes; tests shorten it). */
  rewardsStaleMs: number;
  /** An upload's body sending nothing for this long is cut off with 408 (`MEDIA_LIMITS.stallSeconds`; tests shorten it). */
  uploadStallMs: number;
  /**
   * Outgoing webhooks may reach loopback addresses (127.0.0.0/8, ::1) and use http:// (WEBHOOKS_ALLOW_LOOPBACK=1,
   * default off): development and tests. Every other private or reserved range stays refused (`services/outgoing-http.ts`).
   */
  webhooksAllowLoopback: boolean;
  /** A webhook delivery is cut off as "timed out" after this long (ms; `WEBHOOK_LIMITS.timeoutMs`, 10 s; tests shorten it). */
  webhookTimeoutMs: number;
  /** The webhook retry schedule (seconds; `WEBHOOK_RETRY_SCHEDULE_SECONDS`, the Standard Webhooks one; tests shorten it). */
  webhookRetrySeconds: readonly number[];
  /** Requests an API token may make a minute (API_TOKEN_RATE_LIMIT, default 600; the token suite lowers it on its context's config). */
  apiTokenRateLimit: number;
}

export interface S3Config {
  bucket: string;
  /** '' or a folder ending in '/'. */
  prefix: string;
  region: string;
  endpoint: string | undefined;
  /** The origin browsers are redirected to (signed links); undefined with delivery `stream`. */
  publicEndpoint: string | undefined;
  forcePathStyle: boolean;
  delivery: 'redirect' | 'stream';
}

/** The gift-card provider's settings (docs/deploy.md, "Rewards through Tremendous"). Secrets: never logged. */
export interface RewardsProviderConfig {
  name: 'tremendous';
  apiKey: string;
  /** The API's origin, without a trailing slash (`https://testflight.tremendous.com`). */
  baseUrl: string;
  /** The webhook's private key; undefined: every webhook is refused (401). */
  webhookSecret: string | undefined;
  fundingSource: string;
}

/** How long an order may stay `ordering` before the periodic check asks the provider about it. */
export const REWARDS_STALE_MS = 10 * 60 * 1000;

export class ConfigError extends Error {}

const truthy = (value: string | undefined): boolean => value === '1' || value === 'true';

/** Reads the configuration from an environment; throws ConfigError with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Blank values count as unset; surrounding spaces are typing accidents.
  const blankless = Object.fromEntries(Object.entries(env).flatMap(([k, v]) => (v === undefined || v.trim() === '' ? [] : [[k, v.trim()]])));
  const parsed = envSchema.safeParse(blankless);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.MEDIA_STORE === 's3' && !e.S3_BUCKET) problems.push('S3_BUCKET: must be set when MEDIA_STORE=s3');
  if (e.WEB_CONCURRENCY > 1 && !e.DATABASE_URL)
    problems.push(
      `WEB_CONCURRENCY: the embedded database runs in one process only; set DATABASE_URL (PostgreSQL) to run ${e.WEB_CONCURRENCY} processes, or leave WEB_CONCURRENCY unset`,
    );
  if (e.REWARDS_PROVIDER === 'tremendous' && !e.TREMENDOUS_API_KEY) problems.push('TREMENDOUS_API_KEY: must be set when REWARDS_PROVIDER=tremendous');
  if (problems.length > 0) throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  const prefix = (e.S3_PREFIX ?? '').replace(/^\/+/, '');
  const shownHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlExplicit: e.PUBLIC_URL !== undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    maintenanceAtStart: truthy(e.MAINTENANCE),
    trustProxy: e.TRUST_PROXY ?? 0,
    distDir: path.resolve(e.DIST_DIR),
    supportEmail: e.SUPPORT_EMAIL,
    gaId: e.PUBLIC_GA_ID,
    mediaLinkSecret: e.MEDIA_LINK_SECRET,
    secondFactorKey: e.SECOND_FACTOR_KEY,
    rewardDeliveryKey: e.REWARD_DELIVERY_KEY,
    webhookSecretKey: e.WEBHOOK_SECRET_KEY,
    requireStaffSecondFactor: e.REQUIRE_STAFF_SECOND_FACTOR === undefined || truthy(e.REQUIRE_STAFF_SECOND_FACTOR),
    staffSessionHours: e.STAFF_SESSION_HOURS,
    staffSessionIdleMinutes: e.STAFF_SESSION_IDLE_MINUTES,
    serveStatic: e.SERVE_STATIC === undefined || truthy(e.SERVE_STATIC),
    webConcurrency: e.WEB_CONCURRENCY,
    mediaDir: path.resolve(e.MEDIA_DIR ?? path.join(e.DATA_DIR, 'uploads')),
    mediaStore: e.MEDIA_STORE,
    s3:
      e.MEDIA_STORE === 's3' && e.S3_BUCKET
        ? {
            bucket: e.S3_BUCKET,
            prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
            publicEndpoint:
              e.S3_DELIVERY === 'stream' ? undefined : (e.S3_PUBLIC_ENDPOINT ?? e.S3_ENDPOINT ?? `https://s3.${e.S3_REGION}.amazonaws.com`).replace(/\/+$/, ''),
            forcePathStyle: e.S3_FORCE_PATH_STYLE === undefined ? e.S3_ENDPOINT !== undefined : truthy(e.S3_FORCE_PATH_STYLE),
            delivery: e.S3_DELIVERY,
          }
        : undefined,
    rewardsProvider:
      e.REWARDS_PROVIDER === 'tremendous' && e.TREMENDOUS_API_KEY
        ? {
            name: 'tremendous',
            apiKey: e.TREMENDOUS_API_KEY,
            baseUrl: e.TREMENDOUS_BASE_URL.replace(/\/+$/, ''),
            webhookSecret: e.TREMENDOUS_WEBHOOK_SECRET,
            fundingSource: e.TREMENDOUS_FUNDING_SOURCE,
          }
        : null,
    rewardsStaleMs: e.FIELDWORK_TEST_REWARDS_STALE_MS ?? REWARDS_STALE_MS,
    uploadStallMs: e.FIELDWORK_TEST_UPLOAD_STALL_MS ?? MEDIA_LIMITS.stallSeconds * 1000,
    webhooksAllowLoopback: truthy(e.WEBHOOKS_ALLOW_LOOPBACK),
    webhookTimeoutMs: e.FIELDWORK_TEST_WEBHOOK_TIMEOUT_MS ?? WEBHOOK_LIMITS.timeoutMs,
    webhookRetrySeconds: e.FIELDWORK_TEST_WEBHOOK_RETRY_SECONDS ?? WEBHOOK_RETRY_SCHEDULE_SECONDS,
    apiTokenRateLimit: e.API_TOKEN_RATE_LIMIT,
  };
}
