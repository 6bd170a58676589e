/**
 * Project announcements (zod-free: home and the admin project screen import it): what staff write
 * to a project's members, its limits, and what the API answers. Payload schema:
 * `schemas/announcements.ts`; server: `services/announcements.ts`.
 */

export const ANNOUNCEMENT_LIMITS = {
  titleMax: 120,
  /** Markdown source. */
  bodyMax: 5_000,
  /** Announcements one project may send in a day (all staff together). */
  perProjectPerDay: 5,
  /** Announcements one staff member may send in a day (all projects together). */
  perUserPerDay: 20,
  /** How many of the latest announcements home shows… */
  onHome: 3,
  /** …from the last this many days. */
  onHomeDays: 30,
} as const;

export const ANNOUNCEMENT_MESSAGES = {
  /** Pictures uploaded to Fieldwork are only shown to members in mission instructions. */
  noPictures: 'Announcements cannot show pictures: link to them instead',
  notLive: 'Announcements go to the members of a live project: make the project live first',
} as const;

/** An announcement as home shows it (`GET /api/home`, `announcements`). */
export interface HomeAnnouncement {
  id: number;
  projectName: string;
  title: string;
  /** Markdown. */
  body: string;
  createdAt: string;
}

/** An announcement as the admin project screen lists it. */
export interface AdminAnnouncement {
  id: number;
  title: string;
  body: string;
  createdAt: string;
  /** Who wrote it (null once their account is gone). */
  author: { id: number; firstName: string; lastName: string } | null;
}

export interface AdminAnnouncementList {
  items: AdminAnnouncement[];
  /** Members who will receive a new one now (active accounts). */
  recipients: number;
}
