// @vitest-environment happy-dom
/**
 * The participant screens against a fake API (fetch stubbed): home, a native survey resumed,
 * autosaved (also offline) and submitted, answers changed on another device merged in (saves and
 * submits refused with 409 `conflict`), an external survey's outcomes, not-found, a one-entry
 * mission that creates its entry when the person starts (or finds it made on another device),
 * and a diary's entry list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ComponentType } from 'react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FormDefinition } from '../../../src/shared/forms/definition.ts';
import type { ParticipantEntry } from '../../../src/shared/mission-entries.ts';
import type { ParticipantMission } from '../../../src/shared/missions.ts';
import type { HomeAnswer } from '../../../src/shared/projects.ts';
import type { ParticipantSurvey } from '../../../src/shared/surveys.ts';
import { $auth } from '../../../src/stores/auth.ts';
import { $toasts } from '../../../src/stores/toasts.ts';

vi.mock('../../../src/lib/session.ts', () => ({ handleSessionLost: () => false }));
const { default: Home } = await import('../../../src/islands/participant/Home.tsx');
const { default: SurveyScreen } = await import('../../../src/islands/participant/SurveyScreen.tsx');
const { default: MissionScreen } = await import('../../../src/islands/participant/MissionScreen.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

interface Call {
  method: string;
  url: string;
  body: unknown;
}

type Route = (call: Call) => Response | Promise<Response>;

let calls: Call[] = [];
let routes: [string, Route][] = [];

const json = (status: number, body: unknown): Response =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Answers `METHOD path` with `route` (the latest registration wins). */
function on(method: string, url: string, route: Route | Response | (() => never)): void {
  routes.unshift([`${method} ${url}`, typeof route === 'function' ? (route as Route) : () => (route as Response).clone()]);
}

