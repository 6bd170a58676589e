import { describe, expect, it } from 'vitest';
import { HELP, runCli } from '../../src/server/cli.ts';

/** Runs the CLI in-process, capturing what it prints. Usage errors never reach the database. */
async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { DATA_DIR: '/nonexistent/fieldwork-cli-test' }, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('operator CLI usage', () => {
  it('prints help with --help (exit 0) and without a command (exit 2)', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: HELP, err: '' });
    expect((await run([])).code).toBe(2);
    expect(HELP).toContain('user:create --email E --password P --role participant|moderator|admin --first-name F --last-name L');
  });

  it('names an unknown command', async () => {
    expect(await run(['user:delete'])).toEqual({ code: 2, out: '', err: 'Unknown command "user:delete". See --help.' });
  });

  it('lists every invalid option of user:create with the shared messages', async () => {
    const result = await run(['user:create', '--email', 'nope', '--password', 'short', '--role', 'boss']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--email: Invalid email');
    expect(result.err).toContain('--password: Missing requirements');
    expect(result.err).toContain('--role (one of participant, moderator, admin): Invalid enum value');
    expect(result.err).toContain('--first-name: Required');
  });

  it('refuses one of the most common passwords for user:create, in any case', async () => {
    const result = await run(['user:create', '--email', 'a@b.co', '--password', 'p@sSw0rd', '--role', 'admin', '--first-name', 'Ada', '--last-name', 'Lee']);
    expect(result).toEqual({ code: 2, out: '', err: 'Invalid input:\n  --password: This password is too common: choose another' });
  });

  it('refuses unknown options and wrong argument counts', async () => {
    expect((await run(['user:invite', '--email', 'a@b.co', '--admin'])).code).toBe(2);
    expect((await run(['flag:set', 'banner'])).err).toContain('Expected 2 arguments, got 1');
    expect((await run(['maintenance', 'maybe'])).err).toBe('Say "maintenance on" or "maintenance off".');
    expect(await run(['backup'])).toEqual({ code: 2, out: '', err: 'Expected 1 argument, got 0. See --help.' });
    expect((await run(['restore', 'a.tar', 'b.tar'])).err).toBe('Expected 1 argument, got 2. See --help.');
  });

  it('checks flag keys and refuses null values', async () => {
    expect((await run(['flag:set', 'Bad Key', 'true'])).err).toContain('Invalid flag key');
    expect(await run(['flag:set', 'banner', 'null'])).toEqual({ code: 2, out: '', err: 'A flag cannot be null: remove it with flag:unset instead.' });
  });
});
