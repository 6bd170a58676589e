/** API tokens: the admin calls' payload schemas (browser and server; docs/api.md "API tokens and /api/v1"). */
import { API_TOKEN_LIMITS, API_TOKEN_LIST_SORTS, API_TOKEN_SCOPES, API_TOKEN_STATUSES } from '../api-tokens.ts';
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { z } from '../zod.ts';

const L = API_TOKEN_LIMITS;

/**
 * `POST /api/admin/tokens`: a name, one or more scopes (each once), an optional project limit and
 * how many days it lives (1 to 365, 90 unless given).
 */
export const apiTokenCreateSchema = z.strictObject({
  name: z.string({ error: MESSAGES.required }).trim().min(1, { error: MESSAGES.required, abort: true }).max(L.nameMax, MESSAGES.tooLong),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { error: MESSAGES.invalidEnumValue }), { error: MESSAGES.required })
    .min(1, 'Choose at least one scope')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Name each scope once'),
  projectId: z
    .number({ error: 'Must be a project id' })
    .int('Must be a project id')
    .min(1, 'Must be a project id')
    .max(2_147_483_647, 'Must be a project id')
    .nullish(),
  expiresInDays: z
    .number({ error: 'Enter a number of days' })
    .int('Enter a whole number of days')
    .min(1, 'At least 1 day')
    .max(L.expiresInDaysMax, `At most ${L.expiresInDaysMax} days`)
    .default(L.expiresInDaysDefault),
});
export type ApiTokenCreateInput = z.input<typeof apiTokenCreateSchema>;

/** `GET /api/admin/tokens`: the list contract (`q`: any part of the name or the prefix) and `status`. */
export const apiTokenListQuerySchema = listQuerySchema(API_TOKEN_LIST_SORTS).extend({
  status: z.enum(API_TOKEN_STATUSES, { error: MESSAGES.invalidEnumValue }).optional(),
});
export type ApiTokenListQuery = z.output<typeof apiTokenListQuerySchema>;
