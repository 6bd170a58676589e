/**
 * Passkeys (WebAuthn; issue 29) with SimpleWebAuthn: registering several per person with names,
 * renaming and removing them, and the assertions that sign in with a passkey alone, complete a
 * password's second step, or re-authenticate.
 *
 * - The relying party is `PUBLIC_URL`: its host name is the RP id, its origin the only origin
 *   accepted; the RP name is "Fieldwork".
 * - User verification is required everywhere (a passkey is then both factors), and registration
 *   asks for a discoverable credential (`residentKey: 'required'`), so a passkey alone signs in.
 * - Challenges live on the server (`webauthn_challenges`) for WEBAUTHN_CHALLENGE_MS, with their
 *   purpose and, but for a sign-in with a passkey alone, the person they were made for. A response
 *   names its challenge in its client data; the challenge is deleted by the statement that finds
 *   it (`DELETE … WHERE challenge = … AND expires_at > now RETURNING`), so it serves once, whether
 *   the verification then succeeds or not.
 * - The sign counter is written by a conditional update: of two assertions carrying the same
 *   counter (a cloned authenticator), one only is accepted.
 * - `users.second_factor` follows every passkey added or removed (`refreshSecondFactor`, in the
 *   same transaction), and staff cannot remove their last factor (`assertKeepsAFactor`).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import { and, asc, eq, gt, isNull, lt, lte } from 'drizzle-orm';
import type { z } from 'zod';
import type { PasskeyAssertion, PasskeyView, passkeyRegistrationResponseSchema } from '../../shared/schemas/passkeys.ts';
import { PASSKEYS_MAX, TOO_MANY_PASSKEYS, WEBAUTHN_CHALLENGE_MS } from '../../shared/second-factors.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { passkeys, webauthnChallenges, type Passkey, type SessionUser } from '../db/schema/index.ts';
import { ApiError, notFound } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { assertKeepsAFactor, lockUser, refreshSecondFactor } from './second-factors.ts';

/** What the passkey functions need besides the database. */
export interface PasskeyDeps {
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}

/** Who acts, and from where (the audit log). */
export interface PasskeyMeta {
  ip: string;
}

export type WebAuthnPurpose = 'registration' | 'sign-in' | 'second-factor' | 'reauth';
export type AssertionPurpose = Exclude<WebAuthnPurpose, 'registration'>;

const RP_NAME = 'Fieldwork';
/** The algorithms we accept: Ed25519, ES256, RS256 (what every authenticator offers one of). */
const ALGORITHMS = [-8, -7, -257];
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The relying party: `PUBLIC_URL`'s host name and origin. */
export function relyingParty(config: Pick<Config, 'publicUrl'>): { rpID: string; origin: string; rpName: string } {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: RP_NAME };
}

/**
 * The WebAuthn user handle of an account: its id as text. Stable, so an authenticator keeps one
 * passkey per account and site; no name, email or other personal data.
 */
function userHandle(userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(String(userId), 'utf8'));
}

