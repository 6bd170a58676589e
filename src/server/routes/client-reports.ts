import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientReportListQuerySchema } from '../../shared/schemas/admin.ts';
import { REPORT_LIMITS } from '../../shared/client-reports.ts';
import { reportsBodySchema } from '../../shared/schemas/client-reports.ts';
import type { AppEnv } from '../context.ts';
import { errorBody } from '../errors.ts';
import { clientIp, enforceRateLimits, jsonBody, query, staffOnly } from '../http.ts';
import { listReports, storeReports } from '../services/client-reports.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/**
 * Client reports (mounted at `/api`, so each call names its whole path): the browsers' queued
 * error reports and actions coming in, and the "Client errors" admin tool reading them.
 */
export const clientReportRoutes = new Hono<AppEnv>()
  /**
   * `POST /api/reports` (docs/product.md §3, §4, §7, §8): validated exactly, at most 20 per call
   * and 64 KiB, rate limited per IP, stored with a count per content hash and the signed-in user
   * if any. 204: the browser does not read the answer.
   */
  .post(
    '/reports',
    bodyLimit({
      maxSize: REPORT_LIMITS.maxBytes,
      onError: (c) => c.json(errorBody('payload_too_large', `Send at most ${REPORT_LIMITS.maxBytes / 1024} KiB of reports per call`), 413),
    }),
    jsonBody(reportsBodySchema),
    async (c) => {
      await enforceRateLimits(c, [[`reports:ip:${clientIp(c)}`, RATE_LIMITS.reportsPerIp]]);
      const { reports } = c.req.valid('json');
      await storeReports(c.get('db'), c.get('deps').clock, reports, c.get('user')?.id ?? null);
      return c.body(null, 204);
    },
  )

  /** The "Client errors" admin tool (moderators and admins): stored reports, errors by default (`kind`), searched and paginated. */
  .get('/admin/reports', staffOnly, query(clientReportListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listReports(c.get('db'), query), 200);
  });
