/**
 * The data `npm run bench` measures the programme against: one live project of 501 members with
 * 10 live native surveys, 10 live missions and a mission group; the first survey has 500 submitted
 * responses (for the results aggregation), the first mission 2,000 submitted entries (for the
 * review queue). Written straight into the database (no argon2 for 500 people), as a busy project
 * would leave it.
 *
 * And a large project (`seedLarge`): 100,000 participants, members of it, one live mission with
 * 200,000 submitted entries (two each) and one live survey with 100,000 submitted responses, for
 * the review queue, bulk approve, survey results and the CSV export at scale. Written set-based
 * (`insert … select … from generate_series`), a few statements in all (docs/benchmarks.md gives
 * the seeding time on each backend).
 */
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type DatabaseTarget, type Db } from '../src/server/db/index.ts';
import {
  formVersions,
  forms,
  missionEntries,
  missionGroupMissions,
  missionGroups,
  missions,
  projectMembers,
  projects,
  surveyResponses,
  surveys,
  users,
} from '../src/server/db/schema/index.ts';
import { createApiToken } from '../src/server/services/api-tokens.ts';
import { systemClock } from '../src/server/services/clock.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import type { Answers, FormDefinition } from '../src/shared/forms/definition.ts';

export const BENCH_MEMBERS = 500;
export const BENCH_ENTRIES = 2_000;
/** The large project's size: participants (each a survey response), and mission entries (two each). */
export const BENCH_LARGE = { participants: 100_000, entries: 200_000 } as const;
/** Bulk approve measured on this many entries at once (the API's maximum, `REVIEW_LIMITS.bulkMax`). */
export const BENCH_BULK = 500;
/** Batches of `BENCH_BULK` entries the bench may approve (each once: an approved entry is not approved again). */
export const BENCH_BULK_ROUNDS = 20;

const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Bench form',
  pages: [
    {
      id: 'page_1',
      title: 'About you',
      elements: [
        {
          id: 'often',
          type: 'single_choice',
          title: 'How often?',
          required: true,
          options: [
            { id: 'daily', label: 'Daily' },
            { id: 'weekly', label: 'Weekly' },
            { id: 'never', label: 'Never' },
          ],
        },
        { id: 'like', type: 'rating', title: 'How much do you like it?', max: 5 },
        {
          id: 'which',
          type: 'multiple_choice',
          title: 'Which ones?',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
            { id: 'c', label: 'C' },
          ],
        },
        { id: 'why', type: 'long_text', title: 'Why?' },
      ],
    },
  ],
};

function answersFor(i: number): Answers {
  return { often: ['daily', 'weekly', 'never'][i % 3] ?? 'daily', like: (i % 5) + 1, which: i % 2 === 0 ? ['a', 'c'] : ['b'], why: `Because ${i}` };
}

async function inBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

export interface BenchProgramme {
  surveyId: number;
  missionId: number;
  formId: number;
}

/** What the large project holds: its mission (200,000 entries) and survey (100,000 responses), and entries left for bulk approve. */
export interface BenchLarge {
  largeMissionId: number;
  largeSurveyId: number;
  /** `BENCH_BULK_ROUNDS` disjoint batches of `BENCH_BULK` submitted entries of the large mission (its oldest ones), one per bulk approval. */
  bulkBatches: number[][];
}

