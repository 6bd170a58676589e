import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { JSON_BODY_LIMIT_BYTES } from '../shared/limits.ts';
import { redactSecrets } from '../shared/redact.ts';
import type { AppDeps, AppEnv } from './context.ts';
import { ApiError, errorBody } from './errors.ts';
import { sameOriginOnly } from './middleware/csrf.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { loadSession } from './middleware/session.ts';
import { accountRoutes } from './routes/account.ts';
import { adminContactMessageRoutes } from './routes/admin-contact-messages.ts';
import { adminDataDeletionRoutes } from './routes/admin-data-deletion.ts';
import { adminFlagRoutes } from './routes/admin-flags.ts';
import { adminFormRoutes } from './routes/admin-forms.ts';
import { adminMissionGroupRoutes } from './routes/admin-mission-groups.ts';
import { adminMissionRoutes, adminSubmissionRoutes } from './routes/admin-missions.ts';
import { adminProjectRoutes } from './routes/admin-projects.ts';
import { adminReportRoutes } from './routes/admin-reports.ts';
import { adminSurveyRoutes } from './routes/admin-surveys.ts';
import { adminUserRoutes } from './routes/admin-users.ts';
import { authRoutes } from './routes/auth.ts';
import { contactRoutes } from './routes/contact.ts';
import { dataDeletionRoutes } from './routes/data-deletion.ts';
import { featureFlagRoutes } from './routes/feature-flags.ts';
import { formRoutes } from './routes/forms.ts';
import { healthRoutes } from './routes/health.ts';
import { homeRoutes } from './routes/home.ts';
import { mediaRoutes } from './routes/media.ts';
import { missionGroupRoutes } from './routes/mission-groups.ts';
import { missionRoutes } from './routes/missions.ts';
import { reportRoutes } from './routes/reports.ts';
import { surveyRoutes } from './routes/surveys.ts';
import { tokenRoutes } from './routes/tokens.ts';

/** The API routes, chained so `AppType` types the browser's client end to end. */
function apiRoutes() {
  return new Hono<AppEnv>()
    .route('/health', healthRoutes)
    .route('/auth', authRoutes)
    .route('/tokens', tokenRoutes)
    .route('/account', accountRoutes)
    .route('/admin/users', adminUserRoutes)
    .route('/feature-flags', featureFlagRoutes)
    .route('/reports', reportRoutes)
    .route('/contact', contactRoutes)
    .route('/data-deletion', dataDeletionRoutes)
    .route('/admin/flags', adminFlagRoutes)
    .route('/admin/reports', adminReportRoutes)
    .route('/admin/contact-messages', adminContactMessageRoutes)
    .route('/admin/data-deletion-requests', adminDataDeletionRoutes)
    .route('/admin/forms', adminFormRoutes)
    .route('/forms', formRoutes)
    .route('/admin/projects', adminProjectRoutes)
    .route('/admin/surveys', adminSurveyRoutes)
    .route('/admin/missions', adminMissionRoutes)
    .route('/admin/submissions', adminSubmissionRoutes)
    .route('/admin/mission-groups', adminMissionGroupRoutes)
    .route('/home', homeRoutes)
    .route('/surveys', surveyRoutes)
    .route('/missions', missionRoutes)
    .route('/mission-groups', missionGroupRoutes)
    .route('/media', mediaRoutes);
}

export type AppType = ReturnType<typeof apiRoutes>;

/**
 * The whole HTTP application. `pages` (optional) answers everything outside /api: the Node
 * server passes the static-site handler; API tests leave it out.
 */
export function createApp(deps: AppDeps, pages?: Hono<AppEnv>) {
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('db', deps.database.db);
    await next();
  });
  app.use('*', requestLog);
  app.use('*', securityHeaders);

  const jsonBodyLimit = bodyLimit({
    maxSize: JSON_BODY_LIMIT_BYTES,
    onError: (c) => c.json(errorBody('payload_too_large', 'The request body is too large'), 413),
  });
  // Uploads (POST /api/media) carry their own, larger limit (routes/media.ts); every other call this one.
  app.use('/api/*', (c, next) => (c.req.method === 'POST' && c.req.path === '/api/media' ? next() : jsonBodyLimit(c, next)));
  app.use('/api/*', sameOriginOnly);
  app.use('/api/*', loadSession);
  app.route('/api', apiRoutes());
  app.all('/api/*', (c) => c.json(errorBody('not_found', 'No such API endpoint'), 404));

  if (pages) app.route('/', pages);

  app.notFound((c) => c.json(errorBody('not_found', 'Not found'), 404));

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.fields, error.details), error.status);
    }
    if (error instanceof HTTPException) {
      return c.json(errorBody('http_error', error.message || 'Request failed'), error.status);
    }
    (c.var.logger ?? deps.logger).error({ err: error, path: redactSecrets(c.req.path) }, 'unhandled error');
    return c.json(errorBody('internal_error', 'Internal Server Error'), 500);
  });

  return app;
}
