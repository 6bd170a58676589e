/** What the suites of the second step of sign-in and of re-authentication share (issue 29): a cookie jar, an authenticator app, a sign-in. */
import { Secret, TOTP as Totp } from 'otpauth';
import { expect } from 'vitest';
import { TOTP } from '../../src/shared/second-factors.ts';
import type { TestContext } from './harness.ts';
import { PASSWORD } from './helpers.ts';

/** One browser's cookies, as it keeps them from the answers' Set-Cookie (a cookie cleared, or with Max-Age=0, goes). */
export class Jar {
  readonly cookies = new Map<string, string>();
  /** The Set-Cookie lines of the last answer taken, by cookie name. */
  lastSet = new Map<string, string>();

  take(res: Response): Response {
    this.lastSet = new Map();
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      this.lastSet.set(name, line);
      if (value === '' || /;\s*Max-Age=0(?:;|$)/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  get headers(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }
}

/** The code an authenticator app with `secret` (base32) shows at `at`. */
export function totpCode(secret: string, at: Date): string {
  return new Totp({ secret: Secret.fromBase32(secret), digits: TOTP.digits, period: TOTP.periodSeconds, algorithm: TOTP.algorithm }).generate({
    timestamp: at.getTime(),
  });
}

/** Sets up an authenticator app through the account calls (POST /api/account/totp, then its confirmation); the clock moves on a step after. */
export async function enrolTotp(ctx: TestContext, headers: Record<string, string>): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await ctx.json('POST', '/api/account/totp', undefined, headers);
  expect(started.status, await started.clone().text()).toBe(200);
  const { secret } = (await started.json()) as { secret: string };
  const confirmed = await ctx.json('POST', '/api/account/totp/confirm', { code: totpCode(secret, ctx.clock.now()) }, headers);
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  // The step of the confirmation is used up: the next code is the next step's.
  ctx.clock.advance(TOTP.periodSeconds * 1000);
  return { secret, recoveryCodes };
}

/** The password step of a sign-in, in `jar`'s browser, from `ip`. */
export async function passwordStep(ctx: TestContext, jar: Jar, email: string, ip: string, password = PASSWORD): Promise<Response> {
  return jar.take(await ctx.json('POST', '/api/auth/login', { email, password }, { ...jar.headers, 'X-Forwarded-For': ip }));
}

/** The second step of a sign-in, in `jar`'s browser, from `ip`. */
export async function secondStep(ctx: TestContext, jar: Jar, body: unknown, ip: string): Promise<Response> {
  return jar.take(await ctx.json('POST', '/api/auth/second-factor', body, { ...jar.headers, 'X-Forwarded-For': ip }));
}
