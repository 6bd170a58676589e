import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingNodeFlags, serverNodeFlags } from '../../src/server/node-flags.ts';

describe('the server’s V8 flags (src/server/node-flags.ts)', () => {
  it('on the embedded database: V8’s baseline compiler only, and a small young generation; on PostgreSQL: V8’s defaults', () => {
    expect(serverNodeFlags({})).toEqual(['--liftoff-only', '--max-semi-space-size=4', '--optimize-for-size']);
    expect(serverNodeFlags({ DATABASE_URL: '  ' })).toEqual(['--liftoff-only', '--max-semi-space-size=4', '--optimize-for-size']);
    expect(serverNodeFlags({ DATABASE_URL: 'postgres://db/fieldwork' })).toEqual([]);
  });

  it('counts a flag given with another value as given', () => {
    expect(missingNodeFlags({}, ['--max-semi-space-size=16', '--optimize-for-size'])).toEqual(['--liftoff-only']);
    expect(missingNodeFlags({}, ['--liftoff-only', '--max-semi-space-size=4', '--optimize-for-size'])).toEqual([]);
    expect(missingNodeFlags({ DATABASE_URL: 'postgres://db/x' }, ['--inspect'])).toEqual([]);
  });

  it('restarts a process that lacks them in place: the same process id, with the flags and its own arguments', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-flags-'));
    const script = path.join(dir, 'entry.ts');
    const module = path.resolve('src/server/node-flags.ts');
    fs.writeFileSync(
      script,
      `import { runWithServerNodeFlags } from ${JSON.stringify(module)};\n` +
        `console.error(process.pid);\nrunWithServerNodeFlags();\n` +
        `console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, argv: process.argv.slice(2) }));\n`,
    );
    try {
      const run = spawnSync(process.execPath, [script, 'one', 'two'], { env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toHaveLength(1); // The first run printed nothing: it was replaced before it could.
      const answer = JSON.parse(lines[0] ?? '{}') as { pid: number; execArgv: string[]; argv: string[] };
      // Both runs said their process id before the check: the same one, twice.
      expect(run.stderr.trim().split('\n').map(Number)).toEqual([answer.pid, answer.pid]);
      expect(answer.execArgv).toEqual(expect.arrayContaining(['--liftoff-only', '--max-semi-space-size=4', '--optimize-for-size']));
      expect(answer.argv).toEqual(['one', 'two']);
      const off = spawnSync(process.execPath, [script], { env: { ...process.env, DATABASE_URL: '', FIELDWORK_NODE_FLAGS: '0' }, encoding: 'utf8' });
      expect((JSON.parse(off.stdout.trim()) as { execArgv: string[] }).execArgv).not.toContain('--liftoff-only');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
