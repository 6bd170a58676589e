import { Hono } from 'hono';
import { auditListQuerySchema } from '../../shared/schemas/audit.ts';
import type { AppEnv } from '../context.ts';
import { adminOnly, query, recentAuth } from '../http.ts';
import { auditCsv, auditFilters, listAudit } from '../services/audit-log.ts';

/**
 * The audit log (`/admin/audit`; issue 29 §7), admins only (moderators 403): mounted at `/`, each
 * call names its whole path.
 */
export const adminAuditRoutes = new Hono<AppEnv>()
  .get('/admin/audit', adminOnly, query(auditListQuerySchema), async (c) => c.json(await listAudit(c.get('db'), c.req.valid('query')), 200))

  .get('/admin/audit/filters', adminOnly, async (c) => c.json(await auditFilters(c.get('db')), 200))

  /** The filtered log as CSV (formula-safe, streamed, oldest first); the list's page and sort ignored. */
  // Who did what, with e-mails: personal data, so a recent sign-in proof (issue 29 §4).
  .get('/admin/audit/export', adminOnly, recentAuth, query(auditListQuerySchema), (c) => {
    const { q, actorId, action, targetType, targetId, from, to } = c.req.valid('query');
    return c.body(auditCsv(c.get('db'), { q, actorId, action, targetType, targetId, from, to }), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="audit-log.csv"',
    });
  });
