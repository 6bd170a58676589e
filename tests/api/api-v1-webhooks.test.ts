/**
 * The token API's webhook endpoint calls (issue 32; `webhooks:manage`; docs/api.md "API tokens and
 * /api/v1"): the scope on every call, an endpoint's whole life through a token (the secret once,
 * the address checked as for admins, a test event delivered, its deliveries, a resend, a rotation,
 * deletion), each write audited with the token's id, and a token with a project limit kept to the
 * endpoints filtered to its project. The deliveries go to a receiver on 127.0.0.1
 * (WEBHOOKS_ALLOW_LOOPBACK=1, as tests/api/webhooks.test.ts, which has the delivery rules).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, type Project } from '../../src/server/db/schema/index.ts';
import type { CreatedApiToken } from '../../src/shared/api-tokens.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { WebhookCreated, WebhookDelivery, WebhookEndpoint } from '../../src/shared/webhooks.ts';
import { describeEachBackend } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { callAs, createProject, okJson, staff } from './programme-fixtures.ts';

/** The `webhook-id` of each delivery the receiver got, by path. */
const received: { path: string; webhookId: string }[] = [];
let receiver: http.Server;
let base = '';

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ path: req.url ?? '/', webhookId: String(req.headers['webhook-id']) });
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

interface World {
  admin: SignedIn;
  alpha: Project;
  beta: Project;
  /** `webhooks:manage`, no project limit. */
  all: CreatedApiToken;
  /** `webhooks:manage`, limited to Alpha. */
  alphaOnly: CreatedApiToken;
  /** Every scope but `webhooks:manage`. */
  noScope: CreatedApiToken;
}

