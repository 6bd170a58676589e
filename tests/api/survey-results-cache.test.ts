/**
 * Survey results are served from a per-process cache with a staleness bound (docs/api.md,
 * "Results"): fresh results as they are, a submit in this process shown at once, one computation
 * for many concurrent calls, a slow survey's previous results served while it is recomputed, and
 * nothing older than the longest age; computed over slices of responses that add up.
 */
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { surveyResponses, users } from '../../src/server/db/schema/index.ts';
import { RESULTS_CHUNK, RESULTS_FRESH_MS, RESULTS_MAX_AGE_MS, RESULTS_SLOW_FACTOR, RESULTS_SLOW_MS } from '../../src/server/services/survey-results.ts';
import type { SurveyResults } from '../../src/shared/surveys.ts';
import { describeEachBackend } from './harness.ts';
import { signedInUser, type SignedIn } from './helpers.ts';
import {
  callAs,
  createProject,
  createSurvey,
  insertResponse,
  member,
  okJson,
  publishedForm,
  publishVersion,
  richDefinition,
  textDefinition,
} from './programme-fixtures.ts';

/** How long a computation seems to take when a test makes it slow: over the threshold, and ten times it under the longest fresh time. */
const SEEMS_TO_TAKE_MS = RESULTS_SLOW_MS * 2;

