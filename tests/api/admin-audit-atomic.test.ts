/**
 * An admin change and its audit row stand or fall together: with the audit log refusing every
 * row (a trigger raising an error), each change to a project, its members, a survey, a mission or
 * a mission group is refused and leaves nothing behind.
 */
import { count, eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { auditLog, missionGroups, missions, projectMembers, projects, surveys } from '../../src/server/db/schema/index.ts';
import { describeEachBackend } from './harness.ts';
import { callAs, createMission, createMissionGroup, createProject, createSurvey, participant, publishedForm, staff } from './programme-fixtures.ts';

describeEachBackend('admin changes and their audit rows in one transaction', (ctx) => {
  const countOf = async (table: typeof projects | typeof surveys | typeof missions | typeof missionGroups | typeof projectMembers | typeof auditLog) =>
    (await ctx().database.db.select({ n: count() }).from(table))[0]?.n ?? 0;
  /** How many rows each table the calls could change holds. */
  const counts = async () => ({
    projects: await countOf(projects),
    surveys: await countOf(surveys),
    missions: await countOf(missions),
    groups: await countOf(missionGroups),
    members: await countOf(projectMembers),
    audit: await countOf(auditLog),
  });

  beforeEach(async () => {
    const { db } = ctx().database;
    await db.execute(
      sql.raw(`create or replace function fw_test_audit_down() returns trigger language plpgsql as $$ begin raise exception 'audit log unavailable'; end $$`),
    );
  });
  afterEach(async () => {
    await ctx().database.db.execute(sql.raw('drop trigger if exists fw_test_audit_down on audit_log'));
  });
  const auditDown = () =>
    ctx().database.db.execute(sql.raw('create trigger fw_test_audit_down before insert on audit_log for each row execute function fw_test_audit_down()'));

  it('refuses each change when its audit row cannot be written, and changes nothing', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const as = callAs(c, admin);
    const project = await createProject(c, { name: 'Kept as it is' });
    const survey = await createSurvey(c, project.id, { title: 'Survey as it is' });
    const mission = await createMission(c, project.id, { title: 'Mission as it is' });
    const group = await createMissionGroup(c, project.id, [mission.id], { title: 'Group as it is' });
    const form = await publishedForm(c);
    const person = await participant(c);
    const before = await counts();
    await auditDown();

    const calls: [string, string, unknown][] = [
      ['POST', '/api/admin/projects', { name: 'New project', client: 'Acme' }],
      ['PATCH', `/api/admin/projects/${project.id}`, { name: 'Renamed' }],
      ['POST', `/api/admin/projects/${project.id}/members`, { emails: [person.email] }],
      ['POST', `/api/admin/projects/${project.id}/surveys`, { title: 'New survey', kind: 'native', formId: form.id }],
      ['PATCH', `/api/admin/surveys/${survey.id}`, { title: 'Renamed survey' }],
      ['POST', `/api/admin/projects/${project.id}/missions`, { title: 'New mission', formId: form.id }],
      ['PATCH', `/api/admin/missions/${mission.id}`, { title: 'Renamed mission' }],
      ['POST', `/api/admin/projects/${project.id}/mission-groups`, { title: 'New group', missionIds: [mission.id] }],
      ['PATCH', `/api/admin/mission-groups/${group.id}`, { title: 'Renamed group' }],
      ['DELETE', `/api/admin/mission-groups/${group.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await as(method, path, body);
      expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBe(500);
    }
    expect(await counts()).toEqual(before);
    const db = c.database.db;
    expect((await db.select().from(projects).where(eq(projects.id, project.id)))[0]?.name).toBe('Kept as it is');
    expect((await db.select().from(surveys).where(eq(surveys.id, survey.id)))[0]?.title).toBe('Survey as it is');
    expect((await db.select().from(missions).where(eq(missions.id, mission.id)))[0]?.title).toBe('Mission as it is');
    expect((await db.select().from(missionGroups).where(eq(missionGroups.id, group.id)))[0]?.title).toBe('Group as it is');
  });

  it('removing a member is undone too when its audit row fails', async () => {
    const c = ctx();
    const admin = await staff(c, 'admin');
    const project = await createProject(c);
    const person = await participant(c);
    await c.database.db.insert(projectMembers).values({ projectId: project.id, userId: person.id, addedBy: admin.id });
    await auditDown();
    expect((await callAs(c, admin)('DELETE', `/api/admin/projects/${project.id}/members/${person.id}`)).status).toBe(500);
    expect(await c.database.db.select().from(projectMembers).where(eq(projectMembers.userId, person.id))).toHaveLength(1);
  });
});
