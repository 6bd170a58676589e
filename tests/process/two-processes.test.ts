/**
 * Two API processes on one PostgreSQL behind nginx (round robin, the configuration
 * `npm run cli -- deploy:nginx` prints), as docs/deploy.md runs them. While process B is killed
 * (SIGKILL) and started again, participants register, sign in, save and submit surveys, upload
 * photos and submit mission entries, and an admin reviews entries and adjusts points, all through
 * nginx. A client retries what failed (a 502, a dropped connection) the way the app does: with the
 * same revision, the same reference, or by reading back what the server holds. Afterwards every
 * acknowledged write is in the database, no mail went out twice and every queued job ran once
 * (pg-boss's rows against the mails an SMTP sink received), no points were credited twice, the
 * photos are served by both processes from the one MEDIA_DIR, sign-in failures count across both,
 * and a disabled account is refused by both at once.
 *
 * Which process answered a request is read from its log: each request carries its own
 * `X-Request-Id`, which the request log writes (`reqId`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../src/server/jobs/queue.ts';
import { RATE_LIMITS } from '../../src/server/services/rate-limit.ts';
import { NGINX, startNginx, type RunningNginx } from '../support/nginx.ts';
import { createFreshDatabase, postgresReachable, type FreshDatabase } from '../support/postgres.ts';
import { freePort, runCliAsync, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { photoDefinition, textDefinition } from '../api/programme-fixtures.ts';
import { startSmtpSink, type ReceivedMail } from '../support/smtp-sink.ts';

const reachable = (await postgresReachable()) && NGINX !== null;

const PASSWORD = 'Two-process3s!';
const ADMIN_EMAIL = 'admin@two-processes.test';
/** Participants who register before the kill, while B is down, and once B is back. */
const EARLY = 6;
const WHILE_DOWN = 2;
const AFTER_RESTART = 2;
const SURVEY_POINTS = [10, 20, 30] as const;
const MISSION_POINTS = [25, 40] as const;
/** Adjustments per early participant during the work (reference, points), and one more for everyone after the restart. */
const ADJUSTMENTS = [5, -2, 7] as const;
const LATE_ADJUSTMENT = 11;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The SMTP sink: every mail either process sends, in one place

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// ---------------------------------------------------------------------------------------------
// HTTP through nginx (or straight to one process), with request ids to tell who answered

interface Answer {
  status: number;
  body: unknown;
  reqId: string;
  headers: Headers;
}

type JsonObject = Record<string, unknown>;
const asObject = (value: unknown): JsonObject => (value && typeof value === 'object' ? (value as JsonObject) : {});
const errorCode = (answer: Answer): string | undefined => {
  const code = asObject(asObject(answer.body).error).code;
  return typeof code === 'string' ? code : undefined;
};

let requestCounter = 0;
/** Requests that met a transient failure (502/503/504 or a dropped connection) and were retried. */
const transient: { label: string; status: number | string }[] = [];
/** Answers with a 5xx from a process (not nginx's 502 for a dead upstream): product bugs. */
const serverErrors: { label: string; status: number; body: unknown }[] = [];

class Client {
  cookie = '';
  readonly name: string;
  private readonly base: () => string;
  constructor(name: string, base: () => string) {
    this.name = name;
    this.base = base;
  }

  /** One request; network errors surface as status 0. */
  async once(method: string, pathname: string, body?: unknown, options: { base?: string; label?: string } = {}): Promise<Answer> {
    const reqId = `tp-${++requestCounter}`;
    const base = options.base ?? this.base();
    const headers: Record<string, string> = { 'X-Request-Id': reqId, Origin: this.base() };
    if (this.cookie) headers.Cookie = this.cookie;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    try {
      const res = await fetch(`${base}${pathname}`, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // nginx's own error pages are HTML.
      }
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith('fw_session='));
      if (cookie) this.cookie = cookie.split(';')[0] ?? '';
      const answer = { status: res.status, body: parsed, reqId, headers: res.headers };
      if (res.status >= 500 && !isGateway(answer)) serverErrors.push({ label: options.label ?? `${method} ${pathname}`, status: res.status, body: parsed });
      return answer;
    } catch (error) {
      return { status: 0, body: String(error), reqId, headers: new Headers() };
    }
  }

  /**
   * A request retried while it fails in transit, as a client would (each retry is a new request);
   * `makeBody` is called for each try (a FormData body cannot be sent twice).
   */
  async retried(method: string, pathname: string, makeBody?: () => unknown, label = `${method} ${pathname}`): Promise<{ answer: Answer; retried: boolean }> {
    const deadline = Date.now() + 40_000;
    let retried = false;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.once(method, pathname, makeBody?.(), { label });
      if (!isTransient(answer)) return { answer, retried };
      transient.push({ label: `${this.name}: ${label}`, status: answer.status || String(answer.body) });
      retried = true;
      if (Date.now() > deadline) throw new Error(`${label} kept failing: ${answer.status} ${String(answer.body).slice(0, 200)}`);
      await sleep(Math.min(100 * attempt, 1000));
    }
  }
}

