// @vitest-environment happy-dom
/**
 * The points bulk update and balances below zero (issue 30 §1): applying a file whose rows would
 * take a participant below zero is refused (409 `insufficient_points`, said in words); then "Allow
 * the balance to go below zero" is offered and the apply is sent again with `allowNegative`. The
 * uploads are faked at `platform/upload.ts` (the real one streams through XMLHttpRequest).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BulkApplyResult, BulkPreview } from '../../../src/shared/points-bulk-update.ts';
import { ApiError } from '../../../src/platform/api.ts';
import { $auth } from '../../../src/stores/auth.ts';

const uploads: { path: string; body: unknown }[] = [];
const answers: (() => unknown)[] = [];
vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
vi.mock('../../../src/platform/upload.ts', () => ({
  uploadForNdjson: vi.fn(async (path: string, body: unknown) => {
    uploads.push({ path, body: typeof body === 'string' ? (JSON.parse(body) as unknown) : 'file' });
    const next = answers.shift();
    if (!next) throw new Error(`No answer for ${path}`);
    return next();
  }),
}));
const { default: PointsBulkUpdate } = await import('../../../src/islands/admin/points-bulk-update/PointsBulkUpdate.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const BASE = '/api/admin/tools/points-bulk-update';
const PREVIEW: BulkPreview = {
  batchId: 12,
  status: 'previewed',
  fileName: 'corrections.csv',
  columns: { participant: 'participant', points: 'points', reason: 'reason', reference: null },
  rows: 2,
  matched: 2,
  cleanRows: 2,
  problemRows: 0,
  problemCount: 0,
  counts: { unknownParticipants: 0, disabledAccounts: 0, invalidPoints: 0, invalidReasons: 0, duplicateReferences: 0, insufficientPoints: 0 },
  problems: [],
  totals: { positive: 50, negative: -300, net: -250, participants: 2 },
  alreadyCredited: 0,
  alreadyCreditedLines: [],
  appliedAt: null,
};
const BELOW_ZERO = "Line 3: This would take Ann Tester's available points below zero (120 available): take away less, or allow a negative balance";

beforeEach(() => {
  uploads.length = 0;
  answers.length = 0;
  $auth.set({ status: 'authenticated', user: { id: 3, email: 'ada@example.org', firstName: 'Ada', lastName: 'Admin', role: 'admin', status: 'active' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ items: [], total: 0, page: 1, pageSize: 10 }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('points bulk update below zero', () => {
  it('says the refusal, offers to allow a negative balance, and applies with allowNegative', async () => {
    answers.push(
      () => PREVIEW,
      () => {
        throw new ApiError(409, 'insufficient_points', BELOW_ZERO, {}, null, null, { available: 120, lines: [3] });
      },
      (): BulkApplyResult => ({ applied: 2, alreadyApplied: false, alreadyCredited: 0, skipped: 0, batch: {} as BulkApplyResult['batch'] }),
    );
    const user = userEvent.setup();
    const { container } = render(createElement(PointsBulkUpdate));

    await screen.findByRole('button', { name: 'Choose a file' });
    const input = container.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['participant,points,reason\n'], 'corrections.csv', { type: 'text/csv' }));
    // Nothing below zero in the preview: nothing offered yet.
    await user.click(await screen.findByRole('button', { name: 'Apply 2 rows' }));
    expect(screen.queryByRole('checkbox', { name: 'Allow the balance to go below zero' })).toBeNull();
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Apply 2 rows' }));

    expect((await screen.findByRole('alert')).textContent).toContain(BELOW_ZERO);
    await user.click(screen.getByRole('checkbox', { name: 'Allow the balance to go below zero' }));
    await user.click(screen.getByRole('button', { name: 'Apply 2 rows' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Balances may go below zero.');
    await user.click(within(dialog).getByRole('button', { name: 'Apply 2 rows' }));

    expect(await screen.findByText('2 rows credited to the points ledger.')).toBeTruthy();
    await waitFor(() =>
      expect(uploads).toEqual([
        { path: `${BASE}/preview`, body: 'file' },
        { path: `${BASE}/12/apply`, body: { excludeProblemRows: false } },
        { path: `${BASE}/12/apply`, body: { excludeProblemRows: false, allowNegative: true } },
      ]),
    );
  });
});
