import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditLog } from '../../src/server/db/schema/index.ts';
import { setFlag } from '../../src/server/services/flags.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, signedInUser } from './helpers.ts';

describeEachBackend('feature flags: public reads', (ctx) => {
  it('answers an unset public flag with null, uncached', async () => {
    const res = await ctx().request('/api/feature-flags?feature=banner');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('null');
  });

  it('answers the value an admin sets, whatever its JSON type, and null again once removed', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    for (const value of ['Site visit Friday', true, 3, { text: 'Hello', tone: 'info' }, ['a'], false]) {
      const put = await ctx().json('PUT', '/api/admin/flags/banner', { value }, admin.headers);
      expect(put.status, await put.clone().text()).toBe(200);
      const read = await ctx().request('/api/feature-flags?feature=banner');
      expect(await read.json()).toEqual(value);
    }
    const del = await ctx().json('DELETE', '/api/admin/flags/banner', undefined, admin.headers);
    expect(await del.json()).toEqual({ ok: true, removed: true });
    expect(await (await ctx().request('/api/feature-flags?feature=banner')).json()).toBeNull();
  });

  it('reads maintenance too, for anyone', async () => {
    expect(await (await ctx().request('/api/feature-flags?feature=maintenance')).json()).toBeNull();
  });

  it('hides every flag outside the public list, set or not', async () => {
    await setFlag(ctx().database.db, 'experiment.checkout', { variant: 'b' });
    for (const key of ['experiment.checkout', 'unknown-flag']) {
      const error = await errorOf(await ctx().request(`/api/feature-flags?feature=${key}`), 404);
      expect(error).toEqual({ code: 'not_found', message: 'No such feature flag' });
    }
    // Even an admin reads private flags through the admin list only.
    const admin = await signedInUser(ctx(), 'admin');
    expect((await ctx().request('/api/feature-flags?feature=experiment.checkout', { headers: admin.headers })).status).toBe(404);
  });

  it('validates the query', async () => {
    expect(await fieldsOf(await ctx().request('/api/feature-flags'))).toEqual({ feature: ['Required'] });
    const bad = await fieldsOf(await ctx().request('/api/feature-flags?feature=Not%20A%20Key'));
    expect(bad.feature?.[0]).toMatch(/^Use lower-case letters/);
  });
});

describeEachBackend('feature flags: the admin calls', (ctx) => {
  it('are for admins only', async () => {
    const calls = [
      ['GET', '/api/admin/flags', undefined],
      ['PUT', '/api/admin/flags/banner', { value: 'x' }],
      ['DELETE', '/api/admin/flags/banner', undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      expect((await errorOf(await ctx().json(method, path, body), 401)).code).toBe('unauthenticated');
      for (const role of ['participant', 'moderator'] as const) {
        const user = await signedInUser(ctx(), role);
        expect((await errorOf(await ctx().json(method, path, body, user.headers), 403)).code).toBe('forbidden');
      }
    }
  });

  it('list every flag, public or not, with who changed it last', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    await ctx().json('PUT', '/api/admin/flags/banner', { value: 'Welcome' }, admin.headers);
    await ctx().json('PUT', '/api/admin/flags/beta.gallery', { value: true }, admin.headers);
    const res = await ctx().request('/api/admin/flags', { headers: admin.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { flags } = (await res.json()) as { flags: { key: string; value: unknown; public: boolean; updatedAt: string; updatedBy: number | null }[] };
    expect(flags.find((f) => f.key === 'banner')).toMatchObject({ value: 'Welcome', public: true, updatedBy: admin.id });
    expect(flags.find((f) => f.key === 'beta.gallery')).toMatchObject({ value: true, public: false, updatedBy: admin.id });
    expect(flags.map((f) => f.key)).toEqual([...flags.map((f) => f.key)].sort());
  });

  it('set a flag: answer it, audit it with before and after', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    await ctx().json('PUT', '/api/admin/flags/survey.limit', { value: 3 }, admin.headers);
    const res = await ctx().json('PUT', '/api/admin/flags/survey.limit', { value: 5 }, admin.headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ flag: { key: 'survey.limit', value: 5, public: false, updatedBy: admin.id } });
    const entries = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'flag'), eq(auditLog.targetId, 'survey.limit')));
    expect(entries.map((e) => ({ via: e.via, actorId: e.actorId, action: e.action, before: e.before, after: e.after }))).toEqual([
      { via: 'api', actorId: admin.id, action: 'flag.set', before: null, after: 3 },
      { via: 'api', actorId: admin.id, action: 'flag.set', before: 3, after: 5 },
    ]);
  });

  it('remove a flag: audited; removing an unset flag is harmless and not audited', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    await ctx().json('PUT', '/api/admin/flags/to-remove', { value: 'x' }, admin.headers);
    expect(await (await ctx().json('DELETE', '/api/admin/flags/to-remove', undefined, admin.headers)).json()).toEqual({ ok: true, removed: true });
    expect(await (await ctx().json('DELETE', '/api/admin/flags/to-remove', undefined, admin.headers)).json()).toEqual({ ok: true, removed: false });
    const entries = await ctx().database.db.select().from(auditLog).where(eq(auditLog.targetId, 'to-remove'));
    expect(entries.map((e) => [e.action, e.before])).toEqual([
      ['flag.set', null],
      ['flag.unset', 'x'],
    ]);
  });

  it('switch maintenance on and off through the same calls', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    await ctx().json('PUT', '/api/admin/flags/maintenance', { value: true }, admin.headers);
    expect(await (await ctx().request('/api/feature-flags?feature=maintenance')).json()).toBe(true);
    await ctx().json('DELETE', '/api/admin/flags/maintenance', undefined, admin.headers);
    expect(await (await ctx().request('/api/feature-flags?feature=maintenance')).json()).toBeNull();
  });

  it('validate the key and the value', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    for (const key of ['Banner', '1abc', 'a b', 'x'.repeat(65), 'ü']) {
      const fields = await fieldsOf(await ctx().json('PUT', `/api/admin/flags/${encodeURIComponent(key)}`, { value: 1 }, admin.headers));
      expect(Object.keys(fields), key).toEqual(['key']);
    }
    expect(await fieldsOf(await ctx().json('PUT', '/api/admin/flags/banner', {}, admin.headers))).toEqual({ value: ['Required'] });
    expect(await fieldsOf(await ctx().json('PUT', '/api/admin/flags/banner', { value: 1, extra: true }, admin.headers))).toEqual({
      extra: ['Unexpected field'],
    });
    expect(await fieldsOf(await ctx().json('PUT', '/api/admin/flags/banner', { value: 'x'.repeat(9000) }, admin.headers))).toEqual({
      value: ['Too long'],
    });
    // An unset flag reads as null; setting null would be the same thing in disguise.
    expect(await fieldsOf(await ctx().json('PUT', '/api/admin/flags/banner', { value: null }, admin.headers))).toEqual({
      value: ['A flag cannot be null: remove it instead'],
    });
    expect((await errorOf(await ctx().json('DELETE', '/api/admin/flags/Bad!', undefined, admin.headers), 400)).fields).toHaveProperty('key');
  });

  it('refuse changes from another origin', async () => {
    const admin = await signedInUser(ctx(), 'admin');
    const res = await ctx().json('PUT', '/api/admin/flags/banner', { value: 'x' }, { ...admin.headers, Origin: 'https://evil.example' });
    expect((await errorOf(res, 403)).code).toBe('forbidden_origin');
  });
});