beforeEach(() => {
  localStorage.clear();
  $toasts.set([]);
  calls = [];
  routes = [];
  $auth.set({
    status: 'authenticated',
    user: { id: 7, email: 'ada@example.org', firstName: 'Ada', lastName: 'Lovelace', role: 'participant', status: 'active' },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call: Call = { method: String(init.method ?? 'GET'), url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
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

function open(path: string, screenComponent: ComponentType) {
  history.replaceState(null, '', path);
  const user = userEvent.setup();
  render(createElement(screenComponent));
  return { user };
}

const sent = (method: string, url: string) => calls.filter((call) => call.method === method && call.url === url);

// ---------------------------------------------------------------------------------------------

const twoPages: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Breakfast',
  pages: [
    { id: 'p1', title: 'Your morning', elements: [{ id: 'drink', type: 'short_text', title: 'What do you drink?', required: true }] },
    { id: 'p2', title: 'Your food', elements: [{ id: 'food', type: 'short_text', title: 'What do you eat?', required: true }] },
  ],
};

function survey(extra: Partial<ParticipantSurvey> = {}): ParticipantSurvey {
  return {
    id: 5,
    title: 'Breakfast habits',
    description: 'Tell us about your mornings.',
    kind: 'native',
    points: 50,
    estimatedMinutes: 5,
    projectName: 'Mornings',
    opensAt: null,
    closesAt: new Date(Date.now() + 3 * 86_400_000 + 60_000).toISOString(),
    state: 'open',
    outcome: null,
    seed: 'survey-5-user-7',
    form: { version: 1, definition: twoPages },
    ...extra,
  };
}

describe('home', () => {
  it('lists what to do, what waits for review and what is done, each card linking to its screen', async () => {
    const answer: HomeAnswer = {
      todo: [
        {
          kind: 'survey',
          id: 5,
          title: 'Breakfast habits',
          projectName: 'Mornings',
          points: 50,
          closesAt: new Date(Date.now() + 3 * 86_400_000 + 60_000).toISOString(),
          estimatedMinutes: 5,
          progress: 0.5,
          state: 'in_progress',
        },
        { kind: 'mission_group', id: 3, title: 'Kitchen week', projectName: 'Mornings', points: 300, closesAt: null, progress: 0, state: 'open' },
      ],
      submitted: [{ kind: 'mission', id: 9, title: 'Fridge photo', projectName: 'Mornings', points: 80, closesAt: null, progress: 1, state: 'submitted' }],
      done: [],
      announcements: [
        { id: 8, projectName: 'Mornings', title: 'Kitchen week starts Monday', body: 'Thanks for **taking part**.', createdAt: '2026-11-01T09:00:00.000Z' },
        { id: 7, projectName: 'Mornings', title: 'Welcome', body: 'Hello all.', createdAt: '2026-10-20T09:00:00.000Z' },
      ],
    };
    on('GET', '/api/home', json(200, answer));
    open('/', Home);
    const todo = await screen.findByRole('region', { name: 'To do, 2 items' });
    const card = within(todo).getByRole('article', { name: 'Breakfast habits' });
    expect(within(card).getByRole('link', { name: 'Breakfast habits' }).getAttribute('href')).toBe('/surveys/5');
    expect(within(card).getByText('Closes in 3 days')).toBeTruthy();
    expect(within(card).getByText('About 5 minutes')).toBeTruthy();
    expect(within(card).getByText('50 points')).toBeTruthy();
    expect(within(card).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(within(card).getByText('In progress')).toBeTruthy();
    expect(within(todo).getByRole('link', { name: 'Kitchen week' }).getAttribute('href')).toBe('/mission-groups/3');
    expect(within(todo).getByRole('article', { name: 'Kitchen week' }).querySelector('[role="progressbar"]')).toBeNull();
    const submitted = screen.getByRole('region', { name: 'Submitted, 1 item' });
    expect(within(submitted).getByRole('link', { name: 'Fridge photo' }).getAttribute('href')).toBe('/missions/9');
    expect(within(submitted).getByText('In review')).toBeTruthy();
    expect(within(submitted).getByText('Waiting for review')).toBeTruthy();
    expect(screen.queryByRole('region', { name: /^Done/ })).toBeNull();
    // Announcements (issue 28 §15): the newest open with its Markdown rendered, the older one by its title.
    const news = screen.getByRole('region', { name: 'News from your projects' });
    const [newest, older] = news.querySelectorAll('details');
    expect(newest?.open).toBe(true);
    expect(newest?.id).toBe('announcement-8');
    expect(within(news).getByText('Kitchen week starts Monday')).toBeTruthy();
    expect((await within(news).findByText('taking part')).tagName).toBe('STRONG');
    expect(older?.open).toBe(false);
  });

  it('a diary’s card says its entries of the maximum, what today allows and the streak, with its points an entry', async () => {
    const diary = (id: number, today: 'add' | 'continue' | 'tomorrow', streak: number) => ({
      kind: 'mission' as const,
      id,
      title: `Diary ${id}`,
      projectName: 'Mornings',
      points: 100,
      pointsPerEntry: true,
      closesAt: null,
      progress: 3 / 7,
      state: 'in_progress',
      diary: { entries: 3, max: 7, next: 4, today, streak },
    });
    const answer: HomeAnswer = { todo: [diary(1, 'add', 3), diary(2, 'tomorrow', 1), diary(3, 'continue', 0)], submitted: [], done: [], announcements: [] };
    on('GET', '/api/home', json(200, answer));
    open('/', Home);
    const todo = await screen.findByRole('region', { name: 'To do, 3 items' });
    const first = within(todo).getByRole('article', { name: 'Diary 1' });
    expect(within(first).getByText('100 points an entry')).toBeTruthy();
    expect(within(first).getByText('3 of 7 entries')).toBeTruthy();
    expect(within(first).getByText('Add today’s entry')).toBeTruthy();
    expect(within(first).getByText('3-day streak')).toBeTruthy();
    expect(within(first).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('43');
    const second = within(todo).getByRole('article', { name: 'Diary 2' });
    expect(within(second).getByText('Come back tomorrow for entry 4 of 7')).toBeTruthy();
    expect(within(second).queryByText(/streak/)).toBeNull();
    expect(within(within(todo).getByRole('article', { name: 'Diary 3' })).getByText('Continue your entry')).toBeTruthy();
  });

  it('says what to expect when there is nothing yet', async () => {
    on('GET', '/api/home', json(200, { todo: [], submitted: [], done: [], announcements: [] }));
    open('/', Home);
    expect(await screen.findByRole('heading', { name: 'Nothing to do yet' })).toBeTruthy();
    expect(screen.getByText(/When a project you take part in opens a survey or mission, it appears here/)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'For staff' })).toBeNull();
  });

  it('shows staff how many entries wait for review, with the way to the admin area', async () => {
    on('GET', '/api/home', json(200, { todo: [], submitted: [], done: [], announcements: [], staff: { reviewWaiting: 12 } }));
    open('/', Home);
    const card = await screen.findByRole('region', { name: 'For staff' });
    expect(within(card).getByRole('link', { name: '12 entries wait for review' }).getAttribute('href')).toBe('/admin/review');
    expect(within(card).getByRole('link', { name: 'Open the admin area' }).getAttribute('href')).toBe('/admin');
    cleanup();
    on('GET', '/api/home', json(200, { todo: [], submitted: [], done: [], announcements: [], staff: { reviewWaiting: 1 } }));
    open('/', Home);
    expect(await screen.findByRole('link', { name: '1 entry waits for review' })).toBeTruthy();
  });

  it('offers Try again when the call fails', async () => {
    on('GET', '/api/home', json(500, { error: { code: 'internal', message: 'Something broke' } }));
    const { user } = open('/', Home);
    expect(await screen.findByText('Something broke')).toBeTruthy();
    on('GET', '/api/home', json(200, { todo: [], submitted: [], done: [], announcements: [] }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Nothing to do yet' })).toBeTruthy();
  });
});

describe('a native survey', () => {
  it('resumes on the page where the person stopped, autosaves the answers with the page, and submits once', async () => {
    on(
      'GET',
      '/api/surveys/5',
      json(200, survey({ state: 'in_progress', response: { answers: { drink: 'Tea' }, pageId: 'p2', status: 'draft', submittedAt: null, revision: 2 } })),
    );
    on('PUT', '/api/surveys/5/response', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 3 }));
    const { user } = open('/surveys/5', SurveyScreen);
    expect(await screen.findByRole('heading', { level: 1, name: 'Breakfast habits' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Your food' })).toBeTruthy();
    expect(screen.getByText('Your answers are saved as you go')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: /What do you eat/ }), 'Toast');
    await waitFor(
      () =>
        expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({
          answers: { drink: 'Tea', food: 'Toast' },
          pageId: 'p2',
          revision: 2,
          language: 'en',
        }),
      { timeout: 3_000 },
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(localStorage.length).toBe(0);

    on('POST', '/api/surveys/5/response/submit', json(200, { status: 'submitted' }));
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          state: 'submitted',
          response: { answers: { drink: 'Tea', food: 'Toast' }, pageId: 'p2', status: 'submitted', submittedAt: new Date().toISOString(), revision: 4 },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you — your answers are in' })).toBeTruthy();
    const submit = sent('POST', '/api/surveys/5/response/submit');
    expect(submit).toHaveLength(1);
    expect(submit[0]?.body).toMatchObject({ answers: { drink: 'Tea', food: 'Toast' }, revision: 3 });
    expect((submit[0]?.body as { today?: string }).today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(screen.getByText(/^You submitted this survey on .+\. It is worth/).textContent).toMatch(/It is worth 50 points\.$/);
    const answers = screen.getByRole('region', { name: 'Your answers' });
    expect(within(answers).getByText('Toast')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('saves at once on a page change', async () => {
    on('GET', '/api/surveys/5', json(200, survey()));
    on('PUT', '/api/surveys/5/response', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 1 }));
    const { user } = open('/surveys/5', SurveyScreen);
    await user.type(await screen.findByRole('textbox', { name: /What do you drink/ }), 'Coffee');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Your food' })).toBeTruthy();
    await waitFor(() =>
      expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({ answers: { drink: 'Coffee' }, pageId: 'p2', revision: 0, language: 'en' }),
    );
  });

  it('offline: says so, keeps the answers on this device, and sends them when the browser is back online', async () => {
    on('GET', '/api/surveys/5', json(200, survey()));
    const { user } = open('/surveys/5', SurveyScreen);
    await user.type(await screen.findByRole('textbox', { name: /What do you drink/ }), 'Cocoa');
    expect(
      await screen.findByText('Offline — your answers are kept on this device and sent when you are back online', undefined, { timeout: 3_000 }),
    ).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('fieldwork-answers-7-survey-5') ?? '{}')).toMatchObject({ payload: { answers: { drink: 'Cocoa' }, pageId: 'p1' } });

    on('PUT', '/api/surveys/5/response', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 1 }));
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({ answers: { drink: 'Cocoa' }, pageId: 'p1', revision: 0, language: 'en' });
    expect(localStorage.getItem('fieldwork-answers-7-survey-5')).toBeNull();
  });

  it('answers kept on this device from an earlier visit come back and are sent', async () => {
    localStorage.setItem(
      'fieldwork-answers-7-survey-5',
      JSON.stringify({ payload: { answers: { drink: 'Juice' }, pageId: 'p1' }, base: {}, savedAt: new Date().toISOString() }),
    );
    on('GET', '/api/surveys/5', json(200, survey()));
    on('PUT', '/api/surveys/5/response', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 1 }));
    open('/surveys/5', SurveyScreen);
    expect(((await screen.findByRole('textbox', { name: /What do you drink/ })) as HTMLInputElement).value).toBe('Juice');
    await waitFor(
      () => expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({ answers: { drink: 'Juice' }, pageId: 'p1', revision: 0, language: 'en' }),
      {
        timeout: 3_000,
      },
    );
  });

  it('shows the server’s messages beside the questions when it refuses the answers', async () => {
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({ state: 'in_progress', response: { answers: { drink: 'Tea', food: 'x' }, pageId: 'p2', status: 'draft', submittedAt: null, revision: 2 } }),
      ),
    );
    on(
      'POST',
      '/api/surveys/5/response/submit',
      json(400, { error: { code: 'validation_failed', message: 'Check your answers', fields: { drink: ['Too long'] } } }),
    );
    const { user } = open('/surveys/5', SurveyScreen);
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Your morning' })).toBeTruthy();
    expect(screen.getAllByText('Too long').length).toBeGreaterThan(0);
  });

  it('says when a survey opens, and when it closed', async () => {
    on('GET', '/api/surveys/5', json(200, survey({ state: 'upcoming', opensAt: '2099-03-05T09:00:00Z', form: undefined })));
    open('/surveys/5', SurveyScreen);
    expect(await screen.findByText(/^Opens on Mar 5, 2099/)).toBeTruthy();
    cleanup();
    on('GET', '/api/surveys/5', json(200, survey({ state: 'closed', closesAt: '2020-03-05T09:00:00Z' })));
    open('/surveys/5', SurveyScreen);
    expect(await screen.findByText('This survey is closed · Closed on Mar 5, 2020')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('is the not-found page when the API answers 404 (not a member, unknown)', async () => {
    on('GET', '/api/surveys/5', json(404, { error: { code: 'not_found', message: 'Not found' } }));
    open('/surveys/5', SurveyScreen);
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeTruthy();
    expect(document.title).toBe('Page Not Found · Fieldwork');
  });
});

/** The breakfast survey, its source English, every text translated into Arabic. */
const bilingual: FormDefinition = {
  ...twoPages,
  language: 'en',
  languages: ['en', 'ar'],
  translations: {
    'form.title': { ar: 'الفطور' },
    'pages.p1.title': { ar: 'صباحك' },
    'elements.drink.title': { ar: 'ماذا تشرب؟' },
    'pages.p2.title': { ar: 'طعامك' },
    'elements.food.title': { ar: 'ماذا تأكل؟' },
  },
};

describe('a survey offered in several languages', () => {
  const picker = () => screen.getByRole('combobox', { name: 'Language of the questions' }) as HTMLSelectElement;
  const form = () => screen.getByRole('form') as HTMLFormElement;

  it('opens in the interface language when offered; a switch keeps every answer (one not saved yet too) and the page, and is saved', async () => {
    on('GET', '/api/surveys/5', json(200, survey({ form: { version: 1, definition: bilingual } })));
    on(
      'PUT',
      '/api/surveys/5/response',
      inTurn(...[1, 2, 3, 4].map((revision) => json(200, { status: 'draft', savedAt: new Date().toISOString(), revision }))),
    );
    const { user } = open('/surveys/5', SurveyScreen);
    await user.type(await screen.findByRole('textbox', { name: /What do you drink/ }), 'Tea');
    expect(form().getAttribute('lang')).toBe('en');
    expect(form().getAttribute('dir')).toBe('ltr');
    expect([...picker().options].map((option) => [option.value, option.textContent, option.lang])).toEqual([
      ['en', 'English', 'en'],
      ['ar', 'العربية', 'ar'],
    ]);
    // At once, before the autosave's pause: the answer typed is on screen only.
    expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(0);
    await user.selectOptions(picker(), 'ar');
    expect(textbox(/ماذا تشرب/).value).toBe('Tea');
    expect(screen.getByRole('heading', { level: 2, name: 'صباحك' })).toBeTruthy();
    expect(form().getAttribute('lang')).toBe('ar');
    expect(form().getAttribute('dir')).toBe('rtl');
    // The renderer's own words stay in the interface's language, marked as such.
    expect(screen.getByRole('button', { name: 'Next' }).closest('[lang]')?.getAttribute('lang')).toBe('en');
    await waitFor(() =>
      expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({ answers: { drink: 'Tea' }, pageId: 'p1', revision: 0, language: 'ar' }),
    );
    expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByRole('textbox', { name: /ماذا تأكل/ }), 'Toast');
    // Back to English on the second page: the page stays, both answers too.
    await user.selectOptions(picker(), 'en');
    expect(screen.getByRole('heading', { level: 2, name: 'Your food' })).toBeTruthy();
    expect(textbox(/What do you eat/).value).toBe('Toast');
    await waitFor(() =>
      expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({
        answers: { drink: 'Tea', food: 'Toast' },
        pageId: 'p2',
        revision: 2,
        language: 'en',
      }),
    );

    on('POST', '/api/surveys/5/response/submit', json(200, { status: 'submitted' }));
    on('GET', '/api/surveys/5', json(200, survey({ form: { version: 1, definition: bilingual }, state: 'submitted' })));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you — your answers are in' })).toBeTruthy();
    expect(sent('POST', '/api/surveys/5/response/submit')[0]?.body).toMatchObject({ answers: { drink: 'Tea', food: 'Toast' }, language: 'en' });
  });

  it('opens in the language the answers were recorded in, saving nothing; a switch before any answer saves nothing either', async () => {
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          form: { version: 1, definition: bilingual },
          state: 'in_progress',
          response: { answers: { drink: 'Tea' }, pageId: 'p1', status: 'draft', submittedAt: null, revision: 2, language: 'ar' },
        }),
      ),
    );
    open('/surveys/5', SurveyScreen);
    expect(((await screen.findByRole('textbox', { name: /ماذا تشرب/ })) as HTMLInputElement).value).toBe('Tea');
    expect(picker().value).toBe('ar');
    // Longer than the autosave's wait; inside act, as React's work in that time may finish late on a loaded machine.
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_200)));
    expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(0);
    cleanup();

    on('GET', '/api/surveys/5', json(200, survey({ form: { version: 1, definition: bilingual } })));
    const { user } = open('/surveys/5', SurveyScreen);
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Language of the questions' }), 'ar');
    expect(screen.getByRole('textbox', { name: /ماذا تشرب/ })).toBeTruthy();
    await act(() => new Promise((resolve) => setTimeout(resolve, 1_200)));
    expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(0);
  });

  it('in the source language when the person’s language is not offered, with no choice for a form in one language', async () => {
    on('GET', '/api/surveys/5', json(200, survey({ form: { version: 1, definition: { ...bilingual, language: 'ar', languages: ['ar'], translations: {} } } })));
    open('/surveys/5', SurveyScreen);
    await screen.findByRole('textbox', { name: /What do you drink/ });
    expect(form().getAttribute('lang')).toBe('ar');
    expect(form().getAttribute('dir')).toBe('rtl');
    expect(screen.queryByRole('combobox', { name: 'Language of the questions' })).toBeNull();
  });
});

