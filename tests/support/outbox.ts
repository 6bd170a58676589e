import fs from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  raw: string;
  links: string[];
}

/** Decodes quoted-printable text (nodemailer's encoding for long lines), its bytes read as UTF-8 (a German or Arabic mail). */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Decodes the base64 parts of a message (nodemailer's choice for text mostly outside ASCII, such as Arabic). */
function decodeBase64Parts(text: string): string {
  return text.replace(
    /(Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([A-Za-z0-9+/=\r\n]+)/g,
    (_, head: string, body: string) => `${head}${Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')}\n`,
  );
}

/** A header's value, unfolded, its encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded. */
function headerValue(raw: string, name: string): string {
  const folded = new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)$`, 'm').exec(raw)?.[1] ?? '';
  return folded
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    )
    .trim();
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
      const decoded = decodeBase64Parts(decodeQuotedPrintable(raw));
      return {
        file: name,
        to: /^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        subject: headerValue(raw, 'Subject'),
        raw: decoded,
        links: [...new Set(decoded.match(/https?:\/\/[^\s<>"')]+/g) ?? [])],
      };
    }),
  );
}
