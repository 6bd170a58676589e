import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog, tokens, users } from '../../src/server/db/schema/index.ts';
import { getFlag, listFlags, setFlag, unsetFlag } from '../../src/server/services/flags.ts';
import { InvitationError, inviteUser } from '../../src/server/services/invitations.ts';
import { consumeToken, findUsableToken, issueLinkToken } from '../../src/server/services/tokens.ts';
import { verifyPassword } from '../../src/server/services/passwords.ts';
import { hitRateLimit } from '../../src/server/services/rate-limit.ts';
import { createActiveUser, findUserByEmail, UserExistsError } from '../../src/server/services/users.ts';
import { readOutbox } from '../support/outbox.ts';
import { describeEachBackend } from './harness.ts';

const HOUR = 3_600_000;

describeEachBackend('users', (ctx) => {
  it('stores emails lower-cased, hashes passwords with argon2id, refuses duplicates in any case', async () => {
    const { database } = ctx();
    const user = await createActiveUser(database.db, {
      email: ' Mixed@Case.ORG ',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'Mia',
      lastName: 'Case',
    });
    expect(user.email).toBe('mixed@case.org');
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(user.passwordHash ?? '', 'Str0ng-password')).toBe(true);
    expect(await verifyPassword(user.passwordHash ?? '', 'str0ng-password')).toBe(false);
    await expect(
      createActiveUser(database.db, { email: 'MIXED@case.org', password: 'Str0ng-password', role: 'admin', firstName: 'X', lastName: 'Y' }),
    ).rejects.toBeInstanceOf(UserExistsError);
    expect((await findUserByEmail(database.db, 'mixed@CASE.org'))?.id).toBe(user.id);
  });
});

