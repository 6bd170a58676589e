/** Validation messages, word for word as docs/product.md §5 and §8 give them. Browser and server use these. */
export const MESSAGES = {
  required: 'Required',
  tooLong: 'Too long',
  invalidEmail: 'Invalid email',
  missingRequirements: 'Missing requirements',
  passwordsDoNotMatch: 'Passwords do not match',
  tooShort: 'Too short',
  invalidEnumValue: 'Invalid enum value',
} as const;

/** Ours, for the fields docs/product.md leaves to us (registration's names and address): the limit said. */
export const atMostCharacters = (max: number): string => `At most ${max} characters`;
