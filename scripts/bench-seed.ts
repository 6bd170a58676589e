/**
 * The data `npm run bench` measures the programme against: one live project of 501 members with
 * 10 live native surveys, 10 live missions and a mission group; the first survey has 500 submitted
 * responses (for the results aggregation), the first mission 2,000 submitted entries (for the
 * review queue). Written straight into the database (no argon2 for 500 people), as a busy project
 * would leave it.
 */
import { sql } from 'drizzle-orm';
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
import { systemClock } from '../src/server/services/clock.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import type { Answers, FormDefinition } from '../src/shared/forms/definition.ts';

export const BENCH_MEMBERS = 500;
export const BENCH_ENTRIES = 2_000;

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
  return { surveyId, missionId };
}

/** What the seed made: a participant's and an admin's sessions, and the programme's ids. */
export interface Seeded extends BenchProgramme {
  participantToken: string;
  adminToken: string;
}

/** Opens the database, makes the bench's participant and admin with a session each, and seeds the programme. */
export async function seedBench(target: DatabaseTarget): Promise<Seeded> {
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
    return { participantToken: token, adminToken, ...programme };
  } finally {
    await database.close();
  }
}
