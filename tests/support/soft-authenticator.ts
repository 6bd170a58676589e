/**
 * A software WebAuthn authenticator for tests (issue 29): what a browser and a passkey provider
 * answer to `navigator.credentials.create()` / `.get()`, built by hand from a P-256 key pair
 * (node:crypto). Registration answers carry attestation `none`; every answer has the user present
 * (UP) and verified (UV) flags unless a test says otherwise, and a sign counter that grows by one
 * with each assertion. It answers the options the server sends (`PublicKeyCredentialCreationOptionsJSON`,
 * `PublicKeyCredentialRequestOptionsJSON`) with the JSON a browser would post
 * (`RegistrationResponseJSON`, `AuthenticationResponseJSON`), for the origin given.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** A credential the authenticator holds (a passkey: discoverable, bound to its relying party and user). */
export interface SoftCredential {
  /** base64url */
  id: string;
  rpId: string;
  /** The user handle the relying party gave at registration (base64url), returned with each assertion. */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/** What a test may change in an answer: the flags, the counter, which credential answers. */
export interface SoftAnswerOptions {
  /** User verified (UV); true by default. */
  userVerified?: boolean;
  /** User present (UP); true by default. */
  userPresent?: boolean;
  /** Answer with this credential (base64url) whatever the options allow, as a hostile client could. */
  credentialId?: string;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

function flagsOf(options: SoftAnswerOptions, extra = 0): number {
  return (options.userPresent === false ? 0 : FLAG_UP) | (options.userVerified === false ? 0 : FLAG_UV) | extra;
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The client data a browser would hash into the signature. */
function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** The public key as a COSE EC2 key (kty 2, alg −7 ES256, crv 1 P-256, x, y). */
function coseKey(privateKey: KeyObject): Uint8Array {
  const jwk = privateKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y) throw new Error('not an EC key');
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y, 'base64url'))],
    ]),
  );
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  /** `navigator.credentials.create()`: a new discoverable credential for the options' relying party and user. */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin: string, answer: SoftAnswerOptions = {}): RegistrationResponseJSON {
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(c.id))) throw new Error('InvalidStateError: this authenticator is already registered');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const rawId = randomBytes(32);
    const credential: SoftCredential = { id: b64url(rawId), rpId, userHandle: options.user.id, privateKey, counter: 0 };
    // A new credential replaces the one this authenticator held for the same relying party and user (as passkey providers do).
    const same = this.credentials.findIndex((c) => c.rpId === rpId && c.userHandle === credential.userHandle);
    if (same >= 0) this.credentials.splice(same, 1);
    this.credentials.push(credential);

    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(rawId.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flagsOf(answer, FLAG_AT)]),
      counterBytes(credential.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      rawId,
      coseKey(privateKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal', 'hybrid'],
      },
    };
  }

  /**
   * `navigator.credentials.get()`: an assertion by the first credential the options allow (any of
   * this relying party's when they list none: a discoverable sign-in), its counter one higher.
   */
  assert(options: PublicKeyCredentialRequestOptionsJSON, origin: string, answer: SoftAnswerOptions = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential = answer.credentialId
      ? this.credentials.find((c) => c.id === answer.credentialId)
      : this.credentials.find((c) => c.rpId === rpId && (allowed.size === 0 || allowed.has(c.id)));
    if (!credential) throw new Error('NotAllowedError: no credential for these options');
    credential.counter += 1;
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([flagsOf(answer)]), counterBytes(credential.counter)]);
    const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
    // ES256: ECDSA over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded as WebAuthn expects.
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }
}
