import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../context.ts';
import { validationError } from '../http.ts';

/** Parses the path parameters with a schema; 400 with field errors otherwise. */
export function readParams<T extends z.ZodType>(c: Context<AppEnv>, schema: T): z.infer<T> {
  const result = schema.safeParse(c.req.param());
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/** The signed-in user behind requireUser(); a programming error when missing. */
export function signedInUser<U>(user: U | null): U {
  if (!user) throw new Error('requireUser let an anonymous request through');
  return user;
}
