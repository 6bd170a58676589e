/** The audit log calls' queries (docs/api.md, "Account security"): browser and server. */
import { AUDIT_LIST_SORTS } from '../audit.ts';
import { listQuerySchema } from '../list.ts';
import { MESSAGES } from '../messages.ts';
import { z } from '../zod.ts';
import { filterDaySchema } from './fields.ts';

const dateFilter = filterDaySchema.optional();
const textFilter = z.string().trim().max(100, MESSAGES.tooLong).optional();

/**
 * `GET /api/admin/audit` and `GET /api/admin/audit/export`: the list contract (`q`: any part of
 * the actor's email or names) plus `actorId`, `action` (exact), `targetType` (exact), `targetId`
 * (exact), `from` / `to` (days, inclusive, UTC). A filter left empty is no filter.
 */
export const auditListQuerySchema = listQuerySchema(AUDIT_LIST_SORTS)
  .extend({
    actorId: z.coerce
      .number({ error: 'Must be a positive integer' })
      .int('Must be a positive integer')
      .min(1, 'Must be a positive integer')
      .max(2_147_483_647, 'Must be a positive integer')
      .optional(),
    action: textFilter,
    targetType: textFilter,
    targetId: textFilter,
    from: dateFilter,
    to: dateFilter,
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, { path: ['to'], message: 'Must be on or after the start date' });
export type AuditListQuery = z.output<typeof auditListQuerySchema>;