/** One page, two questions: a merge changes what is on screen. */
const onePage: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Breakfast',
  pages: [
    {
      id: 'p1',
      title: 'Your morning',
      elements: [
        { id: 'drink', type: 'short_text', title: 'What do you drink?', required: true },
        { id: 'food', type: 'short_text', title: 'What do you eat?', required: true },
      ],
    },
  ],
};

/** The API's 409 `conflict` with what the server holds. */
const conflictAnswer = (current: { answers: Record<string, unknown>; pageId?: string | null; revision: number }) =>
  json(409, { error: { code: 'conflict', message: 'Your answers were changed on another device since this page loaded them', current } });

const textbox = (name: RegExp) => screen.getByRole('textbox', { name }) as HTMLInputElement;

/** Answers each call with the next of `answers` (the last one from then on). */
const inTurn = (...answers: Response[]): Route => {
  let next = 0;
  return () => (answers[Math.min(next++, answers.length - 1)] as Response).clone();
};

describe('answers changed on another device', () => {
  it('a save refused as stale is merged into the form (with a note) and sent again with the server’s revision', async () => {
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          form: { version: 1, definition: onePage },
          state: 'in_progress',
          response: { answers: { drink: 'Tea' }, pageId: 'p1', status: 'draft', submittedAt: null, revision: 2 },
        }),
      ),
    );
    // The other device changed the drink meanwhile (revision 3).
    on(
      'PUT',
      '/api/surveys/5/response',
      inTurn(
        conflictAnswer({ answers: { drink: 'Coffee' }, pageId: 'p1', revision: 3 }),
        json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 4 }),
      ),
    );
    const { user } = open('/surveys/5', SurveyScreen);
    await user.type(await screen.findByRole('textbox', { name: /What do you eat/ }), 'Toast');
    await waitFor(() => expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(2), { timeout: 3_000 });
    expect(sent('PUT', '/api/surveys/5/response').map((call) => call.body)).toEqual([
      { answers: { drink: 'Tea', food: 'Toast' }, pageId: 'p1', revision: 2, language: 'en' },
      { answers: { drink: 'Coffee', food: 'Toast' }, pageId: 'p1', revision: 3, language: 'en' },
    ]);
    // The form shows the merge; the note says why, politely.
    expect(textbox(/What do you drink/).value).toBe('Coffee');
    expect(textbox(/What do you eat/).value).toBe('Toast');
    const note = await screen.findByText('Updated from your other device');
    expect(note.closest('[role="status"]')?.getAttribute('aria-live')).toBe('polite');
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(localStorage.length).toBe(0);
    // Typing goes on from the merged answers.
    await user.type(textbox(/What do you eat/), ' and jam');
    await waitFor(
      () =>
        expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({
          answers: { drink: 'Coffee', food: 'Toast and jam' },
          pageId: 'p1',
          revision: 4,
          language: 'en',
        }),
      { timeout: 3_000 },
    );
  });

  it('says nothing when the merge changed no answer on screen (another page), but the form has it', async () => {
    on('GET', '/api/surveys/5', json(200, survey()));
    on(
      'PUT',
      '/api/surveys/5/response',
      inTurn(
        conflictAnswer({ answers: { food: 'Eggs' }, pageId: 'p2', revision: 1 }),
        json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 2 }),
      ),
    );
    const { user } = open('/surveys/5', SurveyScreen);
    await user.type(await screen.findByRole('textbox', { name: /What do you drink/ }), 'Tea');
    await waitFor(
      () =>
        expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({
          answers: { drink: 'Tea', food: 'Eggs' },
          pageId: 'p1',
          revision: 1,
          language: 'en',
        }),
      { timeout: 3_000 },
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
    expect(screen.queryByText('Updated from your other device')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(textbox(/What do you eat/).value).toBe('Eggs');
  });

  it('a submit refused as stale merges the answers and asks to check and submit again; nothing unseen is submitted', async () => {
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          form: { version: 1, definition: onePage },
          state: 'in_progress',
          response: { answers: { drink: 'Tea', food: 'Toast' }, pageId: 'p1', status: 'draft', submittedAt: null, revision: 2 },
        }),
      ),
    );
    on('POST', '/api/surveys/5/response/submit', conflictAnswer({ answers: { drink: 'Tea', food: 'Porridge' }, pageId: 'p1', revision: 3 }));
    const { user } = open('/surveys/5', SurveyScreen);
    await user.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Your answers changed on your other device, so nothing was submitted. Check them, then submit again.')).toBeTruthy();
    expect(textbox(/What do you eat/).value).toBe('Porridge');
    expect(screen.getByText('Updated from your other device')).toBeTruthy();
    expect(sent('POST', '/api/surveys/5/response/submit')).toHaveLength(1);
    expect(sent('POST', '/api/surveys/5/response/submit')[0]?.body).toMatchObject({ answers: { drink: 'Tea', food: 'Toast' }, revision: 2 });
    // Nothing of this device's to send: the server already has the merge.
    expect(sent('PUT', '/api/surveys/5/response')).toHaveLength(0);

    // Checked, submitted again: on the server's revision.
    on('POST', '/api/surveys/5/response/submit', json(200, { status: 'submitted' }));
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          form: { version: 1, definition: onePage },
          state: 'submitted',
          response: { answers: { drink: 'Tea', food: 'Porridge' }, pageId: 'p1', status: 'submitted', submittedAt: new Date().toISOString(), revision: 4 },
        }),
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you — your answers are in' })).toBeTruthy();
    expect(sent('POST', '/api/surveys/5/response/submit')[1]?.body).toMatchObject({ answers: { drink: 'Tea', food: 'Porridge' }, revision: 3 });
  });

  it('answers kept on this device from before the other device saved come back merged, with the note', async () => {
    localStorage.setItem(
      'fieldwork-answers-7-survey-5',
      JSON.stringify({ payload: { answers: { drink: 'Juice' }, pageId: 'p1' }, base: {}, revision: 0, savedAt: new Date().toISOString() }),
    );
    on(
      'GET',
      '/api/surveys/5',
      json(
        200,
        survey({
          form: { version: 1, definition: onePage },
          state: 'in_progress',
          response: { answers: { food: 'Eggs' }, pageId: 'p1', status: 'draft', submittedAt: null, revision: 1 },
        }),
      ),
    );
    on('PUT', '/api/surveys/5/response', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 2 }));
    open('/surveys/5', SurveyScreen);
    expect(((await screen.findByRole('textbox', { name: /What do you drink/ })) as HTMLInputElement).value).toBe('Juice');
    expect(textbox(/What do you eat/).value).toBe('Eggs');
    expect(await screen.findByText('Updated from your other device')).toBeTruthy();
    await waitFor(
      () =>
        expect(sent('PUT', '/api/surveys/5/response').at(-1)?.body).toEqual({
          answers: { drink: 'Juice', food: 'Eggs' },
          pageId: 'p1',
          revision: 1,
          language: 'en',
        }),
      { timeout: 3_000 },
    );
  });

  it('a one-entry mission whose entry was made on another device meanwhile: the answers typed here go into it', async () => {
    const twoNotes: FormDefinition = {
      schema: 'fieldwork.form/1',
      title: 'Fridge',
      pages: [
        {
          id: 'p1',
          title: 'Your fridge',
          elements: [
            { id: 'door', type: 'short_text', title: 'Is the door open?' },
            { id: 'note', type: 'short_text', title: 'What is inside?' },
          ],
        },
      ],
    };
    on('GET', '/api/missions/9', json(200, mission({ form: { version: 1, definition: twoNotes } })));
    on('POST', '/api/missions/9/entries', json(409, { error: { code: 'entries_limit', message: 'You have made all the entries this mission takes' } }));
    const { user } = open('/missions/9', MissionScreen);
    on(
      'GET',
      '/api/missions/9',
      json(
        200,
        mission({
          form: { version: 1, definition: twoNotes },
          myEntries: [{ ...entry(31, 'draft', '2026-05-10'), answers: { door: 'Open' }, revision: 1 }],
          canAddEntry: false,
        }),
      ),
    );
    on('PUT', '/api/missions/9/entries/31', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 2 }));
    await user.type(await screen.findByRole('textbox', { name: /What is inside/ }), 'Milk');
    await waitFor(
      () => expect(sent('PUT', '/api/missions/9/entries/31').at(-1)?.body).toEqual({ answers: { door: 'Open', note: 'Milk' }, revision: 1, language: 'en' }),
      {
        timeout: 5_000,
      },
    );
    expect(textbox(/What is inside/).value).toBe('Milk');
    expect(textbox(/Is the door open/).value).toBe('Open');
    expect(screen.getByText('Updated from your other device')).toBeTruthy();
    expect($toasts.get()).toEqual([]);
    await waitFor(() => expect(localStorage.length).toBe(0));
  });
});

