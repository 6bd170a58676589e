/**
 * Secrets kept at rest encrypted (issue 29: the authenticator apps' TOTP secrets): AES-256-GCM
 * under the server's key — `SECOND_FACTOR_KEY` when set, otherwise a random key made once and
 * kept in `server_secrets` (name `second_factor`), as the media link key is
 * (`services/media-links.ts`), so every process seals and opens alike.
 *
 * A sealed value is `v1.<iv>.<ciphertext>.<tag>` (base64url; a fresh 96-bit IV each time). GCM's
 * tag makes a changed value, a value sealed under another key or for another `context` fail to
 * open (it throws). `context` (optional) is authenticated but not stored: a secret sealed for one
 * person (`totp:<user id>`) does not open as another's, so a row copied to another account is of
 * no use.
 *
 * Losing the key (changing SECOND_FACTOR_KEY, or losing the `server_secrets` row) makes every
 * authenticator app unusable: people then sign in with a recovery code or a passkey, or an admin
 * resets their second factors.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { serverSecrets } from '../db/schema/index.ts';

const SECRET_NAME = 'second_factor';
const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** The key of sealed secrets (see the module's comment). Made twice at once is harmless: the first row wins and both read it. */
export async function secondFactorKey(db: Db, config: Pick<Config, 'secondFactorKey'>): Promise<Buffer> {
  if (config.secondFactorKey) return config.secondFactorKey;
  const read = async () => (await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME)).limit(1))[0];
  let row = await read();
  if (!row) {
    await db
      .insert(serverSecrets)
      .values({ name: SECRET_NAME, value: randomBytes(KEY_BYTES).toString('base64url') })
      .onConflictDoNothing();
    row = await read();
  }
  if (!row) throw new Error('the second-factor key could not be kept');
  const key = Buffer.from(row.value, 'base64url');
  if (key.length !== KEY_BYTES) throw new Error('the kept second-factor key is not 32 bytes');
  return key;
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error('an AES-256-GCM key is 32 bytes');
}

/** Encrypts `plaintext` (UTF-8) under `key`; `context`, when given, must be given again to open it. */
export function seal(key: Buffer, plaintext: string, context = ''): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  cipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** Decrypts what `seal` made; throws when it was changed, sealed under another key or for another context, or is not a sealed value. */
export function open(key: Buffer, sealed: string, context = ''): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('not a sealed value');
  const [, iv, body, tag] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer, Buffer];
  if (iv.length !== IV_BYTES || tag.length !== 16) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  decipher.setAAD(Buffer.from(`${VERSION}:${context}`, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
