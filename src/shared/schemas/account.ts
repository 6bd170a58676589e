import { z } from '../zod.ts';
import { COLOR_MODES, LANGUAGES } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { canonicalTimeZone, TIME_ZONE_MAX } from '../time-zone.ts';
import { emailSchema, nameSchema, passwordSchema, requiredString } from './common.ts';

/** The earliest year of birth the profile takes (the database's check allows 1900 to 2100; this schema checks the real range). */
export const BIRTH_YEAR_MIN = 1900;

/**
 * The profile's optional year of birth: a whole year from 1900 to this year (UTC; there is no
 * minimum age). Null clears it; left out, the stored one is kept. Only ever used as an age band.
 */
export const birthYearSchema = z
  .number({ error: 'Enter the year as four digits, like 1985' })
  .int({ error: 'Enter the year as four digits, like 1985' })
  .min(BIRTH_YEAR_MIN, { error: `Enter a year of ${BIRTH_YEAR_MIN} or later` })
  .refine((year) => year <= new Date().getUTCFullYear(), { error: 'Year of birth cannot be in the future' })
  .nullable();

export const profileSchema = z.strictObject({ firstName: nameSchema, lastName: nameSchema, birthYear: birthYearSchema.optional() });
export type ProfileInput = z.infer<typeof profileSchema>;

const line = (max: number) => z.string({ error: MESSAGES.required }).trim().max(max, MESSAGES.tooLong);
const requiredLine = (max: number) => line(max).min(1, { error: MESSAGES.required, abort: true });

/** A postal address; line2 and region may be empty. Country is an ISO 3166-1 alpha-2 code. */
export const addressSchema = z.strictObject({
  line1: requiredLine(200),
  line2: line(200).default(''),
  city: requiredLine(100),
  region: line(100).default(''),
  postalCode: requiredLine(20),
  country: z
    .string({ error: MESSAGES.required })
    .trim()
    .toUpperCase()
    .min(1, { error: MESSAGES.required, abort: true })
    .regex(/^[A-Z]{2}$/, 'Choose a country'),
});
export type AddressInput = z.infer<typeof addressSchema>;

export { COLOR_MODES, LANGUAGES };

/** An IANA time zone name the platform knows, stored in its canonical spelling. */
export function timeZoneSchema() {
  return z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, { error: MESSAGES.required, abort: true })
    .max(TIME_ZONE_MAX, { error: MESSAGES.tooLong, abort: true })
    .transform((name, ctx) => {
      const canonical = canonicalTimeZone(name);
      if (!canonical) {
        ctx.addIssue({ code: 'custom', message: 'Choose a time zone from the list' });
        return z.NEVER;
      }
      return canonical;
    });
}

/**
 * `/account/edit/preferences`. The per-kind mail switches (`MAIL_PREFERENCE_KEYS` of
 * shared/notifications.ts) are optional, on when never set, and apply under `emailNotifications`;
 * a save without them keeps what was stored.
 */
export const preferencesSchema = z.strictObject({
  emailNotifications: z.boolean({ error: MESSAGES.required }),
  language: z.enum(LANGUAGES, { error: MESSAGES.invalidEnumValue }),
  colorMode: z.enum(COLOR_MODES, { error: MESSAGES.invalidEnumValue }),
  mailChangesRequested: z.boolean({ error: MESSAGES.required }).optional(),
  mailRejected: z.boolean({ error: MESSAGES.required }).optional(),
  mailProbes: z.boolean({ error: MESSAGES.required }).optional(),
  mailApprovedDigest: z.boolean({ error: MESSAGES.required }).optional(),
  mailReminders: z.boolean({ error: MESSAGES.required }).optional(),
  mailNewWork: z.boolean({ error: MESSAGES.required }).optional(),
  mailAnnouncements: z.boolean({ error: MESSAGES.required }).optional(),
  mailPoints: z.boolean({ error: MESSAGES.required }).optional(),
  mailRewards: z.boolean({ error: MESSAGES.required }).optional(),
  /** Moderators and admins: the daily mail when entries have waited for review more than a day (off unless turned on; ignored for participants). */
  mailReviewDigest: z.boolean({ error: MESSAGES.required }).optional(),
  /** The participant's time zone (IANA name): the calendar day their diary entries count on. */
  timeZone: timeZoneSchema().optional(),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

/** `PUT /api/account/language` (issue 31): the language switcher of a signed-in person sets the account's language alone. */
export const languageSchema = z.strictObject({ language: z.enum(LANGUAGES, { error: MESSAGES.invalidEnumValue }) });
export type LanguageInput = z.infer<typeof languageSchema>;

/** Email change: the new address and the current password. */
export const emailChangeSchema = z.strictObject({ newEmail: emailSchema, currentPassword: requiredString() });
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

/** Password change: the current password, the new one and its confirmation. */
export const passwordChangeSchema = z
  .strictObject({ currentPassword: requiredString(), password: passwordSchema, confirmPassword: requiredString() })
  .superRefine((value, ctx) => {
    if (value.password !== value.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'] });
    }
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;
