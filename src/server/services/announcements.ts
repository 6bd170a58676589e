/**
 * Project announcements (issue 28 §15): staff write a title and a Markdown text to the members of a
 * live project. The announcement and its `announcement.send` job are written in one transaction
 * (with the audit row); the job tells every active member, a batch at a time: one `announcement`
 * notification each, under the key `announcement:{id}` (`notifications.dedupe_key`, unique per
 * user), and in the same transaction the mail of each member whose preferences allow it. A retried
 * or repeated job skips whoever a committed batch told: nobody gets it twice. Home shows the latest
 * ones of the member's live projects (`services/home.ts`).
 */
import { noticeRow } from './notices.ts';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import { ANNOUNCEMENT_MESSAGES, type AdminAnnouncement, type AdminAnnouncementList } from '../../shared/announcements.ts';
import type { AnnouncementCreateInput } from '../../shared/schemas/announcements.ts';
import type { Config } from '../config.ts';
import { queryRows, type Db } from '../db/index.ts';
import { announcements, projects, users, type Announcement, type Project } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import type { JobSender } from '../jobs/queue.ts';
import { announcementMail, mailLanguageOf, preferencesUrl } from '../mail/templates.ts';
import { withAudit } from './audit.ts';
import { activeMemberBatches, activeMemberCount } from './members.ts';
import type { Clock } from './clock.ts';
import { mailAllowed } from './notifications.ts';

/** Past announcements the admin screen lists. */
const ADMIN_LIST_MAX = 50;

/** The link of an announcement's notification: home, at the announcement. */
export const announcementLink = (id: number): string => `/#announcement-${id}`;

function adminView(row: Announcement, author: AdminAnnouncement['author']): AdminAnnouncement {
  return { id: row.id, title: row.title, body: row.body, createdAt: row.createdAt.toISOString(), author };
}

/** `GET /api/admin/projects/{id}/announcements`: the latest ones, newest first, and who a new one would reach. */
export async function listAnnouncements(db: Db, projectId: number): Promise<AdminAnnouncementList> {
  const rows = await db
    .select({ announcement: announcements, authorId: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(announcements)
    .leftJoin(users, eq(users.id, announcements.createdBy))
    .where(eq(announcements.projectId, projectId))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(ADMIN_LIST_MAX);
  return {
    items: rows.map((row) =>
      adminView(row.announcement, row.authorId === null ? null : { id: row.authorId, firstName: row.firstName ?? '', lastName: row.lastName ?? '' }),
    ),
    recipients: await activeMemberCount(db, projectId),
  };
}

/** 409 `project_not_live` unless the project is live: only a live project's members see what it announces. */
export function requireLiveProject(project: Pick<Project, 'status'>): void {
  if (project.status !== 'live') throw new ApiError(409, 'project_not_live', ANNOUNCEMENT_MESSAGES.notLive);
}

/**
 * `POST /api/admin/projects/{id}/announcements`: records it and queues its sending, with its audit
 * row (`project.announcement`), in one transaction. 409 `project_not_live` unless the project is live.
 */
export async function createAnnouncement(
  db: Db,
  deps: { clock: Clock; jobs: JobSender },
  project: Project,
  input: AnnouncementCreateInput,
  actor: { id: number; firstName: string; lastName: string; ip: string },
): Promise<AdminAnnouncement> {
  requireLiveProject(project);
  const row = await withAudit(
    db,
    async (tx) => {
      const [made] = await tx
        .insert(announcements)
        .values({ projectId: project.id, title: input.title, body: input.body, createdBy: actor.id, createdAt: deps.clock.now() })
        .returning();
      if (!made) throw new Error('insert returned no row');
      await deps.jobs.send('announcement.send', { announcementId: made.id }, { tx });
      return made;
    },
    (made) => ({
      actorId: actor.id,
      via: 'api',
      action: 'project.announcement',
      targetType: 'project',
      targetId: project.id,
      after: { announcementId: made.id, title: made.title },
      ip: actor.ip,
    }),
  );
  return adminView(row, { id: actor.id, firstName: actor.firstName, lastName: actor.lastName });
}

export interface AnnouncementDeps {
  db: Db;
  clock: Clock;
  config: Config;
  jobs: JobSender;
}

/**
 * The `announcement.send` job: a notification and (per preferences) a mail to each active member
 * not told yet, a batch per transaction. Nothing once the project is no longer live.
 */
export async function sendAnnouncement(deps: AnnouncementDeps, announcementId: number): Promise<{ notified: number; mailed: number }> {
  const { db, clock, config, jobs } = deps;
  const done = { notified: 0, mailed: 0 };
  const [row] = await db
    .select({ announcement: announcements, projectName: projects.name, projectStatus: projects.status })
    .from(announcements)
    .innerJoin(projects, eq(projects.id, announcements.projectId))
    .where(eq(announcements.id, announcementId));
  if (!row || row.projectStatus !== 'live') return done;
  const { announcement, projectName } = row;
  const link = announcementLink(announcement.id);
  const notice = noticeRow({ key: 'announcement', project: projectName, title: announcement.title });
  for await (const members of activeMemberBatches(db, announcement.projectId)) {
    await db.transaction(async (tx) => {
      const now = clock.now();
      // Handled by the mail step here and now (`mailed_at`): the sweeps never mail it again.
      const told = await queryRows<{ userId: number }>(
        tx,
        sql`insert into notifications (user_id, kind, text, notice, link, created_at, mailed_at, dedupe_key)
            select u, 'announcement', ${notice.text}, ${JSON.stringify(notice.notice)}::jsonb, ${link}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${`announcement:${announcement.id}`}
            from unnest(${sql.param(members)}::int[]) as t(u)
            on conflict (user_id, dedupe_key) do nothing
            returning user_id as "userId"`,
      );
      done.notified += told.length;
      if (told.length === 0) return;
      const people = await tx
        .select({ email: users.email, firstName: users.firstName, status: users.status, preferences: users.preferences })
        .from(users)
        .where(
          inArray(
            users.id,
            told.map((each) => Number(each.userId)),
          ),
        );
      for (const person of people) {
        if (person.status !== 'active' || !mailAllowed(person.preferences, 'announcement')) continue;
        const message = announcementMail({
          to: person.email,
          language: mailLanguageOf(person.preferences),
          firstName: person.firstName,
          projectName,
          title: announcement.title,
          body: announcement.body,
          url: `${config.publicUrl}${link}`,
          preferencesUrl: preferencesUrl(config.publicUrl),
        });
        await jobs.mail(message, { tx });
        done.mailed++;
      }
    });
  }
  return done;
}
