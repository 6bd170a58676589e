/**
 * Every API call that the fuzzer sends hostile input to (docs/fuzzing.md), as docs/api.md lists
 * them: method, path template (`{name}` or `:name` for a path parameter) and query names. What
 * input each takes follows from the method and the kind: every call gets hostile paths and
 * queries; POST, PUT, PATCH and DELETE get hostile bodies, and `upload` calls mostly multipart ones.
 */

export type BodyKind = 'none' | 'json' | 'upload';

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/api/...` with `{name}` for each path parameter. */
  template: string;
  /** The path parameters' names, in order. */
  params: string[];
  /** The documented query parameters' names. */
  query: string[];
  body: BodyKind;
  /** A browser navigation: its errors are HTML pages by design (docs/api.md), not the JSON error shape. */
  navigation: boolean;
}

/** The browser navigations (docs/api.md "Surveys": start and return answer HTML pages). */
const NAVIGATIONS = new Set(['GET /api/surveys/{id}/start', 'GET /api/surveys/return']);

/** The calls that take a file (multipart; CSV for the bulk invitation). */
const UPLOADS = new Set([
  'POST /api/media',
  'POST /api/admin/tools/alchemer-export-append',
  'POST /api/admin/tools/alchemer-export-append/preview',
  'POST /api/admin/tools/points-bulk-update/preview',
  'POST /api/admin/invitations/bulk',
]);

/**
 * Left out, each for a reason: turning maintenance on answers every other call 503 by design
 * (docs/api.md "Maintenance"), which would hide what the fuzzer looks for.
 */
export const SKIPPED: Record<string, string> = {
  'PUT /api/admin/flags/maintenance': 'maintenance mode answers 503 by design',
};

/** The list, one line a call, as in docs/api.md. */
const LINES = `
DELETE /api/account/passkeys/{id}
DELETE /api/account/sessions/{id}
DELETE /api/admin/flags/:key
DELETE /api/admin/flags/maintenance
DELETE /api/admin/forms/{id}
DELETE /api/admin/mission-groups/{id}
DELETE /api/admin/projects/{id}/members/{userId}
DELETE /api/admin/projects/{id}/reason-templates/{templateId}
DELETE /api/media/{id}
DELETE /api/missions/{id}/entries/{entryId}
GET /api/account
GET /api/account/mission-history
GET /api/account/mission-history/{missionId}
GET /api/account/notifications?page=&pageSize=
GET /api/account/points?page=&pageSize=
GET /api/admin/contact-messages?q=&page=&pageSize=&sort=&dir=
GET /api/admin/audit/export?q=&actorId=&action=&targetType=&targetId=&from=&to=
GET /api/admin/audit/filters
GET /api/admin/audit?q=&actorId=&action=&targetType=&targetId=&from=&to=&page=&pageSize=&sort=&dir=
GET /api/admin/dashboard
GET /api/admin/data-deletion-requests?status=&q=&page=&pageSize=&sort=&dir=
GET /api/admin/flags
GET /api/admin/forms/{id}
GET /api/admin/forms/{id}/changes
GET /api/admin/forms/{id}/versions/{version}
GET /api/admin/forms?q=&page=&pageSize=&sort=&dir=&status=
GET /api/admin/gallery?cursor=&limit=&projectId=&missionId=&userId=&participant=&state=&replaced=&tag=&starred=&from=&to=
GET /api/admin/missions/{id}
GET /api/admin/missions/{id}/submissions?status=&q=&from=&to=&probes=&page=&pageSize=&sort=&dir=
GET /api/admin/projects/{id}
GET /api/admin/projects/{id}/announcements
GET /api/admin/projects/{id}/members?q=&page=&pageSize=&sort=&dir=
GET /api/admin/projects/{id}/mission-groups
GET /api/admin/projects/{id}/missions
GET /api/admin/projects/{id}/reason-templates
GET /api/admin/projects/{id}/surveys
GET /api/admin/projects?q=&status=&page=&pageSize=&sort=&dir=
GET /api/admin/reports?kind=&q=&page=&pageSize=&sort=&dir=
GET /api/admin/rewards/settings
GET /api/admin/rewards/{id}
GET /api/admin/rewards?q=&active=&kind=&page=&pageSize=&sort=&dir=
GET /api/admin/submissions/{id}
GET /api/admin/submissions?status=&projectId=&missionId=&q=&from=&to=&probes=&cursor=&limit=
GET /api/admin/surveys/{id}
GET /api/admin/surveys/{id}/responses.csv?status=
GET /api/admin/surveys/{id}/responses?status=&q=&page=&pageSize=&sort=&dir=
GET /api/admin/surveys/{id}/results
GET /api/admin/tools/export-reviews/history
GET /api/admin/tools/export-reviews/projects/{id}/missions
GET /api/admin/tools/points-bulk-update/batches?page=&pageSize=
GET /api/admin/tools/points-bulk-update/{batchId}/problems.csv
GET /api/admin/tools/points-bulk-update/{batchId}/rows.csv
GET /api/admin/users.csv?q=&role=&status=&projectId=&from=&to=&active=
GET /api/admin/users/{id}
GET /api/admin/users?q=&role=&status=&projectId=&from=&to=&active=&page=&pageSize=&sort=&dir=
GET /api/auth
GET /api/feature-flags?feature=
GET /api/forms/schema.json
GET /api/health
GET /api/home
GET /api/media/{id}
GET /api/media/{id}/shared?variant=&expires=&signature=
GET /api/media/{id}/thumbnail
GET /api/mission-groups/{id}
GET /api/missions/{id}
GET /api/rewards
GET /api/surveys/return?status=&k=&pid=
GET /api/surveys/{id}
GET /api/surveys/{id}/start
GET /api/tokens/verify?token=&type=
PATCH /api/account/passkeys/{id}
PATCH /api/account/preferences
PATCH /api/account/profile
PATCH /api/admin/contact-messages/:id
PATCH /api/admin/data-deletion-requests/:id
PATCH /api/admin/media/{id}
PATCH /api/admin/mission-groups/{id}
PATCH /api/admin/missions/{id}
PATCH /api/admin/projects/{id}
PATCH /api/admin/rewards/{id}
PATCH /api/admin/surveys/{id}
PATCH /api/admin/users/{id}
POST /api/account/email
POST /api/account/email/confirm?token=
POST /api/account/notifications/read
POST /api/account/passkeys
POST /api/account/passkeys/options
POST /api/account/password
POST /api/account/probes/{id}/answer
POST /api/account/sessions/revoke-others
POST /api/admin/forms
POST /api/admin/forms/{id}/duplicate
POST /api/admin/forms/{id}/publish
POST /api/admin/forms/{id}/restore
POST /api/admin/invitations
POST /api/admin/invitations/bulk?dryRun=
POST /api/admin/media/zip
POST /api/admin/projects
POST /api/admin/projects/{id}/announcements
POST /api/admin/projects/{id}/members
POST /api/admin/projects/{id}/mission-groups
POST /api/admin/projects/{id}/missions
POST /api/admin/projects/{id}/reason-templates
POST /api/admin/projects/{id}/surveys
POST /api/admin/rewards
POST /api/admin/submissions/review
POST /api/admin/submissions/{id}/notes
POST /api/admin/submissions/{id}/probes
POST /api/admin/submissions/{id}/review
POST /api/admin/surveys/{id}/webhook-secret
POST /api/admin/tools/alchemer-export-append
POST /api/admin/tools/alchemer-export-append/preview
POST /api/admin/tools/export-reviews?preview=
POST /api/admin/tools/points-bulk-update/preview
POST /api/admin/tools/points-bulk-update/{batchId}/apply
POST /api/admin/users/{id}/invitation
POST /api/admin/users/{id}/points
POST /api/admin/users/{id}/sessions/end
POST /api/auth/login
POST /api/auth/logout
POST /api/auth/onboard?token=
POST /api/auth/passkey
POST /api/auth/passkey/options
POST /api/auth/password/forgot
POST /api/auth/password/reset?token=
POST /api/auth/reauth/options
POST /api/auth/register
POST /api/contact
POST /api/data-deletion
POST /api/data-deletion/confirm?token=
POST /api/media
POST /api/missions/{id}/entries
POST /api/missions/{id}/entries/{entryId}/submit
POST /api/reports
POST /api/surveys/{id}/response/submit
POST /api/surveys/{id}/webhook
PUT /api/account/address
PUT /api/admin/flags/:key
PUT /api/admin/flags/maintenance
PUT /api/admin/forms/{id}/draft
PUT /api/admin/rewards/settings
PUT /api/admin/users/{id}/tax-form
PUT /api/missions/{id}/entries/{entryId}
PUT /api/surveys/{id}/response
`;

function parse(line: string): ApiCall {
  const [method = '', target = ''] = line.split(' ');
  const [rawPath = '', rawQuery = ''] = target.split('?');
  const params: string[] = [];
  const template = rawPath.replace(/\{(\w+)\}|:(\w+)/g, (_match, braced: string | undefined, colon: string | undefined) => {
    const name = braced ?? colon ?? '';
    params.push(name);
    return `{${name}}`;
  });
  const query = rawQuery
    .split('&')
    .map((pair) => pair.split('=')[0] ?? '')
    .filter(Boolean);
  const key = `${method} ${rawPath}`;
  const body: BodyKind = method === 'GET' ? 'none' : UPLOADS.has(key) ? 'upload' : 'json';
  return { method: method as ApiCall['method'], template, params, query, body, navigation: NAVIGATIONS.has(key) };
}

/** The calls, without the skipped ones. */
export const API_CALLS: readonly ApiCall[] = LINES.trim()
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !(line in SKIPPED))
  .map(parse);
