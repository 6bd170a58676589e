/**
 * `npm run bench:scale`: the admin area at a research agency's size, on PostgreSQL.
 *
 * Makes a fresh database (TEST_DATABASE_URL or 127.0.0.1:5432), migrates it, and writes straight
 * into it with `generate_series` (no argon2, no API): 100,000 participants in 20 projects of 10
 * missions, 1,000,000 mission entries (approved, submitted, changes requested, rejected, drafts)
 * each with a photo (1,000,000 photos: some tagged, some starred), their points, and one admin with
 * a session. Then it starts the production server on that database (`node src/server/main.ts`, as
 * `npm run bench` does) and times, one request at a time, what an admin waits for: the dashboard
 * (cold, i.e. computed, and from its 10-second cache), user searches and filters, the users CSV,
 * gallery pages (first, filtered, deep through cursors) and the review queue across projects.
 *
 * Environment: SCALE_USERS (default 100000), SCALE_ENTRIES (default 1000000), BENCH_WRITE=1
 * (rewrite the table of docs/benchmarks.md between its scale markers), SCALE_KEEP=1 (keep the
 * database and print its URL), SCALE_DATABASE_URL (measure a database kept that way again, without
 * seeding). Exits non-zero when a call answers anything but 200.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../src/server/db/index.ts';
import { formVersions, forms } from '../src/server/db/schema/index.ts';
import { systemClock } from '../src/server/services/clock.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { createActiveUser } from '../src/server/services/users.ts';
import type { FormDefinition } from '../src/shared/forms/definition.ts';
import { createFreshDatabase, postgresReachable } from '../tests/support/postgres.ts';
import { freePort, spawnServer, stopServer, waitForHealth, writeBenchmarksSection } from './bench-server.ts';

function count(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100) throw new Error(`${name} must be a whole number of at least 100, not ${JSON.stringify(raw)}`);
  return value;
}

const USERS = count('SCALE_USERS', 100_000);
const ENTRIES = count('SCALE_ENTRIES', 1_000_000);
const PROJECTS = 20;
const MISSIONS_PER_PROJECT = 10;
/** Requests per timed case (after two untimed ones). */
const SAMPLES = 15;

const definition: FormDefinition = {
  schema: 'fieldwork.form/1',
  title: 'Scale form',
  pages: [
    {
      id: 'page_1',
      title: 'Your kitchen',
      elements: [
        {
          id: 'often',
          type: 'single_choice',
          title: 'How often do you cook?',
          required: true,
          options: [
            { id: 'daily', label: 'Daily' },
            { id: 'weekly', label: 'Weekly' },
          ],
        },
        { id: 'photo', type: 'photo', title: 'A photo of your fridge', maxFiles: 3 },
      ],
    },
  ],
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`  ${label}: ${seconds(performance.now() - started)}`);
  return result;
}

interface Seeded {
  adminToken: string;
  projectId: number;
  missionId: number;
  /** The email of a participant in the middle of the table. */
  someEmail: string;
  seedSeconds: number;
}

