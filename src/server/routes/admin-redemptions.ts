import { Hono } from 'hono';
import {
  adminRedemptionListQuerySchema,
  redemptionApproveSchema,
  redemptionBulkApproveSchema,
  redemptionDeliverSchema,
  redemptionExportQuerySchema,
  redemptionRejectSchema,
} from '../../shared/schemas/redemptions.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, check, clientIp, jsonBody, pathId, perRequest, query, recentAuth, signedInUser, staffOnly } from '../http.ts';
import {
  approveRedemption,
  bulkApproveRedemptions,
  deliverRedemption,
  existingRedemptionId,
  listAdminRedemptions,
  rejectRedemption,
} from '../services/redemptions-admin.ts';
import { auditRedemptionExport, redemptionExportCsv, redemptionExportName } from '../services/redemption-exports.ts';

/** The redemption of the path, checked (404) before any body is read. */
const redemptionOf = perRequest((c) => existingRedemptionId(c.get('db'), pathId(c, 'id', 'redemption')));

/**
 * The fulfilment queue (issue 30 §4; docs/api.md "Rewards"; rules: services/redemptions-admin.ts):
 * moderators and admins read, admins decide. The decisions move value: they take the recent
 * sign-in proof (`recentAuth`, 403 `reauth_required`) as points adjustments do. Mounted at `/`,
 * each call names its whole path; the bulk approval comes before `/:id`.
 */
export const adminRedemptionRoutes = new Hono<AppEnv>()
  .get('/admin/redemptions', staffOnly, query(adminRedemptionListQuerySchema), async (c) =>
    c.json(await listAdminRedemptions(c.get('db'), c.req.valid('query')), 200),
  )

  /** The reconciliation CSV of a period (streamed, formula-safe, no codes); personal data: a recent sign-in; audited. */
  .get('/admin/redemptions.csv', staffOnly, recentAuth, query(redemptionExportQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const filters = c.req.valid('query');
    const db = c.get('db');
    await auditRedemptionExport(db, filters, { id: user.id, ip: clientIp(c) });
    return c.body(redemptionExportCsv(db, filters), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${redemptionExportName(filters)}"`,
    });
  })

  .post('/admin/redemptions/approve', adminOnly, recentAuth, jsonBody(redemptionBulkApproveSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { ids, expectedStatus } = c.req.valid('json');
    const { db, deps } = c.var;
    return c.json(await bulkApproveRedemptions(db, deps, ids, expectedStatus, { id: user.id, ip: clientIp(c) }), 200);
  })

  .post('/admin/redemptions/:id/approve', adminOnly, recentAuth, check(redemptionOf), jsonBody(redemptionApproveSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = await redemptionOf(c);
    const { db, deps } = c.var;
    return c.json(await approveRedemption(db, deps, id, c.req.valid('json').expectedStatus, { id: user.id, ip: clientIp(c) }), 200);
  })

  .post('/admin/redemptions/:id/reject', adminOnly, recentAuth, check(redemptionOf), jsonBody(redemptionRejectSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = await redemptionOf(c);
    const { db, deps } = c.var;
    return c.json(await rejectRedemption(db, deps, id, c.req.valid('json'), { id: user.id, ip: clientIp(c) }), 200);
  })

  .post('/admin/redemptions/:id/deliver', adminOnly, recentAuth, check(redemptionOf), jsonBody(redemptionDeliverSchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const id = await redemptionOf(c);
    const { db, deps } = c.var;
    return c.json(await deliverRedemption(db, deps, id, c.req.valid('json'), { id: user.id, ip: clientIp(c) }), 200);
  });
