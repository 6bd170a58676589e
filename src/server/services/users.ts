import { count, eq, ilike, or, sql } from 'drizzle-orm';
import type { ListPage } from '../../shared/list.ts';
import type { Role } from '../../shared/roles.ts';
import type { UserListQuery } from '../../shared/schemas/admin.ts';
import type { Db } from '../db/index.ts';
import { users, type User } from '../db/schema/index.ts';
import { hashPassword } from './passwords.ts';
import { countOf, listOrder, pageOf, paginate } from './list.ts';
import { containsPattern } from './search.ts';

export class UserExistsError extends Error {
  constructor(email: string) {
    super(`A user with the email ${email} already exists.`);
    this.name = 'UserExistsError';
  }
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: number): Promise<User | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Creates an active account with a password (operator CLI, admin tools). */
export async function createActiveUser(db: Db, input: { email: string; password: string; role: Role; firstName: string; lastName: string }): Promise<User> {
  if (await findUserByEmail(db, input.email)) throw new UserExistsError(input.email);
  const now = new Date();
  const [user] = await db
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      passwordHash: await hashPassword(input.password),
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      status: 'active',
      termsAcceptedAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!user) throw new Error('insert returned no row');
  return user;
}

/** The invited account for an email: created when new, else the existing one (role unchanged). */
export async function findOrCreateInvitedUser(
  db: Db,
  input: { email: string; role: Role; firstName?: string; lastName?: string },
): Promise<{ user: User; created: boolean }> {
  const existing = await findUserByEmail(db, input.email);
  if (existing) return { user: existing, created: false };
  const [user] = await db
    .insert(users)
    .values({
      email: input.email.trim().toLowerCase(),
      role: input.role,
      status: 'invited',
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
    })
    .returning();
  if (!user) throw new Error('insert returned no row');
  return { user, created: true };
}

/** What a user looks like to the browser (never the password hash). */
export function publicUser(user: User) {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    status: user.status,
  };
}
export type PublicUser = ReturnType<typeof publicUser>;

/** `GET /api/admin/users`: searched in the email and the names; by id (default), email, name (last, first) or creation. */
export function listUsers(db: Db, query: UserListQuery): Promise<ListPage<PublicUser>> {
  const pattern = query.q ? containsPattern(query.q) : null;
  const where = pattern ? or(ilike(users.email, pattern), ilike(users.firstName, pattern), ilike(users.lastName, pattern)) : undefined;
  const order = listOrder(
    query,
    {
      id: { by: users.id, dir: 'asc' },
      email: { by: sql`lower(${users.email})`, dir: 'asc' },
      name: { by: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`], dir: 'asc' },
      created: { by: users.createdAt, dir: 'desc' },
    },
    users.id,
  );
  return paginate(query, {
    rows: pageOf(
      db
        .select()
        .from(users)
        .where(where)
        .orderBy(...order),
      publicUser,
    ),
    count: () => countOf(db.select({ value: count() }).from(users).where(where)),
  });
}
