/**
 * A react-hook-form resolver for a shared zod schema that loads the schema — and zod with it — on
 * the form's first validation instead of with the page. zod is the largest library our forms use;
 * a page that shows a form now paints and becomes interactive without it, and the visitor's first
 * submit (or blur, once touched) brings it in, once per page load, from the browser's cache.
 *
 *   resolver: lazyZodResolver<LoginInput>(() => import('../shared/schemas/auth.ts').then((m) => m.loginSchema))
 *
 * The schemas' messages are English (they are the API's too); the errors the form gets are in the
 * page's language (translateValidation, as form-errors.ts does for the API's).
 */
import type { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { translateValidation } from '../shared/validation-words.ts';

type ZodSchema = Parameters<typeof zodResolver>[0];

/** A resolver's errors (nested by field, arrays for field arrays) with every `message` translated; `ref` (an element) is left alone. */
function translateErrors(errors: unknown): unknown {
  if (Array.isArray(errors)) {
    // A field array's errors: one per row (holes where a row is fine), maybe with a `root`.
    const rows = errors.map(translateErrors);
    for (const key of Object.keys(errors))
      if (!/^\d+$/.test(key))
        Object.defineProperty(rows, key, {
          value: translateErrors((errors as unknown as Record<string, unknown>)[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
    return rows;
  }
  if (typeof errors !== 'object' || errors === null) return errors;
  // fromEntries: a field named `__proto__` stays a field.
  return Object.fromEntries(
    Object.entries(errors).map(([key, value]) => {
      if (key === 'ref') return [key, value];
      if (key === 'message' && typeof value === 'string') return [key, translateValidation(value)];
      if (key === 'types' && typeof value === 'object' && value !== null)
        return [key, Object.fromEntries(Object.entries(value).map(([type, text]) => [type, typeof text === 'string' ? translateValidation(text) : text]))];
      return [key, translateErrors(value)];
    }),
  );
}

export function lazyZodResolver<T extends FieldValues>(load: () => Promise<ZodSchema>): Resolver<T> {
  let ready: Promise<Resolver<T>> | null = null;
  return async (values, context, options) => {
    ready ??= Promise.all([load(), import('@hookform/resolvers/zod')]).then(([schema, resolvers]) => resolvers.zodResolver(schema) as unknown as Resolver<T>);
    try {
      const result = await (await ready)(values, context, options);
      return { ...result, errors: translateErrors(result.errors) } as Awaited<ReturnType<Resolver<T>>>;
    } catch (error) {
      ready = null; // A chunk that failed to load (offline) is tried again at the next validation.
      throw error;
    }
  };
}
