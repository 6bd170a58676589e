// @vitest-environment happy-dom
/**
 * /account/rewards (issue 30 §3) against a fake API (fetch stubbed): the balance, the cards with
 * their values and costs, "You need N more points" and a reward's own reason (never hidden), the
 * confirmation that sends one `Idempotency-Key` for every retry of it and lists the new request,
 * a refusal (409) said in the dialog, the timeline of each request (waiting for a check, sent
 * with its code and a Copy button, rejected with its reason and the points back) and cancelling.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ListPage } from '../../../src/shared/list.ts';
import type { Redemption, RewardCatalogue, RewardView } from '../../../src/shared/rewards.ts';
import { REDEMPTION_REFUSALS } from '../../../src/shared/rewards.ts';
import { $auth } from '../../../src/stores/auth.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { default: RewardsScreen } = await import('../../../src/islands/account/RewardsScreen.tsx');
const { default: PointsSection } = await import('../../../src/islands/account/PointsSection.tsx');
const { reachOf, startingValue, timelineOf, valuesOf } = await import('../../../src/islands/account/rewards.ts');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Call {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}
type Route = (call: Call) => Response | Promise<Response>;

let calls: Call[] = [];
let routes: [string, Route][] = [];

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const refusal = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) => json(status, { error: { code, message, ...extra } });
/** Answers `METHOD url` with `route` (the latest registration wins). */
function on(method: string, url: string, route: Route | Response): void {
  routes.unshift([`${method} ${url}`, typeof route === 'function' ? route : () => route.clone()]);
}
const sent = (method: string, url: string) => calls.filter((call) => call.method === method && call.url === url);

const PARTICIPANT = { id: 7, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'participant', status: 'active' } as const;
const REQUESTS = '/api/redemptions?page=1&pageSize=10';

function reward(id: number, extra: Partial<RewardView> = {}): RewardView {
  return {
    id,
    title: `Reward ${id}`,
    description: '',
    kind: 'gift_card',
    imageUrl: null,
    currency: 'EUR',
    denominations: [5, 10, 25],
    pointsPerUnit: 100,
    available: true,
    unavailableReason: null,
    ...extra,
  };
}

const GIFT = reward(1, { title: 'Bol.com gift card', description: 'Spend it on anything at Bol.com.' });
const DONATION = reward(2, { title: 'Red Cross donation', kind: 'donation', denominations: { min: 1, max: 50, step: 1 } });
const CINEMA = reward(3, { title: 'Cinema tickets', kind: 'custom', available: false, unavailableReason: 'Not offered in your country' });

function catalogue(balance = { available: 1200, pending: 80, held: 300 }): RewardCatalogue {
  return { items: [GIFT, DONATION, CINEMA], balance, settings: { minimumPoints: 500, pointsPerUnit: { EUR: 100 } } };
}

