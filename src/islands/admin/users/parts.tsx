/** What the users screens share: who is looking (their role decides what they may do), projects to choose from, the CSV upload. */
import { useStore } from '@nanostores/react';
import type { Role, UserStatus } from '../../../shared/roles.ts';
import { USER_STATUS_LABELS } from '../../../shared/users.ts';
import { ApiError } from '../../../platform/api.ts';
import { $auth } from '../../../stores/auth.ts';
import { Badge } from '../../../components/ui/badge.tsx';

/** Invited, active or disabled, as a badge. */
export function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge variant={status === 'active' ? 'default' : status === 'invited' ? 'secondary' : 'outline'}>{USER_STATUS_LABELS[status]}</Badge>;
}

/** A project in the filters and the invitation's "Project" choice. */
export interface ProjectOption {
  id: number;
  name: string;
}

/** The signed-in user's role, or null while it is not known yet. */
export function useCurrentRole(): Role | null {
  const auth = useStore($auth);
  return auth.status === 'authenticated' ? auth.user.role : null;
}

/** Only admins change roles and status, end sessions and invite staff (docs/permissions.md). */
export const ADMIN_ONLY_NOTE = 'Only admins can do this.';

/** Sends a CSV as the multipart `file` of the bulk invitation call; the API's answer, or its error as `ApiError`. */
export async function uploadInviteCsv<T>(file: File, dryRun: boolean): Promise<T> {
  const body = new FormData();
  body.append('file', file);
  let response: Response;
  try {
    response = await fetch(`/api/admin/invitations/bulk${dryRun ? '?dryRun=1' : ''}`, {
      method: 'POST',
      body,
      credentials: 'include',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw new ApiError(0, 'network_error', 'We could not reach Fieldwork. Check your connection and try again.');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const message = typeof error?.message === 'string' && error.message ? error.message : 'The file could not be sent. Please try again.';
    throw new ApiError(response.status, typeof error?.code === 'string' ? error.code : `http_${response.status}`, message, {}, null, text || null);
  }
  return data as T;
}
