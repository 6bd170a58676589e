// @vitest-environment happy-dom
/**
 * The admin dashboard island against a fake API: every number comes from the one dashboard call
 * and links to the list behind it; the oldest waiting entries open their mission's review screen;
 * completion per live project. The charts' words (their summary) and the ages are checked apart;
 * the charts themselves are drawn in the browser (tests/e2e/dashboard.spec.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { DashboardAnswer } from '../../src/shared/dashboard.ts';
import { $auth } from '../../src/stores/auth.ts';

vi.mock('../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
vi.mock('../../src/lib/navigation.ts', () => ({ navigateTo: vi.fn() }));
vi.mock('../../src/islands/admin/DashboardCharts.tsx', () => ({ default: () => createElement('p', null, 'Charts drawn here') }));
const { default: Dashboard, ageLabel } = await import('../../src/islands/admin/Dashboard.tsx');
const { chartSummary } = await vi.importActual<typeof import('../../src/islands/admin/DashboardCharts.tsx')>('../../src/islands/admin/DashboardCharts.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const ANSWER: DashboardAnswer = {
  generatedAt: '2026-11-01T12:00:00.000Z',
  participants: { total: 1234, active30d: 56, newThisWeek: 7, weekStart: '2026-10-26' },
  review: {
    waiting: 12,
    oldest: [
      {
        entryId: 41,
        missionId: 9,
        missionTitle: 'Fridge photo',
        projectId: 3,
        projectName: 'Mornings',
        participant: { id: 5, firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.org' },
        submittedAt: '2026-10-29T08:00:00.000Z',
        ageHours: 76,
      },
    ],
  },
  projects: [{ id: 3, name: 'Mornings', members: 40, completed: 12, completion: 0.3 }],
  points: { month: '2026-11', pending: 300, available: 120 },
  signupsPerWeek: [],
  submissionsPerDay: [],
  clientErrors: { total: 1 },
  rewards: { outstandingPoints: 250_000, held: 1500, value: [{ currency: 'EUR', value: 2500 }], waiting: 3, toDeliver: 2 },
};

const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  $auth.set({ status: 'authenticated', user: { id: 1, email: 'ada@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin', status: 'active' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/admin/dashboard') return json(200, ANSWER);
      if (url.startsWith('/api/admin/projects')) return json(200, { items: [], total: 0, page: 1, pageSize: 10 });
      throw new TypeError('Failed to fetch');
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the dashboard', () => {
  it('links every number to the list behind it', async () => {
    render(createElement(Dashboard));
    const numbers = await screen.findByRole('region', { name: 'At a glance' });
    const href = (name: string) => within(numbers).getByRole('link', { name }).getAttribute('href');
    expect(href('12 entries wait for review')).toBe('/admin/review');
    expect(href('1,234 participants')).toBe('/admin/users?role=participant');
    expect(href('56 active in the last 30 days')).toBe('/admin/users?role=participant&active=30d');
    expect(href('7 new this week')).toBe('/admin/users?role=participant&from=2026-10-26');
    expect(href('1 client error')).toBe('/admin/tools/client-errors');
    expect(within(numbers).getByText('points pending this month')).toBeTruthy();
    expect(within(numbers).getByText('120 available')).toBeTruthy();
    expect(href('3 reward requests wait for approval 2 approved, to send by hand')).toBe('/admin/rewards/redemptions?status=requested');
    expect(within(numbers).getByText('worth 2,500.00 EUR · 1,500 held')).toBeTruthy();

    const waiting = screen.getByRole('region', { name: 'Waiting for review' });
    expect(within(waiting).getByRole('link', { name: 'Fridge photo · Grace Hopper' }).getAttribute('href')).toBe('/admin/projects/3/missions/9?submission=41');
    expect(within(waiting).getByText('3 days')).toBeTruthy();

    const completion = screen.getByRole('region', { name: 'Completion in live projects' });
    expect(within(completion).getByRole('link', { name: 'Mornings' }).getAttribute('href')).toBe('/admin/projects/3');
    expect(within(completion).getByText('12 of 40 members (30%)')).toBeTruthy();
    expect(await screen.findByText('Charts drawn here')).toBeTruthy();
  });

  it('says how long an entry has waited', () => {
    expect(ageLabel(0)).toBe('less than an hour');
    expect(ageLabel(1)).toBe('1 hour');
    expect(ageLabel(47)).toBe('47 hours');
    expect(ageLabel(48)).toBe('2 days');
  });

  it('sums a chart up in words: total, the most, the latest', () => {
    const words = { noun: ['submission', 'submissions'] as const, period: 'the last 30 days', point: (label: string) => `on ${label}`, latest: 'today' };
    expect(chartSummary([{ label: '1 Nov', count: 0 }], words)).toBe('No submissions in the last 30 days.');
    expect(
      chartSummary(
        [
          { label: '30 Oct', count: 4 },
          { label: '31 Oct', count: 0 },
          { label: '1 Nov', count: 1 },
        ],
        words,
      ),
    ).toBe('5 submissions in the last 30 days; most on 30 Oct (4); today 1.');
  });
});