function redemption(id: number, extra: Partial<Redemption> = {}): Redemption {
  return {
    id,
    reward: { id: 1, title: 'Bol.com gift card', kind: 'gift_card' },
    value: 10,
    currency: 'EUR',
    points: 1000,
    status: 'requested',
    reason: null,
    timeline: [{ status: 'requested', at: '2026-11-20T10:00:00.000Z' }],
    delivery: null,
    needsReview: true,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

const page = (items: Redemption[], total = items.length): ListPage<Redemption> => ({ items, total, page: 1, pageSize: 10 });

beforeEach(() => {
  calls = [];
  routes = [];
  $auth.set({ status: 'authenticated', user: { ...PARTICIPANT } });
  history.replaceState(null, '', '/account/rewards');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = {
        method: String(init.method ?? 'GET'),
        url,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        headers: { ...(init.headers as Record<string, string> | undefined) },
      };
      calls.push(call);
      const found = routes.find(([key]) => key === `${call.method} ${url}`);
      if (!found) throw new TypeError('Failed to fetch');
      return found[1](call);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open() {
  const user = userEvent.setup();
  render(createElement(RewardsScreen));
  return user;
}

const card = (title: string) => within(screen.getByRole('region', { name: 'Choose a reward' })).getByRole('article', { name: title });

describe('/account/rewards', () => {
  it('shows the balance, each reward with its values and cost, why one is out of reach, and a reward not offered with its reason', async () => {
    on('GET', '/api/rewards', json(200, catalogue()));
    on('GET', REQUESTS, json(200, page([])));
    const user = open();

    await screen.findByRole('region', { name: 'Choose a reward' });
    const balance = screen.getByRole('region', { name: 'Your points' });
    expect(within(balance).getByText('1,200 points', { selector: 'dd' })).toBeTruthy();
    expect(within(balance).getByText('80 points', { selector: 'dd' })).toBeTruthy();
    expect(within(balance).getByText('300 points', { selector: 'dd' })).toBeTruthy();
    expect(within(balance).getByText('Pending points become available when your entry is approved.')).toBeTruthy();

    // Fixed values: one radio each, with its cost; the largest the balance pays for is chosen.
    const gift = card('Bol.com gift card');
    const values = within(gift).getByRole('radiogroup');
    expect(
      within(values)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('aria-checked')),
    ).toEqual(['false', 'true', 'false']);
    expect(within(gift).getByText('2,500 points')).toBeTruthy();
    expect(within(gift).getByText(/^Costs/).textContent).toBe('Costs 1,000 points');
    expect((within(gift).getByRole('button', { name: 'Choose Bol.com gift card' }) as HTMLButtonElement).disabled).toBe(false);

    await user.click(within(values).getByRole('radio', { name: '€25' }));
    expect(within(gift).getByText('You need 1,300 more points')).toBeTruthy();
    const choose = within(gift).getByRole('button', { name: 'Choose Bol.com gift card' }) as HTMLButtonElement;
    expect(choose.disabled).toBe(true);
    expect(choose.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(choose.getAttribute('aria-describedby') ?? '')?.textContent).toBe('You need 1,300 more points');

    // A range: a labelled number field with its steps; below the smallest reward it says so.
    const donation = card('Red Cross donation');
    const field = within(donation).getByRole('spinbutton', { name: 'Value in EUR' });
    expect(field.getAttribute('aria-describedby')).toContain(within(donation).getByText('From €1 to €50, in steps of €1').id);
    await user.clear(field);
    await user.type(field, '3');
    expect(within(donation).getByText('The smallest reward is 500 points: choose a larger value')).toBeTruthy();

    // Not offered here: listed with its reason, never hidden, and it cannot be chosen.
    const cinema = card('Cinema tickets');
    expect(within(cinema).getByText('Not offered in your country')).toBeTruthy();
    expect((within(cinema).getByRole('button', { name: 'Choose Cinema tickets' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('confirms, sends one Idempotency-Key for every retry of that confirmation, and lists the new request waiting for a check', async () => {
    let rewardsCalls = 0;
    on('GET', '/api/rewards', () =>
      json(200, rewardsCalls++ === 0 ? catalogue({ available: 2200, pending: 0, held: 300 }) : catalogue({ available: 1200, pending: 0, held: 1300 })),
    );
    on('GET', REQUESTS, json(200, page([])));
    let posts = 0;
    on('POST', '/api/redemptions', () => {
      // The first answer is lost on the way (the request may have been made): the retry must not ask twice.
      if (posts++ === 0) throw new TypeError('Failed to fetch');
      return json(201, redemption(41));
    });
    const user = open();

    await user.click(await screen.findByRole('button', { name: 'Choose Bol.com gift card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request Bol.com gift card?' });
    expect(within(dialog).getByText('€10 for 1,000 points.')).toBeTruthy();
    expect(within(dialog).getByText(/We hold 1,000 points now/)).toBeTruthy();
    expect(within(dialog).getByText(/usually within 2 working days/)).toBeTruthy();
    expect(within(dialog).getByText('ada@example.org')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Request for 1,000 points' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Trying again will not ask twice');
    await user.click(within(dialog).getByRole('button', { name: 'Request for 1,000 points' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const posted = sent('POST', '/api/redemptions');
    expect(posted.map((call) => call.body)).toEqual([
      { rewardId: 1, value: 10 },
      { rewardId: 1, value: 10 },
    ]);
    const key = posted[0]?.headers['Idempotency-Key'];
    expect(key).toMatch(/^[\x21-\x7e]{16,200}$/);
    expect(posted[1]?.headers['Idempotency-Key']).toBe(key);

    const requests = screen.getByRole('region', { name: 'Your requests' });
    expect(within(requests).getByText('Your request is in')).toBeTruthy();
    const request = within(requests).getByRole('article', { name: 'Bol.com gift card' });
    expect(within(request).getByText('Requested', { selector: '[data-status]' })).toBeTruthy();
    expect(within(request).getByText('Waits for a check, usually within 2 working days')).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Bol.com gift card'));
    // The balance is asked again: the points are held now.
    expect(await within(screen.getByRole('region', { name: 'Your points' })).findByText('1,300 points', { selector: 'dd' })).toBeTruthy();

    // A new confirmation, even of the same reward and value, is a new request: a new key.
    await user.click(screen.getByRole('button', { name: 'Choose Bol.com gift card' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Request for 1,000 points' }));
    await waitFor(() => expect(sent('POST', '/api/redemptions')).toHaveLength(3));
    expect(sent('POST', '/api/redemptions')[2]?.headers['Idempotency-Key']).not.toBe(key);
  });

  it('says a refusal (409) in the dialog, in the participant’s words, and keeps the dialog open', async () => {
    on('GET', '/api/rewards', json(200, catalogue()));
    on('GET', REQUESTS, json(200, page([])));
    on('POST', '/api/redemptions', refusal(409, 'open_request_exists', REDEMPTION_REFUSALS.open_request_exists));
    const user = open();

    await user.click(await screen.findByRole('button', { name: 'Choose Bol.com gift card' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Request for 1,000 points' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('You already have a reward request open: wait until it is sent, or cancel it.');
    expect(screen.getByRole('dialog')).toBeTruthy();

    on(
      'POST',
      '/api/redemptions',
      refusal(409, 'insufficient_points', REDEMPTION_REFUSALS.insufficient_points, { available: 900, points: 1000, missing: 100 }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Request for 1,000 points' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toContain('You do not have enough points for this reward. You need 100 more points.'),
    );
  });

  it('shows each request’s timeline: sent with its code and a Copy button, rejected with the reason and the points back', async () => {
    on('GET', '/api/rewards', json(200, catalogue()));
    on(
      'GET',
      REQUESTS,
      json(
        200,
        page([
          redemption(12, {
            status: 'delivered',
            timeline: [
              { status: 'requested', at: '2026-11-20T10:00:00.000Z' },
              { status: 'approved', at: '2026-11-21T09:00:00.000Z' },
              { status: 'delivered', at: '2026-11-22T09:00:00.000Z' },
            ],
            delivery: { code: 'BOL-1234-5678', link: 'https://example.org/card/1' },
          }),
          redemption(11, {
            reward: { id: 2, title: 'Red Cross donation', kind: 'donation' },
            points: 500,
            status: 'rejected',
            reason: 'We could not confirm your address.',
            timeline: [
              { status: 'requested', at: '2026-11-01T10:00:00.000Z' },
              { status: 'rejected', at: '2026-11-02T10:00:00.000Z' },
            ],
          }),
        ]),
      ),
    );
    const user = open();

    const requests = await screen.findByRole('region', { name: 'Your requests' });
    const sentOne = await within(requests).findByRole('article', { name: 'Bol.com gift card' });
    const steps = within(sentOne).getByRole('list', { name: 'Steps of Bol.com gift card' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent),
    ).toEqual([expect.stringMatching(/^Requested · /), expect.stringMatching(/^Approved · /), expect.stringMatching(/^Sent · /)]);
    expect(within(sentOne).getByText('BOL-1234-5678')).toBeTruthy();
    expect(
      within(sentOne)
        .getByRole('link', { name: /Open your reward/ })
        .getAttribute('href'),
    ).toBe('https://example.org/card/1');
    await user.click(within(sentOne).getByRole('button', { name: 'Copy code' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe('BOL-1234-5678');
    expect(within(sentOne).getByText('Code copied.')).toBeTruthy();
    expect(within(sentOne).queryByRole('button', { name: /Cancel request/ })).toBeNull();

    const rejected = within(requests).getByRole('article', { name: 'Red Cross donation' });
    expect(within(rejected).getByText('Rejected', { selector: '[data-status]' })).toBeTruthy();
    expect(within(rejected).getByText('We could not confirm your address. Your 500 points are back in your balance.')).toBeTruthy();
  });

  it('cancels a request while it is requested, and says when it no longer can be', async () => {
    on('GET', '/api/rewards', json(200, catalogue()));
    on('GET', REQUESTS, json(200, page([redemption(21), redemption(20, { reward: { id: 2, title: 'Red Cross donation', kind: 'donation' } })])));
    on(
      'POST',
      '/api/redemptions/21/cancel',
      json(
        200,
        redemption(21, {
          status: 'cancelled',
          timeline: [
            { status: 'requested', at: '2026-11-20T10:00:00.000Z' },
            { status: 'cancelled', at: '2026-11-20T11:00:00.000Z' },
          ],
        }),
      ),
    );
    on('POST', '/api/redemptions/20/cancel', refusal(409, 'not_cancellable', 'This request can no longer be cancelled: it is being handled or is closed'));
    const approved = redemption(20, {
      reward: { id: 2, title: 'Red Cross donation', kind: 'donation' },
      status: 'approved',
      timeline: [
        { status: 'requested', at: '2026-11-20T10:00:00.000Z' },
        { status: 'approved', at: '2026-11-20T10:30:00.000Z' },
      ],
    });
    on('GET', '/api/redemptions/20', json(200, approved));
    const user = open();

    const requests = await screen.findByRole('region', { name: 'Your requests' });
    const first = await within(requests).findByRole('article', { name: 'Bol.com gift card' });
    await user.click(within(first).getByRole('button', { name: 'Cancel request for Bol.com gift card' }));
    await user.click(within(first).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await within(first).findByText('You cancelled it. Your 1,000 points are back in your balance.')).toBeTruthy();
    expect(within(first).getByText('Cancelled', { selector: '[data-status]' })).toBeTruthy();
    expect(within(first).queryByRole('button', { name: /Cancel request/ })).toBeNull();
    expect(sent('POST', '/api/redemptions/21/cancel')).toHaveLength(1);
    // The balance is asked again: the points are back.
    await waitFor(() => expect(sent('GET', '/api/rewards')).toHaveLength(2));

    const second = within(requests).getByRole('article', { name: 'Red Cross donation' });
    await user.click(within(second).getByRole('button', { name: 'Cancel request for Red Cross donation' }));
    await user.click(within(second).getByRole('button', { name: 'Yes, cancel it' }));
    expect((await within(second).findByRole('alert')).textContent).toContain('This request can no longer be cancelled');
    // Read again: it is approved now, and cannot be cancelled.
    expect(await within(second).findByText('Approved', { selector: '[data-status]' })).toBeTruthy();
    expect(within(second).queryByRole('button', { name: /Cancel request/ })).toBeNull();
  });

  it('shows staff the catalogue without requesting: no Choose buttons, no requests asked for', async () => {
    $auth.set({ status: 'authenticated', user: { ...PARTICIPANT, role: 'moderator' } });
    on('GET', '/api/rewards', json(200, catalogue()));
    open();
    expect(await screen.findByText('Rewards are for participants')).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Bol.com gift card' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Choose/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your requests' })).toBeNull();
    expect(sent('GET', REQUESTS)).toHaveLength(0);
  });

  it('says when the rewards cannot be loaded, with a way to try again', async () => {
    on('GET', '/api/rewards', refusal(500, 'internal', 'Something went wrong on our side. Please try again in a moment.'));
    on('GET', REQUESTS, json(200, page([])));
    open();
    expect(await screen.findByText('We could not load the rewards')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('the way to the rewards', () => {
  it('is a "Redeem points" link in the account’s points section', () => {
    render(createElement(PointsSection, { load: { status: 'loading' }, reload: () => {} }));
    expect(screen.getByRole('link', { name: 'Redeem points' }).getAttribute('href')).toBe('/account/rewards');
  });
});

describe('rewards in words', () => {
  it('lists a range’s values step by step, and starts a card on the largest value the balance pays for', () => {
    expect(valuesOf({ min: 5, max: 20, step: 7.5 })).toEqual([5, 12.5, 20]);
    expect(startingValue(GIFT, 1200, 500)).toBe(10);
    expect(startingValue(GIFT, 100, 500)).toBe(5);
    expect(startingValue(GIFT, 1200, 600)).toBe(10);
    // None within reach: the smallest at or above the smallest reward, so the card says what is missing.
    expect(startingValue(reward(9, { denominations: [1, 2, 10] }), 100, 500)).toBe(10);
    // A range: worked out, not listed (a range of a million cents).
    const range = reward(10, { denominations: { min: 0.01, max: 10_000, step: 0.01 } });
    expect(startingValue(range, 1234, 500)).toBe(12.34);
    expect(startingValue(range, 100, 500)).toBe(5);
    expect(startingValue(reward(11, { denominations: { min: 1, max: 50, step: 1 } }), 99_999, 500)).toBe(50);
  });

  it('puts a reward’s own reason before the points, and the minimum before the points missing', () => {
    expect(reachOf(CINEMA, 5, 0, 500)).toMatchObject({ ok: false, reason: 'Not offered in your country' });
    expect(reachOf(GIFT, 7, 10_000, 500)).toMatchObject({ ok: false, kind: 'invalid' });
    expect(reachOf(GIFT, 5, 0, 600)).toMatchObject({ ok: false, kind: 'minimum' });
    expect(reachOf(GIFT, 25, 2150, 500)).toEqual({ ok: false, points: 2500, reason: 'You need 350 more points', kind: 'points' });
    expect(reachOf(GIFT, 25, 2500, 500)).toEqual({ ok: true, points: 2500 });
  });

  it('says a failed request’s reason and that the points are back', () => {
    const failed = timelineOf(
      redemption(1, {
        status: 'failed',
        reason: 'The provider could not send this card.',
        timeline: [
          { status: 'requested', at: '2026-11-01T10:00:00.000Z' },
          { status: 'approved', at: '2026-11-01T10:00:00.000Z' },
          { status: 'ordering', at: '2026-11-01T10:01:00.000Z' },
          { status: 'failed', at: '2026-11-01T10:02:00.000Z' },
        ],
      }),
    );
    expect(failed.map((step) => [step.label, step.state])).toEqual([
      ['Requested', 'done'],
      ['Approved', 'done'],
      ['Failed', 'stopped'],
    ]);
    expect(failed.at(-1)?.note).toBe('The provider could not send this card. Your 1,000 points are back in your balance.');
  });
});
