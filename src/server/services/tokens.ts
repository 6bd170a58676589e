import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { INVITATION_USED_MESSAGE, TOKEN_TTL_MS, tokenLinkPath, type TokenType } from '../../shared/tokens.ts';
import type { Db } from '../db/index.ts';
import { ApiError } from '../errors.ts';
import { tokens, users, type Token } from '../db/schema/index.ts';
import type { Clock } from './clock.ts';
import { randomToken, sha256Hex } from './crypto.ts';

/** What every call answers for a link that does not work (unknown, used, expired, another kind). */
export const INVALID_TOKEN_MESSAGE = 'This link is invalid or has expired';

/** 404 `invalid_token`. */
export const invalidToken = () => new ApiError(404, 'invalid_token', INVALID_TOKEN_MESSAGE);

/**
 * The error for an onboarding link that does not work: 404 `invitation_used` when it was an
 * invitation of an account now active (used, or replaced by a newer link that was used: its owner
 * signs in), else 404 `invalid_token`. Only the link's holder learns this, and no address.
 */
export async function onboardingLinkError(db: Db, token: string): Promise<ApiError> {
  if (!token || token.length > 256) return invalidToken();
  const [row] = await db
    .select({ status: users.status })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(eq(tokens.tokenHash, sha256Hex(token)), eq(tokens.type, 'onboarding'), isNotNull(tokens.usedAt)))
    .limit(1);
  return row?.status === 'active' ? new ApiError(404, 'invitation_used', INVITATION_USED_MESSAGE) : invalidToken();
}

/**
 * Issues a link token; earlier unused tokens of the same type for the user stop working, so the
 * newest link is the only valid one.
 */
export async function issueLinkToken(
  db: Db,
  clock: Clock,
  input: { type: TokenType; userId: number; data?: Record<string, string>; ttlMs?: number },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + (input.ttlMs ?? TOKEN_TTL_MS[input.type]));
  await db.transaction(async (tx) => {
    await tx
      .update(tokens)
      .set({ usedAt: now })
      .where(and(eq(tokens.userId, input.userId), eq(tokens.type, input.type), isNull(tokens.usedAt)));
    await tx.insert(tokens).values({
      tokenHash: sha256Hex(token),
      type: input.type,
      userId: input.userId,
      data: input.data ?? {},
      createdAt: now,
      expiresAt,
    });
  });
  return { token, expiresAt };
}

/** A usable token of that type (unused, unexpired), without using it. */
export async function findUsableToken(db: Db, clock: Clock, token: string, type: TokenType): Promise<Token | null> {
  if (!token || token.length > 256) return null;
  const [row] = await db
    .select()
    .from(tokens)
    .where(and(eq(tokens.tokenHash, sha256Hex(token)), eq(tokens.type, type), isNull(tokens.usedAt), gt(tokens.expiresAt, clock.now())))
    .limit(1);
  return row ?? null;
}

/**
 * Marks a token used; true only for the one caller that used it. Run it in the same transaction
 * as the change the link makes.
 */
export async function consumeToken(db: Db, clock: Clock, tokenId: number): Promise<boolean> {
  const used = await db
    .update(tokens)
    .set({ usedAt: clock.now() })
    .where(and(eq(tokens.id, tokenId), isNull(tokens.usedAt)))
    .returning({ id: tokens.id });
  return used.length === 1;
}

/** The absolute URL of the page a link token opens. */
export function linkUrl(publicUrl: string, type: TokenType, token: string): string {
  return `${publicUrl}${tokenLinkPath(type, token)}`;
}
