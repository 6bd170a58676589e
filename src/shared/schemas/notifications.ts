/** Notifications: payload schemas (browser and server). */
import { z } from '../zod.ts';

/** `POST /api/account/notifications/read`: the ids read, or none for all. */
export const notificationsReadSchema = z.strictObject({
  ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(500, 'At most 500 at a time').optional(),
});
