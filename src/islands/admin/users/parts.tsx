/** What the users screens share: who is looking (their role decides what they may do), projects to choose from, the CSV upload. */
import { useStore } from '@nanostores/react';
import type { Role, UserStatus } from '../../../shared/roles.ts';
import { userStatusLabel } from '../../../lib/user.ts';
import { uploadForJson } from '../../../platform/upload.ts';
import { m } from '../../../shared/i18n.ts';
import { $auth } from '../../../stores/auth.ts';
import { Badge } from '../../../components/ui/badge.tsx';

/** Invited, active or disabled, as a badge. */
export function StatusBadge({ status }: { status: UserStatus }) {
  return <Badge variant={status === 'active' ? 'default' : status === 'invited' ? 'secondary' : 'outline'}>{userStatusLabel(status)}</Badge>;
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
export const adminOnlyNote = (): string => m.users_admin_only();

/** Sends a CSV as the multipart `file` of the bulk invitation call; the API's answer, or its error as `ApiError`. */
export function uploadInviteCsv<T>(file: File, dryRun: boolean): Promise<T> {
  const body = new FormData();
  body.append('file', file);
  return uploadForJson<T>(`/api/admin/invitations/bulk${dryRun ? '?dryRun=1' : ''}`, body, { refusedMessage: m.users_upload_refused() });
}