/** nginx's answers when it could not get one from a process (HTML, not our JSON error shape). */
const isGateway = (answer: Answer) => [502, 503, 504].includes(answer.status) && typeof answer.body === 'string';
const isTransient = (answer: Answer) => answer.status === 0 || isGateway(answer);

function expectStatus(answer: Answer, ...statuses: number[]): void {
  if (!statuses.includes(answer.status)) throw new Error(`expected ${statuses.join('/')}, got ${answer.status}: ${JSON.stringify(answer.body).slice(0, 400)}`);
}

// ---------------------------------------------------------------------------------------------
// Definitions of the forms the admin creates

// The programme fixtures' forms: a required short text `name`, and required photos `photos` (1 to 3) with a `caption`.
const textForm = textDefinition('Check-in');
const photoForm = photoDefinition('Shelf photo');

// ---------------------------------------------------------------------------------------------

interface Participant {
  email: string;
  client: Client;
  id: number;
  group: 'early' | 'down' | 'late';
  /** Register requests sent (each may have queued a job and a mail). */
  registerAttempts: number;
  surveys: Map<number, { answers: JsonObject; revision: number | null; submitted: boolean }>;
  /** Media ids the server acknowledged (201). */
  media: string[];
  /** Mission id → entry id, once submitted. */
  entries: Map<number, number>;
}

