import { describe, expect, it } from 'vitest';
import { ELEMENT_TYPES } from '../../../src/shared/forms/constants.ts';
import { FORM_JSON_SCHEMA_ID, formJsonSchema } from '../../../src/shared/forms/json-schema.ts';

describe('formJsonSchema', () => {
  const schema = formJsonSchema();
  const text = JSON.stringify(schema);

  it('is a JSON Schema document with $id and title', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(FORM_JSON_SCHEMA_ID);
    expect(schema.title).toContain('fieldwork.form/1');
    expect(schema.type).toBe('object');
    expect(JSON.parse(text)).toEqual(schema);
  });

  it('contains every element type', () => {
    for (const type of ELEMENT_TYPES) expect(text).toContain(`"const":"${type}"`);
  });

  it('describes the recursive condition by reference', () => {
    const defs = schema.$defs as Record<string, unknown>;
    expect(Object.keys(defs)).toEqual(expect.arrayContaining(['Condition', 'Page', 'Option', 'ShortText', 'Matrix', 'Statement']));
    expect(JSON.stringify(defs.Condition)).toContain('"$ref":"#/$defs/Condition"');
  });

  it('gives a fresh copy each time', () => {
    const first = formJsonSchema();
    first.title = 'changed';
    expect(formJsonSchema().title).not.toBe('changed');
  });
});
