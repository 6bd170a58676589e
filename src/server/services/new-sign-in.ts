/**
 * "New sign-in to Fieldwork" (issue 29 §5): a mail when an account is signed in to from a browser
 * it was never signed in on before.
 *
 * A browser is known by its `fw_device` cookie (`__Host-fw_device` over HTTPS): a random 256-bit
 * id set at every sign-in and kept 400 days (the longest a browser keeps a cookie), HttpOnly,
 * SameSite=Lax, read by nothing but this. An account remembers the SHA-256 of each browser id it
 * was signed in on as an audit row, `user.new_browser` (target the user, `after.browser` the hash,
 * `after.device` the browser in words): the audit log is where Fieldwork already keeps what
 * happened to an account, append-only, indexed by target, and a new browser is worth seeing
 * there. The rule:
 *
 * - a sign-in from a browser whose id the account remembers: nothing;
 * - from any other browser (no cookie, cookies cleared, another device): the id is remembered,
 *   and the person is mailed (`auth.new-sign-in`, through the job queue, in the transaction that
 *   writes the audit row) — unless it is the first browser the account ever remembers (its
 *   onboarding, or its first sign-in after this feature shipped): that one is no news to its owner.
 */
import type { Context } from 'hono';
import { and, eq, sql } from 'drizzle-orm';
import { getCookie, setCookie } from 'hono/cookie';
import { describeUserAgent } from '../../shared/user-agent.ts';
import type { AppEnv } from '../context.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { auditLog } from '../db/schema/index.ts';
import { clientIp } from '../http.ts';
import type { Mailer } from '../mail/mailer.ts';
import { mailLanguageOf, newSignInNotice } from '../mail/templates.ts';
import type { JobDataMap } from '../jobs/types.ts';
import { audit } from './audit.ts';
import { randomToken, sha256Hex } from './crypto.ts';
import { findUserById } from './users.ts';

/** The audit action that remembers a browser an account was signed in on. */
export const NEW_BROWSER_ACTION = 'user.new_browser';
/** 400 days: the longest a browser keeps a cookie (Chrome caps Max-Age there). */
export const DEVICE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_ID = /^[A-Za-z0-9_-]{43}$/;

/** Over HTTPS the cookie takes the `__Host-` prefix (Secure, no Domain, Path=/), as the session's. */
export function deviceCookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-fw_device' : 'fw_device';
}

/** The hashes of the browsers an account was signed in on (its `user.new_browser` rows, by the audit log's target index). */
async function rememberedBrowsers(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .select({ browser: sql<string | null>`${auditLog.after}->>'browser'` })
    .from(auditLog)
    .where(and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, String(userId)), eq(auditLog.action, NEW_BROWSER_ACTION)));
  return rows.flatMap((row) => (row.browser ? [row.browser] : []));
}

/**
 * After a sign-in (`startSession`, onboarding): keeps this browser's `fw_device` cookie (made when
 * it has none) and, when the account does not know this browser yet, remembers it and queues the
 * new-sign-in mail (not for the account's first browser). Returns whether a mail was queued.
 */
export async function noteNewBrowser(c: Context<AppEnv>, userId: number): Promise<boolean> {
  const { db, deps } = c.var;
  const { publicUrl } = deps.config;
  const name = deviceCookieName(publicUrl);
  const sent = getCookie(c, name);
  const deviceId = sent && DEVICE_ID.test(sent) ? sent : randomToken();
  setCookie(c, name, deviceId, { httpOnly: true, sameSite: 'Lax', path: '/', secure: publicUrl.startsWith('https:'), maxAge: DEVICE_COOKIE_MAX_AGE_S });
  const browser = sha256Hex(deviceId);
  const known = await rememberedBrowsers(db, userId);
  if (known.includes(browser)) return false;
  const mail = known.length > 0;
  const device = describeUserAgent(c.req.header('user-agent')).label;
  const ip = clientIp(c);
  await db.transaction(async (tx) => {
    await audit(tx, {
      actorId: userId,
      via: 'api',
      action: NEW_BROWSER_ACTION,
      targetType: 'user',
      targetId: userId,
      after: { browser, device, mailed: mail },
      ip,
    });
    if (mail) await deps.jobs.send('auth.new-sign-in', { userId, at: deps.clock.now().toISOString(), device, ip }, { tx });
  });
  return mail;
}

/** The job `auth.new-sign-in`: the notice to the account's address (nothing if the account is gone or disabled). */
export async function newSignInMail(deps: { db: Db; mailer: Mailer; config: Pick<Config, 'publicUrl'> }, input: JobDataMap['auth.new-sign-in']): Promise<void> {
  const user = await findUserById(deps.db, input.userId);
  if (!user || user.status !== 'active') return;
  await deps.mailer.send(
    newSignInNotice({
      to: user.email,
      // The account's language when the job runs (issue 31), as its time zone.
      language: mailLanguageOf(user.preferences),
      firstName: user.firstName,
      at: new Date(input.at),
      timeZone: user.preferences.timeZone ?? 'UTC',
      device: input.device,
      ip: input.ip,
      resetUrl: `${deps.config.publicUrl}/forgot-password`,
    }),
  );
}
