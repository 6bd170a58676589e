import path from 'node:path';
import { z } from 'zod';
import { MEDIA_LIMITS } from '../shared/media.ts';

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
  TRUST_PROXY: z.enum(['0', '1', 'true', 'false', '']).optional(),
  DIST_DIR: z.string().min(1).default('./dist'),
  SUPPORT_EMAIL: z.email('must be an email address').default('support@fieldwork.localhost'),
  PUBLIC_GA_ID: z
    .string()
    .regex(/^G-[A-Z0-9]{4,20}$/, 'must be a Google Analytics 4 measurement id (G-XXXXXXXXXX)')
    .optional(),
  /** The key of signed photo links (review exports); unset: one made once and kept in the database (`server_secrets`). */
  MEDIA_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
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
});

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
  /** Believe X-Forwarded-For / X-Forwarded-Proto (behind a reverse proxy). */
  trustProxy: boolean;
  distDir: string;
  /** Where contact-form messages are mailed. */
  supportEmail: string;
  /** Google Analytics 4 measurement id; when set, the page CSP allows Google Analytics. */
  gaId: string | undefined;
  /** The key of signed photo links; undefined: the one kept in the database (`services/media-links.ts`). */
  mediaLinkSecret: string | undefined;
  /** An upload's body sending nothing for this long is cut off with 408 (`MEDIA_LIMITS.stallSeconds`; tests shorten it). */
  uploadStallMs: number;
}

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
    trustProxy: truthy(e.TRUST_PROXY),
    distDir: path.resolve(e.DIST_DIR),
    supportEmail: e.SUPPORT_EMAIL,
    gaId: e.PUBLIC_GA_ID,
    mediaLinkSecret: e.MEDIA_LINK_SECRET,
    uploadStallMs: e.FIELDWORK_TEST_UPLOAD_STALL_MS ?? MEDIA_LIMITS.stallSeconds * 1000,
  };
}