export function passkeyView(row: Pick<Passkey, 'id' | 'name' | 'createdAt' | 'lastUsedAt'>): PasskeyView {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

/** A person's passkeys, oldest first. */
export function passkeysOf(db: Db, userId: number): Promise<Passkey[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

function descriptors(rows: Passkey[]): { id: string; transports: string[] }[] {
  return rows.map((row) => ({ id: row.credentialId, transports: row.transports }));
}

/** Keeps a challenge for its purpose (and person) for WEBAUTHN_CHALLENGE_MS; forgets the expired ones. */
async function storeChallenge(db: Db, clock: Clock, challenge: string, purpose: WebAuthnPurpose, userId: number | null): Promise<void> {
  const now = clock.now();
  await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values({ challenge, purpose, userId, createdAt: now, expiresAt: new Date(now.getTime() + WEBAUTHN_CHALLENGE_MS) });
}

/** The challenge a response's client data names, or null when the client data cannot be read. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Uses up the challenge a response names: deleted if it is live and was made for this purpose and
 * person (none for a sign-in with a passkey alone). True when it was.
 */
async function consumeChallenge(db: Db, clock: Clock, challenge: string, purpose: WebAuthnPurpose, userId: number | null): Promise<boolean> {
  const rows = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, clock.now()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Registration

/** `POST /api/account/passkeys/options`: the options for `navigator.credentials.create()`, the person's passkeys excluded. */
export async function passkeyRegistrationOptions(db: Db, deps: PasskeyDeps, user: SessionUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rpID, rpName } = relyingParty(deps.config);
  const existing = await passkeysOf(db, user.id);
  if (existing.length >= PASSKEYS_MAX) throw tooManyPasskeys();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userID: userHandle(user.id),
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    timeout: WEBAUTHN_CHALLENGE_MS,
    attestationType: 'none',
    excludeCredentials: descriptors(existing),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(db, deps.clock, options.challenge, 'registration', user.id);
  return options;
}

const tooManyPasskeys = () => new ApiError(409, 'too_many_passkeys', TOO_MANY_PASSKEYS);

function invalidRegistration(): ApiError {
  return new ApiError(400, 'invalid_passkey', 'This passkey could not be added: try again');
}

/**
 * `POST /api/account/passkeys`: verifies the browser's answer to this person's registration
 * challenge (used up either way) and keeps the passkey under its name. 400 `invalid_passkey` for
 * an answer that does not verify (a wrong, expired or used challenge, another origin, no user
 * verification); 409 `passkey_exists` for a credential already registered, 409 `too_many_passkeys`
 * at PASSKEYS_MAX (checked again under the person's row lock). Audited
 * `user.passkey_added`.
 */
export async function registerPasskey(
  db: Db,
  deps: PasskeyDeps,
  user: SessionUser,
  input: { name: string; response: z.output<typeof passkeyRegistrationResponseSchema> },
  meta: PasskeyMeta,
): Promise<PasskeyView> {
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(db, deps.clock, challenge, 'registration', user.id))) throw invalidRegistration();
  const { rpID, origin } = relyingParty(deps.config);
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserPresence: true,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!verified.verified) throw invalidRegistration();
    info = verified.registrationInfo;
  } catch {
    throw invalidRegistration();
  }
  const transports = (input.response.response.transports ?? []).filter((t) => TRANSPORTS.has(t));
  return db.transaction(async (tx) => {
    // The person's row first (two registrations at once count one after the other).
    await lockUser(tx, user.id);
    if ((await passkeysOf(tx, user.id)).length >= PASSKEYS_MAX) throw tooManyPasskeys();
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: user.id,
        credentialId: info.credential.id,
        publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
        counter: info.credential.counter,
        transports,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        name: input.name,
        createdAt: deps.clock.now(),
      })
      .onConflictDoNothing({ target: passkeys.credentialId })
      .returning();
    if (!row) throw new ApiError(409, 'passkey_exists', 'This passkey is already registered');
    await refreshSecondFactor(tx, user.id);
    await audit(tx, {
      actorId: user.id,
      via: 'api',
      action: 'user.passkey_added',
      targetType: 'user',
      targetId: user.id,
      after: { passkeyId: row.id, name: row.name },
      ip: meta.ip,
    });
    return passkeyView(row);
  });
}

/** `PATCH /api/account/passkeys/{id}`: a new name for one of the person's passkeys (404 for anyone else's). Audited `user.passkey_renamed`. */
export async function renamePasskey(db: Db, deps: PasskeyDeps, userId: number, id: number, name: string, meta?: PasskeyMeta): Promise<PasskeyView> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: passkeys.name })
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .for('update');
    if (!before) throw notFound('passkey');
    const [row] = await tx.update(passkeys).set({ name }).where(eq(passkeys.id, id)).returning();
    if (!row) throw notFound('passkey');
    if (before.name !== name) {
      await audit(tx, {
        actorId: userId,
        via: 'api',
        action: 'user.passkey_renamed',
        targetType: 'user',
        targetId: userId,
        before: { passkeyId: id, name: before.name },
        after: { passkeyId: id, name },
        ip: meta?.ip ?? null,
      });
    }
    return passkeyView(row);
  });
}

