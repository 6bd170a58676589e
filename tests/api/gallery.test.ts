/**
 * The gallery (`GET /api/admin/gallery`, `PATCH /api/admin/media/{id}`, `POST /api/admin/media/zip`):
 * links written when answers are saved, every filter (the participant as typed too), keyset pages
 * over photos of the same time, a bad cursor, each entry's current version (a replaced photo only
 * behind `replaced=true`, marked, in its own folder of a ZIP), tags and star with the
 * two-moderator conflict and the tag's length, the ZIP's files, who may call.
 */
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { auditLog, media, missionEntries, users } from '../../src/server/db/schema/index.ts';
import { encodeGalleryCursor, GALLERY_MESSAGES, type GalleryItem, type GalleryPage } from '../../src/shared/gallery.ts';
import { galleryQuerySchema } from '../../src/shared/schemas/gallery.ts';
import { queryRows } from '../../src/server/db/index.ts';
import { galleryPageQuery } from '../../src/server/services/gallery.ts';
import type { Mission, Project, Survey } from '../../src/server/db/schema/index.ts';
import { describeEachStore, ORIGIN, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, type SignedIn } from './helpers.ts';
import { addMember, createMission, createProject, createSurvey, member, photoDefinition, publishedForm, staff } from './programme-fixtures.ts';

const DAY = 24 * 3_600_000;

