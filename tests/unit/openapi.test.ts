/**
 * The token API's OpenAPI description (`GET /api/openapi.json`, issue 32 §3) and the API token
 * format (§2). The document is generated from the routes' own schemas: it validates as OpenAPI
 * 3.1, describes exactly the routes the app serves under /api/v1 (both ways), names each call's
 * scope and its refusals; the webhooks' hook adds payloads under `webhooks`. Whether each
 * documented call answers (not a route miss) is asked of a running app in tests/api/api-tokens.test.ts.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.ts';
import type { AppDeps } from '../../src/server/context.ts';
import { openApiDocument } from '../../src/server/routes/api-v1.ts';
import { newApiToken } from '../../src/server/services/api-tokens.ts';
import { API_TOKEN_SCOPES, apiTokenChecksum, BASE62_ALPHABET, crc32, isWellFormedApiToken } from '../../src/shared/api-tokens.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/shared/webhooks.ts';

interface Operation {
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }>; headers?: Record<string, unknown> }>;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }>; schemas: Record<string, { example?: unknown }> };
  webhooks?: Record<string, Record<string, Operation>>;
}

const document = openApiDocument({ publicUrl: 'https://fieldwork.example.org' }) as Document;
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

async function validate(doc: unknown): Promise<{ valid: boolean; errors: unknown; version: string }> {
  const validator = new Validator();
  const result = await validator.validate(doc as Record<string, unknown>);
  return { valid: result.valid, errors: result.errors, version: validator.version };
}

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document for this server', async () => {
    const result = await validate(document);
    expect(result.errors).toBeUndefined();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
    expect(document.servers).toEqual([{ url: 'https://fieldwork.example.org/api/v1', description: 'This Fieldwork' }]);
    expect(document.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every route the app serves under /api/v1, and no other', () => {
    const served = createApp({} as AppDeps)
      .routes.filter((route) => METHODS.has(route.method) && route.path.startsWith('/api/v1/'))
      .map((route) => `${route.method} ${route.path.slice('/api/v1'.length).replace(/:([A-Za-z]+)/g, '{$1}')}`);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(served).size).toBeGreaterThanOrEqual(6);
    expect([...new Set(served)].sort()).toEqual([...documented].sort());
  });

  it('names the scope of each call, and describes its refusals with the error schema', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const call = `${method.toUpperCase()} ${path}`;
        const scopes = operation.security?.[0]?.apiToken;
        expect(scopes, call).toBeDefined();
        // The projects alone need no scope; every other call names exactly one.
        if (path === '/projects') expect(scopes).toEqual([]);
        else {
          expect(scopes, call).toHaveLength(1);
          expect(API_TOKEN_SCOPES, call).toContain(scopes?.[0]);
          expect(Object.keys(operation.responses), call).toEqual(expect.arrayContaining(['403', '404']));
        }
        expect(Object.keys(operation.responses), call).toEqual(expect.arrayContaining(['400', '401', '429']));
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) expect(response.content?.['application/json']?.schema?.$ref, `${call} ${status}`).toBe('#/components/schemas/Error');
        }
        expect(operation.responses['429']?.headers, call).toHaveProperty('Retry-After');
      }
    }
  });

  it('gives examples of what the calls answer', () => {
    for (const name of ['Project', 'Participant', 'SurveyResponse', 'MissionEntry', 'PointsCreditRequest', 'Error']) {
      expect(document.components.schemas[name]?.example, name).toBeDefined();
    }
  });

  it('describes every webhook event an endpoint may subscribe to under `webhooks`, with its thin body and the signature headers', () => {
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const submitted = document.webhooks?.['survey_response.submitted']?.post as unknown as {
      parameters: { name: string; in: string }[];
      requestBody: { content: { 'application/json': { schema: { properties: { data: { properties: Record<string, unknown> } } } } } };
    };
    expect(submitted.parameters.map((parameter) => `${parameter.in} ${parameter.name}`).sort()).toEqual([
      'header webhook-id',
      'header webhook-signature',
      'header webhook-timestamp',
    ]);
    expect(Object.keys(submitted.requestBody.content['application/json'].schema.properties.data.properties).sort()).toEqual([
      'projectId',
      'responseId',
      'surveyId',
      'userId',
    ]);
  });
});

describe('the API token format', () => {
  it('checksums with CRC-32 as zlib computes it, in 6 base62 characters', () => {
    for (const text of ['', 'fw_', `fw_${'a'.repeat(30)}`, 'Grüße']) expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text, 'utf8')));
    const body = `fw_${'0'.repeat(30)}`;
    expect(apiTokenChecksum(body)).toMatch(/^[0-9A-Za-z]{6}$/);
  });

  it('makes tokens that are well formed, and refuses any one changed character without a lookup', () => {
    const tokens = Array.from({ length: 200 }, () => newApiToken());
    expect(new Set(tokens).size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(/^fw_[0-9A-Za-z]{36}$/);
      expect(isWellFormedApiToken(token)).toBe(true);
    }
    const [token = ''] = tokens;
    for (let i = 3; i < token.length; i++) {
      const other = BASE62_ALPHABET.charAt((BASE62_ALPHABET.indexOf(token.charAt(i)) + 1) % 62);
      expect(isWellFormedApiToken(`${token.slice(0, i)}${other}${token.slice(i + 1)}`), `position ${i}`).toBe(false);
    }
    expect(isWellFormedApiToken(`gh${token.slice(2)}`)).toBe(false);
    expect(isWellFormedApiToken(`${token}x`)).toBe(false);
  });
});
