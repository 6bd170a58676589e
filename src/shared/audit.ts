/**
 * The audit log screen (`/admin/audit`, admins; docs/api.md "Account security"): what its calls
 * answer, for the browser and the server.
 */

/** The list's sort keys: `created` (newest first) alone. */
export const AUDIT_LIST_SORTS = ['created'] as const;
export type AuditSort = (typeof AUDIT_LIST_SORTS)[number];

/** One audit row as `GET /api/admin/audit` lists it: who (null: the CLI or the system), what, to which object, from where, the state before and after. */
export interface AuditListItem {
  id: number;
  createdAt: string;
  actorId: number | null;
  /** The actor's account as it is now (null: none, or it is gone). */
  actor: { id: number; email: string; firstName: string; lastName: string } | null;
  /** The API token that acted (`via` `token`: a write through `/api/v1/`, issue 32), else null. */
  apiTokenId: number | null;
  /** `api`, `cli`, `token` or `system`. */
  via: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** `GET /api/admin/audit/filters`: the actions and target types the log holds, A to Z (the screen's choices). */
export interface AuditFilters {
  actions: string[];
  targetTypes: string[];
}
