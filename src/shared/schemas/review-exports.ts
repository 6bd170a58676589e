/** The review export's payloads (zod). Constants and answers: `../review-exports.ts`. */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { CAMPAIGN_ID_MAX, REVIEW_EXPORT_FORMATS, REVIEW_EXPORT_MAX_MISSIONS, REVIEW_EXPORT_STATES } from '../review-exports.ts';
import { enumOf, filterDaySchema, idSchema } from './fields.ts';

const elementRef = z
  .string({ error: 'Choose a question of the form' })
  .max(64, 'Choose a question of the form')
  .nullable()
  .optional()
  .transform((value) => (value === undefined || value === '' ? null : value));

/** One mission's mapping: an element id per review field (null or left out: none). */
export const reviewMappingSchema = z.strictObject({
  rating: elementRef,
  title: elementRef,
  text: elementRef,
  recommend: elementRef,
  photos: elementRef,
});

const day = filterDaySchema.nullable().optional();

/** `POST /api/admin/tools/export-reviews` (and `?preview=1`). */
export const reviewExportSchema = z
  .strictObject({
    projectId: idSchema,
    missionIds: z
      .array(idSchema, { error: 'Choose at least one mission' })
      .min(1, 'Choose at least one mission')
      .max(REVIEW_EXPORT_MAX_MISSIONS, `Choose at most ${REVIEW_EXPORT_MAX_MISSIONS} missions`)
      .refine((ids) => new Set(ids).size === ids.length, 'A mission can be in the list once'),
    from: day,
    to: day,
    states: z
      .array(enumOf(REVIEW_EXPORT_STATES), { error: 'Choose approved, submitted or both' })
      .min(1, 'Choose approved, submitted or both')
      .max(REVIEW_EXPORT_STATES.length)
      .default(['approved'])
      .transform((states) => [...new Set(states)]),
    format: z.enum(REVIEW_EXPORT_FORMATS, { error: 'Choose CSV, Excel, PowerReviews or Bazaarvoice' }),
    mapping: z.record(z.string().regex(/^\d{1,10}$/, 'Use mission ids as keys'), reviewMappingSchema, { error: MESSAGES.required }),
    campaignId: z
      .string({ error: 'Must be text' })
      .trim()
      .max(CAMPAIGN_ID_MAX, MESSAGES.tooLong)
      .regex(/^[A-Za-z0-9_.:-]*$/, 'Use letters, digits, -, _, . or :')
      .optional(),
  })
  .superRefine((value, ctx) => {
    if (value.from && value.to && value.to < value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must be on or after the start date' });
    if (value.format === 'bazaarvoice' && !value.campaignId)
      ctx.addIssue({ code: 'custom', path: ['campaignId'], message: 'Enter the campaign id for Bazaarvoice' });
    for (const id of value.missionIds ?? []) {
      if (!Object.hasOwn(value.mapping ?? {}, String(id))) ctx.addIssue({ code: 'custom', path: ['mapping'], message: `Map the fields of mission ${id}` });
    }
  });
export type ReviewExportInput = z.input<typeof reviewExportSchema>;
export type ReviewExportRequest = z.output<typeof reviewExportSchema>;

/** `?preview=1`. */
export const reviewExportQuerySchema = z.strictObject({ preview: z.enum(['0', '1']).optional() });
