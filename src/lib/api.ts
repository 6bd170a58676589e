/**
 * @deprecated The HTTP client is `src/platform/api.ts` (below the stores). This re-export stays
 * only while ClientErrors, ContactMessages and DataDeletionRequests still import it from here;
 * delete it once they import the platform's.
 */
export * from '../platform/api.ts';
