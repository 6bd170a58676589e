/** Kinds of single-use link tokens and how long each lives (docs/architecture.md, security rules). */
export const TOKEN_TYPES = ['onboarding', 'reset-password', 'update-email', 'verify-email', 'data-deletion'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

const HOUR = 60 * 60 * 1000;

export const TOKEN_TTL_MS: Readonly<Record<TokenType, number>> = {
  onboarding: 7 * 24 * HOUR,
  'reset-password': HOUR,
  'update-email': 24 * HOUR,
  'verify-email': 24 * HOUR,
  'data-deletion': 24 * HOUR,
};

/** An onboarding link of an account set up since (404 `invitation_used`): what the API and the page say. */
export const INVITATION_USED_MESSAGE = 'This invitation was already used — sign in';

/** The page each link opens, by token type. */
export const TOKEN_PAGES: Readonly<Record<TokenType, string>> = {
  onboarding: '/onboarding',
  'reset-password': '/reset-password',
  'update-email': '/update-email',
  'verify-email': '/update-email',
  'data-deletion': '/data-deletion',
};

/**
 * Token types whose page takes the token as `?token=` rather than as a path segment: their page
 * is a public route with no token parameter (/data-deletion also works without a link).
 */
export const TOKEN_IN_QUERY: ReadonlySet<TokenType> = new Set<TokenType>(['data-deletion']);

/** The path (and query) of the page a link token opens: `/onboarding/{token}`, `/data-deletion?token={token}`. */
export function tokenLinkPath(type: TokenType, token: string): string {
  const page = TOKEN_PAGES[type];
  return TOKEN_IN_QUERY.has(type) ? `${page}?token=${encodeURIComponent(token)}` : `${page}/${token}`;
}
