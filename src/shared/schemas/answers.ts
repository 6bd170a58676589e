/** Saving answers, to a survey response and a mission entry alike (zod): the revision a save is based on. Answer types: `../answers.ts`. */
import { z } from '../zod.ts';

/** The 400 on `revision` when a save leaves it out although the answers were saved before. */
export const REVISION_REQUIRED_MESSAGE = 'Required: send the revision your answers are based on (0 before the first save); reload to get it';

/**
 * The revision a save or submit is based on: the one the client last saw (`GET`, or the answer of
 * its last save; 0 before the first save). A stale one is 409 `conflict` with the current answers.
 */
export const revisionSchema = z
  .number({ error: 'Send the revision as a whole number' })
  .int('Send the revision as a whole number')
  .min(0, 'Send 0 or more')
  .max(2_147_483_647, 'Too large');
