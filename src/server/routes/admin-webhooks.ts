import { Hono, type Context } from 'hono';
import { WEBHOOK_LIMITS, webhookCreateSchema, webhookDeliveriesQuerySchema, webhookPatchSchema } from '../../shared/webhooks.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, check, clientIp, enforceRateLimits, jsonBody, pathId, perRequest, query, recentAuth, signedInUser } from '../http.ts';
import { withAudit } from '../services/audit.ts';
import { updateWithAudit } from '../services/projects.ts';
import {
  createWebhook,
  deleteWebhook,
  existingDelivery,
  refuseUnusableWebhookUrl,
  existingWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  webhookSummary,
  webhookView,
} from '../services/webhooks.ts';

/** The endpoint of the path, checked (404) before any body is read. */
const webhookOf = perRequest((c) => existingWebhook(c.get('db'), pathId(c, 'id', 'webhook')));

/** The delivery of the path, checked (404) before any body is read. */
const deliveryOf = perRequest((c) => existingDelivery(c.get('db'), pathId(c, 'id', 'delivery')));

/** Test events and resends: this many a minute per admin. */
async function limitSends(c: Context<AppEnv>, userId: number): Promise<void> {
  await enforceRateLimits(c, [[`webhooks:send:user:${userId}`, WEBHOOK_LIMITS.sendsPerMinute]]);
}

/**
 * Outgoing webhooks' endpoints (issue 32 §1; docs/api.md "Webhooks"): admins only; creating,
 * deleting and rotating a secret need a recent sign-in (the secret is shown, or its endpoint
 * changes hands). Every change is audited in its transaction, never with the secret.
 */
export const adminWebhookRoutes = new Hono<AppEnv>()
  .get('/', adminOnly, async (c) => c.json(await listWebhooks(c.get('db')), 200))

  .post('/', adminOnly, recentAuth, jsonBody(webhookCreateSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const input = c.req.valid('json');
    await refuseUnusableWebhookUrl(c.get('deps').config, input.url);
    const { db, deps } = c.var;
    const { created } = await withAudit(
      db,
      (tx) => createWebhook(tx, deps, input, user.id),
      ({ row }) => ({
        actorId: user.id,
        via: 'api',
        action: 'webhook.create',
        targetType: 'webhook',
        targetId: row.id,
        after: webhookSummary(row),
        ip: clientIp(c),
      }),
    );
    return c.json(created, 201);
  })

  .post('/deliveries/:id/resend', adminOnly, check(deliveryOf), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await deliveryOf(c);
    await limitSends(c, user.id);
    const { db, deps } = c.var;
    const made = await withAudit(
      db,
      (tx) => resendDelivery(tx, deps, id),
      (row) => ({
        actorId: user.id,
        via: 'api',
        action: 'webhook.resend',
        targetType: 'webhook',
        targetId: row.endpointId,
        after: { deliveryId: id, eventId: row.eventId, attempt: row.attempt },
        ip: clientIp(c),
      }),
    );
    return c.json({ deliveryId: made.id, eventId: made.eventId, attempt: made.attempt }, 202);
  })

  .patch('/:id', adminOnly, check(webhookOf), jsonBody(webhookPatchSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await webhookOf(c);
    const patch = c.req.valid('json');
    if (patch.url !== undefined) await refuseUnusableWebhookUrl(c.get('deps').config, patch.url);
    const { db, deps } = c.var;
    const after = await updateWithAudit(
      db,
      (tx) => updateWebhook(tx, deps.clock, id, patch),
      { action: 'webhook.update', type: 'webhook', id, summary: (row) => ({ ...webhookSummary(row), disabledReason: row.disabledReason }) },
      { id: user.id, ip: clientIp(c) },
    );
    return c.json(await webhookView(db, after), 200);
  })

  .delete('/:id', adminOnly, recentAuth, check(webhookOf), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await webhookOf(c);
    await withAudit(
      c.get('db'),
      (tx) => deleteWebhook(tx, id),
      (row) => ({ actorId: user.id, via: 'api', action: 'webhook.delete', targetType: 'webhook', targetId: id, before: webhookSummary(row), ip: clientIp(c) }),
    );
    return c.body(null, 204);
  })

  .post('/:id/rotate-secret', adminOnly, recentAuth, check(webhookOf), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await webhookOf(c);
    const { db, deps } = c.var;
    const { secret } = await withAudit(
      db,
      (tx) => rotateWebhookSecret(tx, deps, id),
      ({ row }) => ({
        actorId: user.id,
        via: 'api',
        action: 'webhook.rotate_secret',
        targetType: 'webhook',
        targetId: id,
        after: { previousSecretUntil: row.previousSecretUntil?.toISOString() ?? null },
        ip: clientIp(c),
      }),
    );
    return c.json({ secret }, 200);
  })

  .post('/:id/test', adminOnly, check(webhookOf), async (c) => {
    const user = signedInUser(c.get('user'));
    const { id } = await webhookOf(c);
    await limitSends(c, user.id);
    const { db, deps } = c.var;
    const sent = await withAudit(
      db,
      (tx) => sendTestEvent(tx, deps, id),
      (made) => ({ actorId: user.id, via: 'api', action: 'webhook.test', targetType: 'webhook', targetId: id, after: made, ip: clientIp(c) }),
    );
    return c.json(sent, 202);
  })

  .get('/:id/deliveries', adminOnly, check(webhookOf), query(webhookDeliveriesQuerySchema), async (c) => {
    const { id } = await webhookOf(c);
    return c.json(await listDeliveries(c.get('db'), id, c.req.valid('query')), 200);
  });
