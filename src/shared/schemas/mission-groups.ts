/** Mission groups' payloads (zod). Constants and answer types: `../mission-groups.ts`. */
import { z } from '../zod.ts';
import { MESSAGES } from '../messages.ts';
import { GROUP_UNLOCK_ON, GROUP_UNLOCKS } from '../mission-groups.ts';
import { PROGRAMME_LIMITS } from '../projects.ts';
import { enumOf, idSchema, optionalText, requiredText } from './fields.ts';

const L = PROGRAMME_LIMITS;

const groupFields = {
  title: requiredText(L.titleMax),
  description: optionalText(L.descriptionMax),
  missionIds: z
    .array(idSchema, { error: MESSAGES.required })
    .max(200, 'At most 200 missions')
    .refine((ids) => new Set(ids).size === ids.length, 'A mission can be in the list once'),
  unlock: enumOf(GROUP_UNLOCKS),
  unlockOn: enumOf(GROUP_UNLOCK_ON),
};

/** `POST /api/admin/projects/{id}/mission-groups`. */
export const missionGroupCreateSchema = z.strictObject({
  title: groupFields.title,
  description: groupFields.description.default(''),
  missionIds: groupFields.missionIds,
  unlock: groupFields.unlock.default('all_open'),
  unlockOn: groupFields.unlockOn.default('submitted'),
});
export type MissionGroupCreateInput = z.input<typeof missionGroupCreateSchema>;

/** `PATCH /api/admin/mission-groups/{id}`. */
export const missionGroupPatchSchema = z.strictObject(groupFields).partial();
export type MissionGroupPatchInput = z.input<typeof missionGroupPatchSchema>;