describe.skipIf(!reachable)('two API processes behind nginx, one killed and restarted [PostgreSQL]', () => {
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  let received: ReceivedMail[] = [];
  let fresh: FreshDatabase;
  let client: pg.Client;
  let nginx: RunningNginx;
  let mediaDir: string;
  let a: ServerProcess;
  /** B's lives: the one killed, then the restarted one. */
  const bLives: ServerProcess[] = [];
  let envB: Record<string, string>;
  const admin = new Client('admin', () => nginx.url);
  const participants: Participant[] = [];
  let projectId = 0;
  const surveyIds: number[] = [];
  const missionIds: number[] = [];
  /** Acknowledged points adjustments: reference → (user, points). */
  const adjustments = new Map<string, { userId: number; points: number }>();
  /** Entries the admin approved (acknowledged). */
  const approved = new Set<number>();
  let photo: Buffer;

  const b = () => bLives[bLives.length - 1] as ServerProcess;
  const lives = () => [{ name: 'A', server: a }, ...bLives.map((server, i) => ({ name: `B${i + 1}`, server }))];
  /** Which process (life) logged this request id (its log line may come a moment after the answer). */
  async function servedBy(reqId: string): Promise<string | undefined> {
    const deadline = Date.now() + 3_000;
    for (;;) {
      const found = lives().find(({ server }) => server.output().includes(`"reqId":"${reqId}"`))?.name;
      if (found || Date.now() > deadline) return found;
      await sleep(50);
    }
  }

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await client.query<T>(text, values)).rows;
  }

  /** The mails of registration to `email` (not the "New sign-in" notices a sign-in from another browser sends). */
  const registrationMails = (email: string) => received.filter((mail) => mail.to.includes(email) && !/^Subject: New sign-in/im.test(mail.raw));

  /** The onboarding link of the newest mail to `email` once there are `count` of them. */
  async function onboardingToken(email: string, count: number): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const mails = registrationMails(email);
      if (mails.length >= count) {
        const token = /\/onboarding\/([A-Za-z0-9_-]{43})/.exec(decodeQuotedPrintable(mails[mails.length - 1]?.raw ?? ''))?.[1];
        if (!token) throw new Error(`no onboarding link in the mail to ${email}`);
        return token;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${email} after 20 s (${mails.length} of ${count})`);
      await sleep(100);
    }
  }

  /** Registers through nginx, again after a failure in transit (each try that reached a process queues a job). */
  async function join(participant: Participant): Promise<void> {
    const { client: c, email } = participant;
    const body = () => ({ firstName: 'Pat', lastName: participant.group, email, acceptTerms: true });
    for (;;) {
      if (participant.registerAttempts >= 50) throw new Error(`${email}: registration kept failing`);
      participant.registerAttempts++;
      const answer = await c.once('POST', '/api/auth/register', body());
      if (!isTransient(answer)) {
        expectStatus(answer, 202);
        break;
      }
      transient.push({ label: `${email}: register`, status: answer.status });
      await sleep(200);
    }
  }

  /** Onboards from the newest mailed link, then signs in with the password. */
  async function onboard(participant: Participant): Promise<void> {
    const { client: c, email } = participant;
    // Every register request that reached a process queued a job and a mail; the newest link works.
    await onboardingToken(email, 1);
    await sleep(300); // a retried registration's later mail, if any
    const token = await onboardingToken(email, registrationMails(email).length);
    const { answer, retried } = await c.retried('POST', `/api/auth/onboard?token=${token}`, () => ({ password: PASSWORD, confirmPassword: PASSWORD }));
    // A retry after an onboarding that did land finds the link used: signing in shows it landed.
    if (retried) expectStatus(answer, 200, 404, 400);
    else expectStatus(answer, 200);
    c.cookie = '';
    const { answer: login } = await c.retried('POST', '/api/auth/login', () => ({ email, password: PASSWORD }));
    expectStatus(login, 200);
    const [row] = await query<{ id: number }>('select id from users where email = $1', [email]);
    participant.id = row?.id ?? 0;
  }

  function newParticipant(group: Participant['group'], n: number): Participant {
    const email = `${group}-${n}@two-processes.test`;
    const participant: Participant = {
      email,
      client: new Client(email, () => nginx.url),
      id: 0,
      group,
      registerAttempts: 0,
      surveys: new Map(),
      media: [],
      entries: new Map(),
    };
    participants.push(participant);
    return participant;
  }

  /** Autosave with a revision; a retry whose first try landed meets 409 `conflict` holding exactly these answers. */
  async function saveSurvey(p: Participant, surveyId: number, answers: JsonObject): Promise<void> {
    const state = p.surveys.get(surveyId) ?? { answers: {}, revision: null, submitted: false };
    // The first save says revision 0 (as the API asks): if it lands and its answer is lost with B,
    // the retry meets 409 `conflict` with these answers rather than 400 "send the revision".
    const base = state.revision ?? 0;
    const sent = { answers, pageId: 'page_1', revision: base };
    const { answer } = await p.client.retried('PUT', `/api/surveys/${surveyId}/response`, () => sent, `save survey ${surveyId}`);
    const landed = landedBefore(answer, answers, base);
    if (landed !== undefined) {
      p.surveys.set(surveyId, { answers, revision: landed, submitted: false });
      return;
    }
    expectStatus(answer, 200);
    p.surveys.set(surveyId, { answers, revision: Number(asObject(answer.body).revision), submitted: false });
  }

  /**
   * The revision a save made before this answer, when the answer is 409 `conflict` holding exactly
   * these answers one revision on. A save can be sent twice without the client retrying: nginx re-sends
   * a PUT to the other process when the first was killed after it got the request (docs/deploy.md),
   * and that process may already have committed it.
   */
  function landedBefore(answer: Answer, answers: JsonObject, base: number): number | undefined {
    if (answer.status !== 409 || errorCode(answer) !== 'conflict') return undefined;
    const held = asObject(asObject(asObject(asObject(answer.body).error).details).current);
    if (!isDeepStrictEqual(held.answers, answers) || held.revision !== base + 1)
      throw new Error(`a re-sent save met someone else's answers: ${JSON.stringify(held)}`);
    return base + 1;
  }

  async function submitSurvey(p: Participant, surveyId: number, answers: JsonObject): Promise<void> {
    const state = p.surveys.get(surveyId);
    const sent = state?.revision ? { answers, revision: state.revision } : { answers };
    const { answer, retried } = await p.client.retried('POST', `/api/surveys/${surveyId}/response/submit`, () => sent, `submit survey ${surveyId}`);
    if (!(answer.status === 409 && retried && errorCode(answer) === 'already_submitted')) expectStatus(answer, 200);
    p.surveys.set(surveyId, { answers, revision: null, submitted: true });
  }

  async function upload(p: Participant): Promise<string> {
    const { answer } = await p.client.retried(
      'POST',
      '/api/media',
      () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'shelf.jpg');
        return form;
      },
      'upload',
    );
    expectStatus(answer, 201);
    const id = String(asObject(answer.body).id);
    p.media.push(id);
    return id;
  }

  /** A draft entry: made, or (after a failed try that may have landed) found on the mission. */
  async function draftEntry(p: Participant, missionId: number): Promise<number> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const made = await p.client.once('POST', `/api/missions/${missionId}/entries`, { timeZone: 'UTC' });
      if (made.status === 201) return Number(asObject(made.body).id);
      if (!isTransient(made) && made.status !== 409) throw new Error(`entry not made: ${made.status} ${JSON.stringify(made.body)}`);
      if (isTransient(made)) transient.push({ label: `${p.email}: new entry`, status: made.status });
      const { answer } = await p.client.retried('GET', `/api/missions/${missionId}`);
      expectStatus(answer, 200);
      const mine = asObject(answer.body).myEntries;
      const draft = Array.isArray(mine) ? mine.map(asObject).find((entry) => entry.status === 'draft') : undefined;
      if (draft) return Number(draft.id);
      await sleep(200);
    }
    throw new Error('no entry could be made');
  }

  async function submitEntry(p: Participant, missionId: number, mediaId: string): Promise<number> {
    const entryId = await draftEntry(p, missionId);
    const answers = { photos: [mediaId], caption: `Shelf of ${p.email}` };
    // Revision 0, as for surveys: a save that landed before its answer was lost meets 409 `conflict` with these answers.
    const save = await p.client.retried('PUT', `/api/missions/${missionId}/entries/${entryId}`, () => ({ answers, revision: 0 }), 'save entry');
    let revision = landedBefore(save.answer, answers, 0);
    if (revision === undefined) {
      expectStatus(save.answer, 200);
      revision = Number(asObject(save.answer.body).revision);
    }
    const { answer, retried } = await p.client.retried('POST', `/api/missions/${missionId}/entries/${entryId}/submit`, () => ({ revision }), 'submit entry');
    if (!(answer.status === 409 && retried && errorCode(answer) === 'already_submitted')) expectStatus(answer, 200);
    p.entries.set(missionId, entryId);
    return entryId;
  }

  async function approve(entryId: number): Promise<void> {
    const { answer } = await admin.retried(
      'POST',
      `/api/admin/submissions/${entryId}/review`,
      () => ({ decision: 'approve', expectedStatus: 'submitted' }),
      'approve',
    );
    expectStatus(answer, 200);
    approved.add(entryId);
  }

  async function adjust(userId: number, points: number, reference: string): Promise<void> {
    const { answer } = await admin.retried('POST', `/api/admin/users/${userId}/points`, () => ({ points, reason: 'Two processes', reference }), 'adjust');
    // 201 the new entry; 200 when a try that landed already made it (the same reference).
    expectStatus(answer, 201, 200);
    expect(asObject(answer.body)).toMatchObject({ reference, points, userId });
    adjustments.set(reference, { userId, points });
  }

  beforeAll(async () => {
    fresh = await createFreshDatabase();
    cleanups.push(() => fresh.drop());
    client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    cleanups.push(() => client.end());

    const smtp = await startSmtpSink();
    cleanups.push(() => smtp.close());
    received = smtp.received;

    const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-two-processes-'));
    cleanups.push(() => fs.rmSync(temp, { recursive: true, force: true }));
    mediaDir = path.join(temp, 'media');
    // The API only: nginx serves a root that holds just the route table deploy:nginx reads.
    const root = path.join(temp, 'dist');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, '_routes.json'), JSON.stringify({ buildId: 'two-processes', routes: [], notFound: '404.html', scriptHashes: [] }));
    fs.writeFileSync(path.join(root, '404.html'), '<!doctype html><title>Not found</title>');

    const [portA, portB, portNginx] = [await freePort(), await freePort(), await freePort()];
    const common = {
      DATABASE_URL: fresh.url,
      SERVE_STATIC: '0',
      TRUST_PROXY: '1',
      PUBLIC_URL: `http://127.0.0.1:${portNginx}`,
      MEDIA_DIR: mediaDir,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'info',
    };
    const envA = { ...common, DATA_DIR: path.join(temp, 'data-a'), PORT: String(portA) };
    envB = { ...common, DATA_DIR: path.join(temp, 'data-b'), PORT: String(portB) };
    // A first (it migrates the fresh database), then B.
    a = await startServerProcess(envA);
    cleanups.push(() => a.stop());
    bLives.push(await startServerProcess(envB));
    cleanups.push(() => b().stop());
    nginx = await startNginx({ root, api: [`127.0.0.1:${portA}`, `127.0.0.1:${portB}`], port: portNginx });
    cleanups.push(() => nginx.stop());

    const created = await runCliAsync(
      ['user:create', '--email', ADMIN_EMAIL, '--password', PASSWORD, '--role', 'admin', '--first-name', 'Ada', '--last-name', 'Admin'],
      { DATABASE_URL: fresh.url, DATA_DIR: path.join(temp, 'data-cli') },
    );
    expect(created.code, created.stderr).toBe(0);
    photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();

    // The admin sets up a live project with three surveys and two missions (manual review).
    expectStatus((await admin.retried('POST', '/api/auth/login', () => ({ email: ADMIN_EMAIL, password: PASSWORD }))).answer, 200);
    const form = async (definition: JsonObject) => {
      const made = (await admin.retried('POST', '/api/admin/forms', () => ({ title: definition.title, definition }))).answer;
      expectStatus(made, 201);
      const id = Number(asObject(made.body).id);
      expectStatus((await admin.retried('POST', `/api/admin/forms/${id}/publish`, () => ({}))).answer, 201);
      return id;
    };
    const textFormId = await form(textForm);
    const photoFormId = await form(photoForm);
    const project = (await admin.retried('POST', '/api/admin/projects', () => ({ name: 'Two processes', status: 'live' }))).answer;
    expectStatus(project, 201);
    projectId = Number(asObject(project.body).id);
    for (const [i, points] of SURVEY_POINTS.entries()) {
      const made = (
        await admin.retried('POST', `/api/admin/projects/${projectId}/surveys`, () => ({
          title: `Survey ${i + 1}`,
          kind: 'native',
          formId: textFormId,
          points,
          status: 'live',
        }))
      ).answer;
      expectStatus(made, 201);
      surveyIds.push(Number(asObject(made.body).id));
    }
    for (const [i, points] of MISSION_POINTS.entries()) {
      const made = (
        await admin.retried('POST', `/api/admin/projects/${projectId}/missions`, () => ({
          title: `Mission ${i + 1}`,
          formId: photoFormId,
          points,
          review: 'manual',
          status: 'live',
        }))
      ).answer;
      expectStatus(made, 201);
      missionIds.push(Number(asObject(made.body).id));
    }
  }, 90_000);

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // Keep cleaning up.
      }
    }
  }, 60_000);

  async function addMembers(group: Participant[]): Promise<void> {
    const { answer } = await admin.retried('POST', `/api/admin/projects/${projectId}/members`, () => ({ emails: group.map((p) => p.email) }), 'add members');
    expectStatus(answer, 200);
    expect(asObject(answer.body).unknown).toEqual([]);
  }

  it('work goes on through nginx while B is killed and restarted: every acknowledged write is there, once', async () => {
    const [s1, s2, s3] = surveyIds as [number, number, number];
    const [m1, m2] = missionIds as [number, number];

    // Before the kill: the first participants register, onboard and sign in through both processes.
    const early = Array.from({ length: EARLY }, (_, i) => newParticipant('early', i + 1));
    await Promise.all(early.map((p) => join(p)));
    await Promise.all(early.map((p) => onboard(p)));
    await addMembers(early);

    // The work of each early participant, and the admin's, run concurrently; B is killed in the middle.
    let acknowledged = 0;
    const ack = () => acknowledged++;
    const submitted: number[] = [];
    let participantsDone = false;
    const work = async (p: Participant) => {
      await saveSurvey(p, s1, { name: `draft of ${p.email}` });
      ack();
      await saveSurvey(p, s1, { name: `final of ${p.email}` });
      ack();
      await submitSurvey(p, s1, { name: `final of ${p.email}` });
      ack();
      submitted.push(await submitEntry(p, m1, await upload(p)));
      ack();
      for (let i = 1; i <= 4; i++) {
        await saveSurvey(p, s2, { name: `draft ${i} of ${p.email}` });
        ack();
      }
      submitted.push(await submitEntry(p, m2, await upload(p)));
      ack();
      await submitSurvey(p, s3, { name: `straight in, ${p.email}` });
      ack();
    };
    const reviewer = async () => {
      let next = 0;
      const pendingAdjustments = early.flatMap((p) => ADJUSTMENTS.map((points, k) => ({ p, points, reference: `adj-${p.email}-${k + 1}` })));
      while (!participantsDone || next < submitted.length || pendingAdjustments.length > 0) {
        const entryId = submitted[next];
        if (entryId !== undefined) {
          next++;
          await approve(entryId);
          ack();
        }
        const adjustment = pendingAdjustments.shift();
        if (adjustment) {
          await adjust(adjustment.p.id, adjustment.points, adjustment.reference);
          ack();
        }
        if (entryId === undefined && !adjustment) await sleep(50);
      }
    };

    let ackedWhileDown = 0;
    const whileDown = Array.from({ length: WHILE_DOWN }, (_, i) => newParticipant('down', i + 1));
    const killer = async () => {
      while (acknowledged < 20) await sleep(20);
      // Not while B runs a job: mail is at least once (docs/decisions/011-job-queue.md), a job
      // killed mid-run waits for its expiry (5 minutes) and may mail again.
      for (let i = 0; i < 100; i++) {
        const [row] = await query<{ n: string }>(`select count(*) as n from ${JOB_SCHEMA}.job where state = 'active'`);
        if (Number(row?.n) === 0) break;
        await sleep(20);
      }
      const killedAt = acknowledged;
      await b().stop('SIGKILL');
      // While B is down: newcomers register (their mail jobs run in A), and the work goes on.
      await Promise.all(whileDown.map((p) => join(p)));
      await Promise.all(whileDown.map((p) => onboardingToken(p.email, 1)));
      while (acknowledged < killedAt + 10 && !participantsDone) await sleep(20);
      ackedWhileDown = acknowledged - killedAt;
      bLives.push(await startServerProcess(envB));
    };

    await Promise.all([Promise.all(early.map((p) => work(p))).then(() => (participantsDone = true)), reviewer(), killer()]);
    expect(bLives).toHaveLength(2);
    expect(ackedWhileDown, 'writes acknowledged while B was down').toBeGreaterThan(0);

    // After the restart, through both: the ones who registered while B was down onboard, more
    // register, and everyone takes part; the admin reviews and adjusts again.
    const late = Array.from({ length: AFTER_RESTART }, (_, i) => newParticipant('late', i + 1));
    // nginx takes a failed process back after fail_timeout (5 s): wait until B answers through it.
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const probe = await admin.once('GET', '/api/auth');
      if ((await servedBy(probe.reqId)) === 'B2') break;
      await sleep(250);
    }
    await Promise.all(late.map((p) => join(p)));
    await Promise.all([...whileDown, ...late].map((p) => onboard(p)));
    await addMembers([...whileDown, ...late]);
    const newcomerEntries = await Promise.all(
      [...whileDown, ...late].map(async (p) => {
        await submitSurvey(p, s1, { name: `late ${p.email}` });
        return submitEntry(p, m1, await upload(p));
      }),
    );
    await Promise.all(newcomerEntries.map((entryId) => approve(entryId)));
    await Promise.all(participants.map((p) => adjust(p.id, LATE_ADJUSTMENT, `adj-${p.email}-late`)));

    // ---- Every acknowledged write is there ----------------------------------------------------
    const responses = await query<{ survey_id: number; user_id: number; status: string; answers: JsonObject; revision: number }>(
      'select survey_id, user_id, status, answers, revision from survey_responses',
    );
    for (const p of participants) {
      for (const [surveyId, state] of p.surveys) {
        const row = responses.find((r) => r.survey_id === surveyId && r.user_id === p.id);
        expect(row, `${p.email}: survey ${surveyId}`).toBeDefined();
        expect(row?.answers).toEqual(state.answers);
        expect(row?.status).toBe(state.submitted ? 'submitted' : 'draft');
        if (!state.submitted) expect(row?.revision).toBe(state.revision);
      }
    }
    expect(responses).toHaveLength(participants.reduce((n, p) => n + p.surveys.size, 0));

    const entries = await query<{ id: number; user_id: number; mission_id: number; status: string; answers: JsonObject; submission_count: number }>(
      'select id, user_id, mission_id, status, answers, submission_count from mission_entries',
    );
    const decisions = await query<{ entry_id: number; n: string }>('select entry_id, count(*) as n from entry_decisions group by entry_id');
    for (const p of participants) {
      for (const [missionId, entryId] of p.entries) {
        const row = entries.find((e) => e.id === entryId);
        expect(row, `${p.email}: entry ${entryId}`).toMatchObject({ user_id: p.id, mission_id: missionId, submission_count: 1 });
        expect(row?.status).toBe(approved.has(entryId) ? 'approved' : 'submitted');
        expect(p.media).toContain((row?.answers.photos as string[] | undefined)?.[0]);
        // One decision each: a retried approval changes nothing.
        expect(Number(decisions.find((d) => d.entry_id === entryId)?.n ?? 0)).toBe(approved.has(entryId) ? 1 : 0);
      }
    }
    // Drafts a lost answer made are reused, never doubled: one entry per participant and mission.
    expect(entries).toHaveLength(participants.reduce((n, p) => n + p.entries.size, 0));

    // Photos: every acknowledged upload has its row and files in the one MEDIA_DIR, and each
    // process serves it (straight to each, and through nginx).
    const mediaRows = await query<{ id: string; owner_id: number; display_key: string; thumbnail_key: string }>(
      'select id, owner_id, display_key, thumbnail_key from media',
    );
    const acknowledgedMedia = participants.flatMap((p) => p.media.map((id) => ({ id, p })));
    for (const { id, p } of acknowledgedMedia) {
      const row = mediaRows.find((m) => m.id === id);
      expect(row?.owner_id, `media ${id}`).toBe(p.id);
      expect(fs.existsSync(path.join(mediaDir, row?.display_key ?? '-'))).toBe(true);
      expect(fs.existsSync(path.join(mediaDir, row?.thumbnail_key ?? '-'))).toBe(true);
    }
    for (const { id, p } of acknowledgedMedia) {
      const bodies: string[] = [];
      for (const base of [a.url, b().url, nginx.url, nginx.url]) {
        const res = await fetch(`${base}/api/media/${id}`, { headers: { Cookie: p.client.cookie } });
        expect(res.status, `${base}/api/media/${id}`).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^image\//);
        bodies.push(Buffer.from(await res.arrayBuffer()).toString('base64'));
      }
      expect(new Set(bodies).size).toBe(1);
    }
    // Uploads whose answer was lost may have landed too (unattached: housekeeping removes them).
    const unacknowledgedMedia = mediaRows.length - acknowledgedMedia.length;
    expect(unacknowledgedMedia).toBeGreaterThanOrEqual(0);

    // ---- No points credited twice ---------------------------------------------------------------
    const ledger = await query<{ user_id: number; source: string; reference: string; points: number; state: string }>(
      'select user_id, source, reference, points, state from points_ledger',
    );
    const keys = ledger.map((row) => `${row.user_id}/${row.source}/${row.reference}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const p of participants) {
      const mine = ledger.filter((row) => row.user_id === p.id);
      const surveysSubmitted = [...p.surveys].filter(([, state]) => state.submitted).map(([surveyId]) => surveyId);
      const expectedSurveyPoints = surveysSubmitted.reduce((sum, surveyId) => sum + (SURVEY_POINTS[surveyIds.indexOf(surveyId)] ?? 0), 0);
      const expectedMissionPoints = [...p.entries].reduce((sum, [missionId]) => sum + (MISSION_POINTS[missionIds.indexOf(missionId)] ?? 0), 0);
      const expectedAdjustments = [...adjustments.values()].filter((adj) => adj.userId === p.id).reduce((sum, adj) => sum + adj.points, 0);
      expect(mine.filter((row) => row.source === 'survey')).toHaveLength(surveysSubmitted.length);
      expect(mine.filter((row) => row.source === 'mission')).toHaveLength(p.entries.size);
      expect(mine.filter((row) => row.source === 'adjustment')).toHaveLength([...adjustments.values()].filter((adj) => adj.userId === p.id).length);
      expect(
        mine.every((row) => row.state === 'available'),
        `${p.email}: ${JSON.stringify(mine)}`,
      ).toBe(true);
      const balance = expectedSurveyPoints + expectedMissionPoints + expectedAdjustments;
      expect(mine.reduce((sum, row) => sum + row.points, 0)).toBe(balance);
      // And as the participant sees it, from either process.
      const points = (await p.client.retried('GET', '/api/account/points')).answer;
      expect(asObject(points.body)).toMatchObject({ balance, pending: 0 });
    }
    // One audit row per adjustment: a retried adjustment neither credits nor audits again.
    const [audited] = await query<{ n: string }>(`select count(*) as n from audit_log where action = 'points.adjust'`);
    expect(Number(audited?.n)).toBe(adjustments.size);

    // ---- Mail: each job ran once, each sent its mail once ------------------------------------
    // Once the queue has settled: every job (mail and periodic alike) completed on its first run,
    // none waiting for a retry, failed, or still held by a process (B's killed life included).
    const settled = Date.now() + 20_000;
    let jobs: { name: string; state: string; retry_count: number; email: string | null }[] = [];
    for (;;) {
      jobs = await query(`select name, state::text as state, retry_count, data->>'email' as email from ${JOB_SCHEMA}.job`);
      if (jobs.every((job) => job.state === 'completed') || Date.now() > settled) break;
      await sleep(200);
    }
    expect(
      jobs.filter((job) => job.state !== 'completed' || job.retry_count !== 0),
      'every job completed on its first run',
    ).toEqual([]);
    for (const p of participants) {
      const registerJobs = jobs.filter((job) => job.name === 'auth.register' && job.email === p.email);
      const mails = registrationMails(p.email);
      // Every acknowledged registration queued a job (a try lost in transit may have queued one more).
      expect(registerJobs.length, p.email).toBeGreaterThanOrEqual(1);
      expect(registerJobs.length, p.email).toBeLessThanOrEqual(p.registerAttempts);
      // One mail per job, none twice.
      expect(mails, p.email).toHaveLength(registerJobs.length);
    }
    expect(received.filter((mail) => !/^Subject: New sign-in/im.test(mail.raw))).toHaveLength(jobs.filter((job) => job.name === 'auth.register').length);
    const messageIds = received.map((mail) => /^Message-ID:\s*(.*)$/im.exec(mail.raw)?.[1]?.trim() ?? mail.raw);
    expect(new Set(messageIds).size).toBe(messageIds.length);

    // Both processes did the work: A, B before it was killed, B after its restart.
    const served = new Set(
      lives()
        .filter(({ server }) => server.output().includes('"reqId":"tp-'))
        .map(({ name }) => name),
    );
    expect([...served].sort()).toEqual(['A', 'B1', 'B2']);
    expect(serverErrors).toEqual([]);
    console.info(
      `two processes: ${acknowledged} writes acknowledged during the work (${ackedWhileDown} while B was down), ` +
        `${transient.length} retried after a transient failure (${transient.map((t) => `${t.label}: ${t.status}`).join('; ')}), ` +
        `${unacknowledgedMedia} unacknowledged upload(s), ${received.length} mails, ${jobs.length} jobs`,
    );
  }, 120_000);

  it('sign-in failures count across both processes', async () => {
    const target = participants[0] as Participant;
    const guesser = new Client('guesser', () => nginx.url);
    const answeredBy = new Set<string | undefined>();
    for (let i = 0; i < RATE_LIMITS.signInFailuresPerEmail.limit; i++) {
      const answer = await guesser.once('POST', '/api/auth/login', { email: target.email, password: `Wrong-guess-${i}` });
      expect(answer.status).toBe(401);
      answeredBy.add(await servedBy(answer.reqId));
    }
    expect([...answeredBy].sort()).toEqual(['A', 'B2']);
    // The next, wherever it lands, is over the limit: even the right password waits.
    for (const base of [nginx.url, a.url, b().url]) {
      const answer = await guesser.once('POST', '/api/auth/login', { email: target.email, password: PASSWORD }, { base });
      expect(answer.status, base).toBe(429);
      expect(errorCode(answer)).toBe('rate_limited');
    }
  });

  it('a disabled account is refused by both processes at once', async () => {
    const target = participants[1] as Participant;
    expectStatus(await target.client.once('GET', '/api/auth'), 200);
    const { answer } = await admin.retried('PATCH', `/api/admin/users/${target.id}`, () => ({ status: 'disabled' }));
    expectStatus(answer, 200);
    // At once, its session is refused by each process (straight to each, and through nginx).
    const bases = [a.url, b().url, a.url, b().url, nginx.url, nginx.url, nginx.url, nginx.url];
    const answers = await Promise.all(bases.map((base) => target.client.once('GET', '/api/auth', undefined, { base })));
    expect(answers.map((x) => x.status)).toEqual(bases.map(() => 401));
    expect(new Set(await Promise.all(answers.map((x) => servedBy(x.reqId))))).toEqual(new Set(['A', 'B2']));
    // Writes too, and signing in again is refused by both.
    const save = await target.client.once('PUT', `/api/surveys/${surveyIds[1]}/response`, { answers: { name: 'after' }, pageId: 'page_1', revision: 99 });
    expect(save.status).toBe(401);
    for (const base of [a.url, b().url]) {
      const login = await new Client('again', () => nginx.url).once('POST', '/api/auth/login', { email: target.email, password: PASSWORD }, { base });
      expect(login.status, base).toBe(403);
      expect(errorCode(login)).toBe('account_disabled');
    }
    expect(serverErrors).toEqual([]);
  });
});
