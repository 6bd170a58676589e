import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { invitationMail } from '../../src/server/mail/templates.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('mail over SMTP (SMTP_URL set)', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

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
        firstName: 'Sam',
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
