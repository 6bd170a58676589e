import { z } from '../zod.ts';

/** The query of the admin area's paginated lists: `?search=&page=&perPage=` (10 per page by default, docs/product.md §9). */
export const adminListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
});
export type AdminListQuery = z.infer<typeof adminListQuerySchema>;

/** A numeric id in a path (`/api/admin/…/:id`). */
export const idParamSchema = z.object({
  id: z.coerce
    .number({ error: 'Must be a positive integer' })
    .int('Must be a positive integer')
    .min(1, 'Must be a positive integer')
    .max(2_147_483_647, 'Must be a positive integer'),
});
