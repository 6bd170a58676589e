/** The admin users calls' payloads (docs/api.md, "Admin: users and invitations"): browser and server. */
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { ROLES, USER_STATUSES } from '../roles.ts';
import { z } from '../zod.ts';
import { USER_ACTIVE_WINDOWS, USER_LIST_SORTS } from '../users.ts';
import { emailSchema } from './common.ts';
import { filterDaySchema } from './fields.ts';

export { USER_LIST_SORTS, type UserSort } from '../users.ts';

const dateFilter = filterDaySchema.optional();
const idFilter = z.coerce
  .number({ error: 'Must be a positive integer' })
  .int('Must be a positive integer')
  .min(1, 'Must be a positive integer')
  .max(2_147_483_647)
  .optional();

/**
 * `GET /api/admin/users` and `GET /api/admin/users.csv`: the list contract plus `role`, `status`,
 * `projectId` (members of that project), `from` / `to` (sign-up days, inclusive, UTC) and `active`
 * (`7d`, `30d`, `90d`: last active within that many days).
 */
export const userListQuerySchema = listQuerySchema(USER_LIST_SORTS)
  .extend({
    role: z.enum(ROLES, { error: MESSAGES.invalidEnumValue }).optional(),
    status: z.enum(USER_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
    projectId: idFilter,
    from: dateFilter,
    to: dateFilter,
    active: z.enum(USER_ACTIVE_WINDOWS, { error: MESSAGES.invalidEnumValue }).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'Must be on or after the start date' });
export type UserListQuery = z.output<typeof userListQuerySchema>;

/** `PATCH /api/admin/users/{id}`: a new role, a new status (`active` or `disabled`), or both. */
export const userPatchSchema = z
  .strictObject({
    role: z.enum(ROLES, { error: MESSAGES.invalidEnumValue }).optional(),
    status: z.enum(['active', 'disabled'], { error: 'Choose active or disabled' }).optional(),
  })
  .refine((input) => input.role !== undefined || input.status !== undefined, { path: ['role'], message: 'Give a role or a status' });
export type UserPatchInput = z.input<typeof userPatchSchema>;

const nameField = z.string().trim().max(100, MESSAGES.tooLong).optional();

/** `POST /api/admin/invitations`: one person (moderators may invite participants only). */
export const invitationSchema = z.strictObject({
  email: emailSchema,
  firstName: nameField,
  lastName: nameField,
  role: z.enum(ROLES, { error: MESSAGES.invalidEnumValue }).default('participant'),
  projectId: z.number({ error: 'Must be a positive integer' }).int().min(1).max(2_147_483_647).nullish(),
});
export type InvitationInput = z.input<typeof invitationSchema>;

/** `POST /api/admin/invitations/bulk?dryRun=1`: a preview that changes nothing. */
export const bulkInvitationQuerySchema = z.object({
  dryRun: z
    .enum(['0', '1', 'true', 'false'], { error: 'Use 1 or 0' })
    .optional()
    .transform((value) => value === '1' || value === 'true'),
});