describeEachBackend('link tokens', (ctx) => {
  it('are stored hashed, work once, and expire', async () => {
    const { database, clock } = ctx();
    const user = await createActiveUser(database.db, {
      email: 'tok@example.org',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'T',
      lastName: 'K',
    });
    const { token, expiresAt } = await issueLinkToken(database.db, clock, { type: 'reset-password', userId: user.id });
    expect(expiresAt.getTime() - clock.now().getTime()).toBe(HOUR);
    const stored = await database.db.select().from(tokens).where(eq(tokens.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).not.toContain(token);
    expect(stored[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const found = await findUsableToken(database.db, clock, token, 'reset-password');
    expect(found?.userId).toBe(user.id);
    expect(await findUsableToken(database.db, clock, token, 'onboarding')).toBeNull();
    expect(await consumeToken(database.db, clock, found?.id ?? 0)).toBe(true);
    expect(await consumeToken(database.db, clock, found?.id ?? 0)).toBe(false);
    expect(await findUsableToken(database.db, clock, token, 'reset-password')).toBeNull();

    const second = await issueLinkToken(database.db, clock, { type: 'reset-password', userId: user.id });
    clock.advance(HOUR + 1);
    expect(await findUsableToken(database.db, clock, second.token, 'reset-password')).toBeNull();
  });

  it('a new link replaces the previous one', async () => {
    const { database, clock } = ctx();
    const user = await createActiveUser(database.db, {
      email: 'again@example.org',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'A',
      lastName: 'G',
    });
    const first = await issueLinkToken(database.db, clock, { type: 'reset-password', userId: user.id });
    const second = await issueLinkToken(database.db, clock, { type: 'reset-password', userId: user.id });
    expect(await findUsableToken(database.db, clock, first.token, 'reset-password')).toBeNull();
    expect(await findUsableToken(database.db, clock, second.token, 'reset-password')).not.toBeNull();
  });
});

describeEachBackend('invitations', (ctx) => {
  it('create an invited account, mail a 7-day onboarding link and audit it', async () => {
    const { database, clock, mailer, dataDir } = ctx();
    const result = await inviteUser(
      { db: database.db, clock, mailer, publicUrl: 'https://fieldwork.example' },
      { email: 'Invitee@Example.org', role: 'moderator', invitedBy: null, via: 'cli' },
    );
    expect(result.created).toBe(true);
    expect(result.user).toMatchObject({ email: 'invitee@example.org', role: 'moderator', status: 'invited', passwordHash: null });
    expect(result.url).toMatch(/^https:\/\/fieldwork\.example\/onboarding\/[A-Za-z0-9_-]{43}$/);
    expect(result.expiresAt.getTime() - clock.now().getTime()).toBe(7 * 24 * HOUR);
    const mails = await readOutbox(dataDir);
    const mail = mails.find((m) => m.to === 'invitee@example.org');
    expect(mail?.subject).toBe('You are invited to Fieldwork as a moderator');
    expect(mail?.links).toContain(result.url);
    expect(mail?.raw).toContain('expires in 7 days');
    expect(mail?.raw).toContain('Content-Type: text/html');
    const entries = await database.db.select().from(auditLog).where(eq(auditLog.action, 'user.invite'));
    expect(entries.at(-1)).toMatchObject({ via: 'cli', targetType: 'user', targetId: String(result.user.id) });

    // Inviting again issues a fresh link; the old one stops working.
    const again = await inviteUser(
      { db: database.db, clock, mailer, publicUrl: 'https://fieldwork.example' },
      { email: 'invitee@example.org', role: 'participant', invitedBy: null, via: 'cli' },
    );
    expect(again.created).toBe(false);
    expect(again.user.role).toBe('moderator');
    const oldToken = result.url.split('/').at(-1) ?? '';
    expect(await findUsableToken(database.db, clock, oldToken, 'onboarding')).toBeNull();
  });

  it('refuse active and disabled accounts', async () => {
    const { database, clock, mailer } = ctx();
    const user = await createActiveUser(database.db, {
      email: 'active@example.org',
      password: 'Str0ng-password',
      role: 'participant',
      firstName: 'A',
      lastName: 'C',
    });
    const deps = { db: database.db, clock, mailer, publicUrl: 'http://x' };
    await expect(inviteUser(deps, { email: 'active@example.org', role: 'participant', invitedBy: null, via: 'cli' })).rejects.toThrow(
      /already has an active account/,
    );
    await database.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    await expect(inviteUser(deps, { email: 'active@example.org', role: 'participant', invitedBy: null, via: 'cli' })).rejects.toBeInstanceOf(InvitationError);
  });
});

describeEachBackend('feature flags', (ctx) => {
  it('set, read, list and unset', async () => {
    const { database } = ctx();
    expect(await getFlag(database.db, 'banner')).toBeUndefined();
    await setFlag(database.db, 'banner', 'Site visit on Friday');
    await setFlag(database.db, 'banner', { text: 'Updated', level: 'info' });
    await setFlag(database.db, 'alpha', true);
    expect(await getFlag(database.db, 'banner')).toEqual({ text: 'Updated', level: 'info' });
    expect((await listFlags(database.db)).map((f) => f.key)).toEqual(['alpha', 'banner']);
    expect(await unsetFlag(database.db, 'banner')).toBe(true);
    expect(await unsetFlag(database.db, 'banner')).toBe(false);
    expect(await getFlag(database.db, 'banner')).toBeUndefined();
  });
});

describeEachBackend('rate limits', (ctx) => {
  it('count per key in a fixed window and reset after it', async () => {
    const { database, clock } = ctx();
    const rule = { limit: 3, windowMs: 60_000 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(database.db, clock, 'login:ip:10.0.0.1', rule));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.retryAfterSeconds).toBe(60);
    expect((await hitRateLimit(database.db, clock, 'login:ip:10.0.0.2', rule)).allowed).toBe(true);
    clock.advance(30_000);
    expect((await hitRateLimit(database.db, clock, 'login:ip:10.0.0.1', rule)).retryAfterSeconds).toBe(30);
    clock.advance(30_001);
    const fresh = await hitRateLimit(database.db, clock, 'login:ip:10.0.0.1', rule);
    expect(fresh).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('hold under concurrent hits', async () => {
    const { database, clock } = ctx();
    const rule = { limit: 5, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(database.db, clock, 'burst', rule)));
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
  });
});
