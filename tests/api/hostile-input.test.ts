/**
 * Hostile input the fuzzer (docs/fuzzing.md) found answered 500, on both backends: a NUL character
 * (`\u0000`), which PostgreSQL cannot store, in a JSON body, a query or a path is a 400
 * `invalid_text`; a key named like an inherited member is a 400 naming it.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN, describeEachBackend } from './harness.ts';
import { errorOf, signedInUser } from './helpers.ts';

describe('hostile input', () => {
  describeEachBackend('NUL characters and inherited names', (ctx) => {
    it('a NUL in a JSON body, anywhere (a string, a key, deep inside), is 400 invalid_text', async () => {
      const admin = await signedInUser(ctx(), 'admin');
      for (const body of [{ name: 'a\u0000b', client: 'c' }, { ['na\u0000me']: 'x' }, { name: 'x', nested: [[{ deep: ['\u0000'] }]] }]) {
        const res = await ctx().json('POST', '/api/admin/projects', body, admin.headers);
        expect((await errorOf(res, 400)).code).toBe('invalid_text');
      }
      // A body key of only an escaped backslash and "u0000" is text, not a NUL.
      const fine = await ctx().json('POST', '/api/contact', { text: '\\u0000' });
      expect(fine.status).not.toBe(500);
    });

    it('a NUL in a query (an admin search) is 400 invalid_text or answered, never 500', async () => {
      const admin = await signedInUser(ctx(), 'admin');
      for (const target of ['/api/admin/users?q=%00', '/api/admin/users?q=a%00b', '/api/admin/projects?q=%00', '/api/admin/forms?q=%00']) {
        const res = await ctx().request(target, { headers: admin.headers });
        const text = await res.text();
        expect(res.status, `${target}: ${text}`).not.toBe(500);
        if (res.status === 400) expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('invalid_text');
      }
    });

    it('a body key named like an inherited member (__proto__, constructor, toString) that fails validation is a 400 naming it', async () => {
      for (const body of ['{"__proto__":1e309}', '{"constructor":1}', '{"toString":[]}']) {
        const res = await ctx().request('/api/reports', { method: 'POST', headers: { Origin: ORIGIN, 'Content-Type': 'application/json' }, body });
        expect((await errorOf(res, 400)).code).toBe('validation_failed');
      }
    });
  });
});
