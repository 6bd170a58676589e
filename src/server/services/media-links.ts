/**
 * Signed photo links: a photo shared outside Fieldwork (the review exports' photos, fetched by a
 * retail platform) without a session, for a limited time. The link names the photo, the variant
 * (display image or thumbnail) and its expiry (Unix seconds), and carries an HMAC-SHA256 of the
 * three under the server's key: `MEDIA_LINK_SECRET` when set, otherwise a random key made once and
 * kept in `server_secrets` (name `media_link`), so every process signs and checks alike.
 * `docs/decisions/017-review-exports.md`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { media, serverSecrets } from '../db/schema/index.ts';

export const SHARED_VARIANTS = ['display', 'thumbnail'] as const;
export type SharedVariant = (typeof SHARED_VARIANTS)[number];

const SECRET_NAME = 'media_link';

/** The key of signed links (see the module's comment). Making it twice at once is harmless: the first row wins and both read it. */
export async function mediaLinkKey(db: Db, config: Pick<Config, 'mediaLinkSecret'>): Promise<Buffer> {
  if (config.mediaLinkSecret) return Buffer.from(config.mediaLinkSecret, 'utf8');
  const read = async () => (await db.select({ value: serverSecrets.value }).from(serverSecrets).where(eq(serverSecrets.name, SECRET_NAME)).limit(1))[0];
  let row = await read();
  if (!row) {
    await db
      .insert(serverSecrets)
      .values({ name: SECRET_NAME, value: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    row = await read();
  }
  if (!row) throw new Error('the media link key could not be kept');
  return Buffer.from(row.value, 'utf8');
}

function signature(key: Buffer, mediaId: string, variant: SharedVariant, expires: number): string {
  return createHmac('sha256', key).update(`fieldwork.media-link/1\n${mediaId}\n${variant}\n${expires}`).digest('base64url');
}

/** The path and query of a signed link (`/api/media/{id}/shared?variant=&expires=&signature=`), valid until `expires` (Unix seconds). */
export function signedMediaPath(key: Buffer, mediaId: string, variant: SharedVariant, expires: number): string {
  const query = new URLSearchParams({ variant, expires: String(expires), signature: signature(key, mediaId, variant, expires) });
  return `/api/media/${encodeURIComponent(mediaId)}/shared?${query.toString()}`;
}

/** Which of these photo ids exist (an answer may name a photo since removed): one query. */
export async function existingMediaIds(db: Db, ids: ReadonlySet<string>): Promise<Set<string>> {
  if (ids.size === 0) return new Set();
  const rows = await db
    .select({ id: media.id })
    .from(media)
    .where(inArray(media.id, [...ids]));
  return new Set(rows.map((row) => row.id));
}

/** Absolute signed links to photos' display images (`{publicUrl}/api/media/{id}/shared?…`), each valid `days` days from `now`. */
export async function sharedPhotoLinks(
  db: Db,
  config: Pick<Config, 'mediaLinkSecret' | 'publicUrl'>,
  now: Date,
  days: number,
): Promise<(mediaId: string) => string> {
  const key = await mediaLinkKey(db, config);
  const expires = Math.floor(now.getTime() / 1000) + days * 24 * 60 * 60;
  return (mediaId) => `${config.publicUrl}${signedMediaPath(key, mediaId, 'display', expires)}`;
}

export type SignedLinkCheck = { ok: true; variant: SharedVariant; expires: number } | { ok: false; reason: 'invalid' | 'expired' };

/**
 * Checks a link's query: `invalid` when a part is missing or malformed or the signature does not
 * match (compared in constant time), `expired` when it is signed but its time has passed.
 */
export function checkSignedLink(
  key: Buffer,
  mediaId: string,
  query: { variant?: string | undefined; expires?: string | undefined; signature?: string | undefined },
  nowMs: number,
): SignedLinkCheck {
  const variant = (query.variant ?? 'display') as SharedVariant;
  if (!SHARED_VARIANTS.includes(variant)) return { ok: false, reason: 'invalid' };
  if (!query.expires || !/^\d{1,12}$/.test(query.expires) || !query.signature || !/^[A-Za-z0-9_-]{43}$/.test(query.signature)) {
    return { ok: false, reason: 'invalid' };
  }
  const expires = Number(query.expires);
  const expected = Buffer.from(signature(key, mediaId, variant, expires));
  const given = Buffer.from(query.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  if (expires * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, variant, expires };
}
