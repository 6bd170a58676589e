/**
 * nginx (Debian's package) in front of API processes, configured by exactly what
 * `npm run cli -- deploy:nginx` prints: the static-host tests run what an operator deploys
 * (docs/deploy.md). Each instance lives in its own temporary prefix (config, pid, logs, temp files).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './processes.ts';

export const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((file) => fs.existsSync(file)) ?? null;

export interface RunningNginx {
  url: string;
  port: number;
  /** The configuration deploy:nginx printed. */
  config: string;
  prefix: string;
  /** The master process (its workers are its children). */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** The configuration deploy:nginx prints for these options (through the CLI, as an operator runs it). */
export function deployNginxConfig(options: { root: string; api: string[]; listen: string; env?: Record<string, string> }): string {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'src/server/cli.ts'), 'deploy:nginx', '--root', options.root, '--api', options.api.join(','), '--listen', options.listen],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', ...options.env }, encoding: 'utf8', timeout: 60_000 },
  );
  if (result.status !== 0) throw new Error(`deploy:nginx failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

/**
 * A whole nginx.conf around the file `fieldwork.conf` of `prefix` (what deploy:nginx printed), with
 * its pid, log and temporary files inside `prefix`.
 */
export function nginxMainConfig(prefix: string): string {
  const temp = (name: string) => path.join(prefix, name);
  return [
    // As root (CI), workers read dist/ and the temp folders as root; elsewhere the directive is ignored.
    ...(process.getuid?.() === 0 ? ['user root root;'] : []),
    'worker_processes 1;',
    `pid ${temp('nginx.pid')};`,
    `error_log ${temp('error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '    include /etc/nginx/mime.types;',
    '    default_type application/octet-stream;',
    '    access_log off;',
    '    sendfile on;',
    `    client_body_temp_path ${temp('body')};`,
    `    proxy_temp_path ${temp('proxy')};`,
    `    fastcgi_temp_path ${temp('fastcgi')};`,
    `    uwsgi_temp_path ${temp('uwsgi')};`,
    `    scgi_temp_path ${temp('scgi')};`,
    `    include ${temp('fieldwork.conf')};`,
    '}',
    '',
  ].join('\n');
}

/** Starts nginx in the foreground on `port`, serving `root` and proxying /api/ to `api`; resolves once it answers. */
export async function startNginx(options: {
  root: string;
  api: string[];
  port: number;
  env?: Record<string, string>;
  /** The configuration to run instead of what deploy:nginx prints for the options (it must listen on `port` too). */
  config?: string;
}): Promise<RunningNginx> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx)');
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-nginx-'));
  const config =
    options.config ??
    deployNginxConfig({ root: options.root, api: options.api, listen: `127.0.0.1:${options.port}`, ...(options.env ? { env: options.env } : {}) });
  fs.writeFileSync(path.join(prefix, 'fieldwork.conf'), config);
  const temp = (name: string) => path.join(prefix, name);
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), nginxMainConfig(prefix));
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(prefix, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${output}\n${fs.readFileSync(temp('error.log'), 'utf8')}`);
    try {
      await fetch(`${url}/builds/latest.json`);
      return { url, port: options.port, config, prefix, pid: child.pid, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not answer:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
