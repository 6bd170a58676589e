/**
 * Reviewing mission entries on /admin/projects/{projectId}/missions/{missionId}.
 *
 * A moderator sets a live photo mission up through the API; a participant submits a photo entry
 * through the API. In the screen the moderator opens it (the photo in the lightbox), asks for
 * changes with `c` — the empty reason is refused with "Required", the reason is saved as a
 * template and picked from the templates. The participant edits and resubmits (API); the moderator
 * opens the queue, and with the keyboard only (`j`, then `a`) opens the resubmission, sees it beside
 * the earlier version (the changed answer marked) and approves it. The participant's balance rises
 * once (one ledger entry, its reason naming the mission); a second `a` changes nothing. Keys typed
 * into the internal note do not act; the participant's history never carries the note. axe finds
 * nothing serious on the screen.
 *
 * A second test asks a probe and filters the queue on probes waiting (the participant's answer
 * shows later), approves two submissions in bulk, goes back with `k` and approves with `a`, which
 * opens the next one in the queue, and walks the phone layout (the entry instead of the queue,
 * nothing sticking out sideways). Screenshots at 1280×800 and 390×844 go to /tmp/shots/.
 */
import fs from 'node:fs';
import { request as playwrightRequest, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createAccount, signIn, signInThroughApi, type Account } from './accounts.ts';
import { expect, test } from './fixtures.ts';
import { DESKTOP, jsonApi, PHONE, saveCookieChoice, seriousViolations, SHOTS, sideways } from './page-helpers.ts';

const POINTS = 80;

test.use({ viewport: DESKTOP });

test.beforeEach(({ page }) => saveCookieChoice(page));

interface Setup {
  projectId: number;
  missionId: number;
  missionTitle: string;
  url: string;
}

/** A live project with the members and a live manual-review photo mission, made through the API by the moderator. */
async function setUp(page: Page, baseURL: string, members: Account[]): Promise<Setup> {
  const call = jsonApi(page.request, baseURL);
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const project = await call<{ id: number }>('POST', '/api/admin/projects', { name: `Kitchens ${tag}`, client: 'Acme Foods', status: 'draft' });
  const added = await call<{ added: string[] }>('POST', `/api/admin/projects/${project.id}/members`, { emails: members.map((member) => member.email) });
  expect(added.added).toHaveLength(members.length);
  const form = await call<{ id: number }>('POST', '/api/admin/forms', {
    title: `Fridge ${tag}`,
    definition: {
      schema: 'fieldwork.form/1',
      title: `Fridge ${tag}`,
      pages: [
        {
          id: 'fridge',
          title: 'Your fridge',
          elements: [
            { id: 'shelf', type: 'photo', title: 'A photo of your fridge', required: true, maxFiles: 3 },
            { id: 'note', type: 'short_text', title: 'What is on the top shelf?' },
            {
              id: 'clean',
              type: 'single_choice',
              title: 'Is it tidy?',
              options: [
                { id: 'yes', label: 'Yes' },
                { id: 'no', label: 'No' },
              ],
            },
          ],
        },
      ],
    },
  });
  await call('POST', `/api/admin/forms/${form.id}/publish`, {});
  const missionTitle = `Fridge photo ${tag}`;
  const mission = await call<{ id: number }>('POST', `/api/admin/projects/${project.id}/missions`, {
    title: missionTitle,
    instructions: 'Open your fridge and take **one clear photo** of it, door wide open.',
    formId: form.id,
    points: POINTS,
    review: 'manual',
    status: 'live',
  });
  await call('PATCH', `/api/admin/projects/${project.id}`, { status: 'live' });
  return { projectId: project.id, missionId: mission.id, missionTitle, url: `/admin/projects/${project.id}/missions/${mission.id}` };
}

