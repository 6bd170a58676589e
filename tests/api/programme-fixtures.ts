/**
 * Test data for the programme's API suites (admin and participant): projects, members, published
 * forms, surveys, missions, and answers written straight into the database. Everything is made
 * with SQL through Drizzle (forms through the forms service), so a suite can set up exactly the
 * state it needs without going through the calls it tests.
 *
 * Defaults are for taking part: projects, surveys and missions are `live` unless told otherwise.
 * The signatures are shared by several suites: add options, do not change what is there.
 */
import { eq } from 'drizzle-orm';
import { createForm, publishForm } from '../../src/server/services/forms.ts';
import {
  forms,
  missionEntries,
  missions,
  missionGroupMissions,
  missionGroups,
  projectMembers,
  projects,
  surveyExternalRefs,
  surveyResponses,
  surveys,
  users,
  type Mission,
  type MissionEntry,
  type MissionGroup,
  type Project,
  type Survey,
  type SurveyExternalRef,
  type SurveyResponse,
} from '../../src/server/db/schema/index.ts';
import type { Answers, FormDefinition } from '../../src/shared/forms/definition.ts';
import type { Language } from '../../src/shared/languages.ts';
import type { EntryStatus } from '../../src/shared/mission-entries.ts';
import type { GroupUnlock, GroupUnlockOn } from '../../src/shared/mission-groups.ts';
import type { ReviewMode } from '../../src/shared/missions.ts';
import type { ActivityStatus, ItemTranslations, ProjectStatus } from '../../src/shared/projects.ts';
import type { ExternalOutcome, ResponseStatus } from '../../src/shared/surveys.ts';
import type { Role } from '../../src/shared/roles.ts';
import type { TestContext } from './harness.ts';
import { signedInUser, type SignedIn } from './helpers.ts';

const SCHEMA = 'fieldwork.form/1' as const;

let counter = 0;
const next = () => ++counter;

// ---------------------------------------------------------------------------------------------
// Definitions

/** One page with one required short text question `name` ("Your name"). */
export function textDefinition(title = 'Fixture form'): FormDefinition {
  return { schema: SCHEMA, title, pages: [{ id: 'page_1', title: '', elements: [{ id: 'name', type: 'short_text', title: 'Your name', required: true }] }] };
}

/** `textDefinition` in English, offered in Arabic too, every text translated (decision 035). */
export function bilingualDefinition(title = 'Fixture form'): FormDefinition {
  return {
    ...textDefinition(title),
    language: 'en',
    languages: ['en', 'ar'],
    translations: { 'form.title': { ar: 'نموذج' }, 'elements.name.title': { ar: 'اسمك' } },
  };
}

/** A photo task: a required photo question `photos` (1 to 3) and an optional `caption`. */
export function photoDefinition(title = 'Photo form'): FormDefinition {
  return {
    schema: SCHEMA,
    title,
    pages: [
      {
        id: 'page_1',
        title: '',
        elements: [
          { id: 'photos', type: 'photo', title: 'Your photos', required: true, minFiles: 1, maxFiles: 3 },
          { id: 'caption', type: 'short_text', title: 'Caption' },
        ],
      },
    ],
  };
}

/**
 * Every kind of answerable element (all optional) plus a statement, on two pages: `name`
 * (short text), `story` (long text), `colour` (single choice red/blue/green, with Other),
 * `snacks` (multiple choice chips/fruit/nuts, with Other), `city` (dropdown ams/ber), `stars`
 * (rating of 5), `nps` (scale 0–10), `age` (number), `visit` (date), `pics` (photo), `agree`
 * (consent), `grid` (matrix rows speed/price × columns good/bad), `rank` (ranking a/b/c), and
 * the statement `intro`.
 */
