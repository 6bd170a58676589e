import fs from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  raw: string;
  links: string[];
}

/** Decodes quoted-printable text (nodemailer's encoding for long lines). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The mails written to DATA_DIR/outbox, oldest first: how tests read mail, as a person reads an inbox. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await fs.readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (name) => {
      const raw = await fs.readFile(path.join(dir, name), 'utf8');
      const decoded = decodeQuotedPrintable(raw);
      return {
        file: name,
        to: /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        subject: /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        raw: decoded,
        links: [...new Set(decoded.match(/https?:\/\/[^\s<>"')]+/g) ?? [])],
      };
    }),
  );
}
