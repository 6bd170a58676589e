/**
 * The operator CLI: `npm run cli -- <command>`. It works whether or not the server runs on the
 * same DATA_DIR / DATABASE_URL: while the server holds the embedded database it reaches it
 * through the server's socket (docs/decisions/002-embedded-database-sharing.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { FLAG_KEY_PATTERN, KNOWN_FLAGS, isTruthyFlag, parseFlagValue } from '../shared/flags.ts';
import { ROLES } from '../shared/roles.ts';
import { emailSchema, nameSchema, passwordSchema, roleSchema } from '../shared/schemas/common.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { openDatabase, type Database } from './db/index.ts';
import { DataDirLockedError, acquireLock, readLock, type HeldLock } from './db/lock.ts';
import { JobQueue, type JobConnection } from './jobs/queue.ts';
import { NginxConfigError, nginxConfig, parseApiList } from './deploy-nginx.ts';
import { createLogger } from './logger.ts';
import { runWithServerNodeFlags } from './node-flags.ts';
import { pageCspOptions } from './page-csp.ts';
import { audit } from './services/audit.ts';
import { BackupError, megabytes, writeBackup } from './services/backup.ts';
import { systemClock } from './services/clock.ts';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './services/common-passwords.ts';
import { getFlag, listFlags, setFlag, unsetFlag } from './services/flags.ts';
import { InvitationError, inviteUser } from './services/invitations.ts';
import { runMediaMigrate } from './services/media-migrate.ts';
import { RestoreRefusedError, restoreBackup } from './services/restore.ts';
import { UserExistsError, createActiveUser } from './services/users.ts';

export const HELP = `Fieldwork operator CLI

Usage: npm run cli -- <command> [options]

Commands:
  user:create --email E --password P --role participant|moderator|admin --first-name F --last-name L
                          Create an active account that can sign in at once.
  user:invite --email E [--role participant|moderator|admin]
                          Queue a mail with an onboarding link (valid 7 days) and print the link.
                          Role defaults to participant. The server sends the mail.
  flag:set KEY VALUE      Set a feature flag. VALUE is JSON when it parses (true, 3, {"a":1}), else text.
  flag:unset KEY          Remove a feature flag.
  flag:list               List every feature flag.
  maintenance on|off      Send every page to /maintenance, or bring the site back.
  media:migrate --to s3   Copy every photo from MEDIA_DIR to the bucket of the S3_* variables (resumable;
                          a second run copies nothing). Switches nothing: set MEDIA_STORE=s3 afterwards.
  backup FILE             Write the database (read in one snapshot) and MEDIA_DIR's photos to FILE, a new tar
                          file, while the server runs or not. See docs/deploy.md, "Backups".
  restore FILE            Restore a backup into an empty DATA_DIR or an empty database (DATABASE_URL) and bring
                          its schema up to date. Refused where there is data already.
  deploy:nginx --api HOST:PORT[,HOST:PORT…] --listen HOST:PORT [--root DIR]
                          Print an nginx configuration (to include inside http {}) serving the built
                          site from DIR (default DIST_DIR) and proxying /api/ to the API processes.
  --help                  Show this help.

It uses the same DATA_DIR / DATABASE_URL as the server, running or not.
Passwords need 8 to 128 characters with a digit, a lower-case letter, an upper-case letter and a special character.`;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** A mistake in how the CLI was called: the message says what to do; exit code 2. */
export class UsageError extends Error {}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

