/**
 * The Content-Security-Policy of every page: our own origin only, plus the hashes of the inline
 * scripts the build found. The Node server (src/server/static.ts) and `_headers` send the same.
 */
export function pageCsp(scriptHashes: readonly string[], extraConnect: readonly string[] = []): string {
  const scripts = ["'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...extraConnect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

