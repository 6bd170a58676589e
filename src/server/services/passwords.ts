import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` (a const enum, which verbatimModuleSyntax cannot import). */
const ARGON2ID = 2;

/** argon2id with OWASP's parameters (m = 19 MiB, t = 2, p = 1). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Compares a password with a stored hash; a malformed hash is simply a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, for unknown accounts (no enumeration by timing). */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword('Dummy-password-1');
  await verifyPassword(await dummyHash, password);
  return false;
}
