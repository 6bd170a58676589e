import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditLog, projectMembers, rateLimits, users } from '../../src/server/db/schema/index.ts';
import { invitationMailsKey } from '../../src/server/services/invitations.ts';
import { INVITATION_MAIL_LIMIT } from '../../src/shared/invitations.ts';
import type { AdminMissionGroup } from '../../src/shared/mission-groups.ts';
import type { ListPage } from '../../src/shared/list.ts';
import type { AddMembersResult, AdminProject, AdminProjectListItem, ProjectMember } from '../../src/shared/projects.ts';
import { describeEachBackend, type TestContext } from './harness.ts';
import { errorOf, fieldsOf, mailsTo, signedInUser, uniqueEmail, type SignedIn } from './helpers.ts';
import {
  addMember,
  callAs,
  createMission,
  createMissionGroup,
  createProject,
  createSurvey,
  insertEntry,
  okJson,
  participant,
  setUserStatus,
} from './programme-fixtures.ts';

const BASE = '/api/admin/projects';

let tagCounter = 0;
/** A word no other test's names contain, so searches see only this test's projects. */
const uniqueTag = () => `ptag${++tagCounter}x${Date.now().toString(36)}`;

const auditOf = (c: TestContext, targetType: string, id: number) =>
  c.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, String(id))))
    .orderBy(asc(auditLog.id));

