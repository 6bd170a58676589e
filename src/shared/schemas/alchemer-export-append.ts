/** Alchemer export append: the multipart fields of `POST /api/admin/tools/alchemer-export-append` (browser and server). */
import { z } from '../zod.ts';
import { APPEND_FIELDS } from '../alchemer-export-append.ts';

const yes = new Set(['true', '1', 'on', 'yes']);
const no = new Set(['false', '0', 'off', 'no', '']);

/** The append's options, read from the multipart fields (repeated `fields[]`; `confirmCompletes` true / false, absent: false). */
export const appendOptionsSchema = z.strictObject({
  idColumn: z
    .string({ error: 'Choose the column that holds the participant reference' })
    .trim()
    .min(1, 'Choose the column that holds the participant reference')
    .max(500),
  fields: z
    .array(z.enum(APPEND_FIELDS, { error: `Must be one of ${APPEND_FIELDS.join(', ')}` }))
    .max(APPEND_FIELDS.length)
    .refine((list) => new Set(list).size === list.length, 'A field is listed twice')
    .default([]),
  confirmCompletes: z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => yes.has(value) || no.has(value), 'Must be true or false')
    .transform((value) => yes.has(value))
    .default(false),
});
export type AppendOptions = z.output<typeof appendOptionsSchema>;