describe('an external survey', () => {
  it('says what to expect and starts through the API link', async () => {
    on('GET', '/api/surveys/6', json(200, survey({ id: 6, kind: 'external', form: undefined })));
    open('/surveys/6', SurveyScreen);
    const start = await screen.findByRole('link', { name: 'Start the survey' });
    expect(start.getAttribute('href')).toBe('/api/surveys/6/start');
    expect(start.hasAttribute('data-astro-reload')).toBe(true);
    expect(screen.getByText('The survey opens in this tab, on our survey partner’s site.')).toBeTruthy();
    expect(screen.getByText('It takes about 5 minutes.')).toBeTruthy();
  });

  it('after the return: thank-you, screened out or quota full', async () => {
    on('GET', '/api/surveys/6', json(200, survey({ id: 6, kind: 'external', form: undefined, state: 'submitted', outcome: 'screened_out' })));
    open('/surveys/6?returned=1', SurveyScreen);
    expect(await screen.findByRole('heading', { name: 'Thanks — this survey was looking for different participants this time' })).toBeTruthy();
    cleanup();
    on('GET', '/api/surveys/6', json(200, survey({ id: 6, kind: 'external', form: undefined, state: 'submitted', outcome: 'over_quota' })));
    open('/surveys/6?returned=1', SurveyScreen);
    expect(await screen.findByRole('heading', { name: 'Thanks — this survey already has all the answers it needs' })).toBeTruthy();
    cleanup();
    on('GET', '/api/surveys/6', json(200, survey({ id: 6, kind: 'external', form: undefined, state: 'submitted', outcome: 'complete' })));
    open('/surveys/6?returned=1', SurveyScreen);
    expect(await screen.findByRole('heading', { name: 'Thank you — your answers are in' })).toBeTruthy();
  });
});

