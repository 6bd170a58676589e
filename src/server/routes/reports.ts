import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { REPORT_LIMITS, reportsBodySchema } from '../../shared/schemas/reports.ts';
import type { AppEnv } from '../context.ts';
import { errorBody } from '../errors.ts';
import { clientIp, enforceRateLimits, readJson } from '../http.ts';
import { storeReports } from '../services/client-reports.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';

/**
 * `POST /api/reports` (docs/product.md §3, §4, §7, §8): the browser's queued error reports and actions.
 * Validated exactly, at most 20 per call and 64 KiB, rate limited per IP, stored with a count
 * per content hash and the signed-in user if any. 204: the browser does not read the answer.
 */
export const reportRoutes = new Hono<AppEnv>().post(
  '/',
  bodyLimit({
    maxSize: REPORT_LIMITS.maxBytes,
    onError: (c) => c.json(errorBody('payload_too_large', `Send at most ${REPORT_LIMITS.maxBytes / 1024} KiB of reports per call`), 413),
  }),
  async (c) => {
    await enforceRateLimits(c, [[`reports:ip:${clientIp(c)}`, RATE_LIMITS.reportsPerIp]]);
    const { reports } = await readJson(c, reportsBodySchema);
    await storeReports(c.var.db, c.var.deps.clock, reports, c.var.user?.id ?? null);
    return c.body(null, 204);
  },
);
