import { Hono, type Context } from 'hono';
import { bulkInvitationQuerySchema, invitationSchema, userListQuerySchema, userPatchSchema } from '../../shared/schemas/users.ts';
import { INVITE_CSV_MAX_BYTES } from '../../shared/users.ts';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';
import { adminOnly, check, clientIp, jsonBody, notFound, pathId, perRequest, query, recentAuth, requestLanguage, signedInUser, staffOnly } from '../http.ts';
import { bulkInvite, InvitationError, inviteLater, mayInviteAs, resendInvitation } from '../services/invitations.ts';
import { existingProject } from '../services/projects.ts';
import { resetSecondFactors } from '../services/second-factors.ts';
import {
  adminUserDetail,
  adminUserListItem,
  endUserSessions,
  findUserByEmail,
  findUserById,
  listUsers,
  updateUserAccess,
  usersCsv,
} from '../services/users.ts';

/** The user of the path, checked to exist (404) before the body is read. */
const userOf = perRequest(async (c) => {
  const user = await findUserById(c.get('db'), pathId(c, 'id', 'user'));
  if (!user) throw notFound('user');
  return user;
});

const refuseRole = () => new ApiError(403, 'forbidden', 'Only admins may invite moderators and admins');

/** The `file` part of a multipart body as text (400 `file_required` without one, 413 over the limit). */
async function uploadedCsv(c: Context<AppEnv>): Promise<string> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'multipart/form-data') throw new ApiError(400, 'file_required', 'Choose a CSV file (multipart field "file")');
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new ApiError(400, 'invalid_upload', 'The file could not be read');
  }
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw new ApiError(400, 'file_required', 'Choose a CSV file (multipart field "file")');
  if (file.size > INVITE_CSV_MAX_BYTES) throw new ApiError(413, 'file_too_large', 'The file is too large (at most 1 MB)');
  const text = await file.text();
  if (text.trim() === '') throw new ApiError(400, 'file_empty', 'The file is empty');
  return text;
}

/**
 * The admin area's users and invitations (docs/permissions.md, docs/product.md §2.5): mounted at
 * `/`, each call names its whole path and is guarded on its own. Moderators read, export and
 * invite participants; admins besides change roles and status, end sessions and invite staff.
 * Points adjustments are in `points.ts`.
 */
export const adminUserRoutes = new Hono<AppEnv>()
  .get('/admin/users', staffOnly, query(userListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(await listUsers(c.get('db'), query, c.get('deps').clock.now()), 200);
  })

  /** The filtered list as CSV (formula-safe, streamed in id order); the list's filters, its page and sort ignored. Personal data: a recent sign-in (`recentAuth`). */
  .get('/admin/users.csv', staffOnly, recentAuth, query(userListQuerySchema), (c) => {
    const { q, role, status, projectId, from, to, active } = c.req.valid('query');
    return c.body(usersCsv(c.get('db'), { q, role, status, projectId, from, to, active }, c.get('deps').clock.now()), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="users.csv"',
    });
  })

  .get('/admin/users/:id', staffOnly, async (c) => {
    const detail = await adminUserDetail(c.get('db'), pathId(c, 'id', 'user'));
    if (!detail) throw notFound('user');
    return c.json(detail, 200);
  })

  /** `{ role?, status? }` (admins, a recent sign-in): 409 `self_change`, `last_admin`, `not_onboarded`; sessions end on a role change or a disable. */
  .patch('/admin/users/:id', adminOnly, recentAuth, check(userOf), jsonBody(userPatchSchema), async (c) => {
    const actor = signedInUser(c.get('user'));
    const user = await userOf(c);
    const input = c.req.valid('json');
    const done = await updateUserAccess(c.get('db'), c.get('deps').clock, {
      actorId: actor.id,
      userId: user.id,
      role: input.role,
      status: input.status,
      ip: clientIp(c),
    });
    return c.json({ user: adminUserListItem(done.user), endedSessions: done.endedSessions }, 200);
  })

  .post('/admin/users/:id/sessions/end', adminOnly, check(userOf), async (c) => {
    const actor = signedInUser(c.get('user'));
    const user = await userOf(c);
    return c.json(await endUserSessions(c.get('db'), { actorId: actor.id, userId: user.id, ip: clientIp(c) }), 200);
  })

  /**
   * An admin resets another person's second factors (issue 29 §3): app, passkeys, recovery codes,
   * trusted browsers and sessions go; the person is mailed; audited `user.second_factors_reset`.
   */
  .post('/admin/users/:id/second-factors/reset', adminOnly, recentAuth, check(userOf), async (c) => {
    const actor = signedInUser(c.get('user'));
    const user = await userOf(c);
    return c.json({ ok: true as const, ...(await resetSecondFactors(c.get('db'), c.get('deps'), user.id, actor, { ip: clientIp(c) })) }, 200);
  })

  /** Resends an invited account's invitation (a fresh link; the earlier one stops working); 409 `not_invited` otherwise. */
  .post('/admin/users/:id/invitation', staffOnly, check(userOf), async (c) => {
    const actor = signedInUser(c.get('user'));
    const user = await userOf(c);
    if (!mayInviteAs(actor, user.role)) throw refuseRole();
    await resendInvitation(
      { db: c.get('db'), jobs: c.get('deps').jobs, clock: c.get('deps').clock },
      { user, actorId: actor.id, ip: clientIp(c), language: requestLanguage(c) },
    );
    return c.json({ user: adminUserListItem(user), created: false }, 202);
  })

  /** One person: 201 a new invited account, 200 an invited one invited again; 409 for an active or disabled account. */
  .post('/admin/invitations', staffOnly, jsonBody(invitationSchema), async (c) => {
    const actor = signedInUser(c.get('user'));
    const input = c.req.valid('json');
    if (!mayInviteAs(actor, input.role)) throw refuseRole();
    // Inviting again an invited staff account is inviting staff too.
    const existing = await findUserByEmail(c.get('db'), input.email);
    if (existing && !mayInviteAs(actor, existing.role)) throw refuseRole();
    if (input.projectId) await existingProject(c.get('db'), input.projectId);
    try {
      const { user, created } = await inviteLater(
        { db: c.get('db'), jobs: c.get('deps').jobs },
        { ...input, invitedBy: actor.id, inviterRole: actor.role, via: 'api', ip: clientIp(c), language: requestLanguage(c) },
        c.get('deps').clock,
      );
      return c.json({ user: adminUserListItem(user), created }, created ? 201 : 200);
    } catch (error) {
      if (error instanceof InvitationError) throw error.reason === 'staff' ? refuseRole() : new ApiError(409, 'cannot_invite', error.message);
      throw error;
    }
  })

  /** A CSV of people (multipart `file`): `?dryRun=1` previews; else the valid rows are invited. */
  .post('/admin/invitations/bulk', staffOnly, query(bulkInvitationQuerySchema), async (c) => {
    const actor = signedInUser(c.get('user'));
    const { dryRun } = c.req.valid('query');
    const text = await uploadedCsv(c);
    const deps = { db: c.get('db'), jobs: c.get('deps').jobs, clock: c.get('deps').clock };
    return c.json(await bulkInvite(deps, { inviter: actor, text, dryRun, ip: clientIp(c), language: requestLanguage(c) }), 200);
  });