async function seed(url: string): Promise<Seeded> {
  const started = performance.now();
  const database = await openDatabase({ kind: 'postgres', connection: url, poolSize: 4 });
  const { db } = database;
  try {
    const admin = await createActiveUser(db, { email: 'admin@scale.localhost', password: 'Scale-bench-1', role: 'admin', firstName: 'Ada', lastName: 'Admin' });
    const { token } = await createSession(db, systemClock, admin.id);
    const [form] = await db.insert(forms).values({ title: 'Scale form', draft: definition, status: 'published', createdBy: admin.id }).returning();
    if (!form) throw new Error('no form');
    await db.insert(formVersions).values({ formId: form.id, version: 1, definition, publishedBy: admin.id });

    console.log(`Seeding ${USERS.toLocaleString('en')} participants and ${ENTRIES.toLocaleString('en')} entries with a photo each:`);
    await timed('projects and missions', () =>
      db.execute(sql`
        with p as (
          insert into projects (name, client, status, created_by)
          select 'Project ' || g, 'Client ' || (g % 5), case when g <= 15 then 'live' else 'closed' end, ${admin.id}
          from generate_series(1, ${PROJECTS}) g
          returning id
        )
        insert into missions (project_id, title, form_id, form_version, points, closes_at, entries_min, entries_max, status)
        select p.id, 'Mission ' || m, ${form.id}, 1, 50, now() + interval '30 days', 1, 7, 'live'
        from p cross join generate_series(1, ${MISSIONS_PER_PROJECT}) m`),
    );
    await timed('participants', () =>
      db.execute(sql`
        insert into users (email, first_name, last_name, role, status, created_at, updated_at, last_active_at)
        select 'person' || g || '@scale-' || (g % 97) || '.example',
          (array['Ana','Ben','Chloé','Dev','Eli','Fatima','Gus','Hana','Ivan','Jo'])[1 + g % 10],
          (array['Smith','García','Okafor','Nguyen','Müller','Rossi','Kowalski','Tanaka','Silva','Dubois'])[1 + (g / 10) % 10] || ' ' || g,
          'participant',
          case when g % 50 = 0 then 'disabled' when g % 10 = 0 then 'invited' else 'active' end,
          now() - (g % 730) * interval '1 day' - (g % 1440) * interval '1 minute',
          now(),
          case when g % 3 = 0 then now() - (g % 90) * interval '1 day' end
        from generate_series(1, ${USERS}) g`),
    );
    await timed('project members', () =>
      db.execute(sql`
        insert into project_members (project_id, user_id)
        select pr.id, u.id
        from users u
        join lateral (select id from projects order by id offset (u.id % ${PROJECTS}) limit 1) pr on true
        where u.role = 'participant'`),
    );
    await timed('entries', () =>
      db.execute(sql`
        with u as (select id, row_number() over (order by id) - 1 as n from users where role = 'participant'),
        mi as (select id, project_id, row_number() over (partition by project_id order by id) - 1 as n from missions),
        pr as (select id, row_number() over (order by id) - 1 as n from projects)
        insert into mission_entries (mission_id, user_id, form_version, answers, revision, status, local_date, created_at, updated_at, submitted_at, submission_count)
        select mi.id, u.id, 1,
          jsonb_build_object('often', 'daily', 'photo', jsonb_build_array('scale-' || g)),
          1, s.status,
          (t.at)::date, t.at, t.at,
          case when s.status <> 'draft' then t.at end,
          case when s.status = 'draft' then 0 else 1 end
        from generate_series(0, ${ENTRIES - 1}) g
        join u on u.n = g % ${USERS}
        join pr on pr.n = u.id % ${PROJECTS}
        join mi on mi.project_id = pr.id and mi.n = (g / ${USERS}) % ${MISSIONS_PER_PROJECT}
        -- The state from g / 20, not g: every project (chosen by g mod 20) gets every state.
        cross join lateral (select (g / 20) % 100 as r) k
        cross join lateral (select case
          when k.r < 3 then 'draft' when k.r < 13 then 'submitted' when k.r < 17 then 'changes_requested'
          when k.r < 19 then 'rejected' else 'approved' end as status) s
        cross join lateral (select now() - case when s.status = 'submitted' then (g % 240) * interval '1 hour'
          else (g % 365) * interval '1 day' end - (g % 60) * interval '1 minute' as at) t`),
    );
    await timed('photos', () =>
      db.execute(sql`
        insert into media (id, owner_id, content_type, width, height, bytes, uploaded_bytes, display_key, thumbnail_key,
          thumbnail_width, thumbnail_height, created_at, attached_at, project_id, mission_id, entry_id, tags, starred)
        select e.answers->'photo'->>0, e.user_id, 'image/jpeg', 1600, 1200, 180000, 2400000,
          'scale/' || e.id || '.jpg', 'scale/' || e.id || '-thumb.jpg', 320, 240, e.created_at, e.created_at,
          mi.project_id, e.mission_id, e.id,
          case when e.id % 50 = 0 then array['kitchen', 'fridge'] when e.id % 20 = 0 then array['kitchen'] else '{}'::text[] end,
          e.id % 100 = 0
        from mission_entries e join missions mi on mi.id = e.mission_id`),
    );
    await timed('points', () =>
      db.execute(sql`
        insert into points_ledger (user_id, points, state, reason, source, reference, created_at, state_changed_at)
        select e.user_id, 50, case when e.status = 'approved' then 'available' else 'pending' end, 'Mission', 'mission',
          'mission-entry:' || e.id, e.submitted_at, e.submitted_at
        from mission_entries e where e.status in ('approved', 'submitted', 'changes_requested')`),
    );
    // What autovacuum does to a table written once: statistics, and the visibility map index-only scans need.
    await timed('vacuum analyze', () => db.execute(sql`vacuum analyze`));
    const [someone] = await queryRows<{ email: string }>(
      db,
      sql`select email from users where role = 'participant' order by id offset ${Math.floor(USERS / 2)} limit 1`,
    );
    const [firstMission] = await queryRows<{ id: number; project_id: number }>(db, sql`select id, project_id from missions order by id limit 1`);
    if (!someone || !firstMission) throw new Error('nothing seeded');
    return {
      adminToken: token,
      projectId: firstMission.project_id,
      missionId: firstMission.id,
      someEmail: someone.email,
      seedSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await database.close();
  }
}

/** A database seeded by an earlier run (SCALE_KEEP=1): a new admin session and the ids to ask for. */
async function reuse(url: string): Promise<Seeded> {
  const database = await openDatabase({ kind: 'postgres', connection: url, poolSize: 2 });
  try {
    const { db } = database;
    const [admin] = await queryRows<{ id: number }>(db, sql`select id from users where email = 'admin@scale.localhost'`);
    const [someone] = await queryRows<{ email: string }>(
      db,
      sql`select email from users where role = 'participant' order by id offset ${Math.floor(USERS / 2)} limit 1`,
    );
    const [firstMission] = await queryRows<{ id: number; project_id: number }>(db, sql`select id, project_id from missions order by id limit 1`);
    if (!admin || !someone || !firstMission) throw new Error(`${url} was not seeded by this script`);
    const { token } = await createSession(db, systemClock, admin.id);
    return { adminToken: token, projectId: firstMission.project_id, missionId: firstMission.id, someEmail: someone.email, seedSeconds: Number.NaN };
  } finally {
    await database.close();
  }
}

interface CaseResult {
  name: string;
  medianMs: number;
  maxMs: number;
  /** What the answer held (items, bytes), for the reader. */
  note: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function request(base: string, token: string, url: string): Promise<{ ms: number; body: string }> {
  const started = performance.now();
  const response = await fetch(`${base}${url}`, { headers: { cookie: `fw_session=${token}` } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, body };
}

function summary(name: string, samples: number[], note: string): CaseResult {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, maxMs: sorted[sorted.length - 1] ?? 0, note };
}

function itemsNote(body: string): string {
  const parsed = JSON.parse(body) as { items?: unknown[]; total?: number; participants?: { total: number }; review?: { waiting: number } };
  if (parsed.participants && parsed.review)
    return `${parsed.participants.total.toLocaleString('en')} participants, ${parsed.review.waiting.toLocaleString('en')} waiting`;
  const items = parsed.items?.length ?? 0;
  return typeof parsed.total === 'number' ? `${items} of ${parsed.total.toLocaleString('en')}` : `${items} items`;
}

async function timeCase(base: string, token: string, name: string, url: string): Promise<CaseResult> {
  await request(base, token, url);
  const warm = await request(base, token, url);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push((await request(base, token, url)).ms);
  return summary(name, samples, url.includes('.csv') ? `${(warm.body.length / 1024 / 1024).toFixed(1)} MiB` : itemsNote(warm.body));
}

/** Follows `nextCursor` `pages` times; the time of the last page. */
async function deepPage(base: string, token: string, name: string, first: string, pages: number): Promise<CaseResult> {
  const samples: number[] = [];
  let url = first;
  let note = '';
  for (let page = 0; page <= pages; page++) {
    const { ms, body } = await request(base, token, url);
    const parsed = JSON.parse(body) as { items: unknown[]; nextCursor: string | null };
    if (page >= pages - SAMPLES + 1) samples.push(ms);
    note = `page ${page + 1}, ${parsed.items.length} items`;
    if (!parsed.nextCursor) break;
    url = `${first}${first.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(parsed.nextCursor)}`;
  }
  return summary(name, samples, note);
}

async function measure(base: string, seeded: Seeded): Promise<CaseResult[]> {
  const token = seeded.adminToken;
  const rows: CaseResult[] = [];
  // The dashboard computes at most every 10 s; time the computation (cold) three times, then the cached answer.
  const cold: number[] = [];
  for (let i = 0; i < 3; i++) {
    if (i > 0) await sleep(10_500);
    cold.push((await request(base, token, '/api/admin/dashboard')).ms);
  }
  rows.push(summary('`GET /api/admin/dashboard`, computed (cold)', cold, '3 samples, 10.5 s apart'));
  rows.push(await timeCase(base, token, '`GET /api/admin/dashboard`, cached', '/api/admin/dashboard'));
  const local = seeded.someEmail.split('@')[0] ?? 'person';
  rows.push(await timeCase(base, token, 'users: search by part of an email', `/api/admin/users?q=${encodeURIComponent(local.slice(2))}`));
  rows.push(await timeCase(base, token, 'users: search by a name prefix', '/api/admin/users?q=fatima'));
  rows.push(await timeCase(base, token, 'users: project, active, page 200', `/api/admin/users?projectId=${seeded.projectId}&status=active&page=200`));
  rows.push(await timeCase(base, token, 'users: signed up in a month, newest first', '/api/admin/users?from=2026-01-01&to=2026-01-31&sort=created'));
  rows.push(await timeCase(base, token, 'users CSV: every participant', '/api/admin/users.csv?role=participant'));
  rows.push(await timeCase(base, token, 'gallery: first page (40)', '/api/admin/gallery'));
  rows.push(await timeCase(base, token, 'gallery: one mission, approved', `/api/admin/gallery?missionId=${seeded.missionId}&state=approved`));
  rows.push(await timeCase(base, token, 'gallery: tag `fridge`, starred', '/api/admin/gallery?tag=fridge&starred=true'));
  rows.push(
    await timeCase(base, token, 'gallery: participant typed (part of an email)', `/api/admin/gallery?participant=${encodeURIComponent(local.slice(2))}`),
  );
  // No photo of the seed was replaced: the filter reads every photo of the mission to find none (its worst case).
  rows.push(await timeCase(base, token, 'gallery: one mission, replaced photos', `/api/admin/gallery?missionId=${seeded.missionId}&replaced=true`));
  rows.push(await deepPage(base, token, 'gallery: 50th page through cursors', '/api/admin/gallery', 49));
  rows.push(await timeCase(base, token, 'review queue, every project (oldest first)', '/api/admin/submissions?status=submitted'));
  rows.push(await timeCase(base, token, 'review queue, one project', `/api/admin/submissions?status=submitted&projectId=${seeded.projectId}`));
  return rows;
}

function table(rows: readonly CaseResult[], seeded: Seeded): string {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, PostgreSQL, ${USERS.toLocaleString('en')} participants, ${ENTRIES.toLocaleString('en')} entries and photos (${Number.isNaN(seeded.seedSeconds) ? 'seeded earlier' : `seeded in ${seeded.seedSeconds.toFixed(0)} s`}). One request at a time, ${SAMPLES} samples after two untimed ones; the time includes HTTP on loopback.`,
    '',
    '| Call | median | slowest | answer |',
    '|---|---:|---:|---|',
    ...rows.map((row) => `| ${row.name} | ${row.medianMs.toFixed(1)} ms | ${row.maxMs.toFixed(1)} ms | ${row.note} |`),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!(await postgresReachable())) {
    console.log('PostgreSQL is not reachable (TEST_DATABASE_URL or 127.0.0.1:5432): nothing to measure.');
    return;
  }
  const reused = process.env.SCALE_DATABASE_URL;
  const fresh = reused ? { url: reused, drop: async () => {} } : await createFreshDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-scale-'));
  let server: ReturnType<typeof spawnServer> | undefined;
  try {
    const seeded = reused ? await reuse(reused) : await seed(fresh.url);
    if (!reused) console.log(`Seeded in ${seeded.seedSeconds.toFixed(0)} s.`);
    const port = await freePort();
    server = spawnServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: fresh.url, LOG_LEVEL: 'warn' }, port);
    await waitForHealth(server);
    const rows = await measure(server.url, seeded);
    const section = table(rows, seeded);
    console.log(`\n${section}\n`);
    if (process.env.BENCH_WRITE === '1') writeBenchmarksSection('scale', section);
  } finally {
    if (server) await stopServer(server).catch((error: unknown) => console.error(error));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (reused || process.env.SCALE_KEEP === '1') console.log(`Kept the database: ${fresh.url}`);
    else await fresh.drop();
  }
}

await main();
