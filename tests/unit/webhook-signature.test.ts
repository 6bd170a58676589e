/**
 * Outgoing webhooks' signatures (services/webhook-signature.ts): the `standardwebhooks` package —
 * what a receiver runs — accepts ours, with either secret during a rotation, and refuses a changed
 * body, id or timestamp.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signatureHeader, webhookHeaders, webhookMessageId } from '../../src/server/services/webhook-signature.ts';

const body = JSON.stringify({ type: 'points.credited', timestamp: '2026-03-05T10:00:00.000Z', data: { projectId: 3, userId: 7, amount: 50 } });
const now = () => Math.floor(Date.now() / 1000);

describe('webhook signatures', () => {
  it('makes secrets of 32 random bytes and unique message ids', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
    const ids = new Set(Array.from({ length: 1000 }, () => webhookMessageId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    // The time comes first: a later id sorts after.
    expect(webhookMessageId(Date.UTC(2030, 0, 1)) > webhookMessageId(Date.UTC(2026, 0, 1))).toBe(true);
  });

  it('is verified by standardwebhooks, and a changed body, id or timestamp is not', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders([secret], webhookMessageId(), now(), body);
    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('50', '500'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': webhookMessageId() })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now() - 1) })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('signs with both secrets during a rotation, each verifying on its own', () => {
    const [previous, next] = [newWebhookSecret(), newWebhookSecret()];
    const headers = webhookHeaders([next, previous], webhookMessageId(), now(), body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(next).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it('matches the specification’s own example', () => {
    // The test vector the Standard Webhooks libraries' own tests share.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
    const payload = '{"test": 2432232314}';
    expect(signatureHeader([secret], id, 1614265330, payload)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('refuses to sign without a secret, with a fractional timestamp or an id holding a full stop', () => {
    expect(() => signatureHeader([], 'msg_1', now(), body)).toThrow();
    expect(() => signatureHeader([newWebhookSecret()], 'msg_1', 1.5, body)).toThrow();
    expect(() => signatureHeader([newWebhookSecret()], 'msg.1', now(), body)).toThrow();
  });
});
