import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sender (the contact form: the person who wrote). */
  replyTo?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where unsent mail goes when there is no SMTP server (null with SMTP). */
  readonly outboxDir: string | null;
  close(): void;
}

const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g;

/** Every link in a text, once each, in order (a sentence's closing punctuation is not part of it). */
export function linksIn(text: string): string[] {
  return [...new Set((text.match(URL_PATTERN) ?? []).map((url) => url.replace(/[.,;:!?]+$/, '')))];
}

/**
 * nodemailer over SMTP when SMTP_URL is set; otherwise each message is written to
 * DATA_DIR/outbox as an .eml file and each of its links is logged on one line, so a local
 * install works without a mail server and tests read mail as a person reads their inbox.
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; dataDir: string; logger: Logger }): Mailer {
  const { logger, from } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      outboxDir: null,
      async send(message) {
        await transport.sendMail({ from, ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
      close: () => transport.close(),
    };
  }

  const outboxDir = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let sequence = 0;
  return {
    outboxDir,
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${process.pid}-${(sequence++).toString().padStart(4, '0')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
      for (const url of linksIn(message.text)) logger.info({ to: message.to, url }, `mail link: ${url}`);
    },
    close: () => transport.close(),
  };
}
