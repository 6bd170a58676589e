import { z } from '../zod.ts';
import { TIME_ZONE_MAX } from '../time-zone.ts';
import { EMAIL_MAX_LENGTH } from '../limits.ts';
import { atMostCharacters, MESSAGES } from '../messages.ts';
import { emailField, emailSchema, nameSchema, passwordSchema, requiredString } from './common.ts';

/** Sign-in (docs/product.md §5): email and password each Required; no extra fields. */
export const loginSchema = z.strictObject({
  email: requiredString(),
  password: requiredString(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** Forgot-password (docs/product.md §5): email trimmed, lower-cased, Required, Too long, Invalid email. */
export const forgotPasswordSchema = z.strictObject({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** A new password and its confirmation; the mismatch is reported on confirmPassword. */
export const newPasswordFields = {
  password: passwordSchema,
  confirmPassword: requiredString(),
};

function passwordsMatch(value: { password: string; confirmPassword: string }, ctx: z.RefinementCtx): void {
  if (value.password !== value.confirmPassword) {
    ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'] });
  }
}

/** Reset-password body (docs/product.md §5); the token travels in the query. */
export const resetPasswordSchema = z.strictObject(newPasswordFields).superRefine(passwordsMatch);
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The `?token=` of the onboarding and reset calls. */
export const tokenQuerySchema = z.object({ token: requiredString() });

/** Token verification (docs/product.md §5): token and type are strings; nothing else. */
export const tokenVerifySchema = z.strictObject({ token: z.string({ error: MESSAGES.required }), type: z.string({ error: MESSAGES.required }) });

/** Acceptance of /terms and /privacy. */
export const acceptTermsSchema = z.literal(true, { error: 'Accept the terms of use and the privacy policy to continue' });

/** Registration (our design): who you are and your acceptance of the terms; a limit passed is said ("At most 100 characters"). */
export const registerSchema = z.strictObject({
  firstName: nameSchema,
  lastName: nameSchema,
  email: emailField(atMostCharacters(EMAIL_MAX_LENGTH)),
  acceptTerms: acceptTermsSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/**
 * Onboarding: the password and its confirmation, plus the names and terms acceptance the account
 * still lacks (the server says which, through the token check; it requires them then).
 */
export const onboardSchema = z
  .strictObject({
    ...newPasswordFields,
    firstName: nameSchema.optional(),
    lastName: nameSchema.optional(),
    acceptTerms: acceptTermsSchema.optional(),
    /**
     * The browser's time zone, stored in the preferences (the day diary entries count on). Never
     * refused: a name the server does not know is ignored (the preferences screen can set it).
     */
    timeZone: z.string().max(TIME_ZONE_MAX).optional().catch(undefined),
  })
  .superRefine(passwordsMatch);
export type OnboardInput = z.infer<typeof onboardSchema>;
