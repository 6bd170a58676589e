/**
 * Issue 29 §5–§7 as a caller sees them: staff session limits with a moved clock (12 hours after
 * sign-in, 60 minutes idle), signing out one session, the new-browser mail, common passwords
 * refused wherever one is chosen, and the admins' audit log (its filters, pages, CSV). The
 * participant's 30 sliding days and the cookie's renewal on page loads are in
 * sliding-session.test.ts.
 */
import Papa from 'papaparse';
import { expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/index.ts';
import { COMMON_PASSWORD_MESSAGE } from '../../src/server/services/common-passwords.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { issueLinkToken } from '../../src/server/services/tokens.ts';
import { findOrCreateInvitedUser } from '../../src/server/services/users.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { PASSWORD, errorOf, fieldsOf, freshIp, mailsTo, signedInUser, uniqueEmail } from './helpers.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const MAC_CHROME = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** In the 10,000 most common passwords (as `p@ssw0rd`), yet with all four character classes. */
const COMMON = 'P@ssw0rd';

/** The value of a cookie an answer sets, or null. */
function cookieSet(res: Response, name: string): { value: string; maxAge: number | null } | null {
  const header = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!header) return null;
  return { value: /^[^=]+=([^;]*)/.exec(header)?.[1] ?? '', maxAge: header.includes('Max-Age=') ? Number(/Max-Age=(\d+)/.exec(header)?.[1]) : null };
}

