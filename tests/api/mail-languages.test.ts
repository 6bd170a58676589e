/**
 * Mails in the recipient's language (issue 31): the account's language, read when the job runs
 * (not when it was queued); for an address with no account, the language of the page the request
 * came from (the remembered choice, else the browser's), else English. Subject, text and HTML
 * (`<html lang dir>`, right to left in Arabic) alike.
 */
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import { notify } from '../../src/server/services/notifications.ts';
import type { Language } from '../../src/shared/languages.ts';
import type { OutboxMail } from '../support/outbox.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { mailsTo, PASSWORD, signedInUser, uniqueEmail, type SignedIn } from './helpers.ts';

/** Sets the account's language as the preferences store it (`PUT /api/account/language` writes the same). */
async function setLanguage(ctx: TestContext, userId: number, language: Language): Promise<void> {
  await ctx.database.db
    .update(users)
    .set({ preferences: sql`jsonb_set(${users.preferences}, '{language}', to_jsonb(${language}::text))` })
    .where(eq(users.id, userId));
}

/** The one mail sent to the address (after the queue has run). */
async function onlyMailTo(ctx: TestContext, address: string): Promise<OutboxMail> {
  const mails = await mailsTo(ctx, address);
  expect(mails).toHaveLength(1);
  return mails[0] as OutboxMail;
}

