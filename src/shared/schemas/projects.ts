/** Projects' and members' payloads (zod): the server checks bodies and queries with them, the browser's forms use them. Constants and answer types: `../projects.ts`. */
import { z } from '../zod.ts';
import { listQuerySchema } from '../list.ts';
import { EMAIL_MAX_LENGTH } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { PROGRAMME_LIMITS, PROJECT_STATUSES } from '../projects.ts';
import { dateSchema, enumOf, everyObject, optionalText, requiredText } from './fields.ts';

const L = PROGRAMME_LIMITS;

const projectFields = {
  name: requiredText(L.nameMax),
  client: optionalText(L.clientMax),
  description: optionalText(L.descriptionMax),
  status: enumOf(PROJECT_STATUSES),
  startsAt: dateSchema,
  endsAt: dateSchema,
};

function projectDatesInOrder(value: { startsAt?: string | null; endsAt?: string | null }, ctx: z.RefinementCtx): void {
  if (value.startsAt && value.endsAt && value.endsAt < value.startsAt)
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'Must be on or after the start date' });
}

/** `POST /api/admin/projects`. */
export const projectCreateSchema = z
  .strictObject({
    name: projectFields.name,
    client: projectFields.client.default(''),
    description: projectFields.description.default(''),
    status: projectFields.status.default('draft'),
    startsAt: projectFields.startsAt.default(null),
    endsAt: projectFields.endsAt.default(null),
  })
  .superRefine(projectDatesInOrder, everyObject);
export type ProjectCreateInput = z.input<typeof projectCreateSchema>;

/** `PATCH /api/admin/projects/{id}`: any of the fields. */
export const projectPatchSchema = z.strictObject(projectFields).partial().superRefine(projectDatesInOrder, everyObject);
export type ProjectPatchInput = z.input<typeof projectPatchSchema>;

/** `GET /api/admin/projects?q=&status=&page=&pageSize=&sort=&dir=` (the list contract, `../list.ts`; the first sort key is the default). */
export const PROJECT_LIST_SORTS = ['updated', 'name', 'created'] as const;
export const projectListQuerySchema = listQuerySchema(PROJECT_LIST_SORTS).extend({
  status: enumOf(PROJECT_STATUSES).optional(),
});

/** `POST /api/admin/projects/{id}/members`: addresses as pasted or read from a CSV; unknown ones are listed (and invited with `invite`). */
export const addMembersSchema = z.strictObject({
  emails: z
    .array(z.string().max(EMAIL_MAX_LENGTH, MESSAGES.tooLong), { error: MESSAGES.required })
    .min(1, MESSAGES.required)
    .max(L.membersPerCall, `At most ${L.membersPerCall} addresses at a time`),
  invite: z.boolean().optional(),
});
export type AddMembersInput = z.input<typeof addMembersSchema>;

/** `GET /api/admin/projects/{id}/members?q=&page=&pageSize=&sort=&dir=` (the list contract). */
export const MEMBER_LIST_SORTS = ['added', 'email', 'name'] as const;
export const memberListQuerySchema = listQuerySchema(MEMBER_LIST_SORTS);
