import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { invitationMail } from '../../src/server/mail/templates.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../support/smtp-sink.ts';

describe('mail over SMTP (SMTP_URL set)', () => {
  let sink: SmtpSink;
  let received: ReceivedMail[];
  let port: number;

  beforeAll(async () => {
    sink = await startSmtpSink();
    received = sink.received;
    port = sink.port;
  });

  afterAll(() => sink.close());

  it('delivers the message to the SMTP server instead of the outbox', async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Fieldwork <no-reply@fieldwork.test>',
      dataDir: '/nonexistent',
      logger: createLogger('silent'),
    });
    expect(mailer.outboxDir).toBeNull();
    const now = new Date();
    await mailer.send(
      invitationMail({
        to: 'someone@example.org',
        language: 'en',
        firstName: 'Sam',
        role: 'participant',
        url: 'https://fieldwork.test/onboarding/abc',
        expiresAt: new Date(now.getTime() + 7 * 86_400_000),
        now,
      }),
    );
    mailer.close();
    expect(received).toHaveLength(1);
    expect(received[0]?.from).toBe('no-reply@fieldwork.test');
    expect(received[0]?.to).toEqual(['someone@example.org']);
    expect(received[0]?.raw).toContain('Subject: You are invited to Fieldwork');
    expect(received[0]?.raw).toContain('https://fieldwork.test/onboarding/abc');
    expect(received[0]?.raw).toContain('text/html');
  });
});