// ---------------------------------------------------------------------------------------------

const noteForm: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Fridge',
  pages: [{ id: 'p1', title: 'Your fridge', elements: [{ id: 'note', type: 'short_text', title: 'What is inside?', required: true }] }],
};

function mission(extra: Partial<ParticipantMission> = {}): ParticipantMission {
  return {
    id: 9,
    title: 'Fridge photo',
    instructions: 'Open your fridge and **look**.',
    points: 80,
    projectName: 'Mornings',
    opensAt: null,
    closesAt: null,
    availability: 'open',
    review: 'manual',
    entries: { min: 1, max: 1, perDay: null },
    form: { version: 1, definition: noteForm },
    myEntries: [],
    canAddEntry: true,
    addEntryBlockedReason: null,
    ...extra,
  };
}

const entry = (id: number, status: ParticipantEntry['status'], day: string): ParticipantEntry => ({
  id,
  status,
  answers: { note: `Entry ${id} note` },
  localDate: day,
  createdAt: `${day}T10:00:00Z`,
  submittedAt: status === 'draft' ? null : `${day}T10:05:00Z`,
  seed: `entry-${id}`,
  revision: status === 'draft' ? 1 : 2,
});

describe('a one-entry mission', () => {
  it('shows the instructions and the form; the draft entry is made with the time zone when the person starts, then saved and submitted', async () => {
    on('GET', '/api/missions/9', json(200, mission()));
    on('POST', '/api/missions/9/entries', json(201, { id: 31, status: 'draft' }));
    on('PUT', '/api/missions/9/entries/31', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 1 }));
    const { user } = open('/missions/9', MissionScreen);
    expect(await screen.findByRole('heading', { level: 1, name: 'Fridge photo' })).toBeTruthy();
    expect((await within(screen.getByRole('region', { name: 'Instructions' })).findByText('look')).tagName).toBe('STRONG');
    expect(sent('POST', '/api/missions/9/entries')).toHaveLength(0);
    await user.type(screen.getByRole('textbox', { name: /What is inside/ }), 'Milk');
    await waitFor(() => expect(sent('PUT', '/api/missions/9/entries/31').at(-1)?.body).toEqual({ answers: { note: 'Milk' }, revision: 0, language: 'en' }), {
      timeout: 3_000,
    });
    const created = sent('POST', '/api/missions/9/entries');
    expect(created).toHaveLength(1);
    expect(created[0]?.body).toEqual({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });

    on('POST', '/api/missions/9/entries/31/submit', json(200, { status: 'submitted' }));
    on(
      'GET',
      '/api/missions/9',
      json(200, mission({ myEntries: [{ ...entry(31, 'submitted', '2026-05-10'), answers: { note: 'Milk' } }], canAddEntry: false })),
    );
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('heading', { name: 'Thank you — your mission is in' })).toBeTruthy();
    expect(sent('POST', '/api/missions/9/entries/31/submit')[0]?.body).toEqual({ answers: { note: 'Milk' }, revision: 1, language: 'en' });
    expect(screen.getByText(/our team reviews it first/)).toBeTruthy();
  });
});

