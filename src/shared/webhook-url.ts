/**
 * What a webhook endpoint's address may be (issue 32 §1), shared by the browser's form and the
 * server's check (`src/server/services/outgoing-http.ts`, `checkWebhookUrl`). The messages are the
 * English texts the API answers on the `url` field; the browser shows them in the reader's language
 * (`validation-words.ts`).
 */

/** The longest address accepted, in characters. */
export const WEBHOOK_URL_MAX_LENGTH = 2000;

/** The `url` field's messages, word for word. */
export const WEBHOOK_URL_MESSAGES = {
  invalid: 'Enter a full web address, starting with https://',
  https: 'Use an https:// address',
  credentials: 'Leave the user name and password out of the address',
  tooLong: `Use an address of at most ${WEBHOOK_URL_MAX_LENGTH} characters`,
  notPublic: 'This address is not reachable from the internet',
  notFound: 'The host name of this address could not be found',
};
