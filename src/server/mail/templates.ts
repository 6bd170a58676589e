import type { MailMessage } from './mailer.ts';

export const PRODUCT_NAME = 'Fieldwork';

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function describeExpiry(expiresAt: Date, now: Date): string {
  const hours = Math.round((expiresAt.getTime() - now.getTime()) / 3_600_000);
  if (hours >= 48) return `${Math.round(hours / 24)} days`;
  if (hours >= 2) return `${hours} hours`;
  return '1 hour';
}

/** One mail layout: a heading, paragraphs, one button link and its expiry, in HTML and text. */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: string;
  url: string;
  expiresAt: Date;
  now: Date;
  footer?: string;
}): MailMessage {
  const expiry = `This link works once and expires in ${describeExpiry(input.expiresAt, input.now)}.`;
  const footer = input.footer ?? `If you did not expect this email, you can ignore it.`;
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    `${input.action}: ${input.url}`,
    '',
    expiry,
    footer,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2933">
  <div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">
    <p style="margin:0 0 24px;font-weight:700;font-size:18px;color:#1d4ed8">${PRODUCT_NAME}</p>
    <p style="margin:0 0 16px">${escapeHtml(input.greeting)}</p>
    ${input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n    ')}
    <p style="margin:24px 0"><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(input.action)}</a></p>
    <p style="margin:0 0 8px;font-size:14px;color:#52606d">Or paste this link into your browser: <br><a href="${escapeHtml(input.url)}" style="color:#1d4ed8;word-break:break-all">${escapeHtml(input.url)}</a></p>
    <p style="margin:16px 0 0;font-size:14px;color:#52606d">${escapeHtml(expiry)} ${escapeHtml(footer)}</p>
  </div>
</body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}

export function invitationMail(input: { to: string; firstName: string; url: string; expiresAt: Date; now: Date }): MailMessage {
  return linkMail({
    to: input.to,
    subject: `You are invited to ${PRODUCT_NAME}`,
    greeting: input.firstName ? `Hello ${input.firstName},` : 'Hello,',
    paragraphs: [
      `You have been invited to join ${PRODUCT_NAME}, where you take part in research surveys and missions and earn points for your contributions.`,
      'Choose your password to finish setting up your account.',
    ],
    action: 'Set up your account',
    url: input.url,
    expiresAt: input.expiresAt,
    now: input.now,
  });
}
