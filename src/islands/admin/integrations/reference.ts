/**
 * Reading the OpenAPI 3.1 description (`GET /api/openapi.json`) for the admins' API reference
 * (/admin/integrations/docs): its operations in order, the scope each needs, a schema as rows of a
 * field table (nested objects and arrays flattened to `items[].id`), and an example built from the
 * schema's own examples. Our own few functions: no third-party renderer, nothing from a CDN.
 * Pure; unit-tested (tests/unit/admin-integrations/).
 */

/** The parts of a JSON Schema (OpenAPI 3.1) the reference reads. */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  additionalProperties?: SchemaObject | boolean;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
}

export interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
}

interface MediaObject {
  schema?: SchemaObject;
  example?: unknown;
}

export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaObject>;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, MediaObject> };
  responses?: Record<string, ResponseObject>;
}

export type PathItem = Partial<Record<string, OperationObject>>;

export interface OpenApiDocument {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string; description?: string }[];
  security?: Record<string, string[]>[];
  tags?: { name: string; description?: string }[];
  paths?: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components?: { schemas?: Record<string, SchemaObject> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Operation {
  /** An anchor for the page: the operation's id, else its method and path. */
  id: string;
  method: (typeof METHODS)[number];
  path: string;
  operation: OperationObject;
  /** The scopes it needs (empty: any token). */
  scopes: string[];
}

/** An id for a page anchor: letters, digits and dashes. */
function anchor(text: string): string {
  return text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The scopes of an operation's security (its own, else the document's). */
function scopesOf(document: OpenApiDocument, operation: OperationObject): string[] {
  const security = operation.security ?? document.security ?? [];
  return [...new Set(security.flatMap((requirement) => Object.values(requirement).flat()))];
}

/** Every operation of `paths`, by its tags' order in the document (then as listed). */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      found.push({ id: anchor(operation.operationId ?? `${method}-${path}`), method, path, operation, scopes: scopesOf(document, operation) });
    }
  }
  const order = (document.tags ?? []).map((tag) => tag.name);
  const rank = (operation: Operation) => {
    const index = order.indexOf(operation.operation.tags?.[0] ?? '');
    return index < 0 ? order.length : index;
  };
  // A stable sort: operations of one tag stay in the order the document lists them.
  return found
    .map((operation, index) => ({ operation, index }))
    .sort((a, b) => rank(a.operation) - rank(b.operation) || a.index - b.index)
    .map(({ operation }) => operation);
}

/** The path every operation's path is under (`/api/v1` of `https://host/api/v1`), from the first server. */
export function basePath(document: OpenApiDocument): string {
  const url = document.servers?.[0]?.url;
  if (!url) return '';
  try {
    return new URL(url, 'http://localhost').pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** A schema with its `$ref` followed (once per call; an unknown reference stays as it is). */
export function resolve(document: OpenApiDocument, schema: SchemaObject): SchemaObject {
  const name = refName(schema);
  if (name === null) return schema;
  return document.components?.schemas?.[name] ?? schema;
}

/** The component a `$ref` names (`#/components/schemas/Project` → `Project`), or null. */
export function refName(schema: SchemaObject): string | null {
  const match = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref ?? '');
  return match ? decodeURIComponent(match[1] ?? '') : null;
}

/** A schema's type in the words of JSON Schema: `integer`, `string (date-time)`, `Project[]`, `string | null`. */
export function typeText(document: OpenApiDocument, schema: SchemaObject, depth = 0): string {
  const name = refName(schema);
  if (name !== null) return name;
  if (depth > 4) return 'object';
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map((part) => typeText(document, part, depth + 1)))].join(' | ');
  if (schema.allOf) return [...new Set(schema.allOf.map((part) => typeText(document, part, depth + 1)))].join(' & ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const words = types.map((type) => {
    if (type === 'array') return schema.items ? `${typeText(document, schema.items, depth + 1)}[]` : 'array';
    if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
      return `object (key → ${typeText(document, schema.additionalProperties, depth + 1)})`;
    }
    return schema.format && type !== 'null' ? `${type} (${schema.format})` : type;
  });
  return words.length > 0 ? words.join(' | ') : 'any';
}

