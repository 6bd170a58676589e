import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pageCsp } from '../../src/shared/csp.ts';

const sha256 = (content: string): string => `sha256-${createHash('sha256').update(content, 'utf8').digest('base64')}`;

describe('pageCsp', () => {
  const hashes = [sha256('a()'), sha256('b()')];
  const directives = (csp: string): Map<string, string[]> =>
    new Map(
      csp.split(';').map((part) => {
        const [name = '', ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );

  it('locks the page to its own origin', () => {
    const csp = directives(pageCsp(hashes));
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    // The participants' service worker (/sw.js) and no other.
    expect(csp.get('worker-src')).toEqual(["'self'"]);
  });

  it('allows each inline script hash, quoted, and no unsafe inline scripts', () => {
    const csp = directives(pageCsp(hashes));
    const scriptSrc = csp.get('script-src') ?? [];
    expect(scriptSrc).toContain("'self'");
    for (const hash of hashes) expect(scriptSrc).toContain(`'${hash}'`);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
  });

  it('allows only self scripts without hashes', () => {
    expect(directives(pageCsp([])).get('script-src')).toEqual(["'self'"]);
  });

  it('adds extra connect-src origins', () => {
    expect(directives(pageCsp([], ['https://api.example.org'])).get('connect-src')).toEqual(["'self'", 'https://api.example.org']);
    expect(directives(pageCsp([])).get('connect-src')).toEqual(["'self'"]);
  });

  it('plays videos from its own origin and recordings (blob:), and from the media store when given', () => {
    expect(directives(pageCsp([])).get('media-src')).toEqual(["'self'", 'blob:']);
    expect(directives(pageCsp([], [], { mediaSrc: ['https://bucket.s3.eu-west-1.amazonaws.com'] })).get('media-src')).toEqual([
      "'self'",
      'blob:',
      'https://bucket.s3.eu-west-1.amazonaws.com',
    ]);
  });
});
