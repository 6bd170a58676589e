import { Hono } from 'hono';
import { tokenVerifySchema } from '../../shared/schemas/auth.ts';
import { TOKEN_TYPES, type TokenType } from '../../shared/tokens.ts';
import type { AppEnv } from '../context.ts';
import { clientIp, enforceRateLimits, noStore, query } from '../http.ts';
import { findUsableToken, invalidToken, onboardingLinkError } from '../services/tokens.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { findUserById } from '../services/users.ts';

const isTokenType = (type: string): type is TokenType => (TOKEN_TYPES as readonly string[]).includes(type);

/**
 * GET /api/tokens/verify?token=&type=: tells a page whether its link works, without using it,
 * and what the page needs to show (whose account, which fields are still missing).
 */
export const tokenRoutes = new Hono<AppEnv>().get('/verify', query(tokenVerifySchema), async (c) => {
  const { token, type } = c.req.valid('query');
  await enforceRateLimits(c, [[`token:ip:${clientIp(c)}`, RATE_LIMITS.tokenChecksPerIp]]);
  noStore(c);
  const { db, deps } = c.var;
  const found = isTokenType(type) ? await findUsableToken(db, deps.clock, token, type) : null;
  const user = found ? await findUserById(db, found.userId) : null;
  if (!found || !user || user.status === 'disabled' || (type === 'onboarding' && user.status !== 'invited')) {
    // A used invitation of an account set up since: "already used — sign in" (404 `invitation_used`).
    throw type === 'onboarding' ? await onboardingLinkError(db, token) : invalidToken();
  }
  return c.json(
    {
      valid: true,
      type: found.type,
      expiresAt: found.expiresAt.toISOString(),
      // For an email change, the address being confirmed.
      email: found.type === 'update-email' ? (found.data.email ?? user.email) : user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      needsName: !user.firstName || !user.lastName,
      needsTerms: !user.termsAcceptedAt,
    },
    200,
  );
});
