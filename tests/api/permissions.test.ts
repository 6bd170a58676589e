/**
 * The permissions matrix (`docs/permissions.md`), call by call: every API call of the app as a
 * visitor, a participant, a moderator and an admin, on real objects made by the fixtures. The
 * participant, the moderator and the admin are all members of the project, so the participant
 * calls show the role rules rather than membership (membership has its own suites).
 *
 * A request is chosen so that what the role may do is observable without changing what the next
 * row needs: a body that fails validation (400 proves the call let the role in), or fresh objects
 * made for that one request. The doc and this table are checked against each other, the doc
 * against `docs/api.md`, and the doc against the app's own route table (both ways), so none can
 * drift: a documented call the app does not serve fails, never skips.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import sharp from 'sharp';
import { contactMessages, dataDeletionRequests, media, probes, reasonTemplates, totpFactors } from '../../src/server/db/schema/index.ts';
import { createApp } from '../../src/server/app.ts';
import type { AppDeps } from '../../src/server/context.ts';
import { newMediaId } from '../../src/server/services/media.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { videoKeys } from '../../src/server/services/video.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { freshIp, type SignedIn } from './helpers.ts';
import {
  addMember,
  createMission,
  createMissionGroup,
  createProject,
  createSurvey,
  insertEntry,
  participant,
  publishedForm,
  staff,
  type PublishedForm,
} from './programme-fixtures.ts';
import type { Mission, MissionEntry, MissionGroup, Project, Survey } from '../../src/server/db/schema/index.ts';

const ROLES = ['anonymous', 'participant', 'moderator', 'admin'] as const;
type Role = (typeof ROLES)[number];

/** What one role's request is. */
interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** A multipart body instead of JSON. */
  form?: FormData;
  /** Replaces the role's session cookie (e.g. a session made to be ended). */
  cookie?: string;
  /** More request headers (the tus protocol's). */
  headers?: Record<string, string>;
}

/** The objects every row may use, made once per backend. */
interface World {
  c: TestContext;
  users: Record<Exclude<Role, 'anonymous'>, SignedIn>;
  project: Project;
  form: PublishedForm;
  survey: Survey;
  mission: Mission;
  group: MissionGroup;
  /** The participant's submitted entry and a draft of theirs. */
  entry: MissionEntry;
  draft: MissionEntry;
  /** A probe on the participant's entry. */
  probeId: number;
  /** The participant's photo. */
  photoId: string;
  /** A ready video of the participant's (its MP4 and poster stored). */
  videoId: string;
  contactMessageId: number;
  deletionRequestId: number;
}

type Statuses = [anonymous: number, participant: number, moderator: number, admin: number];

interface Row {
  /** The call as `docs/permissions.md` names it. */
  call: string;
  /** The request of one role (fresh objects are made here when the call would use them up). */
  request: (w: World, role: Role) => Req | Promise<Req>;
  /** The status each role gets, in ROLES order. */
  expect: Statuses;
}

const all = (status: number): Statuses => [status, status, status, status];
/** Signed in: 401 for visitors, `status` for everyone else. */
const signedIn = (status: number): Statuses => [401, status, status, status];
/** Moderators and admins: 401 / 403 / status / status. */
const staffOnly = (status: number): Statuses => [401, 403, status, status];
/** Admins only. */
const adminOnly = (status: number): Statuses => [401, 403, 403, status];

const get = (path: string): Req => ({ method: 'GET', path });
const send = (method: Req['method'], path: string, body: unknown = {}): Req => ({ method, path, body });
const isStaff = (role: Role) => role === 'moderator' || role === 'admin';

