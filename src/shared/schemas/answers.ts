/** Saving answers, to a survey response and a mission entry alike (zod): the revision a save is based on. Answer types: `../answers.ts`. */
import { z } from '../zod.ts';
import { LANGUAGES } from '../languages.ts';
import { MESSAGES } from '../messages.ts';

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

/**
 * The language the answers were given in (issue 31 §2): one of the languages the form version
 * offers (`offeredLanguages`); a language it does not offer is 400 with
 * `ANSWER_LANGUAGE_NOT_OFFERED`. Left out: the language recorded before stays (at first, the
 * version's source language).
 */
export const answerLanguageSchema = z.enum(LANGUAGES, { error: MESSAGES.invalidEnumValue });
/** The 400 on `language` when the form version does not offer it. */
export const ANSWER_LANGUAGE_NOT_OFFERED = 'This form is not offered in that language';

/** `?language=` of the staff lists of answers (responses, the review queue and inbox): a language code. */
export const answerLanguageFilterSchema = z.enum(LANGUAGES, { error: `Must be one of the language codes ${LANGUAGES.join(', ')}` });
