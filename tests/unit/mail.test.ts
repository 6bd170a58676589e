import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer, linksIn } from '../../src/server/mail/mailer.ts';
import type { Mailer } from '../../src/server/mail/mailer.ts';
import { approvalsDigestMail, invitationMail, linkMail, mailLanguageOf, missionReminderMail, PRODUCT_NAME } from '../../src/server/mail/templates.ts';
import { formatDateTimeWithZone } from '../../src/shared/dates.ts';

describe('linksIn', () => {
  it('finds every link once, in order', () => {
    const text = 'First https://a.example/one then http://b.example/two and https://a.example/one again';
    expect(linksIn(text)).toEqual(['https://a.example/one', 'http://b.example/two']);
  });

  it('is empty without links', () => {
    expect(linksIn('No links here, not even ftp://x.example or www.example.org')).toEqual([]);
  });

  it.each([
    ['double quotes', '<a href="https://a.example/x">', 'https://a.example/x'],
    ['single quotes', "href='https://a.example/x'", 'https://a.example/x'],
    ['angle brackets', '<https://a.example/x>', 'https://a.example/x'],
    ['parentheses', '(see https://a.example/x)', 'https://a.example/x'],
    ['whitespace', 'https://a.example/x\nnext line', 'https://a.example/x'],
  ])('stops at %s', (_case, text, link) => {
    expect(linksIn(text)).toEqual([link]);
  });

  it('leaves out the punctuation that ends a sentence', () => {
    expect(linksIn('Open https://a.example/x. Or https://b.example/y, then https://c.example/z!')).toEqual([
      'https://a.example/x',
      'https://b.example/y',
      'https://c.example/z',
    ]);
  });

  it('keeps query strings and fragments', () => {
    expect(linksIn('Go: https://a.example/reset?token=abc_DEF-1&type=reset#top')).toEqual(['https://a.example/reset?token=abc_DEF-1&type=reset#top']);
  });

  it('keeps an IPv6 origin whole (publicUrl can be http://[::1]:PORT)', () => {
    expect(linksIn('Open http://[::1]:4321/onboarding/abc now')).toEqual(['http://[::1]:4321/onboarding/abc']);
  });
});

/** Decodes quoted-printable soft line breaks and escapes, as a mail client would. */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The body of the MIME part of a given content type in a raw message. */
function partOf(raw: string, type: string): string {
  const start = raw.indexOf(`Content-Type: ${type}`);
  if (start < 0) throw new Error(`no ${type} part`);
  const headersEnd = raw.indexOf('\n\n', start);
  const boundary = raw.indexOf('\n--', headersEnd);
  return decodeQuotedPrintable(raw.slice(headersEnd + 2, boundary < 0 ? undefined : boundary));
}

describe('createMailer without SMTP (outbox)', () => {
  let dataDir: string;
  let lines: string[];
  let mailer: Mailer;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldwork-mail-'));
    lines = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    mailer = createMailer({ from: 'Fieldwork <no-reply@fieldwork.localhost>', dataDir, logger });
  });

  afterEach(() => {
    mailer.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const outbox = () => path.join(dataDir, 'outbox');
  const emlFiles = () =>
    fs
      .readdirSync(outbox())
      .filter((f) => f.endsWith('.eml'))
      .sort();
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  const longLine = `${'A long paragraph that a mail encoder will wrap. '.repeat(4)}The end.`;
  const message = {
    to: 'dana@example.org',
    subject: 'Finish setting up your account',
    text: `Hello Dana,\n\n${longLine}\n\nSet up: https://fw.example/onboarding/tok_1\nAgain: https://fw.example/onboarding/tok_1\nHelp: https://fw.example/contact\n`,
    html: '<p>Hello <b>Dana</b>, <a href="https://fw.example/onboarding/tok_1">set up</a></p>',
    // Dana's own setup link: the development outbox logs it in full (mailer.ts).
    recipientOwnsLinks: true,
  };

  it('names its outbox folder', () => {
    expect(mailer.outboxDir).toBe(outbox());
  });

  it('writes one .eml file per message into DATA_DIR/outbox', async () => {
    await mailer.send(message);
    expect(emlFiles()).toHaveLength(1);
    await mailer.send({ ...message, to: 'eli@example.org', subject: 'Second' });
    const files = emlFiles();
    expect(files).toHaveLength(2);
    const [first, second] = files.map((f) => fs.readFileSync(path.join(outbox(), f), 'utf8'));
    expect(first).toMatch(/^To: dana@example\.org$/m);
    expect(second).toMatch(/^To: eli@example\.org$/m);
    expect(second).toMatch(/^Subject: Second$/m);
  });

  it('writes a complete message: From, To, Subject, the text and the HTML parts', async () => {
    await mailer.send(message);
    const [file] = emlFiles();
    const raw = fs.readFileSync(path.join(outbox(), file ?? ''), 'utf8');
    expect(raw).toMatch(/^From: Fieldwork <no-reply@fieldwork\.localhost>$/m);
    expect(raw).toMatch(/^To: dana@example\.org$/m);
    expect(raw).toMatch(/^Subject: Finish setting up your account$/m);
    expect(raw).toMatch(/^Content-Type: multipart\/alternative/m);
    const text = partOf(raw, 'text/plain');
    expect(text).toContain('Hello Dana,');
    expect(text).toContain(longLine);
    expect(text).toContain('Set up: https://fw.example/onboarding/tok_1');
    expect(partOf(raw, 'text/html')).toContain(message.html);
  });

  it('logs each link of the text once, on a line of its own', async () => {
    await mailer.send(message);
    const linkLines = logged().filter((entry) => 'url' in entry);
    expect(linkLines.map((entry) => entry['url'])).toEqual(['https://fw.example/onboarding/tok_1', 'https://fw.example/contact']);
    for (const entry of linkLines) {
      expect(entry['msg']).toBe(`mail link: ${String(entry['url'])}`);
      expect(entry['to']).toBe('dana@example.org');
    }
    expect(lines.every((line) => line.endsWith('\n') && line.trimEnd().split('\n').length === 1)).toBe(true);
  });

  it('logs where the message was written', async () => {
    await mailer.send(message);
    const written = logged().find((entry) => entry['msg'] === 'mail written to outbox');
    expect(written?.['to']).toBe('dana@example.org');
    expect(written?.['subject']).toBe(message.subject);
    expect(written?.['file']).toBe(path.join(outbox(), emlFiles()[0] ?? ''));
  });
});