/** Signs in with the password as a browser would (the cookies it holds, its user agent). */
async function login(ctx: TestContext, email: string, cookie?: string) {
  const res = await ctx.json(
    'POST',
    '/api/auth/login',
    { email, password: PASSWORD },
    {
      'X-Forwarded-For': freshIp(),
      'User-Agent': MAC_CHROME,
      ...(cookie ? { Cookie: cookie } : {}),
    },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return res;
}

describeEachBackend(
  'sessions, new browsers, common passwords and the audit log',
  (ctx) => {
    const get = (path: string, cookie: string) => ctx().request(path, { headers: { Cookie: cookie } });

    it('a staff session ends 60 minutes after its last request and 12 hours after sign-in, each request renewing row and cookie', async () => {
      const c = ctx();
      const admin = await signedInUser(c, 'admin');
      const { token } = await createSession(c.database.db, c.clock, admin.id, { role: 'admin', limits: c.config });
      const cookie = `fw_session=${token}`;
      // Renewed by a request more than 5 minutes after the last: 60 minutes from then, and the cookie with it.
      c.clock.advance(59 * MINUTE);
      const renewed = await get('/api/account', cookie);
      expect(renewed.status).toBe(200);
      expect(cookieSet(renewed, 'fw_session')).toEqual({ value: token, maxAge: 3600 });
      // Within 5 minutes of a renewal: nothing written, no cookie.
      c.clock.advance(4 * MINUTE);
      const quiet = await get('/api/auth', cookie);
      expect(quiet.status).toBe(200);
      expect(quiet.headers.getSetCookie()).toEqual([]);
      // Active every 50 minutes, it lives until 12 hours after sign-in, and the cookie says so.
      let at = 63 * MINUTE;
      let last: Response | null = null;
      for (; at + 50 * MINUTE < 12 * HOUR; at += 50 * MINUTE) {
        c.clock.advance(50 * MINUTE);
        last = await get('/api/auth', cookie);
        expect(last.status).toBe(200);
      }
      // The last renewal's cookie ends with the session, 12 hours after sign-in.
      expect(last && cookieSet(last, 'fw_session')?.maxAge).toBe((12 * HOUR - at) / 1000);
      c.clock.advance(50 * MINUTE);
      expect((await get('/api/auth', cookie)).status).toBe(401);

      // Idle for 60 minutes: over, even for a session made as a participant's (the staff rule is the user's role).
      const { token: other } = await createSession(c.database.db, c.clock, admin.id);
      c.clock.advance(60 * MINUTE);
      expect((await get('/api/auth', `fw_session=${other}`)).status).toBe(401);
      // The participant's session of the same age lives on (30 days sliding).
      const participant = await signedInUser(c);
      c.clock.advance(3 * HOUR);
      expect((await get('/api/auth', participant.headers.Cookie)).status).toBe(200);
    });

    it('signs out one of one’s own sessions by its listed id; another person’s or an unknown id is 404', async () => {
      const c = ctx();
      const me = await signedInUser(c);
      const { token: phone } = await createSession(c.database.db, c.clock, me.id, {
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      });
      const someone = await signedInUser(c);
      const list = async (cookie: string) =>
        ((await (await get('/api/account', cookie)).json()) as { sessions: { id: string; current: boolean; device: string }[] }).sessions;

      const mine = await list(me.headers.Cookie);
      expect(mine.map((s) => [s.current, s.device])).toEqual(
        expect.arrayContaining([
          [true, 'Unknown device'],
          [false, 'Safari on iOS'],
        ]),
      );
      const phoneId = mine.find((s) => !s.current)?.id ?? '';
      const theirs = (await list(someone.headers.Cookie))[0]?.id ?? '';

      const del = (id: string, cookie: string) => c.json('DELETE', `/api/account/sessions/${id}`, {}, { Cookie: cookie });
      expect((await errorOf(await del(theirs, me.headers.Cookie), 404)).code).toBe('not_found');
      expect((await del('nonsense', me.headers.Cookie)).status).toBe(404);
      const ended = await del(phoneId, me.headers.Cookie);
      expect(await ended.json()).toEqual({ ok: true, current: false });
      expect((await get('/api/auth', `fw_session=${phone}`)).status).toBe(401);
      expect((await get('/api/auth', someone.headers.Cookie)).status).toBe(200);
      expect((await list(me.headers.Cookie)).map((s) => s.current)).toEqual([true]);
    });

    it('mails “New sign-in to Fieldwork” for a browser the account was never signed in on, not for its first or a known one', async () => {
      const c = ctx();
      const { email } = await signedInUser(c);
      // The account's first browser: remembered, no mail.
      const first = await login(c, email);
      const firstDevice = cookieSet(first, 'fw_device');
      expect(firstDevice?.maxAge).toBe(400 * 24 * 60 * 60);
      expect(await c.jobs.waiting('auth.new-sign-in')).toBe(0);
      // Another browser (no device cookie): a mail.
      const second = await login(c, email);
      expect(await c.jobs.waiting('auth.new-sign-in')).toBe(1);
      // Known browsers, the first and the second: none.
      await login(c, email, `fw_device=${firstDevice?.value ?? ''}`);
      await login(c, email, `fw_device=${cookieSet(second, 'fw_device')?.value ?? ''}`);
      expect(await c.jobs.waiting('auth.new-sign-in')).toBe(1);

      const mails = (await mailsTo(c, email)).filter((mail) => mail.subject === 'New sign-in to Fieldwork');
      expect(mails).toHaveLength(1);
      expect(mails[0]?.raw).toContain('Chrome on macOS (IP address 203.0.113.');
      expect(mails[0]?.raw).toContain(`${c.config.publicUrl}/forgot-password`);
    });

    it('refuses the most common passwords at onboarding, reset and change (and takes an uncommon one)', async () => {
      const c = ctx();
      const db = c.database.db;
      const tooCommon = { password: [COMMON_PASSWORD_MESSAGE] };
      const invited = (await findOrCreateInvitedUser(db, { email: uniqueEmail('invited'), role: 'participant', firstName: 'Ida', lastName: 'Lee' })).user;
      const { token: onboarding } = await issueLinkToken(db, c.clock, { type: 'onboarding', userId: invited.id });
      const onboard = (password: string) =>
        c.json('POST', `/api/auth/onboard?token=${onboarding}`, { password, confirmPassword: password, acceptTerms: true }, { 'X-Forwarded-For': freshIp() });
      expect(await fieldsOf(await onboard(COMMON))).toEqual(tooCommon);

      const me = await signedInUser(c);
      const { token: reset } = await issueLinkToken(db, c.clock, { type: 'reset-password', userId: me.id });
      const resetRes = await c.json(
        'POST',
        `/api/auth/password/reset?token=${reset}`,
        { password: COMMON, confirmPassword: COMMON },
        { 'X-Forwarded-For': freshIp() },
      );
      expect(await fieldsOf(resetRes)).toEqual(tooCommon);

      const change = (password: string) =>
        c.json('POST', '/api/account/password', { currentPassword: PASSWORD, password, confirmPassword: password }, { Cookie: me.headers.Cookie });
      // Compared in any case.
      expect(await fieldsOf(await change('p@sSw0rd'))).toEqual(tooCommon);
      // Nothing was used up: the same link and session take an uncommon password.
      expect((await onboard('Fieldwork-2031!')).status).toBe(200);
      expect((await change('Fieldwork-2031!')).status).toBe(200);
    });

    it('lists the audit log for admins only: filters, pages, newest first, before and after; the CSV is formula-safe', async () => {
      const c = ctx();
      const admin = await signedInUser(c, 'admin');
      const moderator = await signedInUser(c, 'moderator');
      const rows = await c.database.db
        .insert(auditLog)
        .values([
          {
            actorId: admin.id,
            via: 'api',
            action: 'h5.edit',
            targetType: 'widget',
            targetId: '7',
            before: { name: 'Old' },
            after: { name: '=HYPERLINK("http://evil.example")' },
            ip: '198.51.100.1',
            createdAt: new Date('2031-01-01T10:00:00Z'),
          },
          { actorId: null, via: 'cli', action: 'h5.edit', targetType: 'widget', targetId: '@8', createdAt: new Date('2031-01-02T10:00:00Z') },
          { actorId: moderator.id, via: 'api', action: 'h5.delete', targetType: 'widget', targetId: '7', createdAt: new Date('2031-01-03T23:30:00Z') },
        ])
        .returning({ id: auditLog.id });
      const [r1, r2, r3] = rows.map((row) => row.id);
      const ids = async (query: string, cookie = admin.headers.Cookie) => {
        const res = await get(`/api/admin/audit?targetType=widget&${query}`, cookie);
        const text = await res.text();
        expect(res.status, text).toBe(200);
        const page = JSON.parse(text) as { items: { id: number }[]; total: number; page: number; pageSize: number };
        return [page.items.map((item) => item.id), page.total];
      };

      expect((await get('/api/admin/audit', moderator.headers.Cookie)).status).toBe(403);
      expect((await get('/api/admin/audit/export', moderator.headers.Cookie)).status).toBe(403);
      expect(await ids('')).toEqual([[r3, r2, r1], 3]);
      expect(await ids('pageSize=2&page=2')).toEqual([[r1], 3]);
      expect(await ids('dir=asc&pageSize=1')).toEqual([[r1], 3]);
      expect(await ids('action=h5.edit')).toEqual([[r2, r1], 2]);
      expect(await ids('targetId=7')).toEqual([[r3, r1], 2]);
      expect(await ids(`actorId=${admin.id}`)).toEqual([[r1], 1]);
      expect(await ids('from=2031-01-02&to=2031-01-03')).toEqual([[r3, r2], 2]);
      expect(await ids(`q=${encodeURIComponent(moderator.email)}`)).toEqual([[r3], 1]);
      expect((await fieldsOf(await get('/api/admin/audit?from=2031-01-02&to=2031-01-01', admin.headers.Cookie))).to).toEqual([
        'Must be on or after the start date',
      ]);

      const first = (await (await get('/api/admin/audit?targetType=widget&dir=asc&pageSize=1', admin.headers.Cookie)).json()) as { items: unknown[] };
      expect(first.items[0]).toMatchObject({
        actor: { id: admin.id, email: admin.email },
        via: 'api',
        action: 'h5.edit',
        targetId: '7',
        before: { name: 'Old' },
        after: { name: '=HYPERLINK("http://evil.example")' },
        ip: '198.51.100.1',
        createdAt: '2031-01-01T10:00:00.000Z',
      });
      const filters = (await (await get('/api/admin/audit/filters', admin.headers.Cookie)).json()) as { actions: string[]; targetTypes: string[] };
      expect(filters.actions).toEqual(expect.arrayContaining(['h5.delete', 'h5.edit']));
      expect(filters.targetTypes).toContain('widget');

      const csv = await get('/api/admin/audit/export?targetType=widget&action=h5.edit', admin.headers.Cookie);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).toBe('attachment; filename="audit-log.csv"');
      const bytes = new Uint8Array(await csv.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes);
      expect(text.startsWith('ID,Time (UTC),Actor ID,Actor email,Via,Action,Target type,Target ID,IP address,Before,After\r\n')).toBe(true);
      // Oldest first; a cell that starts like a formula is made text ('@8); JSON starts with `{`.
      expect(Papa.parse<string[]>(text, { newline: '\r\n' }).data.slice(1)).toEqual([
        [
          String(r1),
          '2031-01-01T10:00:00.000Z',
          String(admin.id),
          admin.email,
          'api',
          'h5.edit',
          'widget',
          '7',
          '198.51.100.1',
          '{"name":"Old"}',
          JSON.stringify({ name: '=HYPERLINK("http://evil.example")' }),
        ],
        [String(r2), '2031-01-02T10:00:00.000Z', '', '', 'cli', 'h5.edit', 'widget', "'@8", '', '', ''],
      ]);
    });
  },
  // The production staff limits (the harness lengthens them for the other suites).
  { env: { STAFF_SESSION_HOURS: '12', STAFF_SESSION_IDLE_MINUTES: '60' } },
);