describeEachBackend('mails in the recipient’s language', (ctx) => {
  it('a German account’s reset mail is German: subject, text, and <html lang="de" dir="ltr">', async () => {
    const person = await signedInUser(ctx());
    await setLanguage(ctx(), person.id, 'de');
    await ctx().json('POST', '/api/auth/password/forgot', { email: person.email });
    const mail = await onlyMailTo(ctx(), person.email);
    expect(mail.subject).toBe('Setzen Sie Ihr Fieldwork-Passwort zurück');
    expect(mail.raw).toContain('Hallo Robin,');
    expect(mail.raw).toContain('Neues Passwort wählen: http');
    expect(mail.raw).toContain('Dieser Link funktioniert einmal und läuft in 1 Stunde ab.');
    expect(mail.raw).toContain('<html lang="de" dir="ltr">');
    expect(mail.raw).not.toContain('Reset your');
    expect(mail.links.some((link) => link.includes('/reset-password/'))).toBe(true);
  });

  it('an Arabic account’s notification mail is Arabic, right to left', async () => {
    const person = await signedInUser(ctx());
    await setLanguage(ctx(), person.id, 'ar');
    await notify(
      ctx().database.db,
      { userId: person.id, kind: 'probe', notice: { key: 'probe', mission: 'Park benches', question: 'Which bench?' }, link: '/account' },
      ctx().jobs,
    );
    const mail = await onlyMailTo(ctx(), person.email);
    expect(mail.subject).toBe('سؤال عن إدخالك في Fieldwork');
    expect(mail.raw).toContain('<html lang="ar" dir="rtl">');
    expect(mail.raw).toContain('مرحبًا Robin،');
    expect(mail.raw).toContain('أجب عنه من سجل مهامك.');
    expect(mail.raw).toContain('يمكنك إيقاف هذه الرسائل من');
    // The notification's own sentence too, with what the participant and the moderator wrote as written.
    expect(mail.raw).toContain('سؤال حول مشاركتك في «Park benches»: Which bench?');
    expect(mail.raw).not.toContain('A question about');
  });

  it('the notifications menu says each notice in the reader’s language; a sentence stored before notices stays as it is', async () => {
    const person = await signedInUser(ctx());
    await setLanguage(ctx(), person.id, 'de');
    const db = ctx().database.db;
    await notify(db, { userId: person.id, kind: 'approved', notice: { key: 'approved', mission: 'Parkbänke', points: 1200 }, link: '/account' });
    await notify(db, {
      userId: person.id,
      kind: 'reward',
      notice: { key: 'reward_requested', reward: 'Buchgutschein', value: 12.5, currency: 'EUR' },
      link: '/account',
    });
    await notify(db, { userId: person.id, kind: 'points', text: 'Points added: 5 — Bonus', link: '/account' });
    const res = await ctx().request('/api/account/notifications', { headers: person.headers });
    const { items } = (await res.json()) as { items: { text: string }[] };
    expect(items.map((item) => item.text)).toEqual([
      'Points added: 5 — Bonus',
      'Prämie angefordert: Buchgutschein (12,50 EUR)',
      'Ihr Beitrag zu „Parkbänke“ wurde angenommen: 1.200 Punkte sind jetzt verfügbar',
    ]);
  });

  it('is written in the language the account has when the job runs, not when it was queued', async () => {
    const person: SignedIn = await signedInUser(ctx());
    await setLanguage(ctx(), person.id, 'de');
    // Queued while German…
    await ctx().json('POST', '/api/auth/password/forgot', { email: person.email });
    await notify(ctx().database.db, { userId: person.id, kind: 'rejected', text: 'Your entry was not accepted.', link: '/account' }, ctx().jobs);
    // …the person switches to Spanish (the switcher's call) before the jobs run.
    const switched = await ctx().json('PUT', '/api/account/language', { language: 'es' }, person.headers);
    expect(switched.status).toBe(200);
    const mails = await mailsTo(ctx(), person.email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual(['Restablece tu contraseña de Fieldwork', 'Tu entrada de Fieldwork no fue aceptada']);
    for (const mail of mails) {
      expect(mail.raw).toContain('<html lang="es" dir="ltr">');
      expect(mail.raw).toContain('Hola, Robin:');
    }
  });

  it('an account notice (password changed) is written when its job runs, in the language then; Arabic right to left', async () => {
    const person = await signedInUser(ctx());
    const changed = await ctx().json(
      'POST',
      '/api/account/password',
      { currentPassword: PASSWORD, password: 'N3w-password!', confirmPassword: 'N3w-password!' },
      person.headers,
    );
    expect(changed.status).toBe(200);
    await setLanguage(ctx(), person.id, 'ar');
    const mail = await onlyMailTo(ctx(), person.email);
    expect(mail.subject).toBe('تم تغيير كلمة مرورك على Fieldwork');
    expect(mail.raw).toContain('<html lang="ar" dir="rtl">');
    expect(mail.raw).toContain('ثم تواصل معنا لنتحقق من حسابك:');
  });

  it('an English account (or one that never chose) gets the English mail, as before', async () => {
    const person = await signedInUser(ctx());
    await ctx().json('POST', '/api/auth/password/forgot', { email: person.email });
    const mail = await onlyMailTo(ctx(), person.email);
    expect(mail.subject).toBe('Reset your Fieldwork password');
    expect(mail.raw).toContain('<html lang="en" dir="ltr">');
    expect(mail.raw).toContain('This link works once and expires in 1 hour.');
  });

  it('registering an address with no account: the page’s language (remembered choice, else the browser’s), else English', async () => {
    const register = async (headers: Record<string, string>) => {
      const email = uniqueEmail('register');
      const res = await ctx().json('POST', '/api/auth/register', { email, firstName: 'Lena', lastName: 'Berg', acceptTerms: true }, headers);
      expect(res.status).toBe(202);
      return onlyMailTo(ctx(), email);
    };
    const german = await register({ 'Accept-Language': 'de-AT,de;q=0.9,en;q=0.5' });
    expect(german.subject).toBe('Schließen Sie die Einrichtung Ihres Fieldwork-Kontos ab');
    expect(german.raw).toContain('<html lang="de" dir="ltr">');
    expect(german.raw).toContain('läuft in 7 Tagen ab');

    const arabic = await register({ Cookie: 'fw_lang=ar', 'Accept-Language': 'de' });
    expect(arabic.subject).toBe('أكمل إعداد حسابك على Fieldwork');
    expect(arabic.raw).toContain('<html lang="ar" dir="rtl">');

    const english = await register({ 'Accept-Language': 'fr-FR,fr;q=0.9' });
    expect(english.subject).toBe('Finish setting up your Fieldwork account');
    expect(english.raw).toContain('<html lang="en" dir="ltr">');
  });
});