/** The files of a ZIP, read from its central directory (stored entries only: what the gallery writes). */
function unzip(bytes: Uint8Array): { name: string; method: number; data: Uint8Array }[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('no end of central directory');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files: { name: string; method: number; data: Uint8Array }[] = [];
  for (let n = 0; n < count; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error('bad local header');
    const dataAt = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    files.push({ name, method, data: bytes.subarray(dataAt, dataAt + size) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

describeEachStore('gallery', (ctx) => {
  interface World {
    projectA: Project;
    projectB: Project;
    missionA: Mission;
    missionB: Mission;
    survey: Survey;
    alice: SignedIn;
    bob: SignedIn;
    moderator: SignedIn;
    admin: SignedIn;
  }
  let world: World | undefined;

  const get = (path: string, who: SignedIn | null) => ctx().request(path, { headers: who?.headers ?? {} });
  const send = (method: string, path: string, body: unknown, who: SignedIn | null) => ctx().json(method, path, body, who?.headers ?? {});
  async function ok<T>(res: Response, status = 200): Promise<T> {
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }

  let shade = 0;
  /** Uploads a small photo as `who` (each a different colour, so each file differs); its id. */
  async function upload(who: SignedIn): Promise<string> {
    shade = (shade + 37) % 256;
    const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: shade, g: 90, b: 200 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    const res = await ctx().request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
    return (await ok<{ id: string }>(res, 201)).id;
  }

  /** An entry of `who` in `mission` holding `photos` (saved as a draft, then submitted unless `draft`); its id. */
  async function entryWith(mission: Mission, who: SignedIn, photos: string[], draft = false): Promise<number> {
    const { id } = await ok<{ id: number }>(await send('POST', `/api/missions/${mission.id}/entries`, {}, who), 201);
    const path = `/api/missions/${mission.id}/entries/${id}`;
    await ok(await send('PUT', path, { answers: { photos } }, who));
    if (!draft) await ok(await send('POST', `${path}/submit`, { answers: { photos, caption: 'Mine' }, revision: 1 }, who));
    return id;
  }

  async function setup(c: TestContext): Promise<World> {
    const projectA = await createProject(c, { name: 'Kitchens' });
    const projectB = await createProject(c, { name: 'Gardens' });
    const form = await publishedForm(c, photoDefinition());
    const missionA = await createMission(c, projectA.id, { form, title: 'Fridge shelf', entries: { min: 1, max: 50 } });
    const missionB = await createMission(c, projectB.id, { form, title: 'Front door', entries: { min: 1, max: 50 } });
    const survey = await createSurvey(c, projectA.id, { form, title: 'Morning survey' });
    const alice = await member(c, projectA.id);
    const bob = await member(c, projectA.id);
    for (const who of [alice, bob]) await addMember(c, projectB.id, who);
    return { projectA, projectB, missionA, missionB, survey, alice, bob, moderator: await staff(c, 'moderator'), admin: await staff(c, 'admin') };
  }
  const w = async () => (world ??= await setup(ctx()));

  const page = async (query: string, who: SignedIn) => ok<GalleryPage>(await get(`/api/admin/gallery${query}`, who));
  /** Every photo of a query, following the cursor with pages of `limit`. */
  async function all(query: string, who: SignedIn, limit = 100): Promise<GalleryItem[]> {
    const items: GalleryItem[] = [];
    let cursor: string | null = null;
    for (let round = 0; round < 100; round++) {
      const params = new URLSearchParams(query);
      params.set('limit', String(limit));
      if (cursor) params.set('cursor', cursor);
      const result = await page(`?${params.toString()}`, who);
      items.push(...result.items);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return items;
  }

  it('links photos to the entry or response whose answers hold them, in the same save', async () => {
    const { missionA, survey, alice, projectA } = await w();
    const db = ctx().database.db;
    const [a, b, loose] = [await upload(alice), await upload(alice), await upload(alice)];
    const entryId = await entryWith(missionA, alice, [a, b], true);
    const rows = await db.select().from(media).where(eq(media.ownerId, alice.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(a)).toMatchObject({ projectId: projectA.id, missionId: missionA.id, entryId, responseId: null });
    expect(byId.get(b)).toMatchObject({ projectId: projectA.id, missionId: missionA.id, entryId });
    expect(byId.get(loose)).toMatchObject({ projectId: null, entryId: null });

    const s = await upload(alice);
    await ok(await send('PUT', `/api/surveys/${survey.id}/response`, { answers: { photos: [s] }, pageId: null }, alice));
    const [row] = await db.select().from(media).where(eq(media.id, s));
    expect(row).toMatchObject({ projectId: projectA.id, missionId: null, entryId: null });
    expect(row?.responseId).toBeGreaterThan(0);

    // A survey submitted at once (no draft saved first) links its photos too.
    const carol = await member(ctx(), projectA.id);
    const c1 = await upload(carol);
    await ok(await send('POST', `/api/surveys/${survey.id}/response/submit`, { answers: { photos: [c1], caption: 'Hi' } }, carol));
    const [submitted] = await db.select().from(media).where(eq(media.id, c1));
    expect(submitted).toMatchObject({ projectId: projectA.id, entryId: null });
    expect(submitted?.responseId).toBeGreaterThan(0);

    // Someone else's photo id in an answer links nothing (only the owner's own rows are touched).
    const bobs = await upload((await w()).bob);
    await entryWith(missionA, alice, [bobs], true);
    const [stranger] = await db.select().from(media).where(eq(media.id, bobs));
    expect(stranger?.projectId).toBeNull();

    const gallery = await all('', (await w()).moderator);
    const ids = gallery.map((item) => item.id);
    expect(ids).toEqual(expect.arrayContaining([a, b, s]));
    expect(ids).not.toContain(loose);
    expect(ids).not.toContain(bobs);
    const surveyItem = gallery.find((item) => item.id === s);
    expect(surveyItem).toMatchObject({ entryId: null, missionId: null, surveyId: survey.id, sourceTitle: 'Morning survey', entryStatus: null });
    const entryItem = gallery.find((item) => item.id === a);
    expect(entryItem).toMatchObject({
      url: `/api/media/${a}`,
      thumbnailUrl: `/api/media/${a}/thumbnail`,
      tags: [],
      starred: false,
      entryId,
      missionId: missionA.id,
      projectId: projectA.id,
      userId: alice.id,
      sourceTitle: 'Fridge shelf',
      projectName: 'Kitchens',
      entryStatus: 'draft',
      width: 24,
      height: 16,
    });
  });

  it('filters by project, mission, participant, entry state, tag, star and days', async () => {
    const { missionA, missionB, projectA, projectB, alice, bob, moderator } = await w();
    const c = ctx();
    c.clock.advance(3 * DAY);
    const day1 = c.clock.now().toISOString().slice(0, 10);
    const a1 = await upload(alice);
    await entryWith(missionA, alice, [a1]);
    c.clock.advance(DAY);
    const day2 = c.clock.now().toISOString().slice(0, 10);
    const b1 = await upload(bob);
    await entryWith(missionB, bob, [b1]);
    const b2 = await upload(bob);
    await entryWith(missionA, bob, [b2], true);
    c.clock.advance(DAY);

    const ids = async (query: string) => (await all(query, moderator)).map((item) => item.id);
    const newest = await ids('');
    expect(newest.indexOf(b2)).toBeLessThan(newest.indexOf(a1));
    expect(await ids(`?projectId=${projectB.id}`)).toEqual([b1]);
    expect(await ids(`?projectId=${projectA.id}`)).toEqual(expect.arrayContaining([a1, b2]));
    expect(await ids(`?projectId=${projectA.id}`)).not.toContain(b1);
    expect(await ids(`?missionId=${missionB.id}`)).toEqual([b1]);
    expect(await ids(`?userId=${bob.id}&projectId=${projectA.id}`)).toEqual([b2]);
    const submitted = await ids('?state=submitted');
    expect(submitted).toEqual(expect.arrayContaining([a1, b1]));
    expect(submitted).not.toContain(b2);
    const drafts = await all('?state=draft', moderator);
    expect(drafts.map((item) => item.id)).toContain(b2);
    expect(drafts.every((item) => item.entryStatus === 'draft')).toBe(true);
    expect((await ids(`?from=${day2}&to=${day2}`)).sort()).toEqual([b1, b2].sort());
    expect(await ids(`?from=${day1}&to=${day1}`)).toEqual([a1]);
    expect(await ids(`?to=${day1}`)).toContain(a1);
    expect(await ids(`?to=${day1}`)).not.toContain(b1);

    await ok(await send('PATCH', `/api/admin/media/${b1}`, { tags: ['Door '], starred: true }, moderator));
    await ok(await send('PATCH', `/api/admin/media/${a1}`, { tags: ['door', 'blue'] }, moderator));
    expect((await ids('?tag=door')).sort()).toEqual([a1, b1].sort());
    expect(await ids('?tag=DOOR&projectId=' + projectB.id)).toEqual([b1]);
    expect(await ids('?tag=blue')).toEqual([a1]);
    expect(await ids('?starred=true')).toEqual([b1]);
    expect(await ids('?starred=false')).not.toContain(b1);
    expect(await ids('?starred=false')).toContain(a1);
  });

  it('pages with a cursor without repeating or skipping photos of the same time', async () => {
    const { missionA, alice, moderator } = await w();
    ctx().clock.advance(4 * DAY);
    const day = ctx().clock.now().toISOString().slice(0, 10);
    // Seven photos at the very same instant (the clock does not move).
    const photos: string[] = [];
    for (let i = 0; i < 7; i++) photos.push(await upload(alice));
    await entryWith(missionA, alice, photos.slice(0, 3), true);
    await entryWith(missionA, alice, photos.slice(3, 6), true);
    await entryWith(missionA, alice, photos.slice(6), true);
    const query = `?from=${day}&to=${day}`;
    const whole = await all(query, moderator, 100);
    expect(whole.map((item) => item.id).sort()).toEqual([...photos].sort());
    // Same time: newest first means id descending among them.
    expect(whole.map((item) => item.id)).toEqual([...photos].sort().reverse());
    for (const limit of [1, 2, 3]) {
      const paged = await all(query, moderator, limit);
      expect(paged.map((item) => item.id)).toEqual(whole.map((item) => item.id));
    }
    const first = await page(`${query}&limit=2`, moderator);
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = await page(`${query}&limit=7`, moderator);
    expect(last.nextCursor).toBeNull();
    // The default page holds 40.
    expect((await page('', moderator)).items.length).toBeLessThanOrEqual(40);
  });

  it('shows the photos of each entry’s current version; replaced ones only with replaced=true, marked, and in a folder of their own in a ZIP', async () => {
    const { missionA, projectA, moderator, admin } = await w();
    const dana = await member(ctx(), projectA.id);
    const [a, b, c, d, e] = [await upload(dana), await upload(dana), await upload(dana), await upload(dana), await upload(dana)];
    const entryId = await entryWith(missionA, dana, [a, c]);
    const path = `/api/missions/${missionA.id}/entries/${entryId}`;
    const review = async (decision: string) =>
      ok(await send('POST', `/api/admin/submissions/${entryId}/review`, { decision, reason: decision === 'approve' ? undefined : 'Too dark' }, moderator));
    const states = async (query: string) => new Map((await all(`?userId=${dana.id}${query}`, moderator)).map((item) => [item.id, item.versionState]));

    // Changes asked; the participant swaps a for b in the entry, not submitted yet: version 1 (a, c) is still the current one.
    await review('request_changes');
    const [{ revision } = { revision: 0 }] = await ctx()
      .database.db.select({ revision: missionEntries.revision })
      .from(missionEntries)
      .where(eq(missionEntries.id, entryId));
    await ok(await send('PUT', path, { answers: { photos: [b, c], caption: 'Brighter' }, revision }, dana));
    expect(await states('')).toEqual(
      new Map([
        [c, 'current'],
        [a, 'current'],
      ]),
    );
    expect(await states('&replaced=true')).toEqual(new Map([[b, 'unsubmitted']]));

    // Submitted and approved: b and c; a was replaced, shown only when asked for, and marked.
    await ok(await send('POST', `${path}/submit`, {}, dana));
    await review('approve');
    expect(await states('&state=approved')).toEqual(
      new Map([
        [c, 'current'],
        [b, 'current'],
      ]),
    );
    expect(await states(`&missionId=${missionA.id}`)).toEqual(
      new Map([
        [c, 'current'],
        [b, 'current'],
      ]),
    );
    expect(await states('&replaced=true')).toEqual(new Map([[a, 'replaced']]));
    expect(await states('&replaced=true&state=approved')).toEqual(new Map([[a, 'replaced']]));

    // A draft never submitted: its current version is its own answers.
    const draftId = await entryWith(missionA, dana, [d], true);
    await ok(await send('PUT', `/api/missions/${missionA.id}/entries/${draftId}`, { answers: { photos: [e] }, revision: 1 }, dana));
    expect((await states('&state=draft')).get(e)).toBe('current');
    expect((await states('&replaced=true')).get(d)).toBe('replaced');

    // The ZIP of a selection holding a replaced photo puts it in a folder that says so.
    const res = await send('POST', '/api/admin/media/zip', { ids: [b, a] }, admin);
    expect(res.status).toBe(200);
    const prefix = `${projectA.id}-${missionA.id}-${entryId}`;
    expect(unzip(new Uint8Array(await res.arrayBuffer())).map((file) => file.name)).toEqual([`${prefix}-${b}.jpg`, `replaced/${prefix}-${a}.jpg`]);
  });

  it('filters by the participant as typed: part of a name or an email, any case, taken literally', async () => {
    const { missionA, projectA, alice, moderator } = await w();
    const zoe = await member(ctx(), projectA.id);
    await ctx().database.db.update(users).set({ firstName: 'Zuzanna', lastName: 'Quillfeather' }).where(eq(users.id, zoe.id));
    const z1 = await upload(zoe);
    await entryWith(missionA, zoe, [z1]);
    const ids = async (query: string) => (await all(query, moderator)).map((item) => item.id);
    expect(await ids(`?participant=${encodeURIComponent(' zuzanna QUILL ')}`)).toEqual([z1]);
    const local = zoe.email.slice(0, zoe.email.indexOf('@'));
    expect(await ids(`?participant=${encodeURIComponent(local.toUpperCase())}&projectId=${projectA.id}`)).toEqual([z1]);
    expect(await ids(`?participant=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await ids(`?participant=zuzanna&userId=${alice.id}`)).toEqual([]);
    const tooLong = await get(`/api/admin/gallery?participant=${'x'.repeat(201)}`, moderator);
    expect((await fieldsOf(tooLong)).participant).toEqual([GALLERY_MESSAGES.participantTooLong]);
  });

  it('answers 400 for a malformed cursor or limit, never 500', async () => {
    const { moderator } = await w();
    for (const cursor of ['not-a-cursor', '%%%', 'eyJ4IjoxfQ', Buffer.from('2026-01-01T00:00:00Z|').toString('base64url')]) {
      const res = await get(`/api/admin/gallery?cursor=${encodeURIComponent(cursor)}`, moderator);
      expect(res.status, cursor).toBe(400);
      expect((await fieldsOf(res)).cursor?.[0]).toMatch(/cursor/);
    }
    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'state=lost', 'starred=maybe', 'replaced=yes', 'from=2026-13-01', 'projectId=abc']) {
      expect((await get(`/api/admin/gallery?${bad}`, moderator)).status, bad).toBe(400);
    }
  });

  it('tags (normalized) and stars a photo, audited; a stale baseTags is 409 with the current tags', async () => {
    const { missionA, alice, moderator, admin } = await w();
    const photo = await upload(alice);
    await entryWith(missionA, alice, [photo]);
    const path = `/api/admin/media/${photo}`;
    const tagged = await ok<GalleryItem>(await send('PATCH', path, { tags: [' Kitchen ', 'kitchen', 'Red  Shelf', ''], baseTags: [] }, moderator));
    expect(tagged).toMatchObject({ id: photo, tags: ['kitchen', 'red shelf'], starred: false });
    const starred = await ok<GalleryItem>(await send('PATCH', path, { starred: true }, admin));
    expect(starred).toMatchObject({ tags: ['kitchen', 'red shelf'], starred: true });

    // Another moderator's edit based on the old (empty) tags.
    const stale = await send('PATCH', path, { tags: ['blue'], baseTags: [] }, admin);
    const error = await errorOf(stale, 409);
    expect(error).toMatchObject({ code: 'conflict', current: { tags: ['kitchen', 'red shelf'], starred: true } });
    // Based on the current tags (any order, any case), it lands; without baseTags, it replaces.
    expect(
      (await ok<GalleryItem>(await send('PATCH', path, { tags: ['kitchen', 'red shelf', 'blue'], baseTags: ['Red Shelf', 'kitchen'] }, admin))).tags,
    ).toEqual(['kitchen', 'red shelf', 'blue']);
    expect((await ok<GalleryItem>(await send('PATCH', path, { tags: ['one'] }, moderator))).tags).toEqual(['one']);

    const rows = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'media.update'), eq(auditLog.targetId, photo)));
    expect(rows.length).toBe(4);
    expect(rows.some((row) => row.actorId === moderator.id)).toBe(true);

    expect((await send('PATCH', path, {}, moderator)).status).toBe(400);
    expect((await send('PATCH', path, { tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, moderator)).status).toBe(400);
    // The one limit of a tag, with its message on the field (the lightbox's box stops there as one types).
    expect((await fieldsOf(await send('PATCH', path, { tags: ['x'.repeat(41)] }, moderator))).tags).toEqual([GALLERY_MESSAGES.tagTooLong]);
    expect((await ok<GalleryItem>(await send('PATCH', path, { tags: ['x'.repeat(40)] }, moderator))).tags).toEqual(['x'.repeat(40)]);
    expect((await send('PATCH', path, { starred: 'yes' }, moderator)).status).toBe(400);
    // Unknown, and a photo no answer holds: 404.
    expect((await send('PATCH', '/api/admin/media/AAAAAAAAAAAAAAAAAAAAAA', { starred: true }, moderator)).status).toBe(404);
    expect((await send('PATCH', `/api/admin/media/${await upload(alice)}`, { starred: true }, moderator)).status).toBe(404);
  });

  it('streams the selected photos as a ZIP of stored files with their names; unknown ids are 404 first', async () => {
    const { missionA, survey, alice, bob, moderator, projectA } = await w();
    const [p1, p2] = [await upload(alice), await upload(alice)];
    const entryId = await entryWith(missionA, alice, [p1, p2]);
    const s1 = await upload(bob);
    await ok(await send('PUT', `/api/surveys/${survey.id}/response`, { answers: { photos: [s1] }, pageId: null }, bob));
    const [surveyRow] = await ctx().database.db.select().from(media).where(eq(media.id, s1));

    const res = await send('POST', '/api/admin/media/zip', { ids: [p1, s1, p2, p1] }, moderator);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="fieldwork-photos-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = unzip(new Uint8Array(await res.arrayBuffer()));
    expect(files.map((file) => file.name)).toEqual([
      `${projectA.id}-${missionA.id}-${entryId}-${p1}.jpg`,
      `${projectA.id}-survey${survey.id}-${surveyRow?.responseId}-${s1}.jpg`,
      `${projectA.id}-${missionA.id}-${entryId}-${p2}.jpg`,
    ]);
    for (const [file, id] of files.map((f, i) => [f, [p1, s1, p2][i]] as const)) {
      expect(file.method).toBe(0);
      const stored = await ctx().storage.get(`${id}/display.jpg`);
      expect(Buffer.from(file.data).equals(Buffer.from(stored?.body ?? []))).toBe(true);
    }
    const [audited] = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'media.zip'), eq(auditLog.actorId, moderator.id)));
    expect(audited?.after).toEqual({ ids: [p1, s1, p2] });

    // A plain form post (the screen's download) works the same, from our own origin only.
    const form = await ctx().request('/api/admin/media/zip', {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'application/x-www-form-urlencoded', ...moderator.headers },
      body: new URLSearchParams([
        ['ids', p2],
        ['ids', p1],
      ]).toString(),
    });
    expect(form.status).toBe(200);
    const posted = unzip(new Uint8Array(await form.arrayBuffer())).map((file) => file.name);
    expect(posted).toHaveLength(2);
    expect(posted[0]?.endsWith(`-${p2}.jpg`)).toBe(true);
    expect(posted[1]?.endsWith(`-${p1}.jpg`)).toBe(true);
    const foreign = await ctx().request('/api/admin/media/zip', {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded', ...moderator.headers },
      body: `ids=${p1}`,
    });
    expect(foreign.status).toBe(403);

    expect((await send('POST', '/api/admin/media/zip', { ids: [p1, 'AAAAAAAAAAAAAAAAAAAAAA'] }, moderator)).status).toBe(404);
    expect((await send('POST', '/api/admin/media/zip', { ids: [await upload(alice)] }, moderator)).status).toBe(404);
    expect((await send('POST', '/api/admin/media/zip', { ids: [] }, moderator)).status).toBe(400);
    expect((await send('POST', '/api/admin/media/zip', { ids: ['../etc/passwd'] }, moderator)).status).toBe(400);
    expect((await send('POST', '/api/admin/media/zip', { ids: Array.from({ length: 201 }, () => p1) }, moderator)).status).toBe(400);
  });

  it('reads a page through the gallery indexes, never the whole table (EXPLAIN over 20,000 photos)', async () => {
    const { projectA, alice } = await w();
    const db = ctx().database.db;
    await db.execute(sql`
      insert into media (id, owner_id, content_type, width, height, bytes, uploaded_bytes, display_key, thumbnail_key, thumbnail_width, thumbnail_height, created_at, project_id, starred, tags)
      select 'seed' || lpad(g::text, 18, '0'), ${alice.id}, 'image/jpeg', 10, 10, 1, 1, 'seed/' || g || '.jpg', 'seed/' || g || '.webp', 10, 10,
        timestamptz '2020-01-01' + g * interval '1 minute', case when g % 10 = 0 then null else ${projectA.id}::int end, g % 97 = 0,
        case when g % 50 = 0 then array['seeded']::text[] else '{}'::text[] end
      from generate_series(1, 20000) g`);
    await db.execute(sql`analyze media`);
    const plan = async (query: Record<string, string>) => {
      const parsed = galleryQuerySchema.parse(query);
      const rows = await queryRows<Record<string, string>>(db, sql`explain ${galleryPageQuery(db, parsed).getSQL()}`);
      return rows.map((row) => Object.values(row)[0]).join('\n');
    };
    const first = await plan({});
    expect(first, first).toMatch(/Index Scan (Backward )?using media_gallery_idx on media/);
    expect(first, first).not.toMatch(/Seq Scan on media|Sort/);
    const cursor = encodeGalleryCursor({ createdAt: '2020-01-10T00:00:00.000000Z', id: 'seed000000000000012960' });
    const deep = await plan({ cursor });
    expect(deep, deep).toMatch(/Index Cond: \(ROW\((media\.)?created_at, (media\.)?id\) < ROW/);
    expect(deep, deep).not.toMatch(/Seq Scan on media/);
    const project = await plan({ projectId: String(projectA.id) });
    expect(project, project).toMatch(/Index Scan (Backward )?using media_gallery_(project_)?idx on media/);
    expect(project, project).not.toMatch(/Seq Scan on media|Sort/);
    const starred = await plan({ starred: 'true' });
    expect(starred, starred).not.toMatch(/Seq Scan on media/);
    // The version rule is checked on the rows the same index scan reads; the typed participant through the people found.
    const replaced = await plan({ replaced: 'true' });
    expect(replaced, replaced).toMatch(/Index Scan (Backward )?using media_gallery_idx on media/);
    expect(replaced, replaced).not.toMatch(/Seq Scan on media|Sort/);
    const typed = await plan({ participant: 'quillfeather' });
    expect(typed, typed).not.toMatch(/Seq Scan on media/);
    // Clean up: the seeded rows would crowd the other tests' pages.
    await db.execute(sql`delete from media where id like 'seed%'`);
  });

  it('stops making the ZIP when the reader goes away, quietly', async () => {
    const { missionA, alice, moderator } = await w();
    const photos = [await upload(alice), await upload(alice), await upload(alice)];
    await entryWith(missionA, alice, photos);
    const res = await send('POST', '/api/admin/media/zip', { ids: photos }, moderator);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBeGreaterThan(0);
    await reader?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ctx().logs.filter((line) => line.includes('gallery zip'))).toEqual([]);
  });

  it('is for moderators and admins: 401 without a session, 403 for participants', async () => {
    const { missionA, alice, moderator, admin } = await w();
    const photo = await upload(alice);
    await entryWith(missionA, alice, [photo]);
    const calls: [string, string, unknown][] = [
      ['GET', '/api/admin/gallery', undefined],
      ['PATCH', `/api/admin/media/${photo}`, { starred: true }],
      ['POST', '/api/admin/media/zip', { ids: [photo] }],
    ];
    for (const [method, path, body] of calls) {
      const as = (who: SignedIn | null) => (method === 'GET' ? get(path, who) : send(method, path, body, who));
      expect((await as(null)).status, `${method} ${path} anonymous`).toBe(401);
      expect((await as(alice)).status, `${method} ${path} participant`).toBe(403);
      expect((await as(moderator)).status, `${method} ${path} moderator`).toBe(200);
      expect((await as(admin)).status, `${method} ${path} admin`).toBe(200);
    }
    // A participant gets 403 even for an unknown photo (the role is checked first).
    expect((await send('PATCH', '/api/admin/media/AAAAAAAAAAAAAAAAAAAAAA', { starred: true }, alice)).status).toBe(403);
  });
});
