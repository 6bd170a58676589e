import { describe, expect, it } from 'vitest';
import { forwardedClient } from '../../src/server/http.ts';

describe('the client address behind TRUST_PROXY proxies (forwardedClient, src/server/http.ts)', () => {
  it('takes the entry the nearest trusted proxy added, counted from the right', () => {
    // nginx from deploy:nginx replaces the header: one entry, its $remote_addr.
    expect(forwardedClient('203.0.113.7', 1)).toBe('203.0.113.7');
    // A proxy that appends (ALB, Cloudflare, Google): the left-most entries are the client's to choose.
    expect(forwardedClient('10.9.9.9, 198.51.100.1, 203.0.113.7', 1)).toBe('203.0.113.7');
    // ALB → nginx appending ($proxy_add_x_forwarded_for): the client as the load balancer saw it, then the balancer.
    expect(forwardedClient('6.6.6.6, 203.0.113.7, 10.0.0.5', 2)).toBe('203.0.113.7');
    expect(forwardedClient('203.0.113.7,10.0.0.5', 2)).toBe('203.0.113.7');
    expect(forwardedClient('2001:db8::1, 10.0.0.5', 2)).toBe('2001:db8::1');
  });

  it('strips a port, and reads bracketed IPv6', () => {
    expect(forwardedClient('203.0.113.7:51234', 1)).toBe('203.0.113.7');
    expect(forwardedClient('[2001:db8::7]:443', 1)).toBe('2001:db8::7');
    expect(forwardedClient('[2001:db8::7]', 1)).toBe('2001:db8::7');
    expect(forwardedClient('::ffff:203.0.113.7', 1)).toBe('::ffff:203.0.113.7');
  });

  it('answers null (the socket’s peer is used) for fewer entries than proxies, a malformed entry, or no trust', () => {
    expect(forwardedClient('203.0.113.7', 2)).toBeNull();
    expect(forwardedClient('203.0.113.7, unknown', 1)).toBeNull();
    expect(forwardedClient('203.0.113.7, ', 1)).toBeNull();
    expect(forwardedClient('not-an-ip', 1)).toBeNull();
    expect(forwardedClient('999.1.1.1', 1)).toBeNull();
    expect(forwardedClient('203.0.113.7:99999', 1)).toBeNull();
    expect(forwardedClient('<script>', 1)).toBeNull();
    expect(forwardedClient('', 1)).toBeNull();
    expect(forwardedClient(undefined, 1)).toBeNull();
    expect(forwardedClient('203.0.113.7', 0)).toBeNull();
  });
});
