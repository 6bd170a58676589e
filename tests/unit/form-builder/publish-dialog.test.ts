// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDraftChanges } from '../../../src/shared/schemas/forms.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { PublishDialog } = await import('../../../src/islands/admin/forms/PublishDialog.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let posted: unknown[] = [];

function serve(changes: FormDraftChanges, publishAnswers: { status: number; body: unknown }[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url.endsWith('/changes')) return new Response(JSON.stringify(changes), { status: 200 });
      posted.push(JSON.parse(String(init.body)));
      const answer = publishAnswers.shift() ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
}

function open(overrides: Partial<Parameters<typeof PublishDialog>[0]> = {}) {
  const onPublished = vi.fn();
  const onSelectProblem = vi.fn();
  render(
    createElement(PublishDialog, {
      open: true,
      onOpenChange: () => undefined,
      formId: 5,
      flush: async () => true,
      revision: () => 12,
      problems: {},
      latestVersion: null,
      describeKey: (key: string) => `Question ${key}`,
      onSelectProblem,
      onPublished,
      ...overrides,
    }),
  );
  return { onPublished, onSelectProblem, user: userEvent.setup() };
}

beforeEach(() => {
  posted = [];
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const removed = { kind: 'element_removed' as const, elementId: 'pet', breaking: true, message: 'Removed "pet" (Pet?)' };

describe('the publish dialog', () => {
  it('lists the changes and publishes with the revision', async () => {
    serve(
      {
        changes: [{ kind: 'element_added', elementId: 'age', breaking: false, message: 'Added "age" (Age)' }],
        breaking: false,
        hasAnswers: false,
        latestVersion: 1,
        missingTranslations: {},
      },
      [{ status: 201, body: { version: 2, changes: [] } }],
    );
    const { onPublished, user } = open();
    expect(await screen.findByText('Added "age" (Age)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publish version 2' }));
    await waitFor(() => expect(onPublished).toHaveBeenCalledWith({ version: 2, changes: [] }));
    expect(posted).toEqual([{ revision: 12 }]);
  });

  it('asks for the explicit confirmation when breaking changes meet answers, and sends confirmBreaking', async () => {
    serve({ changes: [removed], breaking: true, hasAnswers: true, latestVersion: 3, missingTranslations: {} }, [
      { status: 201, body: { version: 4, changes: [removed] } },
    ]);
    const { onPublished, user } = open();
    expect(await screen.findByText('Some changes affect answers already given')).toBeTruthy();
    expect(screen.getByText('Affects answers')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publish and accept these changes' }));
    await waitFor(() => expect(onPublished).toHaveBeenCalled());
    expect(posted).toEqual([{ revision: 12, confirmBreaking: true }]);
  });

  it('turns a 409 breaking_changes into the confirmation', async () => {
    serve({ changes: [removed], breaking: true, hasAnswers: false, latestVersion: 3, missingTranslations: {} }, [
      { status: 409, body: { error: { code: 'breaking_changes', message: 'Some changes affect answers', changes: [removed] } } },
      { status: 201, body: { version: 4, changes: [removed] } },
    ]);
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Publish version 4' }));
    await user.click(await screen.findByRole('button', { name: 'Publish and accept these changes' }));
    await waitFor(() => expect(posted).toEqual([{ revision: 12 }, { revision: 12, confirmBreaking: true }]));
  });

  it('lists the missing translations per language and publishes only with the source-language fallback chosen', async () => {
    serve({ changes: [], breaking: false, hasAnswers: false, latestVersion: 1, missingTranslations: { es: 3, ar: 1 } }, [
      { status: 201, body: { version: 2, changes: [] } },
    ]);
    const { onPublished, user } = open({ sourceLanguage: 'de' });
    expect(await screen.findByRole('heading', { name: 'Some texts are not translated' })).toBeTruthy();
    expect(screen.getByText('Spanish: texts missing: 3')).toBeTruthy();
    expect(screen.getByText('Arabic: texts missing: 1')).toBeTruthy();
    const publish = screen.getByRole('button', { name: 'Publish version 2' });
    expect(publish.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Show the source language (German) where a translation is missing' }));
    expect(publish.hasAttribute('disabled')).toBe(false);
    await user.click(publish);
    await waitFor(() => expect(onPublished).toHaveBeenCalledWith({ version: 2, changes: [] }));
    expect(posted).toEqual([{ revision: 12, fallback: 'source' }]);
  });

  it('turns a 409 missing_translations into the choice of the fallback', async () => {
    serve({ changes: [], breaking: false, hasAnswers: false, latestVersion: null, missingTranslations: {} }, [
      { status: 409, body: { error: { code: 'missing_translations', message: 'Some texts have no translation.', missing: { es: 2 } } } },
      { status: 201, body: { version: 1, changes: [] } },
    ]);
    const { onPublished, user } = open();
    expect(screen.queryByRole('heading', { name: 'Some texts are not translated' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Publish version 1' }));
    expect(await screen.findByText('Spanish: texts missing: 2')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish version 1' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('checkbox', { name: 'Show the source language (English) where a translation is missing' }));
    await user.click(screen.getByRole('button', { name: 'Publish version 1' }));
    await waitFor(() => expect(onPublished).toHaveBeenCalled());
    expect(posted).toEqual([{ revision: 12 }, { revision: 12, fallback: 'source' }]);
  });

  it('blocks publishing while there are problems; each problem leads to its element', async () => {
    serve(
      { changes: [], breaking: false, hasAnswers: false, latestVersion: null, missingTranslations: {}, problems: { rate: ['"rate": max must be at most 10'] } },
      [],
    );
    const { onSelectProblem, user } = open();
    const problem = await screen.findByRole('button', { name: /Question rate/ });
    expect(screen.getByRole('button', { name: 'Publish version 1' }).hasAttribute('disabled')).toBe(true);
    await user.click(problem);
    expect(onSelectProblem).toHaveBeenCalledWith('rate');
  });

  it('lists the builder’s own problems by question at once and sends nothing (issue 28)', async () => {
    serve({ changes: [], breaking: false, hasAnswers: false, latestVersion: 1, missingTranslations: {} }, []);
    const fetch = vi.mocked(globalThis.fetch);
    const { onPublished, onSelectProblem, user } = open({
      latestVersion: 1,
      problems: { q: ['"q": the question has no title', '"q": option 1 has no label'], p2: ['"p2": the page is empty; add a question or delete the page'] },
    });
    expect(screen.getByRole('heading', { name: 'Fix these 3 problems before publishing' })).toBeTruthy();
    const question = screen.getByRole('button', { name: /^Question q/ });
    expect(question.textContent).toBe('Question qThe question has no titleOption 1 has no label');
    expect(screen.getByRole('button', { name: /^Question p2/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish version 2' }).hasAttribute('disabled')).toBe(true);
    await user.click(question);
    expect(onSelectProblem).toHaveBeenCalledWith('q');
    expect(fetch).not.toHaveBeenCalled();
    expect(onPublished).not.toHaveBeenCalled();
  });

  it('lists the problems of a refused publish (400 validation_failed) and claims no version', async () => {
    serve({ changes: [], breaking: false, hasAnswers: false, latestVersion: null, missingTranslations: {} }, [
      {
        status: 400,
        body: { error: { code: 'validation_failed', message: 'Fix the problems before publishing', fields: { q: ['"q": the question has no title'] } } },
      },
    ]);
    const { onPublished, user } = open();
    await user.click(await screen.findByRole('button', { name: 'Publish version 1' }));
    expect(await screen.findByRole('button', { name: /^Question q/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Publish version 1' }).hasAttribute('disabled')).toBe(true);
    expect(onPublished).not.toHaveBeenCalled();
  });

  it('says so when the draft could not be saved first', async () => {
    serve({ changes: [], breaking: false, hasAnswers: false, latestVersion: null, missingTranslations: {} }, []);
    open({ flush: async () => false });
    expect(await screen.findByText(/Your latest changes are not saved yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Publish version/ })).toBeNull();
  });
});
