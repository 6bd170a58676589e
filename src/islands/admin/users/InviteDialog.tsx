/**
 * "Invite": one person by email, with their names, a role (moderators invite participants only)
 * and a project to join. The invitation mail goes out through the job queue; an address that
 * already has an account is said plainly.
 */
import { useId } from 'react';
import { ROLES, type Role } from '../../../shared/roles.ts';
import type { InvitationResult } from '../../../shared/users.ts';
import { apiSend } from '../../../platform/api.ts';
import { m } from '../../../shared/i18n.ts';
import { ROLE_LABELS } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { FormDialog, useDialogForm } from '../form-dialog.tsx';
import type { ProjectOption } from './parts.tsx';

interface InviteValues {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  projectId: number | null;
}

const DEFAULTS: InviteValues = { email: '', firstName: '', lastName: '', role: 'participant', projectId: null };

export function InviteDialog({
  open,
  onOpenChange,
  role,
  projects,
  onInvited,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The caller's role: admins may invite any role, moderators participants. */
  role: Role | null;
  projects: readonly ProjectOption[];
  onInvited: () => void;
}) {
  const roleId = useId();
  const projectId = useId();
  const form = useDialogForm<InviteValues>(
    { open, onOpenChange },
    {
      schema: () => import('../../../shared/schemas/users.ts').then((schemas) => schemas.invitationSchema),
      defaultValues: DEFAULTS,
      submit: async (values) => {
        const body = { ...values, firstName: values.firstName || undefined, lastName: values.lastName || undefined };
        const done = await apiSend<InvitationResult>('POST', '/api/admin/invitations', body);
        toast({ title: done.created ? m.users_invite_sent({ email: done.user.email }) : m.users_invite_again({ email: done.user.email }) });
        onInvited();
        onOpenChange(false);
      },
    },
  );
  const {
    register,
    watch,
    setValue,
    formState: { errors },
  } = form;

  const chosenRole = watch('role');
  const chosenProject = watch('projectId');
  const roles = role === 'admin' ? ROLES : (['participant'] as const);

  return (
    <FormDialog form={form} title={m.users_invite_title()} description={m.users_invite_description()} submitLabel={m.users_invite_submit()}>
      <FormField id="invite-email" label={m.users_invite_email()} error={errors.email?.message}>
        {(control) => <Input {...control} type="email" autoComplete="off" {...register('email')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="invite-first-name" label={m.users_invite_first_name()} hint={m.users_invite_optional()} error={errors.firstName?.message}>
          {(control) => <Input {...control} autoComplete="off" {...register('firstName')} />}
        </FormField>
        <FormField id="invite-last-name" label={m.users_invite_last_name()} hint={m.users_invite_optional()} error={errors.lastName?.message}>
          {(control) => <Input {...control} autoComplete="off" {...register('lastName')} />}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor={roleId}>{m.users_invite_role()}</Label>
          <Select value={chosenRole} onValueChange={(value) => setValue('role', value as Role)} disabled={roles.length === 1}>
            <SelectTrigger id={roleId} aria-describedby={roles.length === 1 ? `${roleId}-note` : undefined}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {roles.map((value) => (
                <SelectItem key={value} value={value}>
                  {ROLE_LABELS[value]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {roles.length === 1 && (
            <p id={`${roleId}-note`} className="text-xs text-muted-foreground">
              {m.users_invite_role_note()}
            </p>
          )}
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={projectId}>{m.users_invite_project()}</Label>
          <Select
            value={chosenProject === null ? 'none' : String(chosenProject)}
            onValueChange={(value) => setValue('projectId', value === 'none' ? null : Number(value))}
          >
            <SelectTrigger id={projectId}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="none">{m.users_invite_no_project()}</SelectItem>
              {projects.map((project) => (
                <SelectItem key={project.id} value={String(project.id)}>
                  {project.name}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
    </FormDialog>
  );
}
