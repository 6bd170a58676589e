/** Kinds of single-use link tokens and how long each lives (ARCHITECTURE.md, security rules). */
export const TOKEN_TYPES = ['onboarding', 'reset-password', 'update-email', 'verify-email'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

const HOUR = 60 * 60 * 1000;

export const TOKEN_TTL_MS: Readonly<Record<TokenType, number>> = {
  onboarding: 7 * 24 * HOUR,
  'reset-password': HOUR,
  'update-email': 24 * HOUR,
  'verify-email': 24 * HOUR,
};

/** The page each link opens, by token type. */
export const TOKEN_PAGES: Readonly<Record<TokenType, string>> = {
  onboarding: '/onboarding',
  'reset-password': '/reset-password',
  'update-email': '/update-email',
  'verify-email': '/update-email',
};