/**
 * `DELETE /api/account/passkeys/{id}`: removes one of the person's passkeys (404 for anyone
 * else's); 409 `last_second_factor` when it is a staff account's last factor. Audited
 * `user.passkey_removed`.
 */
export async function removePasskey(db: Db, deps: PasskeyDeps, user: SessionUser, id: number, meta: PasskeyMeta): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUser(tx, user.id);
    const [row] = await tx
      .select({ id: passkeys.id, name: passkeys.name })
      .from(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)));
    if (!row) throw notFound('passkey');
    await assertKeepsAFactor(tx, user, { passkeyId: id });
    await tx.delete(passkeys).where(eq(passkeys.id, id));
    await refreshSecondFactor(tx, user.id);
    await audit(tx, {
      actorId: user.id,
      via: 'api',
      action: 'user.passkey_removed',
      targetType: 'user',
      targetId: user.id,
      before: { passkeyId: row.id, name: row.name },
      ip: meta.ip,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Assertions: sign-in with a passkey alone, the second step, re-authentication

/**
 * The options for `navigator.credentials.get()`. `sign-in`: no person and no credential listed
 * (the browser offers the site's passkeys: discoverable). `second-factor` and `reauth`: the
 * person's passkeys only (`userId` required); 409 `no_passkey` when they have none.
 */
export async function passkeyAuthenticationOptions(
  db: Db,
  deps: PasskeyDeps,
  input: { purpose: AssertionPurpose; userId?: number },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = relyingParty(deps.config);
  const userId = input.purpose === 'sign-in' ? null : input.userId;
  if (userId === undefined) throw new Error(`a ${input.purpose} challenge needs a user`);
  let allowCredentials: { id: string; transports: string[] }[] | undefined;
  if (userId !== null) {
    const rows = await passkeysOf(db, userId);
    if (rows.length === 0) throw new ApiError(409, 'no_passkey', 'This account has no passkey');
    allowCredentials = descriptors(rows);
  }
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: WEBAUTHN_CHALLENGE_MS,
    ...(allowCredentials ? { allowCredentials } : {}),
  });
  await storeChallenge(db, deps.clock, options.challenge, input.purpose, userId);
  return options;
}

/**
 * Verifies a passkey's assertion against a live challenge of this purpose (and person: `userId`
 * for `second-factor` and `reauth`, none for `sign-in`), which it uses up whatever follows; then
 * records the use (counter, last used). The passkey's owner, or null for anything wrong: an
 * unknown credential, a wrong, expired or used challenge, another person's credential, a user
 * handle that is not the owner's, a bad signature, no user verification, a counter not above the
 * last one.
 */
export async function verifyPasskeyAssertion(
  db: Db,
  deps: PasskeyDeps,
  input: { purpose: AssertionPurpose; userId?: number; response: PasskeyAssertion | AuthenticationResponseJSON },
): Promise<{ userId: number } | null> {
  const userId = input.purpose === 'sign-in' ? null : input.userId;
  if (userId === undefined) throw new Error(`a ${input.purpose} assertion needs a user`);
  const challenge = challengeOf(input.response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(db, deps.clock, challenge, input.purpose, userId))) return null;

  const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, input.response.id));
  if (!passkey || (userId !== null && passkey.userId !== userId)) return null;
  const handle = input.response.response.userHandle;
  if (handle !== undefined && handle !== isoBase64URL.fromBuffer(userHandle(passkey.userId))) return null;

  const { rpID, origin } = relyingParty(deps.config);
  let info;
  try {
    const verified = await verifyAuthenticationResponse({
      response: input.response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: passkey.transports },
      requireUserVerification: true,
    });
    if (!verified.verified) return null;
    info = verified.authenticationInfo;
  } catch {
    return null;
  }
  // Checked and written in one statement: a counter already seen (a clone, or a parallel use) is refused.
  const newCounter = info.newCounter;
  const [used] = await db
    .update(passkeys)
    .set({ counter: newCounter, lastUsedAt: deps.clock.now(), backedUp: info.credentialBackedUp })
    .where(and(eq(passkeys.id, passkey.id), newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter)))
    .returning({ userId: passkeys.userId });
  return used ? { userId: used.userId } : null;
}
