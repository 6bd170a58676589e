/**
 * Sealed secrets (services/secret-box.ts): AES-256-GCM with a fresh IV each time; a value opens
 * only under its key and its context, and any change to it is refused. Recovery codes are written
 * and read back as src/shared/schemas/second-factors.ts says.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, openDelivery, seal, sealDelivery } from '../../src/server/services/secret-box.ts';
import { formatRecoveryCode, normaliseRecoveryCode } from '../../src/shared/schemas/second-factors.ts';

describe('secret box', () => {
  const key = randomBytes(32);
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('opens what it sealed, and never seals the same way twice', () => {
    const a = seal(key, secret, 'totp:1');
    const b = seal(key, secret, 'totp:1');
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret);
    expect(open(key, a, 'totp:1')).toBe(secret);
    expect(open(key, b, 'totp:1')).toBe(secret);
  });

  it('refuses another key, another context, a changed value and what is not a sealed value', () => {
    const sealed = seal(key, secret, 'totp:1');
    expect(() => open(randomBytes(32), sealed, 'totp:1')).toThrow();
    expect(() => open(key, sealed, 'totp:2')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[2] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => open(key, [parts[0], parts[1], body.toString('base64url'), parts[3]].join('.'), 'totp:1')).toThrow();
    for (const bad of ['', 'v1.a.b', 'v2.AAAA.AAAA.AAAA', secret]) expect(() => open(key, bad, 'totp:1')).toThrow();
    expect(() => seal(randomBytes(16), secret)).toThrow();
  });
});

describe('delivered rewards', () => {
  it('a code and link open for their own redemption only, never in clear', () => {
    const key = randomBytes(32);
    const sealed = sealDelivery(key, 7, { code: 'GIFT-1234-ABCD', link: 'https://cards.example/r/1' });
    expect(sealed).not.toContain('GIFT-1234');
    expect(openDelivery(key, 7, sealed)).toEqual({ code: 'GIFT-1234-ABCD', link: 'https://cards.example/r/1' });
    expect(openDelivery(key, 8, sealDelivery(key, 8, { link: 'https://cards.example/r/2' }))).toEqual({ link: 'https://cards.example/r/2' });
    expect(() => openDelivery(key, 8, sealed)).toThrow();
  });
});

describe('recovery codes as typed', () => {
  it('read any case, with or without dashes and spaces, and the letters people confuse', () => {
    const shown = formatRecoveryCode('0123456789ABCDEF');
    expect(shown).toBe('0123-4567-89ab-cdef');
    for (const typed of [shown, ' 0123 4567 89AB CDEF ', '0123456789abcdef', 'O123-4567-89ab-cdef', '0I23-4567-89ab-cdef', '0l23456789abcdef']) {
      expect(normaliseRecoveryCode(typed)).toBe('0123456789ABCDEF');
    }
    for (const wrong of ['', '0123-4567-89ab', '0123-4567-89ab-cdef-0', '0123-4567-89ab-cdeu', '0123-4567-89ab-cde!']) {
      expect(normaliseRecoveryCode(wrong)).toBeNull();
    }
  });
});
