import { CLIENT_REPORT_KINDS } from '../client-reports.ts';
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { z } from '../zod.ts';
import { DATA_DELETION_STATUSES } from './data-deletion.ts';

/**
 * The admin area's lists (docs/product.md §9), each on the one list contract (`../list.ts`):
 * `?q=&page=&pageSize=&sort=&dir=`, 10 per page by default. The first sort key is the default.
 */
// The users list grew its filters: `./users.ts` (re-exported here for the callers of before).
export { USER_LIST_SORTS, userListQuerySchema, type UserListQuery } from './users.ts';

export const CLIENT_REPORT_LIST_SORTS = ['lastSeen', 'firstSeen', 'count'] as const;
/** `kind`: errors by default (actions such as `page_load` only when asked, or `all`). */
export const clientReportListQuerySchema = listQuerySchema(CLIENT_REPORT_LIST_SORTS).extend({
  kind: z.enum(CLIENT_REPORT_KINDS, { error: MESSAGES.invalidEnumValue }).default('error'),
});
export type ClientReportListQuery = z.output<typeof clientReportListQuerySchema>;

export const CONTACT_MESSAGE_LIST_SORTS = ['created', 'name', 'email'] as const;
export const contactMessageListQuerySchema = listQuerySchema(CONTACT_MESSAGE_LIST_SORTS);
export type ContactMessageListQuery = z.output<typeof contactMessageListQuerySchema>;

export const DATA_DELETION_LIST_SORTS = ['created', 'email', 'status'] as const;
export const dataDeletionListQuerySchema = listQuerySchema(DATA_DELETION_LIST_SORTS).extend({
  status: z.enum(DATA_DELETION_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
});
export type DataDeletionListQuery = z.output<typeof dataDeletionListQuerySchema>;
