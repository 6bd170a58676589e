// @vitest-environment happy-dom
/** The review queue's rows and footer: an empty queue says so once, with no stray count line ("None"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
vi.mock('../../../src/lib/navigation.ts', () => ({ navigateTo: vi.fn(async () => {}) }));
const { ReviewQueue } = await import('../../../src/islands/admin/review/ReviewQueue.tsx');
const { DEFAULT_FILTERS } = await import('../../../src/islands/admin/review/logic.ts');

afterEach(cleanup);

const noop = () => undefined;

describe('the review queue', () => {
  it('an empty queue says nothing waits, and shows no count line beside it', () => {
    const { container } = render(
      createElement(ReviewQueue, {
        load: { status: 'ready', data: { items: [], total: 0, page: 1, pageSize: 20 } },
        onRetry: noop,
        filters: DEFAULT_FILTERS,
        page: 1,
        onPageChange: noop,
        openId: null,
        onOpen: noop,
        selected: new Set<number>(),
        onSelectedChange: noop,
        onBulkApprove: () => Promise.resolve(),
        bulkResult: null,
        missionLive: true,
      }),
    );
    expect(screen.getByText('Nothing waits for review. Entries appear here as members submit them.')).toBeTruthy();
    expect(screen.queryByText('None')).toBeNull();
    expect(container.textContent).not.toMatch(/\bNone\b/);
  });

  it('an estimated total (past 1,000 matches) is shown as "about"; an exact one as it is', () => {
    const item = {
      id: 7,
      user: { id: 3, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
      status: 'submitted' as const,
      submittedAt: '2026-11-20T10:00:00.000Z',
      resubmission: false,
      localDate: '2026-11-20',
      createdAt: '2026-11-20T09:00:00.000Z',
      entriesOfUser: 1,
      probesWaiting: 0,
      language: 'de' as const,
    };
    const props = (totalEstimated: boolean) => ({
      load: { status: 'ready' as const, data: { items: [item], total: 200_000, page: 1, pageSize: 20, totalEstimated } },
      onRetry: noop,
      filters: DEFAULT_FILTERS,
      page: 1,
      onPageChange: noop,
      openId: null,
      onOpen: noop,
      selected: new Set<number>(),
      onSelectedChange: noop,
      onBulkApprove: () => Promise.resolve(),
      bulkResult: null,
      missionLive: true,
    });
    render(createElement(ReviewQueue, props(true)));
    expect(screen.getByText('Showing 1–1 of about 200000')).toBeTruthy();
    // Each row names the language its answers were given in, in that language's own words.
    const badge = screen.getByText('Deutsch');
    expect(badge.getAttribute('lang')).toBe('de');
    expect(screen.getByRole('button', { name: /Ada Lovelace.*Answered in Deutsch/ })).toBeTruthy();
    cleanup();
    render(createElement(ReviewQueue, props(false)));
    expect(screen.getByText('Showing 1–1 of 200000')).toBeTruthy();
  });
});
