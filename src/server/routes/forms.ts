import { Hono } from 'hono';
import { formJsonSchema } from '../../shared/forms/index.ts';
import type { AppEnv } from '../context.ts';

let schemaText: string | undefined;

/**
 * Public form calls. `GET /api/forms/schema.json`: the definition format `fieldwork.form/1` as
 * JSON Schema, for editors and tools that write forms by hand; no session needed, cacheable.
 */
export const formRoutes = new Hono<AppEnv>().get('/schema.json', (c) => {
  schemaText ??= JSON.stringify(formJsonSchema());
  return c.body(schemaText, 200, {
    'Content-Type': 'application/schema+json; charset=utf-8',
    'Cache-Control': 'public, max-age=3600',
  });
});