/** Seeds the programme; `participantId` is made a member (their home lists everything). */
export async function seedProgramme(db: Db, participantId: number, adminId: number): Promise<BenchProgramme> {
  const [form] = await db.insert(forms).values({ title: 'Bench form', draft: definition, status: 'published', createdBy: adminId }).returning();
  if (!form) throw new Error('no form');
  await db.insert(formVersions).values({ formId: form.id, version: 1, definition, publishedBy: adminId });
  const [project] = await db.insert(projects).values({ name: 'Bench project', client: 'Bench', status: 'live', createdBy: adminId }).returning();
  if (!project) throw new Error('no project');

  const others = await db
    .insert(users)
    .values(
      Array.from({ length: BENCH_MEMBERS }, (_, i) => ({
        email: `member-${i}@bench.localhost`,
        firstName: 'Member',
        lastName: String(i),
        role: 'participant' as const,
        status: 'active' as const,
      })),
    )
    .returning({ id: users.id });
  const memberIds = [participantId, ...others.map((row) => row.id)];
  await inBatches(memberIds, 500, (batch) => db.insert(projectMembers).values(batch.map((userId) => ({ projectId: project.id, userId }))));

  const closesAt = new Date(Date.now() + 30 * 86_400_000);
  const surveyRows = await db
    .insert(surveys)
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        projectId: project.id,
        title: `Survey ${i + 1}`,
        kind: 'native' as const,
        formId: form.id,
        formVersion: 1,
        points: 20,
        estimatedMinutes: 5,
        closesAt,
        status: 'live' as const,
      })),
    )
    .returning({ id: surveys.id });
  const missionRows = await db
    .insert(missions)
    .values(
      Array.from({ length: 10 }, (_, i) => ({
        projectId: project.id,
        title: `Mission ${i + 1}`,
        formId: form.id,
        formVersion: 1,
        points: 50,
        closesAt,
        entriesMin: 1,
        entriesMax: 5,
        status: 'live' as const,
      })),
    )
    .returning({ id: missions.id });
  const [group] = await db.insert(missionGroups).values({ projectId: project.id, title: 'Bench group', unlock: 'in_order' }).returning();
  if (!group) throw new Error('no group');
  await db.insert(missionGroupMissions).values(missionRows.slice(5).map((row, position) => ({ groupId: group.id, missionId: row.id, position })));

  const surveyId = surveyRows[0]?.id ?? 0;
  const missionId = missionRows[0]?.id ?? 0;
  const now = new Date();
  await inBatches(
    others.map((row, i) => ({ surveyId, userId: row.id, formVersion: 1, answers: answersFor(i), status: 'submitted' as const, submittedAt: now })),
    250,
    (batch) => db.insert(surveyResponses).values(batch),
  );
  await inBatches(
    Array.from({ length: BENCH_ENTRIES }, (_, i) => ({
      missionId,
      userId: others[i % others.length]?.id ?? participantId,
      formVersion: 1,
      answers: answersFor(i),
      status: 'submitted' as const,
      localDate: new Date(now.getTime() - (i % 30) * 86_400_000).toISOString().slice(0, 10),
      submittedAt: new Date(now.getTime() - i * 60_000),
      submissionCount: 1,
    })),
    250,
    (batch) => db.insert(missionEntries).values(batch),
  );
  await db.execute(sql`analyze`);
  return { surveyId, missionId, formId: form.id };
}

/**
 * The large project, set-based: `sizes.participants` accounts (`large-{n}@bench.localhost`, no
 * password), all members; a live mission with `sizes.entries` submitted entries spread over them
 * (one a minute back from now, newest first) and a live survey with a submitted response from each.
 */
export async function seedLarge(db: Db, adminId: number, formId: number, sizes: { participants: number; entries: number } = BENCH_LARGE): Promise<BenchLarge> {
  const [project] = await db.insert(projects).values({ name: 'Bench project (large)', client: 'Bench', status: 'live', createdBy: adminId }).returning();
  if (!project) throw new Error('no project');
  const closesAt = new Date(Date.now() + 30 * 86_400_000);
  const [mission] = await db
    .insert(missions)
    .values({ projectId: project.id, title: 'Large mission', formId, formVersion: 1, points: 50, closesAt, entriesMin: 1, entriesMax: 5, status: 'live' })
    .returning({ id: missions.id });
  const [survey] = await db
    .insert(surveys)
    .values({ projectId: project.id, title: 'Large survey', kind: 'native', formId, formVersion: 1, points: 20, estimatedMinutes: 5, closesAt, status: 'live' })
    .returning({ id: surveys.id });
  if (!mission || !survey) throw new Error('no large mission or survey');
  const n = sizes.participants;
  // The participants (first and last names vary, so the name sort and searches have something to sort).
  await db.execute(sql`
    insert into users (email, first_name, last_name, role, status)
    select 'large-' || i || '@bench.localhost', 'Person' || (i % 97), 'Large' || lpad(((i * 7919) % ${n})::text, 6, '0'), 'participant', 'active'
    from generate_series(1, ${n}) as i`);
  await db.execute(sql`
    insert into project_members (project_id, user_id, first_contribution_at)
    select ${project.id}, id, now() from users where email like 'large-%@bench.localhost'`);
  // Answers as \`answersFor\` makes them, from the row number.
  const answers = (i: SQL) => sql`jsonb_build_object(
      'often', (array['daily','weekly','never'])[(${i} % 3) + 1],
      'like', (${i} % 5) + 1,
      'which', case when ${i} % 2 = 0 then '["a","c"]'::jsonb else '["b"]'::jsonb end,
      'why', 'Because ' || ${i})`;
  await db.execute(sql`
    insert into survey_responses (survey_id, user_id, form_version, answers, status, started_at, updated_at, submitted_at)
    select ${survey.id}, u.id, 1, ${answers(sql`u.id`)}, 'submitted', now() - (u.id % 1000) * interval '1 minute', now(), now() - (u.id % 1000) * interval '1 minute'
    from users u where u.email like 'large-%@bench.localhost'`);
  // Entry i (0-based) belongs to participant i mod n; submitted i minutes ago.
  await db.execute(sql`
    with people as (select id, row_number() over (order by id) - 1 as k from users where email like 'large-%@bench.localhost')
    insert into mission_entries (mission_id, user_id, form_version, answers, status, local_date, created_at, updated_at, submitted_at, submission_count, revision)
    select ${mission.id}, p.id, 1, ${answers(sql`g.i`)}, 'submitted', (now() - g.i * interval '1 minute')::date,
      now() - g.i * interval '1 minute', now() - g.i * interval '1 minute', now() - g.i * interval '1 minute', 1, 1
    from generate_series(0, ${sizes.entries - 1}) as g(i) join people p on p.k = g.i % ${n}`);
  await db.execute(sql`analyze`);
  // Bulk approve takes the oldest entries, a batch per round, so the queue's first pages stay as they are.
  const oldest = await db
    .select({ id: missionEntries.id })
    .from(missionEntries)
    .where(sql`${missionEntries.missionId} = ${mission.id}`)
    .orderBy(missionEntries.submittedAt, missionEntries.id)
    .limit(BENCH_BULK * BENCH_BULK_ROUNDS);
  const ids = oldest.map((row) => row.id);
  const bulkBatches = Array.from({ length: Math.floor(ids.length / BENCH_BULK) }, (_, round) => ids.slice(round * BENCH_BULK, (round + 1) * BENCH_BULK));
  return { largeMissionId: mission.id, largeSurveyId: survey.id, bulkBatches };
}