describeEachBackend('admin projects API', (ctx) => {
  let moderator: SignedIn;
  let admin: SignedIn;
  beforeAll(async () => {
    moderator = await signedInUser(ctx(), 'moderator');
    admin = await signedInUser(ctx(), 'admin');
  });
  const call = (method: string, path: string, body?: unknown, who: SignedIn | null = moderator) => callAs(ctx(), who)(method, path, body);
  const create = async (body: unknown, who: SignedIn = moderator) => okJson<AdminProject>(await call('POST', BASE, body, who), 201);
  const list = async (query: string) => okJson<ListPage<AdminProjectListItem>>(await call('GET', `${BASE}?${query}`));

  it('every admin programme call is for moderators and admins: 401 anonymous, 403 participants', async () => {
    const project = await createProject(ctx());
    const survey = await createSurvey(ctx(), project.id);
    const mission = await createMission(ctx(), project.id);
    const group = await createMissionGroup(ctx(), project.id, [mission.id]);
    const someone = await participant(ctx());
    await addMember(ctx(), project.id, someone);
    const entry = await insertEntry(ctx(), mission, someone.id);
    const calls: [string, string, unknown?][] = [
      ['GET', BASE],
      ['POST', BASE, { name: 'Nope' }],
      ['GET', `${BASE}/${project.id}`],
      ['PATCH', `${BASE}/${project.id}`, { name: 'Nope' }],
      ['GET', `${BASE}/${project.id}/members`],
      ['POST', `${BASE}/${project.id}/members`, { emails: ['x@example.org'] }],
      ['DELETE', `${BASE}/${project.id}/members/${someone.id}`],
      ['GET', `${BASE}/${project.id}/surveys`],
      ['POST', `${BASE}/${project.id}/surveys`, { title: 'Nope', kind: 'external', externalUrl: 'https://example.org/s' }],
      ['GET', `${BASE}/${project.id}/missions`],
      ['POST', `${BASE}/${project.id}/missions`, { title: 'Nope', formId: mission.formId }],
      ['GET', `${BASE}/${project.id}/mission-groups`],
      ['POST', `${BASE}/${project.id}/mission-groups`, { title: 'Nope', missionIds: [] }],
      ['GET', `/api/admin/surveys/${survey.id}`],
      ['PATCH', `/api/admin/surveys/${survey.id}`, { title: 'Nope' }],
      ['GET', `/api/admin/surveys/${survey.id}/responses`],
      ['GET', `/api/admin/surveys/${survey.id}/responses.csv`],
      ['GET', `/api/admin/surveys/${survey.id}/results`],
      ['GET', `/api/admin/missions/${mission.id}`],
      ['PATCH', `/api/admin/missions/${mission.id}`, { title: 'Nope' }],
      ['GET', `/api/admin/missions/${mission.id}/submissions`],
      ['PATCH', `/api/admin/mission-groups/${group.id}`, { title: 'Nope' }],
      ['DELETE', `/api/admin/mission-groups/${group.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await errorOf(await call(method, path, body, null), 401)).code, `${method} ${path}`).toBe('unauthenticated');
      expect((await errorOf(await call(method, path, body, someone), 403)).code, `${method} ${path}`).toBe('forbidden');
    }
    // Nothing changed through the refused calls.
    const after = await okJson<AdminProject>(await call('GET', `${BASE}/${project.id}`));
    expect(after).toMatchObject({ name: project.name, counts: { members: 1, surveys: 1, missions: 1, missionGroups: 1 } });
    expect((await okJson<{ items: AdminMissionGroup[] }>(await call('GET', `${BASE}/${project.id}/mission-groups`))).items).toMatchObject([
      { id: group.id, title: group.title },
    ]);
    expect(entry.id).toBeGreaterThan(0);

    for (const who of [moderator, admin]) {
      const res = await call('GET', BASE, undefined, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('create a project: defaults, trimmed text, 201 with counts', async () => {
    const project = await create({ name: '  Spring study  ', client: ' Acme ' });
    expect(project).toMatchObject({
      name: 'Spring study',
      client: 'Acme',
      description: '',
      status: 'draft',
      startsAt: null,
      endsAt: null,
      counts: { members: 0, surveys: 0, missions: 0, missionGroups: 0 },
    });
    expect(project.createdAt).toBe(ctx().clock.now().toISOString());
    const full = await create({ name: 'Full', client: 'C', description: 'About', status: 'live', startsAt: '2026-11-01', endsAt: '2026-12-31' }, admin);
    expect(full).toMatchObject({ status: 'live', startsAt: '2026-11-01', endsAt: '2026-12-31', description: 'About' });
    expect(await okJson<AdminProject>(await call('GET', `${BASE}/${full.id}`))).toEqual(full);
  });

  it('check the project payload', async () => {
    expect(await fieldsOf(await call('POST', BASE, {}))).toEqual({ name: ['Required'] });
    expect(await fieldsOf(await call('POST', BASE, { name: '   ' }))).toEqual({ name: ['Required'] });
    expect(await fieldsOf(await call('POST', BASE, { name: 'x'.repeat(201), client: 'y'.repeat(201) }))).toEqual({ name: ['Too long'], client: ['Too long'] });
    expect((await fieldsOf(await call('POST', BASE, { name: 'A', status: 'open' }))).status).toEqual(['Invalid enum value']);
    expect((await fieldsOf(await call('POST', BASE, { name: 'A', startsAt: '2026-12-01', endsAt: '2026-11-01' }))).endsAt).toEqual([
      'Must be on or after the start date',
    ]);
    expect((await fieldsOf(await call('POST', BASE, { name: 'A', startsAt: '1 Dec' }))).startsAt).toEqual(['Enter a date (YYYY-MM-DD)']);
    expect((await fieldsOf(await call('POST', BASE, { name: 'A', owner: 1 }))).owner).toEqual(['Unexpected field']);
    expect(
      (
        await errorOf(
          await ctx().request(BASE, {
            method: 'POST',
            headers: { ...moderator.headers, Origin: 'http://127.0.0.1:4321', 'Content-Type': 'application/json' },
            body: '{',
          }),
          400,
        )
      ).code,
    ).toBe('invalid_json');
  });

  it('get and update a project; unknown or malformed ids are 404', async () => {
    const project = await create({ name: 'Editable', startsAt: '2026-11-01' });
    ctx().clock.advance(60_000);
    const updated = await okJson<AdminProject>(await call('PATCH', `${BASE}/${project.id}`, { name: 'Edited', status: 'live', endsAt: '2026-11-30' }));
    expect(updated).toMatchObject({ name: 'Edited', status: 'live', startsAt: '2026-11-01', endsAt: '2026-11-30', client: '' });
    expect(updated.updatedAt).toBe(ctx().clock.now().toISOString());
    expect(updated.updatedAt).not.toBe(project.updatedAt);
    // The dates are checked against the ones kept.
    expect((await fieldsOf(await call('PATCH', `${BASE}/${project.id}`, { startsAt: '2026-12-15' }))).endsAt).toEqual(['Must be on or after the start date']);
    expect((await fieldsOf(await call('PATCH', `${BASE}/${project.id}`, { name: '' }))).name).toEqual(['Required']);
    expect((await okJson<AdminProject>(await call('PATCH', `${BASE}/${project.id}`, { endsAt: null }))).endsAt).toBeNull();

    for (const path of ['/999999', '/0', '/abc', '/1.5', '/99999999999']) {
      expect((await errorOf(await call('GET', `${BASE}${path}`), 404)).code, path).toBe('not_found');
      expect((await errorOf(await call('PATCH', `${BASE}${path}`, { name: 'X' }), 404)).code, path).toBe('not_found');
    }
    for (const sub of ['members', 'surveys', 'missions', 'mission-groups']) {
      expect((await errorOf(await call('GET', `${BASE}/999999/${sub}`), 404)).code, sub).toBe('not_found');
    }
    expect((await errorOf(await call('POST', `${BASE}/999999/members`, { emails: ['a@example.org'] }), 404)).code).toBe('not_found');
    expect(
      (await errorOf(await call('POST', `${BASE}/999999/surveys`, { title: 'S', kind: 'external', externalUrl: 'https://example.org/s' }), 404)).code,
    ).toBe('not_found');
    expect((await errorOf(await call('POST', `${BASE}/999999/missions`, { title: 'M', formId: 1 }), 404)).code).toBe('not_found');
    expect((await errorOf(await call('POST', `${BASE}/999999/mission-groups`, { title: 'G', missionIds: [] }), 404)).code).toBe('not_found');
  });

  it('list: most recently changed first, 10 a page, search in name and client, archived only when asked for', async () => {
    const tag = uniqueTag();
    const made: AdminProject[] = [];
    for (let i = 0; i < 12; i++) {
      made.push(await create({ name: `${tag} project ${i}` }));
      ctx().clock.advance(1000);
    }
    const byClient = await create({ name: 'Client-named', client: `${tag} client` });
    ctx().clock.advance(1000);
    const archived = await create({ name: `${tag} archived`, status: 'archived' });
    const first = await list(`q=${tag}`);
    expect(first.total).toBe(13);
    expect(first.items).toHaveLength(10);
    expect(first.items[0]?.id).toBe(byClient.id);
    expect(first.items.map((p) => p.id).slice(1)).toEqual(
      made
        .slice(3)
        .reverse()
        .map((p) => p.id),
    );
    const second = await list(`q=${tag}&page=2`);
    expect(second.items.map((p) => p.id)).toEqual(
      made
        .slice(0, 3)
        .reverse()
        .map((p) => p.id),
    );
    expect((await list(`q=${tag}&pageSize=5&page=3`)).items).toHaveLength(3);
    expect(await list(`q=${tag}&pageSize=5&page=3`)).toMatchObject({ total: 13, page: 3, pageSize: 5 });
    expect(await list(`q=${tag}`)).toMatchObject({ page: 1, pageSize: 10 });
    // Sorts: by name (A to Z, any case), by creation (newest first unless `dir=asc`).
    expect((await list(`q=${tag}&sort=name&pageSize=3`)).items.map((p) => p.id)).toEqual([byClient.id, made[0]?.id, made[1]?.id]);
    expect((await list(`q=${tag}&sort=name&dir=desc&pageSize=1`)).items.map((p) => p.id)).toEqual([made[9]?.id]);
    expect((await list(`q=${tag}&sort=created&dir=asc&pageSize=2`)).items.map((p) => p.id)).toEqual([made[0]?.id, made[1]?.id]);
    expect((await list(`q=${tag}&sort=created&pageSize=1`)).items.map((p) => p.id)).toEqual([byClient.id]);
    expect((await list(`q=${tag.toUpperCase()}%20PROJECT%201`)).items.map((p) => p.name).sort()).toEqual([
      `${tag} project 1`,
      `${tag} project 10`,
      `${tag} project 11`,
    ]);
    expect((await list(`q=${tag}&status=archived`)).items.map((p) => p.id)).toEqual([archived.id]);
    expect((await list(`q=${tag}&status=draft`)).total).toBe(13);
    expect((await list(`q=${tag}&status=live`)).total).toBe(0);
    // LIKE wildcards are taken literally.
    expect((await list(`q=${tag}%25`)).total).toBe(0);
    expect((await fieldsOf(await call('GET', `${BASE}?pageSize=101`))).pageSize).toBeTruthy();
    expect(Object.keys(await fieldsOf(await call('GET', `${BASE}?pageSize=0&page=0&sort=members&dir=up`))).sort()).toEqual(['dir', 'page', 'pageSize', 'sort']);
    expect((await fieldsOf(await call('GET', `${BASE}?status=gone`))).status).toEqual(['Invalid enum value']);
  });

  it('counts: members, surveys, missions and mission groups, in the list and on the project', async () => {
    const tag = uniqueTag();
    const project = await create({ name: `${tag} counted` });
    const empty = await create({ name: `${tag} empty` });
    for (let i = 0; i < 3; i++) await addMember(ctx(), project.id, await participant(ctx()));
    await createSurvey(ctx(), project.id);
    await createSurvey(ctx(), project.id, { kind: 'external' });
    const mission = await createMission(ctx(), project.id);
    await createMissionGroup(ctx(), project.id, [mission.id]);
    const items = (await list(`q=${tag}`)).items;
    expect(items.find((p) => p.id === project.id)?.counts).toEqual({ members: 3, surveys: 2, missions: 1, missionGroups: 1 });
    expect(items.find((p) => p.id === empty.id)?.counts).toEqual({ members: 0, surveys: 0, missions: 0, missionGroups: 0 });
    expect((await okJson<AdminProject>(await call('GET', `${BASE}/${project.id}`))).counts).toEqual({ members: 3, surveys: 2, missions: 1, missionGroups: 1 });
  });

  it('members: add by email, normalised, with unknown, invalid, duplicate and already-member addresses listed', async () => {
    const project = await createProject(ctx(), { status: 'draft' });
    const ann = await participant(ctx());
    const bob = await participant(ctx());
    const disabled = await participant(ctx());
    await setUserStatus(ctx(), disabled.id, 'disabled');
    await addMember(ctx(), project.id, bob);
    const unknown = uniqueEmail('nobody');
    const result = await okJson<AddMembersResult>(
      await call('POST', `${BASE}/${project.id}/members`, {
        emails: [
          `  ${ann.email.toUpperCase()} `,
          ann.email,
          bob.email,
          unknown,
          `${unknown.toUpperCase()}`,
          'not-an-email',
          '',
          '   ',
          disabled.email,
          'Also Wrong@',
        ],
      }),
    );
    expect(result).toEqual({ added: [ann.email, disabled.email], alreadyMembers: [bob.email], unknown: [unknown], invalid: ['not-an-email', 'also wrong@'] });
    const members = await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members`));
    expect(members.total).toBe(3);
    expect(members.items.map((m) => m.email).sort()).toEqual([ann.email, bob.email, disabled.email].sort());
    expect(members.items.find((m) => m.userId === disabled.id)).toMatchObject({ status: 'disabled', firstName: 'Robin', lastName: 'Hale' });
    // A disabled member still cannot sign in.
    const signIn = await ctx().json('POST', '/api/auth/login', { email: disabled.email, password: 'Str0ng-password' });
    expect(signIn.status).not.toBe(200);
    // Adding again changes nothing.
    expect(await okJson<AddMembersResult>(await call('POST', `${BASE}/${project.id}/members`, { emails: [ann.email] }))).toEqual({
      added: [],
      alreadyMembers: [ann.email],
      unknown: [],
      invalid: [],
    });
    // Nothing was made for the unknown address.
    expect(await ctx().database.db.select().from(users).where(eq(users.email, unknown))).toEqual([]);

    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/members`, {}))).toEqual({ emails: ['Required'] });
    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/members`, { emails: [] }))).toEqual({ emails: ['Required'] });
    expect((await fieldsOf(await call('POST', `${BASE}/${project.id}/members`, { emails: [`${'a'.repeat(250)}@example.org`] }))).emails).toEqual(['Too long']);
    expect((await fieldsOf(await call('POST', `${BASE}/${project.id}/members`, { emails: ['a@example.org'], invite: 'yes' }))).invite).toBeTruthy();
  });

  it('members: invite unknown addresses, who get an invited account, the onboarding mail and the membership', async () => {
    const project = await createProject(ctx());
    const known = await participant(ctx());
    const newcomer = uniqueEmail('newcomer');
    const result = await okJson<AddMembersResult>(
      await call('POST', `${BASE}/${project.id}/members`, { emails: [known.email, newcomer.toUpperCase(), 'bad@'], invite: true }),
    );
    expect(result).toEqual({ added: [known.email], alreadyMembers: [], unknown: [], invalid: ['bad@'], invited: [newcomer] });
    const [account] = await ctx().database.db.select().from(users).where(eq(users.email, newcomer));
    expect(account).toMatchObject({ status: 'invited', role: 'participant' });
    const memberRows = await ctx()
      .database.db.select()
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, project.id), eq(projectMembers.userId, account?.id ?? 0)));
    expect(memberRows).toHaveLength(1);
    const mails = await mailsTo(ctx(), newcomer);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.links.some((link) => link.startsWith(`${ctx().config.publicUrl}/onboarding/`))).toBe(true);
    // The invitation is audited as `user:invite` does.
    const invites = await ctx()
      .database.db.select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.invite'), eq(auditLog.targetId, String(account?.id))));
    expect(invites).toHaveLength(1);
    expect(invites[0]).toMatchObject({ actorId: moderator.id, via: 'api', after: { email: newcomer, role: 'participant', created: true } });
    // The invited account is now known: adding it again lists it as a member already.
    expect((await okJson<AddMembersResult>(await call('POST', `${BASE}/${project.id}/members`, { emails: [newcomer], invite: true }))).alreadyMembers).toEqual([
      newcomer,
    ]);
    expect(await mailsTo(ctx(), newcomer)).toHaveLength(1);

    // Each invitation mail counts against the inviter's allowance; a paste that would go over it is refused whole.
    const key = invitationMailsKey(moderator.id);
    const [counted] = await ctx().database.db.select().from(rateLimits).where(eq(rateLimits.key, key));
    expect(counted?.count).toBeGreaterThanOrEqual(1);
    await ctx()
      .database.db.update(rateLimits)
      .set({ count: INVITATION_MAIL_LIMIT.mails - 1 })
      .where(eq(rateLimits.key, key));
    const [late1, late2] = [uniqueEmail('late'), uniqueEmail('late')];
    const refused = await call('POST', `${BASE}/${project.id}/members`, { emails: [late1, late2], invite: true });
    expect(await errorOf(refused, 429)).toMatchObject({ code: 'rate_limited', remaining: 1 });
    expect(
      await ctx()
        .database.db.select()
        .from(users)
        .where(inArray(users.email, [late1, late2])),
    ).toEqual([]);
  });

  it('members: list with search and pages; remove (404 when not a member)', async () => {
    const project = await createProject(ctx());
    const people: SignedIn[] = [];
    for (let i = 0; i < 12; i++) {
      const person = await participant(ctx());
      people.push(person);
      await addMember(ctx(), project.id, person);
      ctx().clock.advance(1000);
    }
    const page1 = await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members`));
    expect(page1.total).toBe(12);
    expect(page1.items.map((m) => m.userId)).toEqual(
      people
        .slice(2)
        .reverse()
        .map((p) => p.id),
    );
    expect(page1.items[0]).toEqual({
      userId: people[11]?.id,
      email: people[11]?.email,
      firstName: 'Robin',
      lastName: 'Hale',
      status: 'active',
      addedAt: expect.any(String),
    });
    const page2 = await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members?page=2`));
    expect(page2.items.map((m) => m.userId)).toEqual([people[1]?.id, people[0]?.id]);
    const found = await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members?q=${encodeURIComponent(people[4]?.email ?? '')}`));
    expect(found.items.map((m) => m.userId)).toEqual([people[4]?.id]);
    expect((await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members?q=robin%20hale&pageSize=3`))).total).toBe(12);
    const members = async (query: string) => okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members?${query}`));
    expect(await members('pageSize=5&page=3')).toMatchObject({ total: 12, page: 3, pageSize: 5, items: [{}, {}] });
    expect(await members('')).toMatchObject({ page: 1, pageSize: 10 });
    // Sorts: oldest added first with `dir=asc`; by name (last, then first; ties by id); by email.
    expect((await members('dir=asc&pageSize=2')).items.map((m) => m.userId)).toEqual([people[0]?.id, people[1]?.id]);
    await ctx()
      .database.db.update(users)
      .set({ lastName: 'Abbott' })
      .where(eq(users.id, people[7]?.id ?? 0));
    expect((await members('sort=name&pageSize=3')).items.map((m) => m.userId)).toEqual([people[7]?.id, people[0]?.id, people[1]?.id]);
    expect((await members('sort=name&dir=desc&pageSize=1')).items.map((m) => m.userId)).toEqual([people[11]?.id]);
    await ctx()
      .database.db.update(users)
      .set({ email: uniqueEmail('aaaa') })
      .where(eq(users.id, people[5]?.id ?? 0));
    expect((await members('sort=email&pageSize=1')).items.map((m) => m.userId)).toEqual([people[5]?.id]);
    expect(Object.keys(await fieldsOf(await call('GET', `${BASE}/${project.id}/members?pageSize=101&sort=status`))).sort()).toEqual(['pageSize', 'sort']);

    const gone = people[0];
    if (!gone) throw new Error('no member');
    const res = await call('DELETE', `${BASE}/${project.id}/members/${gone.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await errorOf(await call('DELETE', `${BASE}/${project.id}/members/${gone.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await call('DELETE', `${BASE}/${project.id}/members/abc`), 404)).code).toBe('not_found');
    expect((await errorOf(await call('DELETE', `${BASE}/999999/members/${gone.id}`), 404)).code).toBe('not_found');
    expect((await okJson<ListPage<ProjectMember>>(await call('GET', `${BASE}/${project.id}/members`))).total).toBe(11);
  });

  it('mission groups: create with the project’s missions in order, list, replace the list, delete', async () => {
    const project = await createProject(ctx());
    const other = await createProject(ctx());
    const [m1, m2, m3] = [await createMission(ctx(), project.id), await createMission(ctx(), project.id), await createMission(ctx(), project.id)];
    const foreign = await createMission(ctx(), other.id);
    if (!m1 || !m2 || !m3) throw new Error('missions');
    const group = await okJson<AdminMissionGroup>(
      await call('POST', `${BASE}/${project.id}/mission-groups`, { title: ' Diary week ', missionIds: [m3.id, m1.id], unlock: 'in_order' }),
      201,
    );
    expect(group).toMatchObject({
      projectId: project.id,
      title: 'Diary week',
      description: '',
      missionIds: [m3.id, m1.id],
      unlock: 'in_order',
      unlockOn: 'submitted',
    });

    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'G', missionIds: [m1.id, foreign.id] }))).toEqual({
      missionIds: ['Choose missions of this project'],
    });
    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'G', missionIds: [999999] }))).toEqual({
      missionIds: ['Choose missions of this project'],
    });
    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'G', missionIds: [m1.id, m1.id] }))).toEqual({
      missionIds: ['A mission can be in the list once'],
    });
    expect(await fieldsOf(await call('POST', `${BASE}/${project.id}/mission-groups`, { missionIds: [] }))).toEqual({ title: ['Required'] });
    expect((await fieldsOf(await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'G', missionIds: [], unlock: 'random' }))).unlock).toEqual([
      'Invalid enum value',
    ]);

    const second = await okJson<AdminMissionGroup>(
      await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'Second', description: 'All at once', missionIds: [] }),
      201,
    );
    const listed = await okJson<{ items: AdminMissionGroup[] }>(await call('GET', `${BASE}/${project.id}/mission-groups`));
    expect(listed.items.map((g) => [g.id, g.missionIds])).toEqual([
      [group.id, [m3.id, m1.id]],
      [second.id, []],
    ]);
    expect((await okJson<{ items: AdminMissionGroup[] }>(await call('GET', `${BASE}/${other.id}/mission-groups`))).items).toEqual([]);

    const patched = await okJson<AdminMissionGroup>(
      await call('PATCH', `/api/admin/mission-groups/${group.id}`, { missionIds: [m1.id, m2.id, m3.id], unlockOn: 'approved' }),
    );
    expect(patched).toMatchObject({ title: 'Diary week', missionIds: [m1.id, m2.id, m3.id], unlock: 'in_order', unlockOn: 'approved' });
    expect((await okJson<AdminMissionGroup>(await call('PATCH', `/api/admin/mission-groups/${group.id}`, { missionIds: [m2.id] }))).missionIds).toEqual([
      m2.id,
    ]);
    expect(await fieldsOf(await call('PATCH', `/api/admin/mission-groups/${group.id}`, { missionIds: [foreign.id] }))).toEqual({
      missionIds: ['Choose missions of this project'],
    });
    expect(await fieldsOf(await call('PATCH', `/api/admin/mission-groups/${group.id}`, { title: '' }))).toEqual({ title: ['Required'] });
    expect((await okJson<{ items: AdminMissionGroup[] }>(await call('GET', `${BASE}/${project.id}/mission-groups`))).items[0]?.missionIds).toEqual([m2.id]);
    expect((await errorOf(await call('PATCH', '/api/admin/mission-groups/999999', { title: 'X' }), 404)).code).toBe('not_found');

    const res = await call('DELETE', `/api/admin/mission-groups/${group.id}`);
    expect(res.status).toBe(204);
    expect((await errorOf(await call('DELETE', `/api/admin/mission-groups/${group.id}`), 404)).code).toBe('not_found');
    expect((await errorOf(await call('DELETE', '/api/admin/mission-groups/x'), 404)).code).toBe('not_found');
    expect((await okJson<{ items: AdminMissionGroup[] }>(await call('GET', `${BASE}/${project.id}/mission-groups`))).items.map((g) => g.id)).toEqual([
      second.id,
    ]);
    // The missions stay.
    expect((await call('GET', `/api/admin/missions/${m3.id}`)).status).toBe(200);
  });

  it('every change is audited with small summaries', async () => {
    const project = await create({ name: 'Audited', description: 'd'.repeat(500) }, admin);
    await call('PATCH', `${BASE}/${project.id}`, { status: 'live', client: 'Acme' });
    const someone = await participant(ctx());
    await call('POST', `${BASE}/${project.id}/members`, { emails: [someone.email, 'ghost@example.org'] });
    await call('DELETE', `${BASE}/${project.id}/members/${someone.id}`);
    const rows = await auditOf(ctx(), 'project', project.id);
    expect(rows.map((row) => [row.action, row.actorId, row.via])).toEqual([
      ['project.create', admin.id, 'api'],
      ['project.update', moderator.id, 'api'],
      ['project.members.add', moderator.id, 'api'],
      ['project.members.remove', moderator.id, 'api'],
    ]);
    const [created, updated, added, removed] = rows;
    expect(created?.after).toMatchObject({ name: 'Audited', status: 'draft' });
    expect((created?.after as { description: string }).description.length).toBeLessThan(300);
    expect(updated?.before).toEqual({ client: '', status: 'draft' });
    expect(updated?.after).toEqual({ client: 'Acme', status: 'live' });
    expect(added?.after).toMatchObject({ added: 1, alreadyMembers: 0, unknown: 1, invalid: 0, emails: [someone.email] });
    expect(removed?.before).toEqual({ userId: someone.id, email: someone.email });

    const mission = await createMission(ctx(), project.id);
    const group = await okJson<AdminMissionGroup>(
      await call('POST', `${BASE}/${project.id}/mission-groups`, { title: 'Audited group', missionIds: [mission.id] }),
      201,
    );
    await call('PATCH', `/api/admin/mission-groups/${group.id}`, { title: 'Renamed' });
    await call('DELETE', `/api/admin/mission-groups/${group.id}`);
    const groupRows = await auditOf(ctx(), 'mission_group', group.id);
    expect(groupRows.map((row) => row.action)).toEqual(['mission_group.create', 'mission_group.update', 'mission_group.delete']);
    expect(groupRows[0]?.after).toMatchObject({ projectId: project.id, title: 'Audited group', missionIds: [mission.id] });
    expect(groupRows[1]?.before).toEqual({ title: 'Audited group' });
    expect(groupRows[1]?.after).toEqual({ title: 'Renamed' });
    expect(groupRows[2]?.before).toMatchObject({ title: 'Renamed', missionIds: [mission.id] });
  });
});
