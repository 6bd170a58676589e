/** The rewards screens' pure parts: the queue's address bar, what an admin may do in each status, the reward body. */
import { describe, expect, it } from 'vitest';
import {
  actionsFor,
  DEFAULT_QUEUE_QUERY,
  readQueueQuery,
  rewardBody,
  rewardFormValues,
  rewardPatch,
  settingsBody,
  settingsFormValues,
  writeQueueQuery,
} from '../../../src/islands/admin/rewards/logic.ts';
import { DEFAULT_REWARD_SETTINGS } from '../../../src/shared/rewards.ts';

describe('the queue in the address bar', () => {
  it('waits for approval by default, and keeps "every status" as status=all', () => {
    expect(readQueueQuery('')).toEqual(DEFAULT_QUEUE_QUERY);
    expect(writeQueueQuery(DEFAULT_QUEUE_QUERY)).toBe('');
    const every = { ...DEFAULT_QUEUE_QUERY, status: 'all' as const };
    expect(writeQueueQuery(every)).toBe('?status=all');
    expect(readQueueQuery('?status=all')).toEqual(every);
  });

  it('reads back what it wrote, and leaves out what it does not know', () => {
    const query = { status: 'approved' as const, rewardId: 4, q: 'ann', from: '2026-11-01', to: '2026-11-30', page: 3 };
    expect(readQueueQuery(writeQueueQuery(query))).toEqual(query);
    expect(readQueueQuery('?status=lost&rewardId=-1&from=yesterday&page=0')).toEqual(DEFAULT_QUEUE_QUERY);
  });
});

describe('actionsFor', () => {
  it('approves only requests, sends and rejects open ones, and sends by hand only manual rewards', () => {
    expect(actionsFor('requested', true)).toEqual({ approve: true, reject: true, deliver: true });
    expect(actionsFor('approved', false)).toEqual({ approve: false, reject: true, deliver: false });
    for (const status of ['ordering', 'delivered', 'rejected', 'failed', 'cancelled'] as const)
      expect(actionsFor(status, true)).toEqual({ approve: false, reject: false, deliver: false });
  });
});

describe('the reward body', () => {
  it('sends one of fixed values and a range, no product id without a provider, no stock unless custom', () => {
    const values = { ...rewardFormValues(null), title: 'Tree', providerProductId: 'P1', stock: '5', denominations: '5; 10', countries: 'nl' };
    expect(rewardBody(values)).toMatchObject({ denominations: [5, 10], providerProductId: null, stock: null, countries: ['NL'] });
    expect(rewardBody(values)).not.toHaveProperty('range');
    const ranged = { ...values, valuesMode: 'range' as const, range: { min: '1', max: '20,5', step: '0.5' }, kind: 'custom' as const };
    expect(rewardBody(ranged)).toMatchObject({ range: { min: 1, max: 20.5, step: 0.5 }, stock: 5 });
    expect(rewardBody(ranged)).not.toHaveProperty('denominations');
  });

  it('patches only what changed', () => {
    const before = { ...rewardFormValues(null), title: 'Tree', denominations: '5' };
    expect(rewardPatch(before, { ...before, title: 'Trees' })).toEqual({ title: 'Trees' });
    expect(rewardPatch(before, before)).toEqual({});
  });
});

describe('the settings body', () => {
  it('is the settings it was made from', () => {
    const settings = { ...DEFAULT_REWARD_SETTINGS, taxForm: { yearlyValue: 600, currency: 'USD' }, approvalAbove: { value: 0, currency: 'EUR' } };
    expect(settingsBody(settingsFormValues(settings))).toEqual(settings);
    expect(settingsBody(settingsFormValues(DEFAULT_REWARD_SETTINGS))).toEqual(DEFAULT_REWARD_SETTINGS);
  });
});
