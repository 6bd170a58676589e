/**
 * Two devices, one participant: two browser contexts signed in as the same member
 * answer different questions of one survey and of one mission entry, taking turns, one of them
 * offline for a while. Every save is based on a revision; a stale one is refused (409 `conflict`)
 * and the screen merges (the questions it changed keep its answers, the others take the
 * server's), says "Updated from your other device" when an answer on screen changed, and saves
 * again. At the end every answer of both devices is there: through the API, and on both screens
 * after a reload. Screenshots of the note at 390×844 go to /tmp/shots/.
 */
import fs from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';

const SHOTS = '/tmp/shots';
const PHONE = { width: 390, height: 844 };
const CONSENT = JSON.stringify({ necessary: true, preferences: false, statistics: false, marketing: false });
const NOTE = 'Updated from your other device';
const OFFLINE = 'Offline — your answers are kept on this device and sent when you are back online';

/** Five optional questions on one page: each device answers its own. */
const QUESTIONS = [
  { id: 'wake', title: 'When did you wake up?' },
  { id: 'drink', title: 'What did you drink first?' },
  { id: 'eat', title: 'What did you eat?' },
  { id: 'where', title: 'Where did you have breakfast?' },
  { id: 'mood', title: 'How did you feel?' },
] as const;

type QuestionId = (typeof QUESTIONS)[number]['id'];

function definition(title: string) {
  return {
    schema: 'fieldwork.form/1',
    title,
    pages: [{ id: 'morning', title: 'Your morning', elements: QUESTIONS.map((question) => ({ id: question.id, type: 'short_text', title: question.title })) }],
  };
}

