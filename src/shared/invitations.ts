/**
 * Invitations (docs/api.md "Admin: users and invitations"): how many invitation mails one staff
 * member may send. Zod-free; the answers' shapes are in `users.ts`.
 */

/**
 * Invitation mails — each invitation sent or resent by a staff member (one, a bulk file's rows, a
 * resend) — one staff member may send in a window that starts with the first and lasts
 * `windowHours`: one full bulk file (5,000 rows, `INVITE_CSV_MAX_ROWS`) a day. Counted in the
 * transaction that queues them; a call that would go over is refused whole (429 saying how many
 * can still be sent and when). The operator CLI's `user:invite` is not counted.
 */
export const INVITATION_MAIL_LIMIT = { mails: 5_000, windowHours: 24 } as const;