/** A participant's own API session. */
async function participant(baseURL: string, account: Account) {
  const request = await playwrightRequest.newContext({ baseURL });
  await signInThroughApi(request, baseURL, account);
  const call = jsonApi(request, baseURL);
  async function photo(colour: { r: number; g: number; b: number }): Promise<string> {
    const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();
    const res = await request.post('/api/media', {
      headers: { Origin: baseURL },
      multipart: { file: { name: 'fridge.jpg', mimeType: 'image/jpeg', buffer: jpeg } },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }
  return {
    call,
    photo,
    /** A new entry with these answers, submitted; its id. */
    async submit(missionId: number, answers: Record<string, unknown>): Promise<number> {
      const { id } = await call<{ id: number }>('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
      await call('PUT', `/api/missions/${missionId}/entries/${id}`, { answers });
      const done = await call<{ status: string }>('POST', `/api/missions/${missionId}/entries/${id}/submit`, {});
      expect(done.status).toBe('submitted');
      return id;
    },
    /** Edits an entry sent back with changes asked (based on the revision the mission gives), and sends it again. */
    async resubmit(missionId: number, entryId: number, answers: Record<string, unknown>): Promise<void> {
      const mission = await call<{ myEntries: { id: number; revision?: number }[] }>('GET', `/api/missions/${missionId}`);
      const revision = mission.myEntries.find((entry) => entry.id === entryId)?.revision;
      await call('PUT', `/api/missions/${missionId}/entries/${entryId}`, revision === undefined ? { answers } : { answers, revision });
      const done = await call<{ status: string }>('POST', `/api/missions/${missionId}/entries/${entryId}/submit`, {});
      expect(done.status).toBe('submitted');
    },
    points: () =>
      call<{ balance: number; pending: number; entries: { points: number; state: string; reason: string; source: string }[] }>('GET', '/api/account/points'),
    dispose: () => request.dispose(),
  };
}

const toastWith = (page: Page, text: string) =>
  page
    .getByRole('region', { name: /Notification/ })
    .getByText(text, { exact: true })
    .first();

test.describe('reviewing mission entries', () => {
  test.describe.configure({ timeout: 180_000 });

  test('ask for changes with a saved template, see the resubmission beside the earlier version, approve it with j and a; the points rise once', async ({
    page,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    const moderator = await createAccount('moderator', 'Mona', 'Reviewer');
    const grace = await createAccount('participant', 'Grace', 'Member');
    await signIn(page, origin, moderator);
    const setup = await setUp(page, origin, [grace]);
    const member = await participant(origin, grace);
    try {
      const firstPhoto = await member.photo({ r: 30, g: 120, b: 200 });
      const entryId = await member.submit(setup.missionId, { shelf: [firstPhoto], note: 'Milk and eggs', clean: 'yes' });

      // The queue opens on what waits for review.
      await page.goto(setup.url);
      const queue = page.getByRole('region', { name: 'Queue' });
      const row = queue.getByRole('button', { name: /^Open the entry of Grace Member/ });
      await expect(row).toContainText('Submitted');
      await expect(row).not.toContainText('Resubmission');
      await row.click();
      const detail = page.getByRole('region', { name: 'Submission' });
      await expect(detail.getByRole('heading', { name: 'Grace Member', exact: true })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`[?&]submission=${entryId}`));
      await expect(detail).toContainText('Milk and eggs');
      await detail.getByRole('button', { name: 'Photo 1 of 1' }).click();
      await expect(page.getByRole('dialog', { name: /Photo 1 of 1/ })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/review-lightbox-1280.png` });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      // c: ask for changes, the cursor in the reason. Without a reason: Required.
      await page.keyboard.press('c');
      const reason = detail.getByRole('textbox', { name: 'Reason', exact: true });
      await expect(reason).toBeFocused();
      await detail.getByRole('button', { name: 'Send the request for changes' }).click();
      await expect(detail.getByText('Required', { exact: true })).toBeVisible();
      const text = 'Please take the photo with the door wide open, so we can see every shelf.';
      await reason.fill(text);
      await detail.getByRole('button', { name: 'Save as a template' }).click();
      await expect(toastWith(page, 'Template saved')).toBeVisible();
      const template = detail.getByRole('button', { name: `Use the template: ${text}` });
      await expect(template).toBeVisible();
      await reason.fill('');
      await template.click();
      await expect(reason).toHaveValue(text);
      await expect(reason).toBeFocused();
      await page.screenshot({ path: `${SHOTS}/review-ask-changes-1280.png`, fullPage: true });
      await detail.getByRole('button', { name: 'Send the request for changes' }).click();
      await expect(toastWith(page, 'Changes asked')).toBeVisible();
      await expect(detail.getByRole('region', { name: 'Decision' })).toContainText('Changes requested');
      await expect(detail.getByRole('region', { name: 'Decision' })).toContainText(text);
      // The template is the project's: listed by the API.
      const templates = await jsonApi(page.request, origin)<{ items: { kind: string; text: string }[] }>(
        'GET',
        `/api/admin/projects/${setup.projectId}/reason-templates`,
      );
      expect(templates.items).toEqual([expect.objectContaining({ kind: 'request_changes', text })]);

      // The participant edits and sends it again; the points wait.
      const secondPhoto = await member.photo({ r: 200, g: 160, b: 40 });
      await member.resubmit(setup.missionId, entryId, { shelf: [secondPhoto], note: 'Milk, eggs and butter', clean: 'yes' });
      const waiting = await member.points();
      expect(waiting).toMatchObject({ balance: 0, pending: POINTS });

      // The queue again, nothing open: j opens the resubmission beside its earlier version.
      await page.goto(setup.url);
      await expect(queue.getByRole('button', { name: /^Open the entry of Grace Member/ })).toContainText('Resubmission');
      await expect(detail).toContainText('No submission open');
      await page.keyboard.press('j');
      await expect(detail.getByRole('heading', { name: 'Grace Member', exact: true })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Compare with version 1' })).toHaveAttribute('aria-selected', 'true');
      const comparison = detail.getByRole('list', { name: 'Answers of version 1 beside version 2' });
      const note = comparison.getByRole('listitem', { name: 'What is on the top shelf?' });
      await expect(note).toHaveAttribute('data-change', 'changed');
      await expect(note).toContainText('Changed');
      await expect(note).toContainText('Milk and eggs');
      await expect(note).toContainText('Milk, eggs and butter');
      await expect(comparison.getByRole('listitem', { name: 'A photo of your fridge' })).toHaveAttribute('data-change', 'changed');
      await expect(comparison.getByRole('listitem', { name: 'Is it tidy?' })).toHaveAttribute('data-change', 'same');
      await expect(detail).toContainText('2 of 3 answers changed since version 1.');
      await expect(detail).toContainText(`Changes asked on version 1 by Mona Reviewer${text}`);
      await expect(detail.getByRole('region', { name: 'History of this entry' })).toContainText('Version 1');
      await page.screenshot({ path: `${SHOTS}/review-resubmission-1280.png`, fullPage: true });

      // ? lists the keys.
      await page.keyboard.press('?');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(help).toBeVisible();
      await expect(help.getByRole('row')).toHaveCount(8);
      await page.screenshot({ path: `${SHOTS}/review-shortcuts-1280.png` });
      await page.keyboard.press('Escape');
      await expect(help).toBeHidden();

      // a: approved, confirmed in a toast; that was the only one waiting.
      await page.keyboard.press('a');
      await expect(toastWith(page, 'Entry approved')).toBeVisible();
      await expect(detail.getByRole('region', { name: 'Decision' })).toContainText('Approved');
      await expect(detail.getByRole('region', { name: 'Decision' })).toContainText('You can change this decision');
      await expect(queue).toContainText('Nothing waits for review');

      // The balance rises once, and the history says why.
      const credited = await member.points();
      expect(credited.balance).toBe(POINTS);
      expect(credited.pending).toBe(0);
      expect(credited.entries).toHaveLength(1);
      expect(credited.entries[0]).toMatchObject({ points: POINTS, state: 'available', source: 'mission' });
      expect(credited.entries[0]?.reason).toContain(setup.missionTitle);

      // n: an internal note; the keys typed into it do nothing else.
      await page.keyboard.press('n');
      const noteField = detail.getByRole('textbox', { name: 'Internal note' });
      await expect(noteField).toBeFocused();
      const secret = 'Internal: checked against the brief, a clear case. r a c j';
      await page.keyboard.type(secret);
      await expect(noteField).toHaveValue(secret);
      await expect(detail.getByRole('form', { name: 'Reject' })).toHaveCount(0);
      await expect(detail.getByRole('heading', { name: 'Grace Member', exact: true })).toBeVisible();
      await detail.getByRole('button', { name: 'Add note' }).click();
      await expect(detail.getByRole('region', { name: 'Internal notes' }).getByRole('listitem').filter({ hasText: secret })).toBeVisible();
      await expect(detail).toContainText('The participant never does.');

      // a again: already approved, nothing more is credited.
      await page.keyboard.press('a');
      await expect(toastWith(page, 'Already approved')).toBeVisible();
      const again = await member.points();
      expect(again.balance).toBe(POINTS);
      expect(again.entries).toHaveLength(1);

      // The participant's history of the mission never carries the note.
      const history = await member.call<{ entries: { id: number; status: string }[] }>('GET', `/api/account/mission-history/${setup.missionId}`);
      expect(history.entries).toEqual([expect.objectContaining({ id: entryId, status: 'approved' })]);
      expect(JSON.stringify(history)).not.toContain('checked against the brief');

      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/review-approved-1280.png`, fullPage: true });

      // The same entry on a phone: the entry instead of the queue.
      await page.setViewportSize(PHONE);
      await page.waitForTimeout(150);
      await expect(queue).toBeHidden();
      await expect(detail.getByRole('button', { name: 'Back to the queue' })).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/review-resubmission-390.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await member.dispose();
    }
  });

  test('a decision on an entry that changed meanwhile is refused: the screen says so, shows the entry as it is now and keeps the reason typed', async ({
    page,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    const moderator = await createAccount('moderator', 'Mona', 'Reviewer');
    const colleague = await createAccount('moderator', 'Max', 'Colleague');
    const grace = await createAccount('participant', 'Grace', 'Member');
    await signIn(page, origin, moderator);
    const setup = await setUp(page, origin, [grace]);
    const member = await participant(origin, grace);
    const other = await playwrightRequest.newContext({ baseURL: origin });
    await signInThroughApi(other, origin, colleague);
    try {
      const photo = await member.photo({ r: 200, g: 60, b: 60 });
      const entryId = await member.submit(setup.missionId, { shelf: [photo], note: 'Cheese', clean: 'no' });
      await page.goto(`${setup.url}?submission=${entryId}`);
      const detail = page.getByRole('region', { name: 'Submission' });
      // The first load of the mission and its queue can take a while on a busy machine.
      await expect(detail.getByRole('heading', { name: 'Grace Member', exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(detail).toContainText('Submitted');

      // Mona starts asking for changes; meanwhile Max approves the entry from his own screen.
      await page.keyboard.press('c');
      const reason = detail.getByRole('textbox', { name: 'Reason', exact: true });
      const text = 'The photo is too dark to see the shelves.';
      await reason.fill(text);
      await jsonApi(other, origin)('POST', `/api/admin/submissions/${entryId}/review`, { decision: 'approve', expectedStatus: 'submitted' });

      await detail.getByRole('button', { name: 'Send the request for changes' }).click();
      await expect(toastWith(page, 'This entry changed while you were looking at it')).toBeVisible();
      // The entry as it is now: approved by Max; what Mona typed is still there to send or drop.
      await expect(detail.getByText('Approved', { exact: true }).first()).toBeVisible();
      await expect(detail).toContainText('Max Colleague');
      await expect(reason).toHaveValue(text);
      // The queue's row says it too.
      await expect(page.getByRole('region', { name: 'Queue' }).getByRole('button', { name: /^Open the entry of Grace Member/ })).toContainText('Approved');
      expect(await member.points()).toMatchObject({ balance: POINTS, pending: 0 });
      const entry = await jsonApi(page.request, origin)<{ status: string; history: { decisions: unknown[] }[] }>('GET', `/api/admin/submissions/${entryId}`);
      expect(entry.status).toBe('approved');
      expect(entry.history[0]?.decisions).toHaveLength(1);
      await page.screenshot({ path: `${SHOTS}/review-changed-1280.png`, fullPage: true });
    } finally {
      await member.dispose();
      await other.dispose();
    }
  });

  test('bulk approve the selected ones, filter on probes waiting, k then a moves on to the next one, and the phone layout', async ({ page, baseURL }) => {
    const origin = baseURL ?? '';
    const moderator = await createAccount('moderator', 'Mona', 'Reviewer');
    const alan = await createAccount('participant', 'Alan', 'Turing');
    const ada = await createAccount('participant', 'Ada', 'Byron');
    const kate = await createAccount('participant', 'Kate', 'Sheppard');
    const lin = await createAccount('participant', 'Lin', 'Wong');
    await signIn(page, origin, moderator);
    const setup = await setUp(page, origin, [alan, ada, kate, lin]);
    // Submitted in this order; the queue lists the latest first: Lin, Kate, Ada, Alan.
    const members = await Promise.all([alan, ada, kate, lin].map((account) => participant(origin, account)));
    try {
      for (const [index, member] of members.entries()) {
        const id = await member.photo({ r: 40 * index, g: 100, b: 160 });
        await member.submit(setup.missionId, { shelf: [id], note: `Shelf ${index + 1}`, clean: 'no' });
      }

      await page.goto(setup.url);
      const queue = page.getByRole('region', { name: 'Queue' });
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(4);
      await expect(queue).toContainText('Showing 1–4 of 4');

      // A probe on Kate's entry; the probes filter then finds it alone.
      await queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ }).click();
      const detail = page.getByRole('region', { name: 'Submission' });
      await detail.getByRole('textbox', { name: 'Follow-up question' }).fill('Which shelf is the coldest one?');
      await detail.getByRole('button', { name: 'Ask the participant' }).click();
      await expect(toastWith(page, 'Question sent')).toBeVisible();
      await expect(detail.getByRole('region', { name: /Follow-up questions/ })).toContainText('Waiting for an answer');
      await expect(queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ })).toContainText('1 probe waiting');
      await page.getByRole('checkbox', { name: 'Probes waiting for an answer' }).click();
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      await expect(page).toHaveURL(/probes=waiting/);
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(1);
      await expect(queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ })).toBeVisible();
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(4);

      // Select two of the four and approve them together.
      await queue.getByRole('checkbox', { name: 'Select the entry of Alan Turing' }).click();
      await queue.getByRole('checkbox', { name: 'Select the entry of Ada Byron' }).click();
      await expect(queue.getByRole('checkbox', { name: 'Select all on this page' })).toHaveAttribute('data-state', 'indeterminate');
      await queue.getByRole('button', { name: 'Approve 2 selected' }).click();
      await page.screenshot({ path: `${SHOTS}/review-bulk-1280.png`, fullPage: true });
      await queue.getByRole('button', { name: 'Approve 2', exact: true }).click();
      await expect(queue.getByRole('status').filter({ hasText: 'Bulk approval' })).toContainText('2 approved');
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(2);
      for (const member of members.slice(0, 2)) expect(await member.points()).toMatchObject({ balance: POINTS, pending: 0 });

      // Kate's entry is still open: k opens Lin's (above it), a approves it and opens Kate's, next in the queue.
      await expect(detail.getByRole('heading', { name: 'Kate Sheppard', exact: true })).toBeVisible();
      await page.keyboard.press('k');
      await expect(detail.getByRole('heading', { name: 'Lin Wong', exact: true })).toBeVisible();
      await expect(queue.getByRole('button', { name: /^Open the entry of Lin Wong/ })).toHaveAttribute('aria-current', 'true');
      await page.keyboard.press('a');
      await expect(toastWith(page, 'Entry approved')).toBeVisible();
      await expect(detail.getByRole('heading', { name: 'Kate Sheppard', exact: true })).toBeVisible();
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(1);
      expect(await members[3]!.points()).toMatchObject({ balance: POINTS, pending: 0 });
      expect(await members[2]!.points()).toMatchObject({ balance: 0, pending: POINTS });

      // The approved ones under their status.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Approved' }).click();
      await page.getByRole('button', { name: 'Filter', exact: true }).click();
      await expect(page).toHaveURL(/status=approved/);
      await expect(queue.getByRole('button', { name: /^Open the entry of/ })).toHaveCount(3);

      // Their answers as a CSV (issue 28 §14): the mission's "Export answers", approved ones only.
      await page.getByRole('button', { name: 'Export answers' }).click();
      const exporting = page.getByRole('dialog', { name: 'Export answers' });
      await exporting.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Approved' }).click();
      await page.screenshot({ path: `${SHOTS}/answers-export-1280.png` });
      const downloading = page.waitForEvent('download');
      await exporting.getByRole('link', { name: 'Download CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(new RegExp(`^mission-${setup.missionId}-answers-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
      const answers = fs.readFileSync(await download.path(), 'utf8').split('\r\n');
      expect(answers[0]).toMatch(/,Resubmissions,Language,A photo of your fridge \[shelf\],What is on the top shelf\? \[note\],Is it tidy\? \[clean\]$/);
      expect(answers.slice(1).map((row) => row.replace(/^.*\/shared\?[^,]*,/, ''))).toEqual(['Shelf 1,No', 'Shelf 2,No', 'Shelf 4,No']);
      await expect(exporting).toBeHidden();

      // Kate answers the probe from her history; the answer shows on her entry.
      const kateHistory = await members[2]!.call<{ entries: { probes: { id: number }[] }[] }>('GET', `/api/account/mission-history/${setup.missionId}`);
      const probeId = kateHistory.entries[0]?.probes[0]?.id;
      await members[2]!.call('POST', `/api/account/probes/${probeId}/answer`, { answer: 'The bottom one, by the vegetables.' });

      // Phone: the queue, then one entry instead of it, and back.
      await page.setViewportSize(PHONE);
      await page.goto(setup.url);
      await expect(queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ })).toBeVisible();
      await expect(detail).toBeHidden();
      await page.screenshot({ path: `${SHOTS}/review-queue-390.png`, fullPage: true });
      expect(await sideways(page, { withoutHeader: true })).toEqual({ overflow: 0, past: [] });
      await page.getByRole('button', { name: 'Export answers' }).click();
      await page.screenshot({ path: `${SHOTS}/answers-export-390.png` });
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ }).click();
      await expect(queue).toBeHidden();
      await expect(detail.getByRole('heading', { name: 'Kate Sheppard', exact: true })).toBeVisible();
      const probes = detail.getByRole('region', { name: /Follow-up questions/ });
      await expect(probes).toContainText('Which shelf is the coldest one?');
      await expect(probes).toContainText('The bottom one, by the vegetables.');
      await expect(probes).not.toContainText('Waiting for an answer');
      await page.screenshot({ path: `${SHOTS}/review-entry-390.png`, fullPage: true });
      expect(await sideways(page, { withoutHeader: true })).toEqual({ overflow: 0, past: [] });
      await detail.getByRole('button', { name: 'Back to the queue' }).click();
      await expect(queue.getByRole('button', { name: /^Open the entry of Kate Sheppard/ })).toBeFocused();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await Promise.all(members.map((member) => member.dispose()));
    }
  });
});
