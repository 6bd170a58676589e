import { Hono, type Context } from 'hono';
import { entryExportQuerySchema } from '../../shared/schemas/entry-exports.ts';
import type { AppEnv } from '../context.ts';
import { check, clientIp, pathId, perRequest, query, recentAuth, signedInUser, staffOnly } from '../http.ts';
import { auditEntryExport, entryExportFile, projectMissions, type ExportFile } from '../services/entry-exports.ts';
import { existingMission } from '../services/missions.ts';
import { existingProject } from '../services/projects.ts';

/** The mission and the project of the path, loaded once a request: checked (404) before the query (400). */
const missionOf = perRequest((c) => existingMission(c.get('db'), pathId(c, 'id', 'mission')));
const projectOf = perRequest((c) => existingProject(c.get('db'), pathId(c, 'id', 'project')));

/** The file as the answer: streamed, saved under its name. */
function download(c: Context<AppEnv>, file: ExportFile): Response {
  return c.body(file.body, 200, { 'Content-Type': file.contentType, 'Content-Disposition': `attachment; filename="${file.fileName}"` });
}

/**
 * The answers export (moderators and admins): a mission's or a project's mission entries as CSV
 * or XLSX, audited (`entries.export`) before the file is sent; personal data, so a recent sign-in (`recentAuth`). Mounted at `/`: each call names its
 * whole path. docs/api.md "Answers export".
 */
export const entryExportRoutes = new Hono<AppEnv>()
  .get('/admin/missions/:id/entries/export', staffOnly, recentAuth, check(missionOf), query(entryExportQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    const mission = await missionOf(c);
    const filters = c.req.valid('query');
    const file = await entryExportFile({ db, config: deps.config, now: deps.clock.now() }, { kind: 'mission', mission }, filters);
    await auditEntryExport(db, { type: 'mission', id: mission.id }, filters, { id: user.id, ip: clientIp(c) });
    return download(c, file);
  })

  .get('/admin/projects/:id/entries/export', staffOnly, recentAuth, check(projectOf), query(entryExportQuerySchema), async (c) => {
    const user = signedInUser(c.get('user'));
    const { db, deps } = c.var;
    const project = await projectOf(c);
    const filters = c.req.valid('query');
    const missions = await projectMissions(db, project.id);
    const file = await entryExportFile({ db, config: deps.config, now: deps.clock.now() }, { kind: 'project', project, missions }, filters);
    await auditEntryExport(db, { type: 'project', id: project.id }, filters, { id: user.id, ip: clientIp(c) });
    return download(c, file);
  });
