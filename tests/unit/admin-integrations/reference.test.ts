/**
 * The integrations screens' pure parts (issue 32): the admins' API reference reads the real
 * OpenAPI description (operations in order with their scopes, schemas as field tables, examples),
 * the screens' word tables cover every event and scope the API knows, and the forms make the
 * API's bodies (an edit sends only what changed).
 */
import { describe, expect, it } from 'vitest';
import { API_TOKEN_SCOPES } from '../../../src/shared/api-tokens.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../src/shared/webhooks.ts';
import { openApiDocument } from '../../../src/server/routes/api-v1.ts';
import { EVENT_TYPES, SCOPE_TEXT, tokenBody, TOKEN_FORM_DEFAULTS, webhookFormValues, webhookPatch } from '../../../src/islands/admin/integrations/logic.ts';
import { basePath, exampleOf, fieldRows, operationsOf, type OpenApiDocument } from '../../../src/islands/admin/integrations/reference.ts';

const document = openApiDocument({ publicUrl: 'https://fieldwork.example.org' }) as OpenApiDocument;

describe('the API reference', () => {
  it('lists every call of the description once, by tag, with the scope it needs', () => {
    const operations = operationsOf(document);
    expect(operations.map((entry) => `${entry.method.toUpperCase()} ${entry.path} ${entry.scopes.join(',') || '-'}`)).toEqual([
      'GET /projects -',
      'GET /projects/{id}/participants participants:read',
      'GET /surveys/{id}/responses responses:read',
      'GET /missions/{id}/entries entries:read',
      'GET /participants/{id}/points points:read',
      'POST /participants/{id}/points points:write',
      'GET /webhooks webhooks:manage',
      'POST /webhooks webhooks:manage',
      'PATCH /webhooks/{id} webhooks:manage',
      'DELETE /webhooks/{id} webhooks:manage',
      'POST /webhooks/{id}/rotate-secret webhooks:manage',
      'POST /webhooks/{id}/test webhooks:manage',
      'GET /webhooks/{id}/deliveries webhooks:manage',
      'POST /webhooks/deliveries/{id}/resend webhooks:manage',
    ]);
    expect(new Set(operations.map((entry) => entry.id)).size).toBe(operations.length);
    expect(basePath(document)).toBe('/api/v1');
  });

  it("lays a list's schema out as fields, its items' fields under items[], with types, requirement and values", () => {
    const list = document.paths?.['/projects']?.get?.responses?.['200']?.content?.['application/json']?.schema ?? {};
    const rows = fieldRows(document, list);
    expect(rows.find((row) => row.name === 'items')).toMatchObject({ type: 'Project[]', required: true, depth: 0 });
    expect(rows.find((row) => row.name === 'items[].status')).toMatchObject({
      type: 'string',
      required: true,
      values: ['"draft"', '"live"', '"closed"', '"archived"'],
      depth: 1,
    });
    expect(rows.find((row) => row.name === 'items[].startsAt')).toMatchObject({ type: 'string (date) | null' });
    // The example is made of the parts' own examples.
    const example = exampleOf(document, list) as { items: unknown[] };
    expect(example.items[0]).toEqual(document.components?.schemas?.Project?.example);
  });

  it('ends on a schema that holds itself, and makes an example of a schema without one', () => {
    const looped: OpenApiDocument = {
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: { id: { type: 'integer', minimum: 1 }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
            required: ['id'],
          },
        },
      },
    };
    const rows = fieldRows(looped, { $ref: '#/components/schemas/Node' });
    expect(rows.map((row) => row.name)).toEqual(['id', 'children']);
    expect(rows[0]).toMatchObject({ required: true, limits: ['minimum 1'] });
    expect(exampleOf(looped, { type: 'object', properties: { at: { type: 'string', format: 'date-time' }, ok: { type: 'boolean' } } })).toEqual({
      at: '2026-11-02T09:30:00.000Z',
      ok: true,
    });
  });
});

describe('the integrations forms', () => {
  it('know every event and every scope the API knows, in its order', () => {
    expect(EVENT_TYPES).toEqual([...WEBHOOK_EVENT_TYPES]);
    expect(Object.keys(SCOPE_TEXT)).toEqual([...API_TOKEN_SCOPES]);
  });

  it('send an edit with only what changed, events in the list order', () => {
    const before = webhookFormValues({
      id: 3,
      url: 'https://crm.example.org/hooks',
      description: 'CRM',
      events: ['participant.joined'],
      projectId: null,
      enabled: true,
      disabledReason: null,
      failingSince: null,
      previousSecretUntil: null,
      createdBy: 1,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      lastDelivery: null,
    });
    expect(webhookPatch(before, { ...before, description: ' CRM ' })).toEqual({});
    expect(webhookPatch(before, { ...before, events: ['points.credited', 'participant.joined'], project: '7' })).toEqual({
      events: ['participant.joined', 'points.credited'],
      projectId: 7,
    });
  });

  it('make a token body with the default expiry when none is typed', () => {
    expect(tokenBody({ ...TOKEN_FORM_DEFAULTS, name: ' CRM ', scopes: ['points:read', 'responses:read'], expiresInDays: '' })).toEqual({
      name: 'CRM',
      scopes: ['responses:read', 'points:read'],
      projectId: null,
      expiresInDays: 90,
    });
    expect(tokenBody({ ...TOKEN_FORM_DEFAULTS, expiresInDays: 'soon' }).expiresInDays).toBe('soon');
  });
});
