/** Helpers shared by the API suites of the application shell (flags, reports, contact, data deletion). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { RouteTable } from '../../src/shared/build-manifest.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { createActiveUser } from '../../src/server/services/users.ts';
import type { Role } from '../../src/shared/roles.ts';
import { readOutbox, type OutboxMail } from '../support/outbox.ts';
import type { TestContext } from './harness.ts';

export const PASSWORD = 'Str0ng-password';

let counter = 0;
export const uniqueEmail = (name: string) => `${name}-${++counter}-${Date.now().toString(36)}@example.org`;

let ipCounter = 0;
/** A fresh client address (X-Forwarded-For; the suites trust the proxy) so rate limits stay per test. */
export const freshIp = () => `203.0.113.${(++ipCounter % 250) + 1}`;

export interface SignedIn {
  id: number;
  email: string;
  firstName: string;
  /** Cookie header of a session. */
  headers: { Cookie: string };
}

/** An active account with a session, as if it had signed in. */
export async function signedInUser(ctx: TestContext, role: Role = 'participant'): Promise<SignedIn> {
  const email = uniqueEmail(role);
  const user = await createActiveUser(ctx.database.db, { email, password: PASSWORD, role, firstName: 'Robin', lastName: 'Hale' });
  const { token } = await createSession(ctx.database.db, ctx.clock, user.id);
  return { id: user.id, email, firstName: user.firstName, headers: { Cookie: `fw_session=${token}` } };
}

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string[]> };
}

/** The error body of a response, after checking its status. */
export async function errorOf(res: Response, status: number): Promise<ErrorBody['error']> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (JSON.parse(text) as ErrorBody).error;
}

/** The field errors of a 400 answer. */
export async function fieldsOf(res: Response): Promise<Record<string, string[]>> {
  const error = await errorOf(res, 400);
  expect(error.code).toBe('validation_failed');
  return error.fields ?? {};
}

/** The mails sent to an address once the background work is done, oldest first. */
export async function mailsTo(ctx: TestContext, address: string): Promise<OutboxMail[]> {
  await ctx.jobs.drain();
  return (await readOutbox(ctx.dataDir)).filter((m) => m.to === address);
}

/** A miniature dist/ as the build writes it, with every kind of route of docs/product.md §2. */
export function writeFixtureDist(): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dist-'));
  const write = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    fs.writeFileSync(path.join(dist, file), content);
  };
  const table: RouteTable = {
    buildId: 'shell1',
    notFound: '404.html',
    scriptHashes: ['sha256-AAAA'],
    routes: [
      { pattern: '/', file: 'index.html', access: 'auth', params: {} },
      { pattern: '/login', file: 'login/index.html', access: 'guest', params: {} },
      { pattern: '/surveys/:id', file: 'surveys/_/index.html', access: 'auth', params: { id: 'id' } },
      { pattern: '/admin', file: 'admin/index.html', access: 'admin', params: {} },
      { pattern: '/terms', file: 'terms/index.html', access: 'public', params: {} },
      { pattern: '/privacy', file: 'privacy/index.html', access: 'public', params: {} },
      { pattern: '/contact', file: 'contact/index.html', access: 'public', params: {} },
      { pattern: '/data-deletion', file: 'data-deletion/index.html', access: 'public', params: {} },
      { pattern: '/maintenance', file: 'maintenance/index.html', access: 'maintenance', params: {} },
    ],
  };
  write('_routes.json', JSON.stringify(table));
  for (const route of table.routes) write(route.file, `<h1>${route.pattern}</h1>`);
  write('404.html', '<h1>Page Not Found</h1>');
  write('_astro/app.1a2b3c.js', 'console.log("app");');
  write('builds/latest.json', '{"id":"shell1","timestamp":1}');
  write('favicon-dark.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}