describe('a mission offered in several languages', () => {
  it('opens an entry in the language it was recorded in; saves and submits say the language', async () => {
    const bilingualNote: FormDefinition = {
      ...noteForm,
      languages: ['en', 'ar'],
      translations: { 'pages.p1.title': { ar: 'ثلاجتك' }, 'elements.note.title': { ar: 'ما الذي بداخلها؟' } },
    };
    const draft: ParticipantEntry = { ...entry(31, 'draft', '2026-05-10'), answers: {}, revision: 1, language: 'ar' };
    on('GET', '/api/missions/9', json(200, mission({ form: { version: 1, definition: bilingualNote }, myEntries: [draft], canAddEntry: false })));
    on('PUT', '/api/missions/9/entries/31', json(200, { status: 'draft', savedAt: new Date().toISOString(), revision: 2 }));
    const { user } = open('/missions/9', MissionScreen);
    await user.type(await screen.findByRole('textbox', { name: /ما الذي بداخلها/ }), 'Milk');
    expect(screen.getByRole('form').getAttribute('dir')).toBe('rtl');
    await waitFor(() => expect(sent('PUT', '/api/missions/9/entries/31').at(-1)?.body).toEqual({ answers: { note: 'Milk' }, revision: 1, language: 'ar' }), {
      timeout: 3_000,
    });
    on('POST', '/api/missions/9/entries/31/submit', json(200, { status: 'submitted' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(sent('POST', '/api/missions/9/entries/31/submit')[0]?.body).toEqual({ answers: { note: 'Milk' }, revision: 2, language: 'ar' }));
  });
});

describe('a diary', () => {
  it('counts entries done and needed, lists them, and explains why no entry can be added today', async () => {
    on(
      'GET',
      '/api/missions/9',
      json(
        200,
        mission({
          entries: { min: 5, max: 5, perDay: 1 },
          // Newest first, as the API lists them.
          myEntries: [entry(13, 'draft', '2026-05-10'), entry(12, 'approved', '2026-05-09'), entry(11, 'submitted', '2026-05-08')],
          canAddEntry: false,
          addEntryBlockedReason: "You have made today's entry. Come back tomorrow.",
        }),
      ),
    );
    const { user } = open('/missions/9', MissionScreen);
    expect(await screen.findByText('2 of 5 entries')).toBeTruthy();
    const add = screen.getByRole('button', { name: 'Add today’s entry' });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(add.getAttribute('aria-describedby') ?? '')?.textContent).toBe("You have made today's entry. Come back tomorrow.");
    const rows = screen.getAllByRole('listitem').filter((item) => /^Entry \d/.test(item.querySelector('h3')?.textContent ?? ''));
    expect(rows.map((row) => row.querySelector('h3')?.textContent)).toEqual(['Entry 3', 'Entry 2', 'Entry 1']);
    expect(within(rows[0] as HTMLElement).getByText('Draft')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Approved')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Entry 12 note')).toBeTruthy();

    on('DELETE', '/api/missions/9/entries/13', new Response(null, { status: 204 }));
    await user.click(screen.getByRole('button', { name: 'Delete the draft of entry 3' }));
    await user.click(screen.getByRole('button', { name: 'Delete draft' }));
    await waitFor(() => expect(sent('DELETE', '/api/missions/9/entries/13')).toHaveLength(1));
  });

  it('adds an entry and opens it', async () => {
    on('GET', '/api/missions/9', json(200, mission({ entries: { min: 3, max: 3, perDay: 1 } })));
    on('POST', '/api/missions/9/entries', json(201, { id: 40, status: 'draft' }));
    const { user } = open('/missions/9', MissionScreen);
    expect(await screen.findByText('0 of 3 entries')).toBeTruthy();
    on(
      'GET',
      '/api/missions/9',
      json(200, mission({ entries: { min: 3, max: 3, perDay: 1 }, myEntries: [{ ...entry(40, 'draft', '2026-05-10'), answers: {} }], canAddEntry: false })),
    );
    await user.click(screen.getByRole('button', { name: 'Add today’s entry' }));
    expect(await screen.findByRole('heading', { level: 2, name: /^Entry 1/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /What is inside/ })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Your entries' }));
    expect(await screen.findByRole('heading', { name: 'Your entries' })).toBeTruthy();
  });
});