/** A schema's limits and default in JSON Schema's own words (`minimum 1`, `maxLength 200`, `default 90`). */
export function limitsText(schema: SchemaObject): string[] {
  const limits: string[] = [];
  if (schema.minimum !== undefined) limits.push(`minimum ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`maximum ${schema.maximum}`);
  if (schema.minLength !== undefined && schema.minLength > 0) limits.push(`minLength ${schema.minLength}`);
  if (schema.maxLength !== undefined) limits.push(`maxLength ${schema.maxLength}`);
  if (schema.maxItems !== undefined) limits.push(`maxItems ${schema.maxItems}`);
  if (schema.default !== undefined) limits.push(`default ${JSON.stringify(schema.default)}`);
  return limits;
}

/** One row of a field table. */
export interface FieldRow {
  /** The field's path: `id`, `items[].answers`, `data.userId`. */
  name: string;
  type: string;
  required: boolean;
  description: string;
  /** The values it may take (an `enum`), as JSON texts. */
  values: string[];
  limits: string[];
  /** How deep it is nested (0: a field of the schema itself). */
  depth: number;
}

/** The object whose fields a schema's rows list: the schema, an array's items, followed through references. */
function objectOf(document: OpenApiDocument, schema: SchemaObject): { schema: SchemaObject; prefix: string } | null {
  const resolved = resolve(document, schema);
  if (resolved.properties) return { schema: resolved, prefix: '.' };
  if (resolved.items) {
    const items = resolve(document, resolved.items);
    if (items.properties) return { schema: items, prefix: '[].' };
  }
  return null;
}

/**
 * A schema as the rows of a field table: each property (required or not, its type, description,
 * values and limits), and the properties of the objects inside it after it (`items[].id`), at
 * most five levels deep and each component once per branch (a schema that holds itself ends).
 */
export function fieldRows(document: OpenApiDocument, schema: SchemaObject): FieldRow[] {
  const rows: FieldRow[] = [];
  const walk = (object: SchemaObject, prefix: string, depth: number, seen: ReadonlySet<string>) => {
    const required = new Set(object.required ?? []);
    for (const [key, property] of Object.entries(object.properties ?? {})) {
      const resolved = resolve(document, property);
      const name = `${prefix}${key}`;
      rows.push({
        name,
        type: typeText(document, property),
        required: required.has(key),
        description: property.description ?? resolved.description ?? '',
        values: (resolved.enum ?? []).map((value) => JSON.stringify(value)),
        limits: limitsText(resolved),
        depth,
      });
      const inner = objectOf(document, property);
      const ref = refName(property) ?? refName(resolved.items ?? {});
      if (!inner || depth >= 4 || (ref !== null && seen.has(ref))) continue;
      walk(inner.schema, `${name}${inner.prefix}`, depth + 1, ref === null ? seen : new Set([...seen, ref]));
    }
  };
  const top = objectOf(document, schema);
  if (top) walk(top.schema, top.prefix === '[].' ? '[].' : '', 0, new Set(refName(schema) === null ? [] : [refName(schema) ?? '']));
  return rows;
}

const SAMPLE_STRINGS: Readonly<Record<string, string>> = {
  'date-time': '2026-11-02T09:30:00.000Z',
  date: '2026-11-02',
  email: 'ada@example.org',
  uri: 'https://example.org',
};

/** An example of a schema: its own `example`, else one made of its parts' examples (depth-limited). */
export function exampleOf(document: OpenApiDocument, schema: SchemaObject, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  const resolved = resolve(document, schema);
  if (resolved !== schema) return exampleOf(document, resolved, depth + 1);
  if (depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    const first = alternatives.find((part) => part.type !== 'null') ?? alternatives[0];
    return first ? exampleOf(document, first, depth + 1) : null;
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  if (type === 'object' || (!type && schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(schema.properties ?? {})) out[key] = exampleOf(document, property, depth + 1);
    return out;
  }
  if (type === 'array') return schema.items ? [exampleOf(document, schema.items, depth + 1)] : [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'string') return SAMPLE_STRINGS[schema.format ?? ''] ?? 'string';
  return null;
}

/** The JSON schema of a body or an answer, when it has one. */
export function jsonSchemaOf(content: Record<string, MediaObject> | undefined): SchemaObject | null {
  return content?.['application/json']?.schema ?? null;
}

/** The webhooks the document describes: name (the event type) and the schema of the body we send. */
export function webhooksOf(document: OpenApiDocument): { type: string; operation: OperationObject; body: SchemaObject | null }[] {
  return Object.entries(document.webhooks ?? {}).flatMap(([type, item]) => {
    const operation = item.post;
    return operation ? [{ type, operation, body: jsonSchemaOf(operation.requestBody?.content) }] : [];
  });
}

/** A text with `code` in backticks, as parts: plain text and code. */
export function inlineParts(text: string): { code: boolean; text: string }[] {
  return text
    .split('`')
    .map((part, index) => ({ code: index % 2 === 1, text: part }))
    .filter((part) => part.text !== '');
}
