/**
 * The definition format as JSON Schema (draft 2020-12), generated from `formDefinitionSchema`
 * with zod 4's `z.toJSONSchema`, for `GET /api/forms/schema.json`: editors and scripts can
 * check a definition against it. It describes the publish-time shape; the cross-element rules
 * (unique ids, conditions on earlier elements, min ≤ max, …) are only in `checkForPublish`.
 */
import { z } from '../zod.ts';
import {
  FORM_SCHEMA_ID,
  conditionSchema,
  consentSchema,
  dateSchema,
  dropdownSchema,
  formDefinitionSchema,
  formPageSchema,
  longTextSchema,
  matrixSchema,
  multipleChoiceSchema,
  numberSchema,
  optionSchema,
  photoSchema,
  videoSchema,
  rankingSchema,
  ratingSchema,
  scaleSchema,
  shortTextSchema,
  singleChoiceSchema,
  statementSchema,
} from './definition.ts';

/** The `$id` of the served JSON Schema. */
export const FORM_JSON_SCHEMA_ID = 'https://fieldwork.example/schemas/fieldwork.form-1.json';

interface Meta {
  id: string;
  title?: string;
  description?: string;
}

/** Named definitions (`$defs`), so the document reads like the format's reference. */
function registry(): z.core.$ZodRegistry<Meta> {
  const named = z.registry<Meta>();
  named.add(conditionSchema, {
    id: 'Condition',
    description:
      'Shows the element or page only when it holds: {"all": [...]}, {"any": [...]}, {"not": c} or {"ref": elementId, "op": ..., "value"?: ...}. Refers to earlier elements only.',
  });
  named.add(optionSchema, { id: 'Option', description: 'A choice, matrix row or column; answers hold its id, never its label.' });
  named.add(formPageSchema, { id: 'Page' });
  const elements: [z.ZodType, string, string][] = [
    [shortTextSchema, 'ShortText', 'One line of text (answer: string).'],
    [longTextSchema, 'LongText', 'Several lines of text (answer: string).'],
    [singleChoiceSchema, 'SingleChoice', 'One option (answer: option id, or {"other": text}).'],
    [multipleChoiceSchema, 'MultipleChoice', 'Several options (answer: option ids, may hold one {"other": text}).'],
    [dropdownSchema, 'Dropdown', 'One option from a list (answer: option id).'],
    [ratingSchema, 'Rating', 'Stars or numbers (answer: integer 1…max).'],
    [scaleSchema, 'Scale', 'A point on a scale (answer: number from min to max on the step).'],
    [numberSchema, 'Number', 'A number (answer: number).'],
    [dateSchema, 'Date', 'A calendar date (answer: "YYYY-MM-DD").'],
    [photoSchema, 'Photo', 'Uploaded photos (answer: media ids).'],
    [videoSchema, 'Video', 'Uploaded or recorded videos, each at most maxSeconds long (answer: media ids of ready videos).'],
    [consentSchema, 'Consent', 'Agreement to a statement (answer: true).'],
    [matrixSchema, 'Matrix', 'A grid (answer: {rowId: columnId}, or {rowId: columnId[]} when multiple).'],
    [rankingSchema, 'Ranking', 'Options in order (answer: ordered option ids).'],
    [statementSchema, 'Statement', 'Text shown to the respondent (no answer).'],
  ];
  for (const [schema, id, description] of elements) named.add(schema, { id, description });
  return named;
}

let cached: Record<string, unknown> | null = null;

/**
 * The JSON Schema of `fieldwork.form/1` with `$id`, title and description; a fresh copy on every
 * call (it is built once).
 */
export function formJsonSchema(): Record<string, unknown> {
  if (cached === null) {
    const generated = z.toJSONSchema(formDefinitionSchema, { metadata: registry(), io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    const { $schema, ...rest } = generated;
    cached = {
      $schema,
      $id: FORM_JSON_SCHEMA_ID,
      title: `Fieldwork form definition (${FORM_SCHEMA_ID})`,
      description:
        'A form: pages of elements (questions and statements). Answers are an object keyed by element id; choices are option ids. Publishing also checks unique ids, conditions that refer to earlier elements only and min ≤ max.',
      ...rest,
    };
  }
  return structuredClone(cached);
}
