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
});
