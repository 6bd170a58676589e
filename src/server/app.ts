import { Hono, type Context, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { JSON_BODY_LIMIT_BYTES } from '../shared/limits.ts';
import { redactSecrets } from '../shared/redact.ts';
import type { AppDeps, AppEnv } from './context.ts';
import { ApiError, databaseUnavailable, errorBody, invalidText, isDatabaseUnavailable, isInvalidText } from './errors.ts';
import { authenticateApiToken, bearerRefusal, isTokenApiPath } from './middleware/api-token.ts';
import { crossOriginRefusal } from './middleware/csrf.ts';
import { startRequestLog } from './middleware/request-log.ts';
import { applySecurityHeaders } from './middleware/security-headers.ts';
import { loadSession } from './middleware/session.ts';
import { accountRoutes } from './routes/account.ts';
import { accountSecurityRoutes } from './routes/account-security.ts';
import { adminContactMessageRoutes } from './routes/admin-contact-messages.ts';
import { adminDataDeletionRoutes } from './routes/admin-data-deletion.ts';
import { adminFlagRoutes } from './routes/admin-flags.ts';
import { adminDashboardRoutes } from './routes/admin-dashboard.ts';
import { adminFormRoutes } from './routes/admin-forms.ts';
import { adminGalleryRoutes } from './routes/admin-gallery.ts';
import { adminMissionGroupRoutes } from './routes/admin-mission-groups.ts';
import { adminMissionRoutes } from './routes/admin-missions.ts';
import { adminProjectRoutes } from './routes/admin-projects.ts';
import { adminRewardRoutes } from './routes/admin-rewards.ts';
import { adminSurveyRoutes } from './routes/admin-surveys.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { adminAuditRoutes } from './routes/admin-audit.ts';
import { adminApiTokenRoutes } from './routes/admin-api-tokens.ts';
import { apiV1Routes, openApiRoutes } from './routes/api-v1.ts';
import { alchemerExportAppendRoutes } from './routes/alchemer-export-append.ts';
import { authRoutes } from './routes/auth.ts';
import { clientReportRoutes } from './routes/client-reports.ts';
import { contactRoutes } from './routes/contact-messages.ts';
import { dataDeletionRoutes } from './routes/data-deletion.ts';
import { entryExportRoutes } from './routes/entry-exports.ts';
import { featureFlagRoutes } from './routes/flags.ts';
import { formRoutes } from './routes/forms.ts';
import { healthRoutes } from './routes/health.ts';
import { homeRoutes } from './routes/home.ts';
import { mediaRoutes } from './routes/media.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { UPLOADS_PATH } from '../shared/media.ts';
import { missionGroupRoutes } from './routes/mission-groups.ts';
import { missionHistoryRoutes } from './routes/mission-history.ts';
import { missionRoutes } from './routes/missions.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { passkeyAuthRoutes } from './routes/passkey-auth.ts';
import { passkeyRoutes } from './routes/passkeys.ts';
import { pointsBulkUpdateRoutes } from './routes/points-bulk-update.ts';
import { pointsRoutes } from './routes/points.ts';
import { reviewExportRoutes } from './routes/review-exports.ts';
import { reviewRoutes } from './routes/review.ts';
import { redemptionRoutes } from './routes/redemptions.ts';
import { adminRedemptionRoutes } from './routes/admin-redemptions.ts';
import { rewardRoutes } from './routes/rewards.ts';
import { rewardWebhookRoutes } from './routes/reward-webhooks.ts';
import { surveyWebhookRoutes } from './routes/survey-webhook.ts';
import { surveyRoutes } from './routes/surveys.ts';
import { tokenRoutes } from './routes/tokens.ts';
import { adminWebhookRoutes } from './routes/admin-webhooks.ts';
import { withWebhookQueue } from './services/webhooks.ts';

/**
 * The API routes: one file per feature in `routes/`. Most are mounted at their prefix; the
 * features whose calls live under several prefixes (review, points, client reports, admin users,
 * the admin dashboard, the gallery) are mounted
 * at `/` and name each call's whole path, guarding each call on its own. Chained so `AppType`
 * holds every call's type.
 */
/** The calls that take files and check their size themselves (streamed, with their own limits). */
const OWN_BODY_LIMIT = new Set([
  '/api/media',
  '/api/admin/tools/points-bulk-update/preview',
  '/api/admin/tools/alchemer-export-append',
  '/api/admin/tools/alchemer-export-append/preview',
]);

/** The resumable uploads (routes/uploads.ts): their PATCH and POST bodies are streamed to the upload store, each within its declared length. */
const isUploadsPath = (path: string) => path === UPLOADS_PATH || path.startsWith(`${UPLOADS_PATH}/`);

function apiRoutes() {
  return (
    new Hono<AppEnv>()
      .route('/health', healthRoutes)
      .route('/auth', authRoutes)
      .route('/auth', passkeyAuthRoutes)
      .route('/tokens', tokenRoutes)
      .route('/account', accountRoutes)
      .route('/account', accountSecurityRoutes)
      .route('/account/passkeys', passkeyRoutes)
      .route('/account/notifications', notificationRoutes)
      .route('/account/mission-history', missionHistoryRoutes)
      .route('/', adminUserRoutes)
      .route('/', adminAuditRoutes)
      .route('/', adminDashboardRoutes)
      .route('/', adminGalleryRoutes)
      .route('/', pointsBulkUpdateRoutes)
      .route('/', alchemerExportAppendRoutes)
      .route('/', reviewExportRoutes)
      .route('/', entryExportRoutes)
      .route('/feature-flags', featureFlagRoutes)
      .route('/', clientReportRoutes)
      .route('/contact', contactRoutes)
      .route('/data-deletion', dataDeletionRoutes)
      .route('/admin/flags', adminFlagRoutes)
      .route('/admin/contact-messages', adminContactMessageRoutes)
      .route('/admin/data-deletion-requests', adminDataDeletionRoutes)
      .route('/admin/forms', adminFormRoutes)
      .route('/forms', formRoutes)
      .route('/admin/projects', adminProjectRoutes)
      .route('/admin/surveys', adminSurveyRoutes)
      .route('/admin/missions', adminMissionRoutes)
      .route('/admin/mission-groups', adminMissionGroupRoutes)
      .route('/', reviewRoutes)
      .route('/', pointsRoutes)
      .route('/home', homeRoutes)
      // The webhook first: Alchemer calls it without a session, and surveyRoutes asks for one.
      .route('/surveys', surveyWebhookRoutes)
      .route('/surveys', surveyRoutes)
      .route('/missions', missionRoutes)
      .route('/mission-groups', missionGroupRoutes)
      .route('/redemptions', redemptionRoutes)
      .route('/media', mediaRoutes)
      // Resumable uploads (issue 33 §3): tus, streamed to the upload store.
      .route('/uploads', uploadRoutes)
      // Rewards (issue 30): the catalogue and settings (admin-rewards.ts names whole paths), the participant's catalogue.
      .route('/', adminRewardRoutes)
      .route('/', adminRedemptionRoutes)
      .route('/rewards', rewardRoutes)
      // The gift-card provider's webhook (no session: its signature; services/reward-provider-fulfilment.ts).
      .route('/webhooks', rewardWebhookRoutes)
      // Integrations (issue 32): API tokens (admins, session only), the token API and its OpenAPI description.
      .route('/', adminApiTokenRoutes)
      .route('/v1', apiV1Routes)
      .route('/', openApiRoutes)
      .route('/admin/webhooks', adminWebhookRoutes)
  );
}

export type AppType = ReturnType<typeof apiRoutes>;

/**
 * The whole HTTP application. `pages` (optional) answers everything outside /api: the Node
 * server passes the static-site handler; API tests leave it out.
 */
export function createApp(deps: AppDeps, pages?: Hono<AppEnv>) {
  const app = new Hono<AppEnv>();

  // Two middlewares, each doing its steps in order (middleware/): every layer of Hono's chain is
  // an async step of its own, a measurable share of a cheap call (docs/benchmarks.md, "What each
  // layer costs").
  // Every request: its dependencies, request id and log line, and the security headers.
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('db', deps.database.db);
    const logged = startRequestLog(c);
    const secured = applySecurityHeaders(c);
    // The queue the webhook events of this request's changes are sent through (services/webhooks.ts).
    await withWebhookQueue(deps.jobs, next);
    secured?.();
    logged();
  });

  // API calls: the JSON body limit, the same-origin check, then the session.
  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT_BYTES,
    onError: (c) => c.json(errorBody('payload_too_large', 'The request body is too large'), 413),
  });
  const api = async (c: Context<AppEnv>, next: Next): Promise<void> => {
    // The token API (`/api/v1/`): its bearer token is its one credential (no session, no Origin
    // check: it is not a cookie); a token anywhere else is refused (middleware/api-token.ts).
    if (isTokenApiPath(c.req.path)) {
      await authenticateApiToken(c);
      await next();
      return;
    }
    const refused = bearerRefusal(c) ?? crossOriginRefusal(c);
    // Set, not returned: inside the body limit a returned answer would be dropped.
    if (refused) {
      c.res = refused;
      return;
    }
    await loadSession(c);
    await next();
  };
  // Uploads carry their own, larger limits (routes/media.ts and the admin tools' routes); every other call this one.
  // GET and HEAD carry no body; looking for one would build the whole Fetch request (a measurable share of a read).
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' || (c.req.method === 'POST' && OWN_BODY_LIMIT.has(c.req.path)) || isUploadsPath(c.req.path)
      ? api(c, next)
      : jsonBodyLimit(c, () => api(c, next)),
  );
  app.route('/api', apiRoutes());
  app.all('/api/*', (c) => c.json(errorBody('not_found', 'No such API endpoint'), 404));

  if (pages) app.route('/', pages);

  app.notFound((c) => c.json(errorBody('not_found', 'Not found'), 404));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      // A refusal caused by a library's error (a file that cannot be read): its words are for the log, never the client.
      if (error.cause !== undefined)
        (c.get('logger') ?? deps.logger).warn({ err: error.cause, code: error.code, path: redactSecrets(c.req.path) }, error.message);
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.fields, error.details), error.status);
    }
    if (error instanceof HTTPException) {
      return c.json(errorBody('http_error', error.message || 'Request failed'), error.status);
    }
    if (isInvalidText(error)) {
      // A NUL character the database cannot store (found by the fuzzer, docs/fuzzing.md): the client's input, a 400.
      const invalid = invalidText();
      return c.json(errorBody(invalid.code, invalid.message), invalid.status);
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or out of reach: 503 with Retry-After, never a 500 (docs/deploy.md, "What happens when…").
      (c.get('logger') ?? deps.logger).warn({ err: error, path: redactSecrets(c.req.path) }, 'database unavailable');
      const unavailable = databaseUnavailable();
      for (const [name, value] of Object.entries(unavailable.headers ?? {})) c.header(name, value);
      return c.json(errorBody(unavailable.code, unavailable.message), unavailable.status);
    }
    (c.get('logger') ?? deps.logger).error({ err: error, path: redactSecrets(c.req.path) }, 'unhandled error');
    return c.json(errorBody('internal_error', 'Internal Server Error'), 500);
  });

  return app;
}