/** JSON calls as an admin (same-origin Origin, JSON body), failing loudly on an unexpected status. */
function adminApi(request: APIRequestContext, baseURL: string) {
  return async <T>(method: 'POST' | 'PATCH', path: string, data: unknown): Promise<T> => {
    const res = await request.fetch(path, { method, headers: { Origin: baseURL, 'Content-Type': 'application/json' }, data });
    if (![200, 201].includes(res.status())) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** A live project with the member, a live native survey and a live one-entry mission on the five questions. */
async function setUp(request: APIRequestContext, baseURL: string, member: Account): Promise<{ surveyId: number; missionId: number }> {
  const call = adminApi(request, baseURL);
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Two devices ${tag}`, status: 'draft' });
  await call('POST', `/api/admin/projects/${project.id}/members`, { emails: [member.email] });
  const form = await call<{ id: number }>('POST', '/api/admin/forms', { title: `Mornings ${tag}`, definition: definition(`Mornings ${tag}`) });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const closesAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const survey = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/surveys`, {
    title: `Mornings survey ${tag}`,
    description: 'Five questions.',
    kind: 'native',
    formId: form.id,
    points: 10,
    closesAt,
    status: 'live',
  });
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title: `Mornings mission ${tag}`,
    instructions: 'Tell us about this morning.',
    formId: form.id,
    points: 10,
    closesAt,
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { surveyId: survey.id, missionId: mission.id };
}

const titleOf = (id: QuestionId) => QUESTIONS.find((question) => question.id === id)?.title ?? id;
const field = (page: Page, id: QuestionId) => page.getByRole('textbox', { name: new RegExp(titleOf(id).replace('?', '\\?')) });
const saved = (page: Page) => page.getByText('Saved', { exact: true });
const note = (page: Page) => page.getByRole('status').filter({ hasText: NOTE });

/** Answers one question and waits until the server has it (merges included). */
async function answer(page: Page, id: QuestionId, text: string): Promise<void> {
  await field(page, id).fill(text);
  await expect(saved(page)).toBeVisible({ timeout: 15_000 });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(150);
  await page.screenshot({ path: `${SHOTS}/${name}-${PHONE.width}.png` });
}

/** Every answer, on screen. */
async function expectAnswers(page: Page, answers: Record<QuestionId, string>): Promise<void> {
  for (const [id, text] of Object.entries(answers) as [QuestionId, string][]) await expect(field(page, id)).toHaveValue(text);
}

async function device(context: BrowserContext, origin: string, member: Account): Promise<Page> {
  await context.addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
  const page = await context.newPage();
  await page.setViewportSize(PHONE);
  await signIn(page, origin, member);
  return page;
}

test.beforeAll(() => {
  fs.mkdirSync(SHOTS, { recursive: true });
});

test.describe('one participant on two devices', () => {
  test.describe.configure({ timeout: 180_000 });

  test('answers from a phone and a laptop, taking turns (one offline for a while), all end up saved', async ({ page, baseURL, browser, playwright }) => {
    const origin = baseURL ?? '';
    const admin = await createAccount('admin', 'Ada', 'Admin');
    const member = await createAccount('participant', 'Tom', 'Twice');
    const adminRequest = await playwright.request.newContext({ baseURL: origin });
    await signInThroughApi(adminRequest, origin, admin);
    const { surveyId, missionId } = await setUp(adminRequest, origin, member);
    await adminRequest.dispose();

    await page.context().addInitScript((consent) => localStorage.setItem('fieldwork-cookie-consent', consent), CONSENT);
    await page.setViewportSize(PHONE);
    await signIn(page, origin, member);
    const phone = page;
    const laptopContext = await browser.newContext({ baseURL: origin, viewport: PHONE });
    const laptop = await device(laptopContext, origin, member);

    // ---- The survey: both open it before anything is saved.
    await phone.goto(`/surveys/${surveyId}`);
    await laptop.goto(`/surveys/${surveyId}`);
    await expect(field(phone, 'wake')).toBeVisible();
    await expect(field(laptop, 'wake')).toBeVisible();

    await answer(phone, 'wake', 'At seven');
    // The laptop's first save meets the phone's: merged, saved again, and said.
    await answer(laptop, 'drink', 'Green tea');
    await expect(field(laptop, 'wake')).toHaveValue('At seven');
    await expect(note(laptop)).toBeVisible();
    await shot(laptop, 'two-devices-survey-note');

    await answer(phone, 'eat', 'Porridge');
    await expect(field(phone, 'drink')).toHaveValue('Green tea');
    await expect(note(phone)).toBeVisible();

    // The laptop goes offline and keeps answering; the phone answers meanwhile.
    await laptopContext.setOffline(true);
    await field(laptop, 'where').fill('In the kitchen');
    await expect(laptop.getByText(OFFLINE)).toBeVisible({ timeout: 10_000 });
    await answer(phone, 'mood', 'Awake');
    // Back online: the queued (stale) save is merged with the phone's answers and saved.
    await laptopContext.setOffline(false);
    await expect(field(laptop, 'mood')).toHaveValue('Awake', { timeout: 15_000 });
    await expect(field(laptop, 'eat')).toHaveValue('Porridge');
    await expect(field(laptop, 'where')).toHaveValue('In the kitchen');
    await expect(saved(laptop)).toBeVisible({ timeout: 15_000 });

    const everything = { wake: 'At seven', drink: 'Green tea', eat: 'Porridge', where: 'In the kitchen', mood: 'Awake' };
    const response = await phone.context().request.get(`/api/surveys/${surveyId}`);
    expect(((await response.json()) as { response: { answers: unknown } }).response.answers).toEqual(everything);
    for (const each of [phone, laptop]) {
      await each.reload();
      await expectAnswers(each, everything);
    }

    // ---- The mission's one entry: both open it before it exists; the phone makes it.
    await phone.goto(`/missions/${missionId}`);
    await laptop.goto(`/missions/${missionId}`);
    await expect(field(phone, 'wake')).toBeVisible();
    await expect(field(laptop, 'wake')).toBeVisible();

    await answer(phone, 'wake', 'At six');
    // The laptop's answer goes into the entry the phone made.
    await field(laptop, 'drink').fill('Coffee');
    await expect(field(laptop, 'wake')).toHaveValue('At six', { timeout: 15_000 });
    await expect(field(laptop, 'drink')).toHaveValue('Coffee');
    await expect(saved(laptop)).toBeVisible({ timeout: 15_000 });
    await expect(note(laptop)).toBeVisible();

    await answer(phone, 'eat', 'Toast');
    await expect(field(phone, 'drink')).toHaveValue('Coffee');
    await expect(note(phone)).toBeVisible();
    await shot(phone, 'two-devices-mission-note');

    // This time the phone goes offline.
    await phone.context().setOffline(true);
    await field(phone, 'where').fill('On the train');
    await expect(phone.getByText(OFFLINE)).toBeVisible({ timeout: 10_000 });
    await answer(laptop, 'mood', 'Sleepy');
    await phone.context().setOffline(false);
    await expect(field(phone, 'mood')).toHaveValue('Sleepy', { timeout: 15_000 });
    await expect(field(phone, 'where')).toHaveValue('On the train');
    await expect(saved(phone)).toBeVisible({ timeout: 15_000 });

    const entryAnswers = { wake: 'At six', drink: 'Coffee', eat: 'Toast', where: 'On the train', mood: 'Sleepy' };
    const missionView = await laptop.context().request.get(`/api/missions/${missionId}`);
    const { myEntries } = (await missionView.json()) as { myEntries: { answers: unknown; status: string }[] };
    expect(myEntries).toHaveLength(1);
    expect(myEntries[0]).toMatchObject({ status: 'draft', answers: entryAnswers });
    for (const each of [phone, laptop]) {
      await each.reload();
      await expectAnswers(each, entryAnswers);
    }

    await laptopContext.close();
  });
});
