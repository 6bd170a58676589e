import { asc, count, ilike, or } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { ELEVATED_ROLES } from '../../shared/roles.ts';
import type { AppEnv } from '../context.ts';
import { users } from '../db/schema/index.ts';
import { readQuery } from '../http.ts';
import { requireUser } from '../middleware/session.ts';
import { publicUser } from '../services/users.ts';

const listQuery = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
});

/** Escapes LIKE wildcards so a search is taken literally. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** The admin area's user list (moderator and admin only). */
export const adminUserRoutes = new Hono<AppEnv>().use('*', requireUser(ELEVATED_ROLES)).get('/', async (c) => {
  const { search, page, perPage } = readQuery(c, listQuery);
  const pattern = search ? `%${likeLiteral(search)}%` : null;
  const where = pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined;
  const [rows, [total]] = await Promise.all([
    c.var.db.select().from(users).where(where).orderBy(asc(users.id)).limit(perPage).offset((page - 1) * perPage),
    c.var.db.select({ value: count() }).from(users).where(where),
  ]);
  c.header('Cache-Control', 'no-store');
  return c.json({ users: rows.map(publicUser), total: total?.value ?? 0, page, perPage });
});
