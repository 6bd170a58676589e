/**
 * Participants' work without a connection (`docs/decisions/038-field-capture.md`): the names the
 * page, the local outbox and the service worker share.
 */

/** The IndexedDB database of the local outbox (files picked or recorded, answers and submits waiting to be sent). */
export const OUTBOX_DB_NAME = 'fieldwork-outbox';

/** A small copy of what waits in the outbox, in localStorage, so home can list it without opening IndexedDB. */
export const OUTBOX_SUMMARY_KEY = 'fieldwork-outbox-summary';

/** Web Locks held while the outbox sends and while the page records: a new service worker waits for both. */
export const SENDING_LOCK = 'fieldwork-outbox-send';
export const RECORDING_LOCK = 'fieldwork-recording';

/** The service worker's script (served with no-cache; scope `/`). */
export const SERVICE_WORKER_PATH = '/sw.js';

/**
 * Sent by the outbox's check that the API can be reached (`GET /api/auth`): the service worker
 * never answers such a request from a kept copy, so offline it fails as it should.
 */
export const REACHABILITY_HEADER = 'X-Fieldwork-Reachability';
