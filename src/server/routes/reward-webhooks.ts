import { Hono } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { clientIp, enforceRateLimits, noStore } from '../http.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { handleProviderEvent, rewardProviderOf } from '../services/reward-provider-fulfilment.ts';
import { ProviderUnavailable } from '../services/reward-provider.ts';

/**
 * `POST /api/webhooks/rewards/{provider}`: the gift-card provider's events (issue 30 §4;
 * docs/api.md "Rewards: provider fulfilment"). No session and no Origin (the CSRF check lets it
 * through): the provider's signature over the raw body, checked before anything is read from it
 * (401 `invalid_signature`, no detail). A provider other than the configured one is 404. Each
 * event is handled once (a repeated delivery answers 200 and changes nothing); an event about an
 * order still being ordered queues its `rewards.order` job, which asks the provider how it stands.
 */
export const rewardWebhookRoutes = new Hono<AppEnv>().post('/rewards/:provider', async (c) => {
  noStore(c);
  await enforceRateLimits(c, [[`reward-webhook:ip:${clientIp(c)}`, RATE_LIMITS.externalWebhooksPerIp]]);
  const { deps, db } = c.var;
  const provider = rewardProviderOf(deps.config);
  if (!provider || provider.name !== c.req.param('provider')) throw new ApiError(404, 'not_found', 'No such reward provider');
  const raw = await c.req.text();
  if (!provider.verifyWebhook(raw, c.req.raw.headers)) {
    c.get('logger').warn({ provider: provider.name }, 'reward webhook refused: bad or missing signature');
    throw new ApiError(401, 'invalid_signature', 'Invalid signature');
  }
  const event = provider.parseWebhook(raw);
  if (!event) throw new ApiError(400, 'invalid_event', 'The body is not an event of this provider');
  try {
    const outcome = await handleProviderEvent({ db, clock: deps.clock, config: deps.config, jobs: deps.jobs, logger: c.get('logger') }, provider, event);
    c.get('logger').info({ provider: provider.name, event: event.type, eventId: event.id, outcome }, 'reward webhook handled');
    return c.json({ received: true, outcome }, 200);
  } catch (error) {
    // The provider could not be asked which order a reward belongs to: nothing was recorded, and its retry comes back.
    if (error instanceof ProviderUnavailable) throw new ApiError(503, 'provider_unavailable', 'The provider could not be reached: send the event again later');
    throw error;
  }
});
