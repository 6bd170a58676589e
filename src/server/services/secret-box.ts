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
 *
 * Delivered rewards' gift-card codes and links (issue 30) are sealed the same way under a key of
 * their own — `REWARD_DELIVERY_KEY`, else `server_secrets` row `reward_delivery` — for the context
 * `redemption:<id>`, so a code copied to another redemption does not open. Losing that key loses
 * the codes already delivered (participants then ask for them again; staff never see them).
 *
 * Outgoing webhooks' signing secrets (issue 32) likewise: `WEBHOOK_SECRET_KEY`, else `server_secrets`
 * row `webhook_secret`, for the context `webhook:<endpoint id>` (`sealWebhookSecret`). Losing that
 * key makes every endpoint's secret unreadable: its deliveries fail until an admin rotates it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Redemption } from '../../shared/rewards.ts';
import type { Db } from '../db/index.ts';
import { serverSecrets } from '../db/schema/index.ts';

const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

/** A key from the environment when set, else the random one made once and kept in `server_secrets` under `name`. Made twice at once is harmless: the first row wins and both read it. */
async function keptKey(db: Db, name: string, configured: Buffer | undefined): Promise<Buffer> {
  if (configured) return configured;
  const read = async () => (await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1))[0];
  let row = await read();
  if (!row) {
    await db
      .insert(serverSecrets)
      .values({ name, value: randomBytes(KEY_BYTES).toString('base64url') })
      .onConflictDoNothing();
    row = await read();
  }
  if (!row) throw new Error(`the ${name} key could not be kept`);
  const key = Buffer.from(row.value, 'base64url');
  if (key.length !== KEY_BYTES) throw new Error(`the kept ${name} key is not 32 bytes`);
  return key;
}

/** The key of second-factor secrets (see the module's comment). */
export function secondFactorKey(db: Db, config: Pick<Config, 'secondFactorKey'>): Promise<Buffer> {
  return keptKey(db, 'second_factor', config.secondFactorKey);
}

/** The key of delivered rewards' codes and links (see the module's comment). */
export function rewardDeliveryKey(db: Db, config: Pick<Config, 'rewardDeliveryKey'>): Promise<Buffer> {
  return keptKey(db, 'reward_delivery', config.rewardDeliveryKey);
}

/** The key of outgoing webhooks' signing secrets (see the module's comment). */
export function webhookSecretKey(db: Db, config: Pick<Config, 'webhookSecretKey'>): Promise<Buffer> {
  return keptKey(db, 'webhook_secret', config.webhookSecretKey);
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

/** A delivered reward's code and/or link. */
export type RedemptionDelivery = NonNullable<Redemption['delivery']>;

/** A redemption's delivery (its code and/or link), sealed for that redemption alone. */
export function sealDelivery(key: Buffer, redemptionId: number, delivery: RedemptionDelivery): string {
  return seal(key, JSON.stringify(delivery), `redemption:${redemptionId}`);
}

/** What `sealDelivery` sealed for this redemption; throws when it was sealed for another or changed. */
export function openDelivery(key: Buffer, redemptionId: number, sealed: string): RedemptionDelivery {
  const value = JSON.parse(open(key, sealed, `redemption:${redemptionId}`)) as { code?: unknown; link?: unknown };
  return {
    ...(typeof value.code === 'string' ? { code: value.code } : {}),
    ...(typeof value.link === 'string' ? { link: value.link } : {}),
  };
}

/** An endpoint's signing secret (`whsec_…`), sealed for that endpoint alone. */
export function sealWebhookSecret(key: Buffer, endpointId: number, secret: string): string {
  return seal(key, secret, `webhook:${endpointId}`);
}

/** What `sealWebhookSecret` sealed for this endpoint; throws when it was sealed for another or changed. */
export function openWebhookSecret(key: Buffer, endpointId: number, sealed: string): string {
  return open(key, sealed, `webhook:${endpointId}`);
}
