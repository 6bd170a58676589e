/** Announcements' payloads (zod). Constants and answer types: `../announcements.ts`. */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { ANNOUNCEMENT_LIMITS, ANNOUNCEMENT_MESSAGES } from '../announcements.ts';

const L = ANNOUNCEMENT_LIMITS;

/** A picture uploaded to Fieldwork (`/api/media/…`): members may not see it outside mission instructions. */
const UPLOADED_PICTURE = /\]\(\s*<?\s*(?:https?:\/\/[^/\s)]+)?\/api\/media\//i;

/** `POST /api/admin/projects/{id}/announcements`: a title and a Markdown text. */
export const announcementCreateSchema = z.strictObject({
  title: z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required }).max(L.titleMax, `At most ${L.titleMax} characters`),
  body: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required })
    .max(L.bodyMax, `At most ${L.bodyMax.toLocaleString('en')} characters`)
    .refine((body) => !UPLOADED_PICTURE.test(body), ANNOUNCEMENT_MESSAGES.noPictures),
});
export type AnnouncementCreateInput = z.infer<typeof announcementCreateSchema>;