/** What the seed made: a participant's and an admin's sessions, and the programme's ids. */
export interface Seeded extends BenchProgramme, BenchLarge {
  participantToken: string;
  adminToken: string;
  /** An API token of the admin's with every read scope (issue 32): the token API's cases. */
  apiToken: string;
}

/** Opens the database, makes the bench's participant and admin with a session each, and seeds the programme. */
export async function seedBench(
  target: DatabaseTarget,
  options: { large: { participants: number; entries: number } } = { large: BENCH_LARGE },
): Promise<Seeded> {
  const database = await openDatabase(target);
  try {
    const user = await createActiveUser(database.db, {
      email: 'bench@fieldwork.localhost',
      password: 'bench-password-not-secret',
      role: 'participant',
      firstName: 'Bench',
      lastName: 'Mark',
    });
    const admin = await createActiveUser(database.db, {
      email: 'bench-admin@fieldwork.localhost',
      password: 'bench-password-not-secret',
      role: 'admin',
      firstName: 'Bench',
      lastName: 'Admin',
    });
    const { token } = await createSession(database.db, systemClock, user.id, { userAgent: 'fieldwork-bench' });
    const { token: adminToken } = await createSession(database.db, systemClock, admin.id, { userAgent: 'fieldwork-bench' });
    const programme = await seedProgramme(database.db, user.id, admin.id);
    const { token: apiToken } = await createApiToken(
      database.db,
      systemClock,
      { name: 'bench', scopes: ['responses:read', 'entries:read', 'participants:read', 'points:read'], expiresInDays: 30 },
      { id: admin.id, ip: '127.0.0.1' },
    );
    const started = performance.now();
    const large = await seedLarge(database.db, admin.id, programme.formId, options.large);
    console.log(
      `seeded the large project (${options.large.participants.toLocaleString('en-US')} participants and responses, ` +
        `${options.large.entries.toLocaleString('en-US')} entries) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return { participantToken: token, adminToken, apiToken, ...programme, ...large };
  } finally {
    await database.close();
  }
}

/** The bench's bulk approve row: a POST that changes state, so timed in a loop of its own (not autocannon), each round on entries not approved yet. */
export const BULK_APPROVE_CASE = `bulk approve of ${BENCH_BULK} entries (admin; ${BENCH_BULK_ROUNDS} calls one after another)`;

/**
 * Approves each of the seed's `bulkBatches` once through the running server
 * (`POST /api/admin/submissions/review`), one call at a time, and answers each call's time in
 * milliseconds; a call that does not answer 200 with every entry approved is a failure.
 */
export async function benchBulkApprove(url: string, seeded: Seeded): Promise<{ latencies: number[]; failures: string[] }> {
  const latencies: number[] = [];
  const failures: string[] = [];
  for (const ids of seeded.bulkBatches) {
    const started = performance.now();
    const res = await fetch(`${url}/api/admin/submissions/review`, {
      method: 'POST',
      headers: { cookie: `fw_session=${seeded.adminToken}`, origin: url, 'content-type': 'application/json' },
      body: JSON.stringify({ ids, decision: 'approve' }),
    });
    const text = await res.text();
    latencies.push(performance.now() - started);
    if (res.status !== 200) failures.push(`bulk approve: ${res.status} ${text.slice(0, 200)}`);
    else if ((JSON.parse(text) as { approved?: number }).approved !== ids.length) failures.push(`bulk approve: ${text} for ${ids.length} entries`);
  }
  return { latencies, failures };
}
