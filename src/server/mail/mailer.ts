import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { redactSecrets } from '../../shared/redact.ts';
import type { Logger } from '../logger.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sender (the contact form: the person who wrote). */
  replyTo?: string;
  /**
   * True when the message's link is the recipient's own (a link token issued to them: invitation,
   * setup, reset, email and deletion confirmations). Only such a message has its links logged in
   * full by the development outbox; any other's are logged without tokens or secrets.
   */
  recipientOwnsLinks?: boolean;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where unsent mail goes when there is no SMTP server (null with SMTP). */
  readonly outboxDir: string | null;
  close(): void;
}

/** What nodemailer is given: the message without our own flags. */
function mailOf(message: MailMessage): Omit<MailMessage, 'recipientOwnsLinks'> {
  const { recipientOwnsLinks: _own, ...mail } = message;
  return mail;
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
 *
 * The link lines are the operator's own development log (no SMTP), never shown to staff: a link
 * token is logged in full only in a message to its owner (`recipientOwnsLinks`); the links of any
 * other message (the contact form to support, notices) pass through redactSecrets
 * (docs/permissions.md, "Secrets: where they could be written down").
 */
export function createMailer(options: { smtpUrl?: string | undefined; from: string; dataDir: string; logger: Logger }): Mailer {
  const { logger, from } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      outboxDir: null,
      async send(message) {
        await transport.sendMail({ from, ...mailOf(message) });
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
      const info = await transport.sendMail({ from, ...mailOf(message) });
      await fs.mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${process.pid}-${(sequence++).toString().padStart(4, '0')}.eml`);
      // Written whole under another name, then renamed: a reader of the folder never sees half a mail.
      await fs.writeFile(`${file}.part`, info.message as Buffer, { mode: 0o600 });
      await fs.rename(`${file}.part`, file);
      logger.info({ to: message.to, subject: message.subject, file }, 'mail written to outbox');
      for (const link of linksIn(message.text)) {
        const url = message.recipientOwnsLinks === true ? link : redactSecrets(link);
        logger.info({ to: message.to, url }, `mail link: ${url}`);
      }
    },
    close: () => transport.close(),
  };
}
