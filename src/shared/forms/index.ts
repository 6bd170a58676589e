/**
 * The forms core in one import: the definition format, conditions and visibility, answer
 * validation, option order, publish checks, version diffs and the JSON Schema.
 *
 * This barrel pulls in zod (definition.ts, publish.ts, json-schema.ts). Browser code that must
 * stay small (the renderer) imports `./constants.ts`, `./logic.ts`, `./validate.ts` and
 * `./order.ts` directly, and `./definition.ts` for types only.
 */
export * from './definition.ts';
export * from './logic.ts';
export * from './validate.ts';
export * from './order.ts';
export * from './publish.ts';
export * from './changes.ts';
export * from './json-schema.ts';
export * from './translations.ts';