describe('invitationMail', () => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const expiresAt = new Date(now.getTime() + 7 * 24 * 3_600_000);
  const url = 'https://fw.example/onboarding/q3Zc9_x-VbN0aLk7Tt2mWpR8sYdEfGhJ1uIoPlKjHg4';

  it('is addressed to the invitee with a subject naming Fieldwork', () => {
    const mail = invitationMail({ to: 'ann@example.org', language: 'en', firstName: 'Ann', role: 'participant', url, expiresAt, now });
    expect(mail.to).toBe('ann@example.org');
    expect(PRODUCT_NAME).toBe('Fieldwork');
    expect(mail.subject).toContain('Fieldwork');
  });

  it('gives the link and its 7-day expiry in text and HTML', () => {
    const mail = invitationMail({ to: 'ann@example.org', language: 'en', firstName: 'Ann', role: 'participant', url, expiresAt, now });
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.text).toContain('expires in 7 days');
    expect(mail.html).toContain('expires in 7 days');
    expect(mail.text).toContain('Hello Ann,');
    expect(linksIn(mail.text)).toEqual([url]);
  });

  it('HTML-escapes the first name', () => {
    const mail = invitationMail({ to: 'x@example.org', language: 'en', firstName: '<b>Ann</b> & "Co"', role: 'participant', url, expiresAt, now });
    expect(mail.html).not.toContain('<b>Ann');
    expect(mail.html).toContain('Hello &lt;b&gt;Ann&lt;/b&gt; &amp; &quot;Co&quot;,');
    expect(mail.text).toContain('Hello <b>Ann</b> & "Co",');
  });

  it('greets without a name when there is none', () => {
    const mail = invitationMail({ to: 'x@example.org', language: 'en', firstName: '', role: 'participant', url, expiresAt, now });
    expect(mail.text.startsWith('Hello,\n')).toBe(true);
  });

  it('is worded by role, naming the project and who invites, escaped in the HTML (issue 28 §10)', () => {
    const about = {
      to: 'x@example.org',
      language: 'en' as const,
      firstName: 'Ann',
      url,
      expiresAt,
      now,
      projectName: 'Snacks <2026>',
      inviterName: 'Ada "A" Lee',
    };
    const participant = invitationMail({ ...about, role: 'participant' });
    expect(participant.subject).toBe('You are invited to take part in “Snacks <2026>” on Fieldwork');
    expect(participant.text).toContain('Ada "A" Lee invited you to take part in the research project “Snacks <2026>” on Fieldwork.');
    expect(participant.text).toContain('earn points');
    expect(participant.html).toContain('Ada &quot;A&quot; Lee invited you to take part in the research project “Snacks &lt;2026&gt;”');
    expect(participant.html).not.toContain('<2026>');
    // The app's teal, not blue (issue 28 §12).
    expect(participant.html).toContain('background:#006973;color:#ffffff');
    expect(participant.html).not.toContain('#1d4ed8');

    const moderator = invitationMail({ ...about, role: 'moderator' });
    expect(moderator.subject).toBe('You are invited to Fieldwork as a moderator for “Snacks <2026>”');
    expect(moderator.text).toContain('Ada "A" Lee invited you to join Fieldwork as a moderator, starting with the project “Snacks <2026>”.');
    expect(moderator.text).toContain('As a moderator you');
    expect(moderator.text).not.toContain('points');

    const admin = invitationMail({ ...about, role: 'admin', projectName: null, inviterName: null });
    expect(admin.subject).toBe('You are invited to Fieldwork as an admin');
    expect(admin.text).toContain('You have been invited to join Fieldwork as an admin.');
    expect(invitationMail({ ...about, role: 'participant', projectName: '', inviterName: 'Line\nBreak' }).text).toContain(
      'Line Break invited you to take part in research on Fieldwork.',
    );
  });

  it('escapes the URL inside the HTML attribute', () => {
    const tricky = 'https://fw.example/onboarding/abc?x=1&y="><script>alert(1)</script>';
    const mail = invitationMail({ to: 'x@example.org', language: 'en', firstName: 'Ann', role: 'participant', url: tricky, expiresAt, now });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('href="https://fw.example/onboarding/abc?x=1&amp;y=&quot;&gt;&lt;script&gt;');
  });
});