describeEachBackend('survey results cache', (ctx) => {
  let moderator: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
  });
  const spies: { mockRestore(): void }[] = [];
  afterEach(() => {
    for (const spy of spies.splice(0)) spy.mockRestore();
  });

  /** Stops the cache's clock (`performance.now()`): it moves only by hand from here on (a computation takes no time unless a test says so). */
  function fakeNow(): { advance(ms: number): void } {
    let now = performance.now();
    spies.push(vi.spyOn(performance, 'now').mockImplementation(() => now));
    return {
      advance: (ms: number) => {
        now += ms;
      },
    };
  }
  /** Counts the aggregations (each reads in one read-only transaction); `slowBy` makes each one seem to take that long. */
  function countComputations(slowBy: (ms: number) => void = () => {}): { count: () => number } {
    const db = ctx().database.db;
    const original = db.transaction.bind(db);
    let n = 0;
    spies.push(
      vi.spyOn(db, 'transaction').mockImplementation(((...args: Parameters<typeof db.transaction>) => {
        if (args[1]?.accessMode === 'read only') {
          n++;
          slowBy(SEEMS_TO_TAKE_MS);
        }
        return original(...args);
      }) as typeof db.transaction),
    );
    return { count: () => n };
  }
  const results = async (surveyId: number) => okJson<SurveyResults>(await callAs(ctx(), moderator)('GET', `/api/admin/surveys/${surveyId}/results`));
  const names = (r: SurveyResults) => r.elements.find((e) => e.id === 'name')?.samples;

  it('fresh results are served as they are; a submit in this process shows at once; after the fresh time they are recomputed', async () => {
    const time = fakeNow();
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'First' } });
    const first = await results(survey.id);
    expect(first).toMatchObject({ submitted: 1, computedAt: ctx().clock.now().toISOString() });
    expect(names(first)).toEqual(['First']);

    // Written by another process: not seen while the results are fresh …
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'Elsewhere' } });
    ctx().clock.advance(1000);
    time.advance(RESULTS_FRESH_MS - 1000);
    expect(await results(survey.id)).toEqual(first);

    // … but a submit through this process is, at the next call.
    const taker = await member(ctx(), project.id);
    const submitted = await callAs(ctx(), taker)('POST', `/api/surveys/${survey.id}/response/submit`, { answers: { name: 'Here' } });
    expect(submitted.status).toBe(200);
    const afterSubmit = await results(survey.id);
    expect(afterSubmit.submitted).toBe(3);
    expect(afterSubmit.computedAt).toBe(ctx().clock.now().toISOString());

    // Past the fresh time, another process's writes show too.
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'Later' } });
    time.advance(RESULTS_FRESH_MS + 1);
    expect((await results(survey.id)).submitted).toBe(4);
  });

  it('ten calls at once compute the results once', async () => {
    const time = fakeNow();
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'One' } });
    const computations = countComputations();
    const answers = await Promise.all(Array.from({ length: 10 }, () => results(survey.id)));
    expect(computations.count()).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    time.advance(RESULTS_FRESH_MS + 1);
    await Promise.all(Array.from({ length: 10 }, () => results(survey.id)));
    expect(computations.count()).toBe(2);
  });

  it('a slow survey: previous results while it is recomputed in the background, never older than the longest age', async () => {
    const time = fakeNow();
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'One' } });
    // Each computation seems to take SEEMS_TO_TAKE_MS: the survey is slow, fresh for RESULTS_SLOW_FACTOR times that.
    const computations = countComputations((ms) => time.advance(ms));
    const freshFor = Math.max(RESULTS_FRESH_MS, RESULTS_SLOW_FACTOR * SEEMS_TO_TAKE_MS);
    const first = await results(survey.id);
    expect(first.submitted).toBe(1);

    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'Two' } });
    // A submit in this process does not cut a slow survey's fresh time short.
    const taker = await member(ctx(), project.id);
    expect((await callAs(ctx(), taker)('POST', `/api/surveys/${survey.id}/response/submit`, { answers: { name: 'Three' } })).status).toBe(200);
    time.advance(freshFor - SEEMS_TO_TAKE_MS - 100);
    expect(await results(survey.id)).toEqual(first);
    expect(computations.count()).toBe(1);

    // Past it: the previous results at once, and a recomputation in the background …
    time.advance(200);
    expect(await results(survey.id)).toEqual(first);
    await vi.waitFor(() => expect(computations.count()).toBe(2));
    // … whose results the next calls get.
    await vi.waitFor(async () => expect((await results(survey.id)).submitted).toBe(3));
    expect(computations.count()).toBe(2);

    // Nothing older than the longest age: that call waits for new results.
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'Four' } });
    time.advance(RESULTS_MAX_AGE_MS + 1);
    expect((await results(survey.id)).submitted).toBe(4);
    expect(computations.count()).toBe(3);
  });

  it('results follow the survey to another form version at once', async () => {
    fakeNow();
    const project = await createProject(ctx());
    const form = await publishedForm(ctx());
    const survey = await createSurvey(ctx(), project.id, { form });
    await insertResponse(ctx(), survey, (await member(ctx(), project.id)).id, { answers: { name: 'One' } });
    expect((await results(survey.id)).elements.map((e) => e.id)).toEqual(['name']);
    const v2 = textDefinition('Second');
    v2.pages[0]?.elements.push({ id: 'more', type: 'short_text', title: 'More', required: false });
    await publishVersion(ctx(), form.id, v2);
    expect((await callAs(ctx(), moderator)('PATCH', `/api/admin/surveys/${survey.id}`, { formVersion: 2 })).status).toBe(200);
    expect((await results(survey.id)).elements.map((e) => e.id)).toEqual(['name', 'more']);
  });

  it('results over several slices of responses add up', async () => {
    fakeNow();
    const project = await createProject(ctx());
    const form = await publishedForm(ctx(), richDefinition());
    const survey = await createSurvey(ctx(), project.id, { form });
    const db = ctx().database.db;
    const total = RESULTS_CHUNK + 7;
    const stamp = Date.now().toString(36);
    const people = await db
      .insert(users)
      .values(Array.from({ length: total + 2 }, (_, i) => ({ email: `slice-${stamp}-${i}@example.org`, status: 'active' as const })))
      .returning({ id: users.id });
    const base = Date.parse('2026-11-01T10:00:00Z');
    // The newest submissions are the first responses (the first slice); the last slice holds the extremes of the numbers.
    await db.insert(surveyResponses).values(
      people.slice(0, total).map((person, i) => ({
        surveyId: survey.id,
        userId: person.id,
        formVersion: 1,
        status: 'submitted' as const,
        submittedAt: new Date(base - i * 60_000),
        answers: {
          name: `Text ${i}`,
          stars: i >= total - 2 ? (i === total - 1 ? 1 : 5) : 3,
          colour: i % 2 === 0 ? 'red' : 'blue',
          grid: { speed: i % 3 === 0 ? 'good' : 'bad' },
          ...(i % 4 === 0 ? { age: i } : {}),
        },
      })),
    );
    await db
      .insert(surveyResponses)
      .values(
        people.slice(total).map((person) => ({ surveyId: survey.id, userId: person.id, formVersion: 1, status: 'draft' as const, answers: { stars: 1 } })),
      );
    const computed = await results(survey.id);
    const byId = new Map(computed.elements.map((e) => [e.id, e]));
    expect(computed.submitted).toBe(total);
    expect(byId.get('name')).toMatchObject({ answered: total, samples: ['Text 0', 'Text 1', 'Text 2', 'Text 3', 'Text 4'] });
    const stars = byId.get('stars');
    expect(stars?.options?.map((o) => o.count)).toEqual([1, 0, total - 2, 0, 1]);
    expect([stars?.min, stars?.max, stars?.answered]).toEqual([1, 5, total]);
    expect(stars?.average).toBeCloseTo((3 * (total - 2) + 6) / total, 10);
    const ages = Array.from({ length: total }, (_, i) => i).filter((i) => i % 4 === 0);
    expect(byId.get('age')).toMatchObject({ answered: ages.length, min: 0, max: ages[ages.length - 1] });
    expect(byId.get('age')?.average).toBeCloseTo(ages.reduce((a, b) => a + b, 0) / ages.length, 8);
    expect(byId.get('colour')?.options?.slice(0, 2)).toEqual([
      { id: 'red', label: 'Red', count: Math.ceil(total / 2) },
      { id: 'blue', label: 'Blue', count: Math.floor(total / 2) },
    ]);
    const speed = byId.get('grid')?.rows?.find((row) => row.id === 'speed');
    const good = Array.from({ length: total }, (_, i) => i).filter((i) => i % 3 === 0).length;
    expect(speed?.columns.map((c) => [c.id, c.count])).toEqual([
      ['good', good],
      ['bad', total - good],
    ]);
  });
});