describeEachBackend(
  'token API: webhook endpoints',
  (ctx, backend) => {
    /** The receiver's paths of this backend's endpoints (the receiver is shared by both). */
    const at = (path: string) => `${base}/${backend}${path}`;
    const idsAt = (path: string) => received.filter((r) => r.path === `/${backend}${path}`).map((r) => r.webhookId);
    let world: World | undefined;
    const w = () => {
      if (!world) throw new Error('world not ready');
      return world;
    };

    /** A token API call as an integration makes it: the bearer token, no cookie, no Origin. */
    const v1 = (token: CreatedApiToken, method: string, path: string, body?: unknown) =>
      ctx().request(`/api/v1${path}`, {
        method,
        headers: { Authorization: `Bearer ${token.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    const adminList = async () => (await okJson<{ items: WebhookEndpoint[] }>(await callAs(ctx(), w().admin)('GET', '/api/admin/webhooks'))).items;

    beforeAll(async () => {
      const c = ctx();
      const admin = await staff(c, 'admin');
      const alpha = await createProject(c, { name: 'Alpha study' });
      const beta = await createProject(c, { name: 'Beta study' });
      const token = async (body: Record<string, unknown>) => okJson<CreatedApiToken>(await callAs(c, admin)('POST', '/api/admin/tokens', body), 201);
      world = {
        admin,
        alpha,
        beta,
        all: await token({ name: 'CRM', scopes: ['webhooks:manage'] }),
        alphaOnly: await token({ name: 'Alpha dashboard', scopes: ['webhooks:manage'], projectId: alpha.id }),
        noScope: await token({ name: 'Reader', scopes: ['responses:read', 'entries:read', 'participants:read', 'points:read', 'points:write'] }),
      };
    });

    it('needs the webhooks:manage scope on every webhook call: 403 insufficient_scope, nothing made', async () => {
      const { noScope } = w();
      const calls: [string, string, unknown?][] = [
        ['GET', '/webhooks'],
        ['POST', '/webhooks', { url: at('/nope'), events: ['points.credited'] }],
        ['PATCH', '/webhooks/1', { description: 'x' }],
        ['DELETE', '/webhooks/1'],
        ['POST', '/webhooks/1/rotate-secret'],
        ['POST', '/webhooks/1/test'],
        ['GET', '/webhooks/1/deliveries'],
        ['POST', '/webhooks/deliveries/1/resend'],
      ];
      for (const [method, path, body] of calls) {
        const error = await errorOf(await v1(noScope, method, path, body), 403);
        expect([method, path, error.code, (error as { scope?: string }).scope]).toEqual([method, path, 'insufficient_scope', 'webhooks:manage']);
      }
      expect(await adminList()).toEqual([]);
    });

    it("manages an endpoint as the admin calls do — the secret once, the address checked, a test event, its deliveries, a resend, a rotation, deletion — each write audited with the token's id", async () => {
      const c = ctx();
      const { all, alpha } = w();
      // The address is checked as for admins: private ones are 400 on `url`, and nothing is made.
      for (const url of ['http://10.0.0.7/hook', 'https://169.254.169.254/latest/meta-data']) {
        expect(Object.keys(await fieldsOf(await v1(all, 'POST', '/webhooks', { url, events: ['points.credited'] }))), url).toEqual(['url']);
      }
      expect(Object.keys(await fieldsOf(await v1(all, 'POST', '/webhooks', { url: at('/x'), events: ['nope'], secret: 'mine' })))).toEqual(
        expect.arrayContaining(['events']),
      );
      expect(await adminList()).toEqual([]);

      const made = await okJson<WebhookCreated>(
        await v1(all, 'POST', '/webhooks', { url: at('/life'), events: ['points.credited', 'participant.joined'], description: 'CRM' }),
        201,
      );
      expect(Object.keys(made).sort()).toEqual(['createdAt', 'description', 'enabled', 'events', 'id', 'projectId', 'secret', 'url']);
      expect(made).toMatchObject({ url: at('/life'), events: ['participant.joined', 'points.credited'], projectId: null, enabled: true });
      expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

      const listed = await okJson<{ items: WebhookEndpoint[] }>(await v1(all, 'GET', '/webhooks'));
      expect(listed.items.map((item) => [item.id, item.createdBy, item.lastDelivery])).toEqual([[made.id, null, null]]);
      expect(JSON.stringify(listed)).not.toContain(made.secret);

      const patched = await okJson<WebhookEndpoint>(await v1(all, 'PATCH', `/webhooks/${made.id}`, { description: 'CRM sync', projectId: alpha.id }));
      expect(patched).toMatchObject({ id: made.id, description: 'CRM sync', projectId: alpha.id, url: made.url });
      expect(Object.keys(await fieldsOf(await v1(all, 'PATCH', `/webhooks/${made.id}`, { url: 'http://192.168.1.1/' })))).toEqual(['url']);

      const test = await okJson<{ eventId: string; deliveryId: number }>(await v1(all, 'POST', `/webhooks/${made.id}/test`), 202);
      await c.jobs.drain();
      expect(idsAt('/life')).toEqual([test.eventId]);
      const page = await okJson<ListPage<WebhookDelivery>>(await v1(all, 'GET', `/webhooks/${made.id}/deliveries?pageSize=5`));
      expect(page).toMatchObject({ total: 1, page: 1, pageSize: 5 });
      expect(page.items).toEqual([
        expect.objectContaining({ id: test.deliveryId, eventId: test.eventId, type: 'webhook.test', attempt: 1, manual: true, status: 'succeeded' }),
      ]);
      expect(await fieldsOf(await v1(all, 'GET', `/webhooks/${made.id}/deliveries?status=lost`))).toHaveProperty('status');

      const resent = await okJson<{ deliveryId: number; eventId: string; attempt: number }>(
        await v1(all, 'POST', `/webhooks/deliveries/${test.deliveryId}/resend`),
        202,
      );
      expect(resent).toMatchObject({ eventId: test.eventId, attempt: 2 });
      await c.jobs.drain();
      expect(idsAt('/life')).toEqual([test.eventId, test.eventId]);

      const rotated = await okJson<{ secret: string }>(await v1(all, 'POST', `/webhooks/${made.id}/rotate-secret`));
      expect(rotated.secret).toMatch(/^whsec_/);
      expect(rotated.secret).not.toBe(made.secret);

      expect((await v1(all, 'DELETE', `/webhooks/${made.id}`)).status).toBe(204);
      expect((await errorOf(await v1(all, 'GET', `/webhooks/${made.id}/deliveries`), 404)).message).toBe('No such webhook');
      expect((await errorOf(await v1(all, 'POST', `/webhooks/deliveries/${test.deliveryId}/resend`), 404)).message).toBe('No such delivery');
      expect(await adminList()).toEqual([]);

      const audited = await c.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetType, 'webhook'), eq(auditLog.targetId, String(made.id))))
        .orderBy(auditLog.id);
      expect(audited.map((row) => [row.action, row.via, row.apiTokenId, row.actorId])).toEqual(
        ['webhook.create', 'webhook.update', 'webhook.test', 'webhook.resend', 'webhook.rotate_secret', 'webhook.delete'].map((action) => [
          action,
          'token',
          all.id,
          null,
        ]),
      );
      expect(audited[1]?.after).toEqual({ description: 'CRM sync', projectId: alpha.id });
      const text = JSON.stringify(audited);
      expect(text).not.toContain(made.secret);
      expect(text).not.toContain(rotated.secret);
    });

    it("keeps a token with a project limit to its project's endpoints: it makes them there only, and another project's (or every project's) are 404", async () => {
      const c = ctx();
      const { all, alphaOnly, alpha, beta } = w();
      const create = async (token: CreatedApiToken, body: Record<string, unknown>) => okJson<WebhookCreated>(await v1(token, 'POST', '/webhooks', body), 201);
      const betaHook = await create(all, { url: at('/beta'), events: ['participant.joined'], projectId: beta.id });
      const everyHook = await create(all, { url: at('/every'), events: ['participant.joined'] });
      // Left out, the project is the token's own; another, or an unknown one, is 404; none (every project) is 400.
      const ownHook = await create(alphaOnly, { url: at('/own'), events: ['participant.joined'] });
      expect(ownHook.projectId).toBe(alpha.id);
      expect(await create(alphaOnly, { url: at('/own2'), events: ['points.credited'], projectId: alpha.id })).toMatchObject({ projectId: alpha.id });
      for (const projectId of [beta.id, 999_999_999]) {
        expect((await errorOf(await v1(alphaOnly, 'POST', '/webhooks', { url: at('/x'), events: ['participant.joined'], projectId }), 404)).message).toBe(
          'No such project',
        );
      }
      expect(Object.keys(await fieldsOf(await v1(alphaOnly, 'POST', '/webhooks', { url: at('/x'), events: ['participant.joined'], projectId: null })))).toEqual(
        ['projectId'],
      );

      const ids = async (token: CreatedApiToken, query = '') =>
        (await okJson<{ items: WebhookEndpoint[] }>(await v1(token, 'GET', `/webhooks${query}`))).items.map((item) => item.id);
      const own = await ids(alphaOnly);
      expect(own).toHaveLength(2);
      expect(own).toContain(ownHook.id);
      expect(await ids(all, `?projectId=${beta.id}`)).toEqual([betaHook.id]);
      expect(await ids(all)).toEqual(expect.arrayContaining([betaHook.id, everyHook.id, ...own]));
      expect((await errorOf(await v1(alphaOnly, 'GET', `/webhooks?projectId=${beta.id}`), 404)).message).toBe('No such project');

      // Another project's endpoint, and one for every project, are out of reach (checked before any body).
      const { deliveryId } = await okJson<{ deliveryId: number }>(await v1(all, 'POST', `/webhooks/${betaHook.id}/test`), 202);
      await c.jobs.drain();
      for (const hook of [betaHook, everyHook]) {
        for (const [method, path, body] of [
          ['PATCH', '', { url: 'not an address' }],
          ['DELETE', ''],
          ['POST', '/rotate-secret'],
          ['POST', '/test'],
          ['GET', '/deliveries'],
        ] as const) {
          const error = await errorOf(await v1(alphaOnly, method, `/webhooks/${hook.id}${path}`, body), 404);
          expect(`${method} ${path} ${error.message}`).toBe(`${method} ${path} No such webhook`);
        }
      }
      expect((await errorOf(await v1(alphaOnly, 'POST', `/webhooks/deliveries/${deliveryId}/resend`), 404)).message).toBe('No such delivery');
      // Its own endpoint stays in its project.
      expect((await errorOf(await v1(alphaOnly, 'PATCH', `/webhooks/${ownHook.id}`, { projectId: beta.id }), 404)).message).toBe('No such project');
      expect(Object.keys(await fieldsOf(await v1(alphaOnly, 'PATCH', `/webhooks/${ownHook.id}`, { projectId: null })))).toEqual(['projectId']);
      expect(await okJson<WebhookEndpoint>(await v1(alphaOnly, 'PATCH', `/webhooks/${ownHook.id}`, { enabled: false }))).toMatchObject({
        projectId: alpha.id,
        enabled: false,
        disabledReason: 'admin',
      });
      // Nothing of the others changed: the same addresses, and one delivery to Beta's.
      const after = await adminList();
      expect(after.find((item) => item.id === betaHook.id)).toMatchObject({ url: betaHook.url, enabled: true, projectId: beta.id });
      expect(after.find((item) => item.id === everyHook.id)).toMatchObject({ url: everyHook.url, enabled: true, projectId: null });
      expect(idsAt('/beta')).toHaveLength(1);
    });
  },
  { env: { WEBHOOKS_ALLOW_LOOPBACK: '1' } },
);
