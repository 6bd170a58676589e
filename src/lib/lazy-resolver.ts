/**
 * A react-hook-form resolver for a shared zod schema that loads the schema — and zod with it — on
 * the form's first validation instead of with the page. zod is the largest library our forms use;
 * a page that shows a form now paints and becomes interactive without it, and the visitor's first
 * submit (or blur, once touched) brings it in, once per page load, from the browser's cache.
 *
 *   resolver: lazyZodResolver<LoginInput>(() => import('../shared/schemas/auth.ts').then((m) => m.loginSchema))
 */
import type { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';

type ZodSchema = Parameters<typeof zodResolver>[0];

export function lazyZodResolver<T extends FieldValues>(load: () => Promise<ZodSchema>): Resolver<T> {
  let ready: Promise<Resolver<T>> | null = null;
  return async (values, context, options) => {
    ready ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(([schema, resolvers]) => resolvers.zodResolver(schema) as unknown as Resolver<T>);
    try {
      return await (
        await ready
      )(values, context, options);
    } catch (error) {
      ready = null; // A chunk that failed to load (offline) is tried again at the next validation.
      throw error;
    }
  };
}