type ParsedValues = Record<string, string | boolean | undefined>;

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>, positionals: number): { values: ParsedValues; positionals: string[] } {
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (parsed.positionals.length !== positionals) {
      throw new UsageError(`Expected ${positionals} argument${positionals === 1 ? '' : 's'}, got ${parsed.positionals.length}. See --help.`);
    }
    return { values: parsed.values as ParsedValues, positionals: parsed.positionals };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${(error as Error).message}. See --help.`);
  }
}

/** Validates option values with the shared schemas, naming every bad option. */
function validate<T extends z.ZodRawShape>(shape: T, values: Record<string, unknown>, names: Record<keyof T & string, string>): z.infer<z.ZodObject<T>> {
  const result = z.object(shape).safeParse(values);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0]);
    return `  ${names[key as keyof T & string] ?? key}: ${issue.message}`;
  });
  throw new UsageError(`Invalid input:\n${[...new Set(problems)].join('\n')}`);
}

interface Connection {
  database: Database;
  /** Where the job queue connects (PostgreSQL and the server's socket; none for PGlite opened here). */
  jobConnection?: JobConnection;
  /** The running server's public URL, when the CLI reached the database through it. */
  serverUrl?: string;
  /** How the database was reached: PostgreSQL, the running server's socket, or PGlite opened here. */
  via: 'postgresql' | 'embedded-server' | 'embedded';
  close(): Promise<void>;
}

/** Opens the database the server uses: PostgreSQL, the running server's socket, or PGlite directly. */
async function connect(config: Config): Promise<Connection> {
  if (config.databaseUrl) {
    const database = await openDatabase({ kind: 'postgres', connection: config.databaseUrl, poolSize: 1 });
    return { database, jobConnection: config.databaseUrl, via: 'postgresql', close: () => database.close() };
  }
  const deadline = Date.now() + 15_000;
  for (;;) {
    const holder = readLock(config.dataDir);
    if (holder?.socket) {
      const socket = { host: holder.socket.host, port: holder.socket.port, user: 'postgres', database: 'postgres' };
      const database = await openDatabase({ kind: 'postgres', connection: socket, poolSize: 1 }, { migrate: false });
      return {
        database,
        jobConnection: socket,
        via: 'embedded-server',
        ...(holder.publicUrl ? { serverUrl: holder.publicUrl } : {}),
        close: () => database.close(),
      };
    }
    if (!holder) {
      let lock: HeldLock;
      try {
        lock = acquireLock(config.dataDir, 'cli');
      } catch (error) {
        if (error instanceof DataDirLockedError) continue; // Taken meanwhile: look again.
        throw error;
      }
      try {
        const database = await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
        return {
          database,
          via: 'embedded',
          close: async () => {
            await database.close();
            lock.release();
          },
        };
      } catch (error) {
        lock.release();
        throw error;
      }
    }
    // The holder is starting up (no socket yet) or is another CLI command: wait for it.
    if (Date.now() > deadline) throw new DataDirLockedError(config.dataDir, holder);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs one CLI command; returns the exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    io.out(HELP);
    return command ? 0 : 2;
  }
  let connection: Connection | undefined;
  try {
    const config = loadConfig(env);
    const logger = createLogger(env.LOG_LEVEL ?? 'warn', process.stderr);
    const open = async () => {
      connection = await connect(config);
      return connection.database.db;
    };

    switch (command) {
      case 'user:create': {
        const { values } = parse(
          rest,
          {
            email: { type: 'string' },
            password: { type: 'string' },
            role: { type: 'string' },
            'first-name': { type: 'string' },
            'last-name': { type: 'string' },
          },
          0,
        );
        const input = validate(
          {
            email: emailSchema,
            // The product's rules, and none of the most common passwords (as every place a password is chosen).
            password: passwordSchema.refine((password) => !isCommonPassword(password), COMMON_PASSWORD_MESSAGE),
            role: roleSchema,
            firstName: nameSchema,
            lastName: nameSchema,
          },
          { email: values.email, password: values.password, role: values.role, firstName: values['first-name'], lastName: values['last-name'] },
          { email: '--email', password: '--password', role: `--role (one of ${ROLES.join(', ')})`, firstName: '--first-name', lastName: '--last-name' },
        );
        const db = await open();
        const user = await createActiveUser(db, input);
        await audit(db, { via: 'cli', action: 'user.create', targetType: 'user', targetId: user.id, after: { email: user.email, role: user.role } });
        io.out(`Created ${user.role} ${user.firstName} ${user.lastName} <${user.email}> (id ${user.id}). They can sign in now.`);
        return 0;
      }
      case 'user:invite': {
        const { values } = parse(rest, { email: { type: 'string' }, role: { type: 'string' } }, 0);
        const input = validate(
          { email: emailSchema, role: roleSchema },
          { email: values.email, role: values.role ?? 'participant' },
          { email: '--email', role: `--role (one of ${ROLES.join(', ')})` },
        );
        const db = await open();
        if (!connection) throw new Error('no database connection');
        // The CLI only queues the mail (`mail.send`); the server's workers send it, at once while it
        // runs, else when it next starts.
        const jobs = new JobQueue({ database: connection.database, connection: connection.jobConnection, logger, mode: 'producer' });
        await jobs.start();
        try {
          const outboxDir = config.smtpUrl ? null : path.join(config.dataDir, 'outbox');
          const result = await inviteUser(
            // Links point where the running server answers unless PUBLIC_URL says otherwise.
            {
              db,
              clock: systemClock,
              mailer: jobs.queuedMailer(outboxDir),
              publicUrl: config.publicUrlExplicit ? config.publicUrl : (connection.serverUrl ?? config.publicUrl),
            },
            { email: input.email, role: input.role, invitedBy: null, via: 'cli' },
          );
          io.out(`Invited ${result.user.email} as ${result.user.role}${result.created ? '' : ' (again: earlier links no longer work)'}.`);
          io.out(`Onboarding link (valid until ${result.expiresAt.toISOString()}):`);
          io.out(result.url);
          io.out(
            connection.serverUrl
              ? 'The invitation mail is queued; the running server sends it.'
              : 'The invitation mail is queued; a running server sends it (else the server sends it when it starts).',
          );
          if (outboxDir) io.out(`No SMTP_URL set: the mail will be written to ${outboxDir}`);
        } finally {
          await jobs.stop();
        }
        return 0;
      }
      case 'flag:set': {
        const { positionals } = parse(rest, {}, 2);
        const [key, raw] = positionals as [string, string];
        if (!FLAG_KEY_PATTERN.test(key))
          throw new UsageError(`Invalid flag key "${key}": use lower-case letters, digits, ".", "_" or "-", starting with a letter.`);
        const value = parseFlagValue(raw);
        if (value === null) throw new UsageError('A flag cannot be null: remove it with flag:unset instead.');
        const db = await open();
        const before = await getFlag(db, key);
        await setFlag(db, key, value);
        await audit(db, { via: 'cli', action: 'flag.set', targetType: 'flag', targetId: key, before: before ?? null, after: value });
        io.out(`${key} = ${JSON.stringify(value)}`);
        return 0;
      }
      case 'flag:unset': {
        const { positionals } = parse(rest, {}, 1);
        const [key] = positionals as [string];
        const db = await open();
        const before = await getFlag(db, key);
        if (!(await unsetFlag(db, key))) {
          io.err(`Flag "${key}" is not set.`);
          return 1;
        }
        await audit(db, { via: 'cli', action: 'flag.unset', targetType: 'flag', targetId: key, before: before ?? null });
        io.out(`${key} removed`);
        return 0;
      }
      case 'flag:list': {
        parse(rest, {}, 0);
        const flags = await listFlags(await open());
        if (flags.length === 0) io.out('No feature flags are set.');
        for (const flag of flags) io.out(`${flag.key} = ${JSON.stringify(flag.value)}  (updated ${flag.updatedAt.toISOString()})`);
        return 0;
      }
      case 'maintenance': {
        const { positionals } = parse(rest, {}, 1);
        const mode = positionals[0];
        if (mode !== 'on' && mode !== 'off') throw new UsageError('Say "maintenance on" or "maintenance off".');
        const db = await open();
        const before = await getFlag(db, KNOWN_FLAGS.maintenance);
        if (mode === 'on') await setFlag(db, KNOWN_FLAGS.maintenance, true);
        else await unsetFlag(db, KNOWN_FLAGS.maintenance);
        await audit(db, {
          via: 'cli',
          action: `maintenance.${mode}`,
          targetType: 'flag',
          targetId: KNOWN_FLAGS.maintenance,
          before: before ?? null,
          after: mode === 'on',
        });
        const was = isTruthyFlag(before) ? 'on' : 'off';
        io.out(`Maintenance mode is ${mode}${was === mode ? ' (it already was)' : ''}.`);
        return 0;
      }
      case 'deploy:nginx': {
        const { values } = parse(rest, { root: { type: 'string' }, api: { type: 'string' }, listen: { type: 'string' } }, 0);
        if (typeof values.api !== 'string' || typeof values.listen !== 'string')
          throw new UsageError('Say where the API processes and nginx listen: deploy:nginx --api HOST:PORT[,HOST:PORT…] --listen HOST:PORT [--root DIR]');
        const root = typeof values.root === 'string' ? path.resolve(values.root) : config.distDir;
        try {
          io.out(
            nginxConfig({
              root,
              api: parseApiList(values.api),
              listen: values.listen,
              csp: pageCspOptions(config),
              hsts: config.publicUrl.startsWith('https:'),
            }),
          );
        } catch (error) {
          if (error instanceof NginxConfigError) throw new UsageError(error.message);
          throw error;
        }
        return 0;
      }
      case 'backup': {
        const { positionals } = parse(rest, {}, 1);
        const db = await open();
        if (!connection) throw new Error('no database connection');
        const via = connection.via;
        const result = await writeBackup({
          db,
          source: via,
          mediaDir: config.mediaStore === 'local' ? config.mediaDir : null,
          file: positionals[0] ?? '',
          // The database is let go before the photos are written (a server may start on it meanwhile).
          afterSnapshot: async () => {
            await connection?.close();
            connection = undefined;
          },
        });
        const photos = config.mediaStore === 'local' ? ` and ${result.mediaFiles} photo files (${megabytes(result.mediaBytes)})` : '';
        io.out(`Backed up ${result.tables} tables (${result.rows} rows)${photos} to ${result.file}: ${megabytes(result.bytes)} in ${seconds(result.totalMs)}.`);
        io.out(
          `The database was read in one snapshot of ${seconds(result.snapshotMs)}` +
            (via === 'embedded-server' ? ", during which the server's requests waited." : '.'),
        );
        if (config.mediaStore !== 'local')
          io.out('The photos are in the S3 bucket, not in this file: back the bucket up on its own (docs/deploy.md, "Backups").');
        return 0;
      }
      case 'restore': {
        const { positionals } = parse(rest, {}, 1);
        const result = await restoreBackup(config, positionals[0] ?? '');
        const photos = result.manifest.media === 'files' ? ` and ${result.mediaFiles} photo files (${megabytes(result.mediaBytes)})` : '';
        io.out(`Restored ${result.tables} tables (${result.rows} rows)${photos} into ${result.target}.`);
        io.out(
          `The backup was made on ${result.manifest.createdAt} at migration ${result.backupMigration}; ` +
            (result.newerMigrations.length > 0 ? `migrated since: ${result.newerMigrations.join(', ')}.` : 'its schema is current.'),
        );
        if (result.manifest.media === 'bucket')
          io.out(
            'The photos were not in the backup (they were in an S3 bucket): set MEDIA_STORE=s3 and the S3_* variables to that bucket, or to a copy of it.',
          );
        else if (config.mediaStore === 's3' && result.mediaFiles > 0)
          io.out(`The photos were written to ${config.mediaDir}; to serve them from the bucket, run: npm run cli -- media:migrate --to s3`);
        io.out('Start the server on it: npm start');
        return 0;
      }
      case 'media:migrate': {
        const { values } = parse(rest, { to: { type: 'string' } }, 0);
        if (values.to !== 's3') throw new UsageError('Say "media:migrate --to s3": photos can only be copied to an S3-compatible bucket.');
        return await runMediaMigrate({ env, mediaDir: config.mediaDir, open, io });
      }
      default:
        throw new UsageError(`Unknown command "${command}". See --help.`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    if (
      error instanceof UserExistsError ||
      error instanceof InvitationError ||
      error instanceof DataDirLockedError ||
      error instanceof BackupError ||
      error instanceof RestoreRefusedError
    ) {
      io.err(error.message);
      return 1;
    }
    io.err(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await connection?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  // Backup and restore may open the embedded database here and work it hard: with the server's V8
  // flags they fit where the server does (restore of 100,000 rows: ~980 MiB without them; decision 028).
  if (process.argv[2] === 'backup' || process.argv[2] === 'restore') runWithServerNodeFlags();
  const code = await runCli(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  });
  process.exitCode = code;
}