describe('linkMail expiry wording', () => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  const mailExpiringIn = (hours: number) =>
    linkMail({
      to: 'x@example.org',
      language: 'en',
      subject: 'S',
      greeting: 'Hi,',
      paragraphs: ['P'],
      action: 'Go',
      url: 'https://fw.example/x',
      expiresAt: new Date(now.getTime() + hours * 3_600_000),
      now,
    });

  it.each([
    [1, '1 hour'],
    [2, '2 hours'],
    [24, '24 hours'],
    [48, '2 days'],
    [168, '7 days'],
  ])('%i hours reads "%s"', (hours, wording) => {
    expect(mailExpiringIn(hours).text).toContain(`expires in ${wording}.`);
  });
});

describe('mails in the recipient’s language (issue 31)', () => {
  const closesAt = new Date('2026-11-28T19:54:00.000Z');
  const reminder = (language: 'en' | 'de' | 'es' | 'ar') =>
    missionReminderMail({
      to: 'x@example.org',
      language,
      firstName: 'Ann',
      missionTitle: 'Snacks',
      closesAt,
      url: 'https://fw.example/missions/1',
      preferencesUrl: 'https://fw.example/p',
    });

  it('writes subject, text and dates in the language, with <html lang dir>', () => {
    const english = reminder('en');
    expect(english.subject).toBe('Reminder: Snacks closes in less than two days');
    expect(english.text).toContain(`The mission "Snacks" closes on ${formatDateTimeWithZone(closesAt, 'UTC', 'en')}, and you have not finished it yet.`);
    expect(english.html).toContain('<html lang="en" dir="ltr">');

    const german = reminder('de');
    expect(german.subject).toBe('Erinnerung: Snacks endet in weniger als zwei Tagen');
    expect(german.text).toContain(`Die Mission „Snacks“ endet am ${formatDateTimeWithZone(closesAt, 'UTC', 'de')}`);
    expect(formatDateTimeWithZone(closesAt, 'UTC', 'de')).toContain('28.');
    expect(german.text.startsWith('Hallo Ann,\n')).toBe(true);
    expect(german.html).toContain('<html lang="de" dir="ltr">');
    expect(german.html).toContain('Sie können diese E-Mails in <a href="https://fw.example/p" style="color:#006973">Ihren Einstellungen</a> abschalten.');

    const arabic = reminder('ar');
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.subject).toBe('تذكير: تُغلق المهمة «Snacks» خلال أقل من يومين');
  });

  it('counts in the language’s plural forms', () => {
    const digest = (language: 'en' | 'ar', count: number) =>
      approvalsDigestMail({
        to: 'x@example.org',
        language,
        firstName: '',
        items: Array.from({ length: count }, (_, i) => ({ text: `Entry ${i}`, url: `https://fw.example/${i}` })),
        more: 0,
        url: 'https://fw.example/account',
        preferencesUrl: 'https://fw.example/p',
      }).subject;
    expect(digest('en', 1)).toBe('1 entry approved on Fieldwork');
    expect(digest('en', 3)).toBe('3 entries approved on Fieldwork');
    expect(digest('ar', 2)).toBe('تم قبول إدخالين على Fieldwork');
    // Digits as Intl writes them in Arabic (Latin digits in current CLDR).
    expect(digest('ar', 3)).toBe(`تم قبول ${new Intl.NumberFormat('ar').format(3)} إدخالات على Fieldwork`);
  });

  it('reads the language from the account’s preferences, else the request’s, else English', () => {
    expect(mailLanguageOf({ language: 'de' }, 'es')).toBe('de');
    expect(mailLanguageOf({}, 'es')).toBe('es');
    expect(mailLanguageOf({ language: 'fr' })).toBe('en');
    expect(mailLanguageOf(null, null)).toBe('en');
  });
});