async function tinyPng(): Promise<Blob> {
  const bytes = await sharp({ create: { width: 16, height: 12, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .png()
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: 'image/png' });
}

/** Uploads a photo as `who`; its id. */
async function upload(c: TestContext, who: SignedIn): Promise<string> {
  const form = new FormData();
  form.append('file', await tinyPng(), 'photo.png');
  const res = await c.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

/** Starts a resumable upload as `who`; its URL (`/api/uploads/{uploadId}`). */
async function startUpload(c: TestContext, who: SignedIn): Promise<string> {
  const res = await c.request('/api/uploads', {
    method: 'POST',
    headers: { Origin: ORIGIN, ...who.headers, ...TUS, 'Upload-Length': '100', 'Upload-Metadata': `filename ${btoa('a.png')},filetype ${btoa('image/png')}` },
  });
  if (res.status !== 201) throw new Error(`upload not started: ${res.status} ${await res.text()}`);
  return res.headers.get('location') ?? '';
}
const TUS = { 'Tus-Resumable': '1.0.0' };

const P = (w: World) => `/api/admin/projects/${w.project.id}`;
const entryPath = (w: World, entryId: number) => `/api/missions/${w.mission.id}/entries/${entryId}`;

/** Every call of `docs/api.md`, in the doc's order. */
const ROWS: Row[] = [
  // Accounts and the shell
  { call: 'GET /api/health', request: () => get('/api/health'), expect: all(200) },
  { call: 'GET /api/auth', request: () => get('/api/auth'), expect: signedIn(200) },
  { call: 'POST /api/auth/register', request: () => send('POST', '/api/auth/register'), expect: all(400) },
  { call: 'GET /api/tokens/verify', request: () => get('/api/tokens/verify?token=not-a-token&type=onboarding'), expect: all(404) },
  { call: 'POST /api/auth/onboard', request: () => send('POST', '/api/auth/onboard?token=not-a-token'), expect: all(400) },
  { call: 'POST /api/auth/login', request: () => send('POST', '/api/auth/login'), expect: all(400) },
  {
    call: 'POST /api/auth/logout',
    // A session of its own, so the role's own session lives on.
    request: async (w, role) => {
      if (role === 'anonymous') return send('POST', '/api/auth/logout');
      const { token } = await createSession(w.c.database.db, w.c.clock, w.users[role].id);
      return { ...send('POST', '/api/auth/logout'), cookie: `fw_session=${token}` };
    },
    expect: all(200),
  },
  { call: 'POST /api/auth/password/forgot', request: () => send('POST', '/api/auth/password/forgot'), expect: all(400) },
  { call: 'POST /api/auth/password/reset', request: () => send('POST', '/api/auth/password/reset?token=not-a-token'), expect: all(400) },
  // Nobody here has a pending sign-in (a password's first step for an account with a second factor): 401.
  { call: 'POST /api/auth/second-factor', request: () => send('POST', '/api/auth/second-factor', { code: '123456' }), expect: all(401) },
  { call: 'POST /api/auth/reauth', request: () => send('POST', '/api/auth/reauth'), expect: signedIn(400) },
  { call: 'POST /api/auth/passkey/options', request: () => send('POST', '/api/auth/passkey/options'), expect: all(200) },
  { call: 'POST /api/auth/passkey', request: () => send('POST', '/api/auth/passkey'), expect: all(400) },
  // Nobody here has a passkey: 409 `no_passkey` once signed in.
  { call: 'POST /api/auth/reauth/options', request: () => send('POST', '/api/auth/reauth/options'), expect: signedIn(409) },
  { call: 'GET /api/account', request: () => get('/api/account'), expect: signedIn(200) },
  { call: 'PATCH /api/account/profile', request: () => send('PATCH', '/api/account/profile'), expect: signedIn(400) },
  { call: 'PUT /api/account/address', request: () => send('PUT', '/api/account/address'), expect: signedIn(400) },
  { call: 'PATCH /api/account/preferences', request: () => send('PATCH', '/api/account/preferences'), expect: signedIn(400) },
  { call: 'PUT /api/account/language', request: () => send('PUT', '/api/account/language'), expect: signedIn(400) },
  { call: 'POST /api/account/email', request: () => send('POST', '/api/account/email'), expect: signedIn(400) },
  { call: 'POST /api/account/email/confirm', request: () => send('POST', '/api/account/email/confirm?token=not-a-token'), expect: signedIn(404) },
  { call: 'POST /api/account/password', request: () => send('POST', '/api/account/password'), expect: signedIn(400) },
  { call: 'POST /api/account/sessions/revoke-others', request: () => send('POST', '/api/account/sessions/revoke-others'), expect: signedIn(200) },
  // An id nobody's session has: 404 whoever asks (another person's is the same 404: tests/api/sessions-security.test.ts).
  { call: 'DELETE /api/account/sessions/{id}', request: () => send('DELETE', '/api/account/sessions/000000000000'), expect: signedIn(404) },
  { call: 'GET /api/account/security', request: () => get('/api/account/security'), expect: signedIn(200) },
  { call: 'GET /api/account/sign-in-proof', request: () => get('/api/account/sign-in-proof'), expect: signedIn(200) },
  { call: 'POST /api/account/totp', request: () => send('POST', '/api/account/totp'), expect: signedIn(200) },
  { call: 'POST /api/account/totp/confirm', request: () => send('POST', '/api/account/totp/confirm'), expect: signedIn(400) },
  {
    call: 'DELETE /api/account/totp',
    // Without an app (a set-up the row above began is dropped first): 404 once signed in.
    request: async (w, role) => {
      if (role !== 'anonymous') await w.c.database.db.delete(totpFactors).where(eq(totpFactors.userId, w.users[role].id));
      return send('DELETE', '/api/account/totp');
    },
    expect: signedIn(404),
  },
  // Nobody here has a second factor: 409 `no_second_factor` once signed in.
  { call: 'POST /api/account/recovery-codes', request: () => send('POST', '/api/account/recovery-codes'), expect: signedIn(409) },
  { call: 'POST /api/account/passkeys/options', request: () => send('POST', '/api/account/passkeys/options'), expect: signedIn(200) },
  { call: 'POST /api/account/passkeys', request: () => send('POST', '/api/account/passkeys'), expect: signedIn(400) },
  // An id nobody has: 404 whoever asks (another person's passkey is the same 404: tests/api/passkeys.test.ts).
  { call: 'PATCH /api/account/passkeys/{id}', request: () => send('PATCH', '/api/account/passkeys/2147483647', { name: 'Key' }), expect: signedIn(404) },
  { call: 'DELETE /api/account/passkeys/{id}', request: () => send('DELETE', '/api/account/passkeys/2147483647'), expect: signedIn(404) },
  { call: 'GET /api/admin/users', request: () => get('/api/admin/users'), expect: staffOnly(200) },
  { call: 'GET /api/admin/users.csv', request: () => get('/api/admin/users.csv'), expect: staffOnly(200) },
  { call: 'GET /api/admin/users/{id}', request: (w) => get(`/api/admin/users/${w.users.participant.id}`), expect: staffOnly(200) },
  // An empty body: 400 shows the call let the role in, and nobody's role or status changes.
  { call: 'PATCH /api/admin/users/{id}', request: (w) => send('PATCH', `/api/admin/users/${w.users.participant.id}`), expect: adminOnly(400) },
  {
    call: 'POST /api/admin/users/{id}/sessions/end',
    // A fresh participant's sessions, so the world's participant stays signed in.
    request: async (w) => send('POST', `/api/admin/users/${(await participant(w.c)).id}/sessions/end`),
    expect: adminOnly(200),
  },
  {
    call: 'POST /api/admin/users/{id}/second-factors/reset',
    // A fresh participant's, so the world's participant stays signed in.
    request: async (w) => send('POST', `/api/admin/users/${(await participant(w.c)).id}/second-factors/reset`),
    expect: adminOnly(200),
  },
  // The participant's account is active: 409 `not_invited` shows the call let the role in.
  {
    call: 'POST /api/admin/users/{id}/invitation',
    request: (w) => send('POST', `/api/admin/users/${w.users.participant.id}/invitation`),
    expect: staffOnly(409),
  },
  { call: 'POST /api/admin/invitations', request: () => send('POST', '/api/admin/invitations'), expect: staffOnly(400) },
  { call: 'POST /api/admin/invitations/bulk', request: () => send('POST', '/api/admin/invitations/bulk?dryRun=1'), expect: staffOnly(400) },
  {
    call: 'GET /api/admin/tools/export-reviews/projects/{id}/missions',
    request: (w) => get(`/api/admin/tools/export-reviews/projects/${w.project.id}/missions`),
    expect: adminOnly(200),
  },
  { call: 'GET /api/admin/tools/export-reviews/history', request: () => get('/api/admin/tools/export-reviews/history'), expect: adminOnly(200) },
  { call: 'POST /api/admin/tools/export-reviews', request: () => send('POST', '/api/admin/tools/export-reviews'), expect: adminOnly(400) },
  {
    call: 'GET /api/media/{id}/shared',
    // No session needed, and none helps: without a valid signature it is 404 for everyone.
    request: () => get('/api/media/AAAAAAAAAAAAAAAAAAAAAA/shared?variant=display&expires=9999999999&signature=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    expect: all(404),
  },
  { call: 'GET /api/feature-flags', request: () => get('/api/feature-flags?feature=banner'), expect: all(200) },
  { call: 'POST /api/reports', request: () => send('POST', '/api/reports'), expect: all(400) },
  { call: 'POST /api/contact', request: () => send('POST', '/api/contact'), expect: all(400) },
  { call: 'POST /api/data-deletion', request: () => send('POST', '/api/data-deletion'), expect: all(400) },
  { call: 'POST /api/data-deletion/confirm', request: () => send('POST', '/api/data-deletion/confirm?token=not-a-token'), expect: all(404) },
  { call: 'GET /api/admin/flags', request: () => get('/api/admin/flags'), expect: adminOnly(200) },
  { call: 'PUT /api/admin/flags/{key}', request: () => send('PUT', '/api/admin/flags/permissions-check', { value: true }), expect: adminOnly(200) },
  { call: 'DELETE /api/admin/flags/{key}', request: () => send('DELETE', '/api/admin/flags/permissions-check'), expect: adminOnly(200) },
  { call: 'GET /api/admin/reports', request: () => get('/api/admin/reports'), expect: staffOnly(200) },
  { call: 'GET /api/admin/audit', request: () => get('/api/admin/audit'), expect: adminOnly(200) },
  { call: 'GET /api/admin/audit/filters', request: () => get('/api/admin/audit/filters'), expect: adminOnly(200) },
  { call: 'GET /api/admin/audit/export', request: () => get('/api/admin/audit/export?action=none'), expect: adminOnly(200) },
  { call: 'GET /api/admin/dashboard', request: () => get('/api/admin/dashboard'), expect: staffOnly(200) },
  { call: 'GET /api/admin/contact-messages', request: () => get('/api/admin/contact-messages'), expect: staffOnly(200) },
  {
    call: 'PATCH /api/admin/contact-messages/{id}',
    request: (w) => send('PATCH', `/api/admin/contact-messages/${w.contactMessageId}`, { handled: true }),
    expect: staffOnly(200),
  },
  { call: 'GET /api/admin/data-deletion-requests', request: () => get('/api/admin/data-deletion-requests'), expect: adminOnly(200) },
  {
    call: 'PATCH /api/admin/data-deletion-requests/{id}',
    request: (w) => send('PATCH', `/api/admin/data-deletion-requests/${w.deletionRequestId}`, { status: 'not-a-status' }),
    expect: adminOnly(400),
  },

  // Forms
  { call: 'GET /api/admin/forms', request: () => get('/api/admin/forms'), expect: staffOnly(200) },
  { call: 'POST /api/admin/forms', request: () => send('POST', '/api/admin/forms'), expect: staffOnly(400) },
  { call: 'GET /api/admin/forms/{id}', request: (w) => get(`/api/admin/forms/${w.form.id}`), expect: staffOnly(200) },
  { call: 'PUT /api/admin/forms/{id}/draft', request: (w) => send('PUT', `/api/admin/forms/${w.form.id}/draft`), expect: staffOnly(400) },
  {
    call: 'POST /api/admin/forms/{id}/publish',
    request: (w) => send('POST', `/api/admin/forms/${w.form.id}/publish`, { confirmBreaking: 'yes' }),
    expect: staffOnly(400),
  },
  { call: 'GET /api/admin/forms/{id}/changes', request: (w) => get(`/api/admin/forms/${w.form.id}/changes`), expect: staffOnly(200) },
  { call: 'GET /api/admin/forms/{id}/versions/{version}', request: (w) => get(`/api/admin/forms/${w.form.id}/versions/1`), expect: staffOnly(200) },
  { call: 'POST /api/admin/forms/{id}/duplicate', request: (w) => send('POST', `/api/admin/forms/${w.form.id}/duplicate`), expect: staffOnly(201) },
  {
    call: 'DELETE /api/admin/forms/{id}',
    request: async (w, role) => send('DELETE', `/api/admin/forms/${isStaff(role) ? (await publishedForm(w.c)).id : w.form.id}`),
    expect: staffOnly(204),
  },
  { call: 'POST /api/admin/forms/{id}/restore', request: (w) => send('POST', `/api/admin/forms/${w.form.id}/restore`), expect: staffOnly(200) },
  { call: 'GET /api/forms/schema.json', request: () => get('/api/forms/schema.json'), expect: all(200) },

  // Projects, surveys and missions (admin)
  { call: 'GET /api/admin/projects', request: () => get('/api/admin/projects'), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects', request: () => send('POST', '/api/admin/projects'), expect: staffOnly(400) },
  { call: 'GET /api/admin/projects/{id}', request: (w) => get(P(w)), expect: staffOnly(200) },
  { call: 'PATCH /api/admin/projects/{id}', request: (w) => send('PATCH', P(w), { name: '' }), expect: staffOnly(400) },
  { call: 'GET /api/admin/projects/{id}/members', request: (w) => get(`${P(w)}/members`), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects/{id}/members', request: (w) => send('POST', `${P(w)}/members`), expect: staffOnly(400) },
  { call: 'GET /api/admin/projects/{id}/announcements', request: (w) => get(`${P(w)}/announcements`), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects/{id}/announcements', request: (w) => send('POST', `${P(w)}/announcements`), expect: staffOnly(400) },
  {
    call: 'DELETE /api/admin/projects/{id}/members/{userId}',
    request: async (w, role) => {
      let userId = w.users.participant.id;
      if (isStaff(role)) {
        const leaving = await participant(w.c);
        await addMember(w.c, w.project.id, leaving);
        userId = leaving.id;
      }
      return send('DELETE', `${P(w)}/members/${userId}`);
    },
    expect: staffOnly(204),
  },
  { call: 'GET /api/admin/projects/{id}/surveys', request: (w) => get(`${P(w)}/surveys`), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects/{id}/surveys', request: (w) => send('POST', `${P(w)}/surveys`), expect: staffOnly(400) },
  { call: 'GET /api/admin/surveys/{id}', request: (w) => get(`/api/admin/surveys/${w.survey.id}`), expect: staffOnly(200) },
  { call: 'PATCH /api/admin/surveys/{id}', request: (w) => send('PATCH', `/api/admin/surveys/${w.survey.id}`, { title: '' }), expect: staffOnly(400) },
  // A native survey has no webhook: 409 proves the role was let in, and nothing changes.
  {
    call: 'POST /api/admin/surveys/{id}/webhook-secret',
    request: (w) => send('POST', `/api/admin/surveys/${w.survey.id}/webhook-secret`),
    expect: staffOnly(409),
  },
  { call: 'GET /api/admin/surveys/{id}/responses', request: (w) => get(`/api/admin/surveys/${w.survey.id}/responses`), expect: staffOnly(200) },
  { call: 'GET /api/admin/surveys/{id}/responses.csv', request: (w) => get(`/api/admin/surveys/${w.survey.id}/responses.csv`), expect: staffOnly(200) },
  { call: 'GET /api/admin/surveys/{id}/results', request: (w) => get(`/api/admin/surveys/${w.survey.id}/results`), expect: staffOnly(200) },
  { call: 'GET /api/admin/projects/{id}/missions', request: (w) => get(`${P(w)}/missions`), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects/{id}/missions', request: (w) => send('POST', `${P(w)}/missions`), expect: staffOnly(400) },
  { call: 'GET /api/admin/missions/{id}', request: (w) => get(`/api/admin/missions/${w.mission.id}`), expect: staffOnly(200) },
  { call: 'PATCH /api/admin/missions/{id}', request: (w) => send('PATCH', `/api/admin/missions/${w.mission.id}`, { title: '' }), expect: staffOnly(400) },
  {
    call: 'GET /api/admin/missions/{id}/submissions',
    request: (w) => get(`/api/admin/missions/${w.mission.id}/submissions?status=submitted`),
    expect: staffOnly(200),
  },
  { call: 'GET /api/admin/submissions/{id}', request: (w) => get(`/api/admin/submissions/${w.entry.id}`), expect: staffOnly(200) },
  { call: 'GET /api/admin/missions/{id}/entries/export', request: (w) => get(`/api/admin/missions/${w.mission.id}/entries/export`), expect: staffOnly(200) },
  { call: 'GET /api/admin/projects/{id}/entries/export', request: (w) => get(`${P(w)}/entries/export?format=xlsx`), expect: staffOnly(200) },
  { call: 'GET /api/admin/projects/{id}/mission-groups', request: (w) => get(`${P(w)}/mission-groups`), expect: staffOnly(200) },
  { call: 'POST /api/admin/projects/{id}/mission-groups', request: (w) => send('POST', `${P(w)}/mission-groups`), expect: staffOnly(400) },
  {
    call: 'PATCH /api/admin/mission-groups/{id}',
    request: (w) => send('PATCH', `/api/admin/mission-groups/${w.group.id}`, { title: '' }),
    expect: staffOnly(400),
  },
  {
    call: 'DELETE /api/admin/mission-groups/{id}',
    request: async (w, role) =>
      send('DELETE', `/api/admin/mission-groups/${isStaff(role) ? (await createMissionGroup(w.c, w.project.id, [w.mission.id])).id : w.group.id}`),
    expect: staffOnly(204),
  },

  // Uploads
  {
    call: 'POST /api/media',
    request: () => {
      const form = new FormData();
      form.append('caption', 'no file here');
      return { method: 'POST', path: '/api/media', form };
    },
    expect: signedIn(400),
  },
  { call: 'GET /api/media/{id}', request: (w) => get(`/api/media/${w.photoId}`), expect: [404, 200, 200, 200] },
  { call: 'GET /api/media/{id}/thumbnail', request: (w) => get(`/api/media/${w.photoId}/thumbnail`), expect: [404, 200, 200, 200] },
  { call: 'GET /api/media/{id}/video', request: (w) => get(`/api/media/${w.videoId}/video`), expect: [404, 200, 200, 200] },
  { call: 'GET /api/media/{id}/poster', request: (w) => get(`/api/media/${w.videoId}/poster`), expect: [404, 200, 200, 200] },
  {
    call: 'DELETE /api/media/{id}',
    // The participant deletes a photo of their own; staff try the participant's.
    request: async (w, role) => send('DELETE', `/api/media/${role === 'participant' ? await upload(w.c, w.users.participant) : w.photoId}`),
    expect: [401, 204, 404, 404],
  },
  // Resumable uploads (tus): the participant's own upload; staff try the participant's.
  { call: 'POST /api/uploads', request: () => ({ method: 'POST', path: '/api/uploads', headers: { ...TUS, 'Upload-Length': '100' } }), expect: signedIn(400) },
  {
    call: 'PATCH /api/uploads/{uploadId}',
    // Not the tus content type: 400 proves the owner was let in.
    request: async (w) => ({ method: 'PATCH', path: await startUpload(w.c, w.users.participant), headers: { ...TUS, 'Upload-Offset': '0' } }),
    expect: [401, 400, 404, 404],
  },
  {
    call: 'DELETE /api/uploads/{uploadId}',
    request: async (w) => ({ method: 'DELETE', path: await startUpload(w.c, w.users.participant), headers: TUS }),
    expect: [401, 204, 404, 404],
  },
  { call: 'GET /api/uploads/{uploadId}', request: async (w) => get(await startUpload(w.c, w.users.participant)), expect: [401, 200, 404, 404] },
  { call: 'GET /api/admin/gallery', request: () => get('/api/admin/gallery?limit=5'), expect: staffOnly(200) },
  // Alchemer export append: a form without a file is 400 `file_required` for an admin.
  {
    call: 'POST /api/admin/tools/alchemer-export-append/preview',
    request: () => {
      const form = new FormData();
      form.append('note', 'no file here');
      return { method: 'POST', path: '/api/admin/tools/alchemer-export-append/preview', form };
    },
    expect: adminOnly(400),
  },
  {
    call: 'POST /api/admin/tools/alchemer-export-append',
    request: () => {
      const form = new FormData();
      form.append('idColumn', 'URL Variable: pid');
      return { method: 'POST', path: '/api/admin/tools/alchemer-export-append', form };
    },
    expect: adminOnly(400),
  },
  {
    call: 'PATCH /api/admin/media/{id}',
    // The participant's photo, held by their entry (the link a save writes), and a body that fails validation.
    request: async (w) => {
      await w.c.database.db.update(media).set({ projectId: w.project.id, missionId: w.mission.id, entryId: w.entry.id }).where(eq(media.id, w.photoId));
      return send('PATCH', `/api/admin/media/${w.photoId}`, { starred: 'yes' });
    },
    expect: staffOnly(400),
  },
  { call: 'POST /api/admin/media/zip', request: () => send('POST', '/api/admin/media/zip', { ids: [] }), expect: staffOnly(400) },

  // Taking part
  { call: 'GET /api/home', request: () => get('/api/home'), expect: signedIn(200) },
  { call: 'GET /api/surveys/{id}', request: (w) => get(`/api/surveys/${w.survey.id}`), expect: signedIn(200) },
  { call: 'PUT /api/surveys/{id}/response', request: (w) => send('PUT', `/api/surveys/${w.survey.id}/response`), expect: signedIn(400) },
  { call: 'POST /api/surveys/{id}/response/submit', request: (w) => send('POST', `/api/surveys/${w.survey.id}/response/submit`), expect: signedIn(400) },
  { call: 'GET /api/surveys/{id}/start', request: (w) => get(`/api/surveys/${w.survey.id}/start`), expect: all(302) },
  { call: 'GET /api/surveys/return', request: () => get('/api/surveys/return?pid=not-a-reference&status=complete'), expect: all(404) },
  {
    call: 'POST /api/surveys/{id}/webhook',
    // An external survey without a webhook secret: no session lets anyone in.
    request: async (w) =>
      send('POST', `/api/surveys/${(await createSurvey(w.c, w.project.id, { kind: 'external' })).id}/webhook`, { pid: 'not-a-reference', status: 'complete' }),
    expect: all(401),
  },
  { call: 'GET /api/missions/{id}', request: (w) => get(`/api/missions/${w.mission.id}`), expect: signedIn(200) },
  { call: 'POST /api/missions/{id}/entries', request: (w) => send('POST', `/api/missions/${w.mission.id}/entries`, { timeZone: 5 }), expect: signedIn(400) },
  {
    call: 'PUT /api/missions/{id}/entries/{entryId}',
    request: async (w, role) => {
      const draft = role === 'participant' ? await insertEntry(w.c, w.mission, w.users.participant.id, { status: 'draft' }) : w.draft;
      return send('PUT', entryPath(w, draft.id), { answers: { name: 'Edited' } });
    },
    expect: [401, 200, 404, 404],
  },
  {
    call: 'DELETE /api/missions/{id}/entries/{entryId}',
    request: async (w, role) => {
      const draft = role === 'participant' ? await insertEntry(w.c, w.mission, w.users.participant.id, { status: 'draft' }) : w.draft;
      return send('DELETE', entryPath(w, draft.id));
    },
    expect: [401, 204, 404, 404],
  },
  {
    call: 'POST /api/missions/{id}/entries/{entryId}/submit',
    request: async (w, role) => {
      const draft = role === 'participant' ? await insertEntry(w.c, w.mission, w.users.participant.id, { status: 'draft' }) : w.draft;
      return send('POST', `${entryPath(w, draft.id)}/submit`, { answers: { name: 'Done' } });
    },
    expect: [401, 200, 404, 404],
  },
  { call: 'GET /api/mission-groups/{id}', request: (w) => get(`/api/mission-groups/${w.group.id}`), expect: signedIn(200) },

  // Review and points
  {
    call: 'POST /api/admin/submissions/{id}/review',
    request: async (w, role) => {
      const entry = isStaff(role) ? await insertEntry(w.c, w.mission, w.users.participant.id) : w.entry;
      return send('POST', `/api/admin/submissions/${entry.id}/review`, { decision: 'approve' });
    },
    expect: staffOnly(200),
  },
  {
    call: 'POST /api/admin/submissions/review',
    request: (w) => send('POST', '/api/admin/submissions/review', { ids: [w.entry.id], decision: 'approve' }),
    expect: staffOnly(200),
  },
  { call: 'GET /api/admin/submissions', request: () => get('/api/admin/submissions?status=submitted&limit=1'), expect: staffOnly(200) },
  {
    call: 'POST /api/admin/submissions/{id}/probes',
    request: (w) => send('POST', `/api/admin/submissions/${w.entry.id}/probes`, { question: 'Which café?' }),
    expect: staffOnly(201),
  },
  {
    call: 'POST /api/admin/submissions/{id}/notes',
    request: (w) => send('POST', `/api/admin/submissions/${w.entry.id}/notes`, { body: 'Checked' }),
    expect: staffOnly(201),
  },
  { call: 'GET /api/admin/projects/{id}/reason-templates', request: (w) => get(`${P(w)}/reason-templates`), expect: staffOnly(200) },
  {
    call: 'POST /api/admin/projects/{id}/reason-templates',
    request: (w) => send('POST', `${P(w)}/reason-templates`, { kind: 'reject', text: 'Off topic' }),
    expect: staffOnly(201),
  },
  {
    call: 'DELETE /api/admin/projects/{id}/reason-templates/{templateId}',
    request: async (w) => {
      const [row] = await w.c.database.db.insert(reasonTemplates).values({ projectId: w.project.id, kind: 'reject', text: 'To remove' }).returning();
      return send('DELETE', `${P(w)}/reason-templates/${row?.id}`);
    },
    expect: staffOnly(204),
  },
  {
    call: 'POST /api/account/probes/{id}/answer',
    // The participant answers a probe on their entry; staff try the participant's.
    request: async (w, role) => {
      let probeId = w.probeId;
      if (role === 'participant') {
        const [row] = await w.c.database.db.insert(probes).values({ entryId: w.entry.id, question: 'Why?' }).returning();
        probeId = row?.id ?? 0;
      }
      return send('POST', `/api/account/probes/${probeId}/answer`, { answer: 'Because' });
    },
    expect: [401, 200, 404, 404],
  },
  { call: 'GET /api/account/points', request: () => get('/api/account/points'), expect: signedIn(200) },
  { call: 'GET /api/account/mission-history', request: () => get('/api/account/mission-history'), expect: signedIn(200) },
  { call: 'GET /api/account/mission-history/{missionId}', request: (w) => get(`/api/account/mission-history/${w.mission.id}`), expect: [401, 200, 404, 404] },
  {
    call: 'POST /api/admin/users/{id}/points',
    request: (w) => send('POST', `/api/admin/users/${w.users.participant.id}/points`, { points: 5, reason: 'Thanks' }),
    expect: adminOnly(201),
  },
  // Points bulk update: a preview without a file is 400, an unknown batch 404 (after the guard).
  {
    call: 'POST /api/admin/tools/points-bulk-update/preview',
    request: () => send('POST', '/api/admin/tools/points-bulk-update/preview'),
    expect: adminOnly(400),
  },
  {
    call: 'POST /api/admin/tools/points-bulk-update/{batchId}/apply',
    request: () => send('POST', '/api/admin/tools/points-bulk-update/999999999/apply'),
    expect: adminOnly(404),
  },
  { call: 'GET /api/admin/tools/points-bulk-update/batches', request: () => get('/api/admin/tools/points-bulk-update/batches'), expect: adminOnly(200) },
  {
    call: 'GET /api/admin/tools/points-bulk-update/{batchId}/problems.csv',
    request: () => get('/api/admin/tools/points-bulk-update/999999999/problems.csv'),
    expect: adminOnly(404),
  },
  {
    call: 'GET /api/admin/tools/points-bulk-update/{batchId}/rows.csv',
    request: () => get('/api/admin/tools/points-bulk-update/999999999/rows.csv'),
    expect: adminOnly(404),
  },

  // A participant's reward requests (issue 30): participants only (staff have no points to spend).
  { call: 'GET /api/redemptions', request: () => get('/api/redemptions'), expect: [401, 200, 403, 403] },
  { call: 'POST /api/redemptions', request: () => send('POST', '/api/redemptions'), expect: [401, 400, 403, 403] },
  { call: 'GET /api/redemptions/{id}', request: () => get('/api/redemptions/999999999'), expect: [401, 404, 403, 403] },
  { call: 'POST /api/redemptions/{id}/cancel', request: () => send('POST', '/api/redemptions/999999999/cancel'), expect: [401, 404, 403, 403] },

  // The rewards catalogue and settings (issue 30): moderators read, admins change; the catalogue as a participant sees it, any signed-in user.
  { call: 'GET /api/rewards', request: () => get('/api/rewards'), expect: signedIn(200) },
  { call: 'GET /api/admin/rewards', request: () => get('/api/admin/rewards'), expect: staffOnly(200) },
  { call: 'POST /api/admin/rewards', request: () => send('POST', '/api/admin/rewards'), expect: adminOnly(400) },
  { call: 'GET /api/admin/rewards/{id}', request: () => get('/api/admin/rewards/999999999'), expect: staffOnly(404) },
  { call: 'PATCH /api/admin/rewards/{id}', request: () => send('PATCH', '/api/admin/rewards/999999999'), expect: adminOnly(404) },
  { call: 'GET /api/admin/rewards/settings', request: () => get('/api/admin/rewards/settings'), expect: staffOnly(200) },
  { call: 'PUT /api/admin/rewards/settings', request: () => send('PUT', '/api/admin/rewards/settings'), expect: adminOnly(400) },
  { call: 'GET /api/admin/redemptions', request: () => get('/api/admin/redemptions'), expect: staffOnly(200) },
  { call: 'GET /api/admin/redemptions.csv', request: () => get('/api/admin/redemptions.csv'), expect: staffOnly(200) },
  { call: 'POST /api/admin/redemptions/approve', request: () => send('POST', '/api/admin/redemptions/approve'), expect: adminOnly(400) },
  { call: 'POST /api/admin/redemptions/{id}/approve', request: () => send('POST', '/api/admin/redemptions/999999999/approve'), expect: adminOnly(404) },
  { call: 'POST /api/admin/redemptions/{id}/reject', request: () => send('POST', '/api/admin/redemptions/999999999/reject'), expect: adminOnly(404) },
  { call: 'POST /api/admin/redemptions/{id}/deliver', request: () => send('POST', '/api/admin/redemptions/999999999/deliver'), expect: adminOnly(404) },
  // No provider is configured here (a provider's signature: tests/api/reward-provider.test.ts).
  { call: 'POST /api/webhooks/rewards/{provider}', request: () => send('POST', '/api/webhooks/rewards/tremendous'), expect: all(404) },
  { call: 'PUT /api/admin/users/{id}/tax-form', request: (w) => send('PUT', `/api/admin/users/${w.users.participant.id}/tax-form`), expect: adminOnly(400) },

  // Outgoing webhooks (issue 32 §1): admins only.
  { call: 'GET /api/admin/webhooks', request: () => get('/api/admin/webhooks'), expect: adminOnly(200) },
  { call: 'POST /api/admin/webhooks', request: () => send('POST', '/api/admin/webhooks'), expect: adminOnly(400) },
  { call: 'PATCH /api/admin/webhooks/{id}', request: () => send('PATCH', '/api/admin/webhooks/999999999'), expect: adminOnly(404) },
  { call: 'DELETE /api/admin/webhooks/{id}', request: () => send('DELETE', '/api/admin/webhooks/999999999'), expect: adminOnly(404) },
  { call: 'POST /api/admin/webhooks/{id}/rotate-secret', request: () => send('POST', '/api/admin/webhooks/999999999/rotate-secret'), expect: adminOnly(404) },
  { call: 'POST /api/admin/webhooks/{id}/test', request: () => send('POST', '/api/admin/webhooks/999999999/test'), expect: adminOnly(404) },
  { call: 'GET /api/admin/webhooks/{id}/deliveries', request: () => get('/api/admin/webhooks/999999999/deliveries'), expect: adminOnly(404) },
  {
    call: 'POST /api/admin/webhooks/deliveries/{id}/resend',
    request: () => send('POST', '/api/admin/webhooks/deliveries/999999999/resend'),
    expect: adminOnly(404),
  },

  // Notifications (the notifications work adds these calls)
  { call: 'GET /api/account/notifications', request: () => get('/api/account/notifications'), expect: signedIn(200) },
  { call: 'POST /api/account/notifications/read', request: () => send('POST', '/api/account/notifications/read'), expect: signedIn(200) },

  // API tokens (issue 32): admins make them with a session; the token API takes a token alone (a
  // session is 401 for every role: tests/api/api-tokens.test.ts has the scopes); the description is public.
  { call: 'GET /api/admin/tokens', request: () => get('/api/admin/tokens'), expect: adminOnly(200) },
  { call: 'POST /api/admin/tokens', request: () => send('POST', '/api/admin/tokens'), expect: adminOnly(400) },
  { call: 'DELETE /api/admin/tokens/{id}', request: () => send('DELETE', '/api/admin/tokens/999999999'), expect: adminOnly(404) },
  { call: 'GET /api/openapi.json', request: () => get('/api/openapi.json'), expect: all(200) },
  { call: 'GET /api/v1/projects', request: () => get('/api/v1/projects'), expect: all(401) },
  { call: 'GET /api/v1/projects/{id}/participants', request: (w) => get(`/api/v1/projects/${w.project.id}/participants`), expect: all(401) },
  { call: 'GET /api/v1/surveys/{id}/responses', request: (w) => get(`/api/v1/surveys/${w.survey.id}/responses`), expect: all(401) },
  { call: 'GET /api/v1/missions/{id}/entries', request: (w) => get(`/api/v1/missions/${w.mission.id}/entries`), expect: all(401) },
  { call: 'GET /api/v1/participants/{id}/points', request: (w) => get(`/api/v1/participants/${w.users.participant.id}/points`), expect: all(401) },
  {
    call: 'POST /api/v1/participants/{id}/points',
    request: (w) => send('POST', `/api/v1/participants/${w.users.participant.id}/points`, { points: 1, reason: 'x', reference: 'matrix' }),
    expect: all(401),
  },
  { call: 'GET /api/v1/webhooks', request: () => get('/api/v1/webhooks'), expect: all(401) },
  {
    call: 'POST /api/v1/webhooks',
    request: () => send('POST', '/api/v1/webhooks', { url: 'https://example.org/hook', events: ['points.credited'] }),
    expect: all(401),
  },
  { call: 'PATCH /api/v1/webhooks/{id}', request: () => send('PATCH', '/api/v1/webhooks/1', { description: 'x' }), expect: all(401) },
  { call: 'DELETE /api/v1/webhooks/{id}', request: () => send('DELETE', '/api/v1/webhooks/1'), expect: all(401) },
  { call: 'POST /api/v1/webhooks/{id}/rotate-secret', request: () => send('POST', '/api/v1/webhooks/1/rotate-secret'), expect: all(401) },
  { call: 'POST /api/v1/webhooks/{id}/test', request: () => send('POST', '/api/v1/webhooks/1/test'), expect: all(401) },
  { call: 'GET /api/v1/webhooks/{id}/deliveries', request: () => get('/api/v1/webhooks/1/deliveries'), expect: all(401) },
  { call: 'POST /api/v1/webhooks/deliveries/{id}/resend', request: () => send('POST', '/api/v1/webhooks/deliveries/1/resend'), expect: all(401) },
];

// ---------------------------------------------------------------------------------------------
// The docs

// The trailing slash matters: without it `permissions.md` would resolve beside `docs`, not in it.
const DOCS = new URL('../../docs/', import.meta.url);
const CALL = /^(GET|POST|PUT|PATCH|DELETE) \/api\/\S+/;

/** `GET /api/x/:id?q=` and `GET /api/x/{id}` name the same call: query dropped, `:name` → `{name}`. */
function normalise(call: string): string {
  return call
    .replace(/\?.*$/, '')
    .replace(/:([A-Za-z]+)/g, '{$1}')
    .replace(/\{[A-Za-z]+\}/g, '{}');
}

/** The calls in the first cell of the doc's table rows (the first code span starting with a method). */
function callsIn(markdown: string): string[] {
  const out: string[] = [];
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('|')) continue;
    const first = line.split('|')[1] ?? '';
    const code = [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '').find((text) => CALL.test(text));
    if (code) out.push((code.match(CALL)?.[0] ?? code).trim());
  }
  return out;
}

/** `docs/permissions.md`'s matrix: call → the four cells. */
function permissionsTable(): Map<string, string[]> {
  const markdown = fs.readFileSync(new URL('permissions.md', DOCS), 'utf8');
  const table = new Map<string, string[]>();
  for (const line of markdown.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const call = cells[0]?.replace(/`/g, '') ?? '';
    if (CALL.test(call) && cells.length >= 5) table.set(call, cells.slice(1, 5));
  }
  return table;
}

/** A cell's verdict: ✓… lets the role in (any status but 401/403); a number is that status. */
function agrees(cell: string, status: number): boolean {
  if (cell.startsWith('✓')) return status !== 401 && status !== 403;
  const code = Number(cell.match(/^\d{3}/)?.[0]);
  return code === status;
}

/** Every call the app serves: `METHOD /api/…` from the router's table (middleware and the 404 catch-all left out). */
function appCalls(): string[] {
  const app = createApp({} as AppDeps);
  const calls = app.routes
    .filter((route) => HTTP_METHODS.has(route.method) && route.path.startsWith('/api/') && !route.path.includes('*'))
    .map((route) => `${route.method} ${route.path.replace(/\/$/, '')}`);
  return [...new Set(calls)];
}
const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

it('docs/permissions.md and the app hold the same calls: none documented and missing, none served and undocumented', () => {
  const documented = new Set([...permissionsTable().keys()].map(normalise));
  const served = new Set(appCalls().map(normalise));
  expect(served.size).toBeGreaterThan(80);
  // Both directions in one assertion, so a failure names every call out of step at once.
  expect({
    documentedButNotServed: [...documented].filter((call) => !served.has(call)).sort(),
    servedButNotDocumented: [...served].filter((call) => !documented.has(call)).sort(),
  }).toEqual({ documentedButNotServed: [], servedButNotDocumented: [] });
});

it('docs/permissions.md lists every call of docs/api.md and every row of this test, with the same verdicts', () => {
  const table = permissionsTable();
  expect(table.size).toBeGreaterThan(80);
  const documented = new Set([...table.keys()].map(normalise));
  const api = callsIn(fs.readFileSync(new URL('api.md', DOCS), 'utf8'));
  expect(api.length).toBeGreaterThan(80);
  expect(api.map(normalise).filter((call) => !documented.has(call))).toEqual([]);
  expect(ROWS.map((row) => row.call).filter((call) => !table.has(call))).toEqual([]);
  expect([...table.keys()].filter((call) => !ROWS.some((row) => row.call === call))).toEqual([]);
  const disagreements = ROWS.flatMap((row) =>
    ROLES.flatMap((role, i) => {
      const cell = table.get(row.call)?.[i] ?? '';
      return agrees(cell, row.expect[i] ?? 0) ? [] : [`${row.call} as ${role}: doc says "${cell}", test expects ${row.expect[i]}`];
    }),
  );
  expect(disagreements).toEqual([]);
});

// ---------------------------------------------------------------------------------------------
// The calls

describeEachBackend('permissions matrix', (ctx) => {
  let world: World | undefined;

  async function makeWorld(c: TestContext): Promise<World> {
    const users = { participant: await participant(c), moderator: await staff(c, 'moderator'), admin: await staff(c, 'admin') };
    const project = await createProject(c);
    for (const who of Object.values(users)) await addMember(c, project.id, who);
    const form = await publishedForm(c);
    const survey = await createSurvey(c, project.id, { form });
    const mission = await createMission(c, project.id, { form, entries: { min: 1, max: 200 } });
    const group = await createMissionGroup(c, project.id, [mission.id]);
    const entry = await insertEntry(c, mission, users.participant.id, { answers: { name: 'Mine' } });
    const draft = await insertEntry(c, mission, users.participant.id, { status: 'draft' });
    const db = c.database.db;
    const [probe] = await db.insert(probes).values({ entryId: entry.id, question: 'Where?' }).returning();
    const [message] = await db.insert(contactMessages).values({ name: 'Sam', email: 'sam@example.org', message: 'Hello there, a question' }).returning();
    const [deletion] = await db.insert(dataDeletionRequests).values({ email: 'gone@example.org', status: 'pending' }).returning();
    if (!probe || !message || !deletion) throw new Error('fixtures missing');
    const photoId = await upload(c, users.participant);
    const videoId = newMediaId();
    const keys = videoKeys(videoId);
    await c.storage.put(keys.video, new Uint8Array(100), 'video/mp4');
    await c.storage.put(
      keys.poster,
      await sharp({ create: { width: 16, height: 9, channels: 3, background: '#000' } })
        .webp()
        .toBuffer(),
      'image/webp',
    );
    await db.insert(media).values({
      id: videoId,
      ownerId: users.participant.id,
      kind: 'video',
      status: 'ready',
      contentType: 'video/mp4',
      width: 16,
      height: 9,
      bytes: 100,
      uploadedBytes: 100,
      durationMs: 1000,
      displayKey: keys.video,
      thumbnailKey: keys.poster,
      thumbnailWidth: 16,
      thumbnailHeight: 9,
    });
    return {
      c,
      users,
      project,
      form,
      survey,
      mission,
      group,
      entry,
      draft,
      probeId: probe.id,
      photoId,
      videoId,
      contactMessageId: message.id,
      deletionRequestId: deletion.id,
    };
  }

  async function call(w: World, role: Role, req: Req): Promise<Response> {
    const headers: Record<string, string> = { 'X-Forwarded-For': freshIp() };
    const cookie = req.cookie ?? (role === 'anonymous' ? undefined : w.users[role].headers.Cookie);
    if (cookie) headers.Cookie = cookie;
    if (req.method === 'GET') return w.c.request(req.path, { headers });
    if (req.form) return w.c.request(req.path, { method: req.method, headers: { ...headers, Origin: ORIGIN }, body: req.form });
    return w.c.json(req.method, req.path, req.body, { ...headers, ...req.headers });
  }

  for (const row of ROWS) {
    it(row.call, async () => {
      const c = ctx();
      world ??= await makeWorld(c);
      const w = world;
      const seen: string[] = [];
      for (const [i, role] of ROLES.entries()) {
        const res = await call(w, role, await row.request(w, role));
        const text = await res.text();
        // A documented call the app does not serve fails here (it is never skipped).
        if (res.status === 404 && text.includes('No such API endpoint')) expect.fail(`${row.call} is documented but the app does not serve it`);
        seen.push(`${role} ${res.status}${res.status === row.expect[i] ? '' : ` (expected ${row.expect[i]}): ${text.slice(0, 200)}`}`);
      }
      expect(seen).toEqual(ROLES.map((role, i) => `${role} ${row.expect[i]}`));
    });
  }
});