export function richDefinition(title = 'Rich form'): FormDefinition {
  return {
    schema: SCHEMA,
    title,
    pages: [
      {
        id: 'page_1',
        title: 'About you',
        elements: [
          { id: 'intro', type: 'statement', title: 'Welcome', body: 'Thanks for taking part.' },
          { id: 'name', type: 'short_text', title: 'Your name' },
          { id: 'story', type: 'long_text', title: 'Your story' },
          {
            id: 'colour',
            type: 'single_choice',
            title: 'Favourite colour',
            allowOther: true,
            options: [
              { id: 'red', label: 'Red' },
              { id: 'blue', label: 'Blue' },
              { id: 'green', label: 'Green' },
            ],
          },
          {
            id: 'snacks',
            type: 'multiple_choice',
            title: 'Snacks',
            allowOther: true,
            options: [
              { id: 'chips', label: 'Chips' },
              { id: 'fruit', label: 'Fruit' },
              { id: 'nuts', label: 'Nuts' },
            ],
          },
          {
            id: 'city',
            type: 'dropdown',
            title: 'City',
            options: [
              { id: 'ams', label: 'Amsterdam' },
              { id: 'ber', label: 'Berlin' },
            ],
          },
        ],
      },
      {
        id: 'page_2',
        title: 'Opinions',
        elements: [
          { id: 'stars', type: 'rating', title: 'Stars', max: 5 },
          { id: 'nps', type: 'scale', title: 'Recommend', min: 0, max: 10 },
          { id: 'age', type: 'number', title: 'Age' },
          { id: 'visit', type: 'date', title: 'Visit date' },
          { id: 'pics', type: 'photo', title: 'Pictures', maxFiles: 5 },
          { id: 'agree', type: 'consent', title: 'Consent', statement: 'I agree' },
          {
            id: 'grid',
            type: 'matrix',
            title: 'Grid',
            rows: [
              { id: 'speed', label: 'Speed' },
              { id: 'price', label: 'Price' },
            ],
            columns: [
              { id: 'good', label: 'Good' },
              { id: 'bad', label: 'Bad' },
            ],
          },
          {
            id: 'rank',
            type: 'ranking',
            title: 'Rank them',
            options: [
              { id: 'a', label: 'Alpha' },
              { id: 'b', label: 'Beta' },
              { id: 'c', label: 'Gamma' },
            ],
          },
        ],
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// People

/** A signed-in active participant (`SignedIn` from helpers.ts: id, email, firstName, headers). */
export function participant(ctx: TestContext): Promise<SignedIn> {
  return signedInUser(ctx, 'participant');
}

/** A signed-in moderator or admin. */
export function staff(ctx: TestContext, role: Extract<Role, 'moderator' | 'admin'> = 'moderator'): Promise<SignedIn> {
  return signedInUser(ctx, role);
}

// ---------------------------------------------------------------------------------------------
// Projects and members

export interface ProjectFixture {
  name?: string;
  client?: string;
  description?: string;
  /** Default `live`. */
  status?: ProjectStatus;
  startsAt?: string | null;
  endsAt?: string | null;
  createdBy?: number | null;
}

/** A project (default: `live`, named "Project N"). */
export async function createProject(ctx: TestContext, input: ProjectFixture = {}): Promise<Project> {
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(projects)
    .values({
      name: input.name ?? `Project ${next()}`,
      client: input.client ?? '',
      description: input.description ?? '',
      status: input.status ?? 'live',
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      createdBy: input.createdBy ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Makes the user a member of the project (nothing happens when they already are). */
export async function addMember(ctx: TestContext, projectId: number, user: number | { id: number }): Promise<void> {
  const userId = typeof user === 'number' ? user : user.id;
  await ctx.database.db.insert(projectMembers).values({ projectId, userId, addedAt: ctx.clock.now() }).onConflictDoNothing();
}

/** A signed-in participant who is a member of the project. */
export async function member(ctx: TestContext, projectId: number): Promise<SignedIn> {
  const user = await participant(ctx);
  await addMember(ctx, projectId, user);
  return user;
}

/** Sets an account's status (e.g. `disabled`), straight in the database. */
export async function setUserStatus(ctx: TestContext, userId: number, status: 'invited' | 'active' | 'disabled'): Promise<void> {
  await ctx.database.db.update(users).set({ status }).where(eq(users.id, userId));
}

// ---------------------------------------------------------------------------------------------
// Forms

export interface PublishedForm {
  /** The form's id. */
  id: number;
  /** The version just published. */
  version: number;
  definition: FormDefinition;
}

/** A form whose draft is `definition` (default `textDefinition()`), published as version 1. */
export async function publishedForm(ctx: TestContext, definition: FormDefinition = textDefinition()): Promise<PublishedForm> {
  const form = await createForm(ctx.database.db, ctx.clock, { title: definition.title || 'Fixture form', definition, actorId: await systemActor(ctx) });
  return publishVersion(ctx, form.id, definition);
}

/**
 * Saves `definition` as the form's draft and publishes it as the next version (breaking changes
 * confirmed). Throws when the definition cannot be published.
 */
export async function publishVersion(ctx: TestContext, formId: number, definition: FormDefinition): Promise<PublishedForm> {
  const db = ctx.database.db;
  await db.update(forms).set({ draft: definition }).where(eq(forms.id, formId));
  const result = await publishForm(db, ctx.clock, { id: formId, confirmBreaking: true, actorId: await systemActor(ctx) });
  if (result.kind !== 'published') throw new Error(`publishing form ${formId} failed: ${JSON.stringify(result)}`);
  return { id: formId, version: result.version, definition };
}

const actors = new WeakMap<TestContext, Promise<number>>();
/** One admin account per context that fixtures name as the author of forms. */
function systemActor(ctx: TestContext): Promise<number> {
  let actor = actors.get(ctx);
  if (!actor) {
    actor = signedInUser(ctx, 'admin').then((user) => user.id);
    actors.set(ctx, actor);
  }
  return actor;
}

// ---------------------------------------------------------------------------------------------
// Surveys

export interface SurveyFixture {
  title?: string;
  description?: string;
  /** Default `native`. */
  kind?: 'native' | 'external';
  /** Native: the form to use (`{ id, version }` is enough); default a new `publishedForm(ctx)` (or of `definition`). */
  form?: Pick<PublishedForm, 'id' | 'version'>;
  /** Native, without `form`: the definition of the new form. */
  definition?: FormDefinition;
  /** Native: the version; default `form.version`. */
  formVersion?: number;
  /** External: default `https://survey.example.org/s/N`. */
  externalUrl?: string;
  trustReturns?: boolean;
  points?: number;
  estimatedMinutes?: number | null;
  opensAt?: Date | null;
  closesAt?: Date | null;
  /** Default `live`. */
  status?: ActivityStatus;
  /** The title's and description's translations; default none. */
  translations?: ItemTranslations;
}

/** A survey in the project (default: native on a new published text form, live, 10 points, no dates). */
export async function createSurvey(ctx: TestContext, projectId: number, input: SurveyFixture = {}): Promise<Survey> {
  const kind = input.kind ?? 'native';
  const form = kind === 'native' ? (input.form ?? (await publishedForm(ctx, input.definition))) : null;
  const now = ctx.clock.now();
  const n = next();
  const [row] = await ctx.database.db
    .insert(surveys)
    .values({
      projectId,
      title: input.title ?? `Survey ${n}`,
      description: input.description ?? '',
      translations: input.translations ?? {},
      kind,
      formId: form?.id ?? null,
      formVersion: form ? (input.formVersion ?? form.version) : null,
      externalUrl: kind === 'external' ? (input.externalUrl ?? `https://survey.example.org/s/${n}`) : null,
      trustReturns: input.trustReturns ?? false,
      points: input.points ?? 10,
      estimatedMinutes: input.estimatedMinutes ?? null,
      opensAt: input.opensAt ?? null,
      closesAt: input.closesAt ?? null,
      status: input.status ?? 'live',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export interface ResponseFixture {
  answers?: Answers;
  /** Default `submitted`. */
  status?: ResponseStatus;
  /** Default: the survey's current version. */
  formVersion?: number;
  pageId?: string | null;
  /** Default: the clock's now for submitted responses, null for drafts. */
  submittedAt?: Date | null;
  startedAt?: Date;
  /** The language it was answered in; default null (a row from before answers had one: English). */
  language?: Language | null;
}

/** A participant's response to a native survey, written straight into the table. */
export async function insertResponse(ctx: TestContext, survey: Survey, userId: number, input: ResponseFixture = {}): Promise<SurveyResponse> {
  const status = input.status ?? 'submitted';
  const now = ctx.clock.now();
  const formVersion = input.formVersion ?? survey.formVersion;
  if (formVersion === null) throw new Error('insertResponse needs a native survey');
  const [row] = await ctx.database.db
    .insert(surveyResponses)
    .values({
      surveyId: survey.id,
      userId,
      formVersion,
      answers: input.answers ?? {},
      pageId: input.pageId ?? null,
      language: input.language ?? null,
      status,
      startedAt: input.startedAt ?? now,
      updatedAt: now,
      submittedAt: input.submittedAt !== undefined ? input.submittedAt : status === 'submitted' ? now : null,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** An external survey's reference for a participant, with its outcome (default `complete`; null: not returned). */
export async function insertExternalRef(
  ctx: TestContext,
  surveyId: number,
  userId: number,
  input: { outcome?: ExternalOutcome | null; pidHash?: string } = {},
): Promise<SurveyExternalRef> {
  const outcome = input.outcome === undefined ? 'complete' : input.outcome;
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(surveyExternalRefs)
    .values({
      surveyId,
      userId,
      pidHash: input.pidHash ?? `fixture-${next()}-${Date.now().toString(36)}`,
      outcome,
      returnedAt: outcome ? now : null,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Missions

export interface MissionFixture {
  title?: string;
  instructions?: string;
  /** The form to use (`{ id, version }` is enough); default a new `publishedForm(ctx)` (or of `definition`). */
  form?: Pick<PublishedForm, 'id' | 'version'>;
  definition?: FormDefinition;
  formVersion?: number;
  points?: number;
  opensAt?: Date | null;
  closesAt?: Date | null;
  /** Default `manual`. */
  review?: ReviewMode;
  /** Default `{ min: 1, max: 1, perDay: null }`. */
  entries?: { min: number; max: number; perDay?: number | null };
  /** Default `live`. */
  status?: ActivityStatus;
  /** The title's and instructions' translations; default none. */
  translations?: ItemTranslations;
}

/** A mission in the project (default: a new published text form, live, 20 points, one entry, manual review). */
export async function createMission(ctx: TestContext, projectId: number, input: MissionFixture = {}): Promise<Mission> {
  const form = input.form ?? (await publishedForm(ctx, input.definition));
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(missions)
    .values({
      projectId,
      title: input.title ?? `Mission ${next()}`,
      instructions: input.instructions ?? '',
      translations: input.translations ?? {},
      formId: form.id,
      formVersion: input.formVersion ?? form.version,
      points: input.points ?? 20,
      opensAt: input.opensAt ?? null,
      closesAt: input.closesAt ?? null,
      review: input.review ?? 'manual',
      entriesMin: input.entries?.min ?? 1,
      entriesMax: input.entries?.max ?? 1,
      perDay: input.entries?.perDay ?? null,
      status: input.status ?? 'live',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export interface EntryFixture {
  answers?: Answers;
  /** Default `submitted`. */
  status?: EntryStatus;
  formVersion?: number;
  /** Default: the clock's UTC day. */
  localDate?: string;
  timeZone?: string;
  /** Default: the clock's now unless a draft. */
  submittedAt?: Date | null;
  createdAt?: Date;
  /** The language it was answered in; default null (a row from before answers had one: English). */
  language?: Language | null;
}

/** A participant's mission entry, written straight into the table. */
export async function insertEntry(ctx: TestContext, mission: Mission, userId: number, input: EntryFixture = {}): Promise<MissionEntry> {
  const status = input.status ?? 'submitted';
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(missionEntries)
    .values({
      missionId: mission.id,
      userId,
      formVersion: input.formVersion ?? mission.formVersion,
      answers: input.answers ?? {},
      language: input.language ?? null,
      status,
      localDate: input.localDate ?? now.toISOString().slice(0, 10),
      timeZone: input.timeZone ?? 'UTC',
      createdAt: input.createdAt ?? now,
      updatedAt: now,
      submittedAt: input.submittedAt !== undefined ? input.submittedAt : status === 'draft' ? null : now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Mission groups

export interface MissionGroupFixture {
  title?: string;
  description?: string;
  /** Default `all_open`. */
  unlock?: GroupUnlock;
  /** Default `submitted`. */
  unlockOn?: GroupUnlockOn;
}

/** A mission group of the project with these missions, in this order. */
export async function createMissionGroup(
  ctx: TestContext,
  projectId: number,
  missionIds: readonly number[],
  input: MissionGroupFixture = {},
): Promise<MissionGroup> {
  const now = ctx.clock.now();
  const [row] = await ctx.database.db
    .insert(missionGroups)
    .values({
      projectId,
      title: input.title ?? `Group ${next()}`,
      description: input.description ?? '',
      unlock: input.unlock ?? 'all_open',
      unlockOn: input.unlockOn ?? 'submitted',
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  if (missionIds.length > 0)
    await ctx.database.db.insert(missionGroupMissions).values(missionIds.map((missionId, position) => ({ groupId: row.id, missionId, position })));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Calling the API

/** Calls as `who` (null: anonymous); bodies are JSON with a same-origin Origin. */
export function callAs(ctx: TestContext, who: { headers: { Cookie: string } } | null) {
  return (method: string, path: string, body?: unknown): Promise<Response> =>
    method === 'GET' ? ctx.request(path, { headers: who?.headers ?? {} }) : ctx.json(method, path, body, who?.headers ?? {});
}

/** The JSON body of a response after checking its status (the body is shown when it differs). */
export async function okJson<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
