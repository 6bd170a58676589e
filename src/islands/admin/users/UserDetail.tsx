/**
 * /admin/users/{userId} (docs/product.md §2.5): the person's profile, address, preferences and
 * status; their access (role, disable / enable, end all sessions, resend the invitation: each
 * asked once more, admins only, a 409 said as it is); sessions (device, last seen); projects;
 * entries with their states; the points ledger with "Adjust points"; the audit trail of what was
 * done to or by them.
 */
import { useId, useState, type ReactNode } from 'react';
import type { Role } from '../../../shared/roles.ts';
import { ROLES } from '../../../shared/roles.ts';
import type { TaxFormRecord } from '../../../shared/rewards.ts';
import type { AdminUserDetail, AdminUserListItem } from '../../../shared/users.ts';
import { apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { describeDevice, formatDate, formatDateTime, formatRelative } from '../../../lib/format.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf, ROLE_LABELS } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { ConfirmButton, FilterSelect, Section, TableScroller, td, th } from '../admin-kit.tsx';
import { Breadcrumbs, Detail, EntryStatusBadge, RecordScreen, ScreenHeader } from '../projects/kit.tsx';
import { AdjustPointsDialog } from './AdjustPointsDialog.tsx';
import { ADMIN_ONLY_NOTE, StatusBadge, useCurrentRole } from './parts.tsx';
import { preferenceRows } from '../../../lib/preferences.ts';

/** The island of /admin/users/{userId}. */
export default function UserDetail() {
  return (
    <RecordScreen<AdminUserDetail>
      pattern="/admin/users/:userId"
      path={(ids) => `/api/admin/users/${ids.userId}`}
      loading="Loading the person…"
      cards={[12, 10, 10, 14]}
      missing={{
        title: 'No such person',
        href: '/admin/users',
        linkLabel: 'All people',
        text: 'This account does not exist. It may have been mistyped in the address.',
      }}
      failed="This person could not be loaded"
    >
      {(user, { reload }) => <Person user={user} reload={reload} />}
    </RecordScreen>
  );
}

/** A list of the person's: a table of a row each, or a sentence when there are none. */
function Table<T>({
  label,
  columns,
  rows,
  empty,
  children,
}: {
  label: string;
  columns: readonly string[];
  rows: readonly T[];
  empty: string;
  children: (row: T) => ReactNode;
}) {
  if (rows.length === 0) return <Empty>{empty}</Empty>;
  return (
    <TableScroller label={label}>
      <table className="w-full min-w-[36rem] border-collapse">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className={th}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.map(children)}</tbody>
      </table>
    </TableScroller>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-sm text-muted-foreground">{children}</p>;

const ACTION_LABELS: Record<string, string> = {
  'user.invite': 'Invited',
  'user.invite_resend': 'Invitation resent',
  'user.update': 'Role or status changed',
  'user.tax_form': 'Tax form recorded or withdrawn',
  'user.sessions_end': 'Sessions ended',
  'user.onboard': 'Finished setting up the account',
  'user.password_reset': 'Password reset',
  'user.password_change': 'Password changed',
  'points.adjust': 'Points adjusted',
  'user.create': 'Account created',
  'user.register': 'Registered',
  'user.profile': 'Profile changed',
  'user.email_change': 'Email changed',
  'user.sign_in': 'Signed in',
  'user.session_end': 'Signed out a session',
  'user.reauth': 'Confirmed it was them',
  'user.second_factor_failed': 'Wrong second step at sign-in',
  'user.totp_enabled': 'Authenticator app turned on',
  'user.totp_removed': 'Authenticator app removed',
  'user.recovery_codes_made': 'New recovery codes made',
  'user.passkey_added': 'Passkey added',
  'user.passkey_renamed': 'Passkey renamed',
  'user.passkey_removed': 'Passkey removed',
  'user.second_factors_reset': 'Second factors reset by an admin',
};

/** What an audit row did, in words: a role or status change says which. */
function auditWhat(row: AdminUserDetail['audit'][number]): string {
  if (row.action !== 'user.update') return ACTION_LABELS[row.action] ?? row.action;
  const before = (row.before ?? {}) as { role?: Role; status?: string };
  const after = (row.after ?? {}) as { role?: Role; status?: string };
  const parts: string[] = [];
  if (before.role && after.role && before.role !== after.role) parts.push(`Role: ${ROLE_LABELS[before.role]} → ${ROLE_LABELS[after.role]}`);
  if (before.status !== after.status) parts.push(after.status === 'disabled' ? 'Disabled' : 'Enabled');
  return parts.join('; ') || 'Role or status changed';
}

/** A short reading of an audit row's after-state ("role: moderator, status: active"). */
function summary(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v !== 'object')
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(', ');
}

function Person({ user, reload }: { user: AdminUserDetail; reload: () => void }) {
  const viewer = useCurrentRole();
  const isAdmin = viewer === 'admin';
  const [nextRole, setNextRole] = useState<Role>(user.role);
  const [problem, setProblem] = useState<string | null>(null);
  const [adjusting, setAdjusting] = useState(false);
  const name = fullNameOf(user) || user.email;

  /** Runs an action; a refusal (409 self_change, last_admin, …) is said in the alert, the page reloads either way. */
  async function act(run: () => Promise<unknown>, done: string) {
    setProblem(null);
    try {
      await run();
      toast({ title: done });
    } catch (error) {
      if (handleSessionLost(error)) return;
      setProblem(errorMessage(error));
    }
    reload();
  }

  const patch = (body: { role?: Role; status?: 'active' | 'disabled' }) =>
    apiSend<{ user: AdminUserListItem; endedSessions: number }>('PATCH', `/api/admin/users/${user.id}`, body);
  const adminNote = isAdmin ? null : (
    <p className="text-xs text-muted-foreground">{ADMIN_ONLY_NOTE} Moderators see this page and may resend a participant's invitation.</p>
  );

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs items={[{ label: 'Dashboard', href: '/admin' }, { label: 'Users', href: '/admin/users' }, { label: name }]} />
        <ScreenHeader
          title={name}
          badges={
            <>
              <StatusBadge status={user.status} />
              <span className="text-sm text-muted-foreground">{ROLE_LABELS[user.role]}</span>
            </>
          }
          subtitle={user.email}
        />
      </div>
      {problem && (
        <Alert variant="destructive" title="That did not happen">
          {problem}
        </Alert>
      )}

      <Section id="profile" title="Profile">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Detail term="Name">{fullNameOf(user) || 'Not given yet'}</Detail>
          <Detail term="Email">{user.email}</Detail>
          <Detail term="Role">{ROLE_LABELS[user.role]}</Detail>
          <Detail term="Status">
            <StatusBadge status={user.status} />
          </Detail>
          <Detail term="Signed up">{formatDateTime(user.createdAt)}</Detail>
          <Detail term="Last active">{user.lastActiveAt ? formatRelative(user.lastActiveAt) : 'Never'}</Detail>
          <Detail term="Last sign-in">{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'Never'}</Detail>
          <Detail term="Terms accepted">{user.termsAcceptedAt ? formatDate(user.termsAcceptedAt) : 'Not yet'}</Detail>
          <Detail term="Address">
            {user.address ? (
              <span className="whitespace-pre-line">
                {[user.address.line1, user.address.line2, `${user.address.postalCode} ${user.address.city}`, user.address.region, user.address.country]
                  .filter(Boolean)
                  .join('\n')}
              </span>
            ) : (
              'Not given'
            )}
          </Detail>
          {user.birthYear !== null && <Detail term="Year of birth">{user.birthYear}</Detail>}
          {preferenceRows(user.preferences, user.role).map((row) => (
            <Detail key={row.term} term={row.term}>
              {row.value}
            </Detail>
          ))}
        </dl>
      </Section>

      <Section
        id="access"
        title="Access"
        description="A role change or a disable signs them out everywhere at once. Nobody can change their own role or disable themself."
      >
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <FilterSelect
              label="Role"
              value={nextRole}
              options={ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
              onChange={setNextRole}
              className="sm:w-48"
            />
            {isAdmin && nextRole !== user.role ? (
              <ConfirmButton
                confirmLabel="Change role"
                question={`Make ${name} ${ROLE_LABELS[nextRole].toLowerCase()}? They are signed out.`}
                onConfirm={() => act(() => patch({ role: nextRole }), `${name} is now ${ROLE_LABELS[nextRole].toLowerCase()}`)}
              >
                Change role
              </ConfirmButton>
            ) : (
              <Button variant="outline" size="sm" disabled aria-describedby={isAdmin ? undefined : 'access-note'}>
                Change role
              </Button>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            {isAdmin && user.status !== 'disabled' && (
              <ConfirmButton
                confirmLabel="Disable"
                confirmVariant="destructive"
                question={`Disable ${name}? They are signed out at once and cannot sign in.`}
                onConfirm={() => act(() => patch({ status: 'disabled' }), `${name} is disabled`)}
              >
                Disable account
              </ConfirmButton>
            )}
            {isAdmin && user.status === 'disabled' && (
              <ConfirmButton
                confirmLabel="Enable"
                question={`Enable ${name}? They can sign in again.`}
                onConfirm={() => act(() => patch({ status: 'active' }), `${name} is enabled`)}
              >
                Enable account
              </ConfirmButton>
            )}
            {isAdmin && (
              <ConfirmButton
                confirmLabel="End sessions"
                question={`Sign ${name} out on every device?`}
                onConfirm={() => act(() => apiSend<{ ended: number }>('POST', `/api/admin/users/${user.id}/sessions/end`), `${name} is signed out everywhere`)}
              >
                End all sessions
              </ConfirmButton>
            )}
            {!isAdmin && (
              <>
                <Button variant="outline" size="sm" disabled aria-describedby="access-note">
                  {user.status === 'disabled' ? 'Enable account' : 'Disable account'}
                </Button>
                <Button variant="outline" size="sm" disabled aria-describedby="access-note">
                  End all sessions
                </Button>
              </>
            )}
            {user.status === 'invited' && (isAdmin || user.role === 'participant') && (
              <ConfirmButton
                confirmLabel="Resend"
                question={`Send ${user.email} a new invitation link? The earlier link stops working.`}
                onConfirm={() => act(() => apiSend('POST', `/api/admin/users/${user.id}/invitation`), `Invitation sent again to ${user.email}`)}
              >
                Resend invitation
              </ConfirmButton>
            )}
          </div>
          <div id="access-note">{adminNote}</div>
        </div>
      </Section>

      <Section id="sessions" title="Sessions" description="Where they are signed in.">
        <Table label="Session list" columns={['Device', 'Address', 'Signed in', 'Last seen']} rows={user.sessions} empty="Not signed in anywhere.">
          {(session) => (
            <tr key={session.id}>
              <td className={td}>{describeDevice(session.userAgent).label}</td>
              <td className={td}>{session.ip ?? '—'}</td>
              <td className={`${td} whitespace-nowrap`}>{formatDateTime(session.createdAt)}</td>
              <td className={`${td} whitespace-nowrap`}>{formatRelative(session.lastSeenAt)}</td>
            </tr>
          )}
        </Table>
      </Section>

      <Section id="projects" title="Projects">
        {user.projects.length === 0 ? (
          <Empty>Not a member of any project.</Empty>
        ) : (
          <ul className="flex flex-col gap-2">
            {user.projects.map((project) => (
              <li key={project.id} className="text-sm">
                <a href={`/admin/projects/${project.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                  {project.name}
                </a>{' '}
                <span className="text-muted-foreground">
                  ({project.status}, member since {formatDate(project.addedAt)})
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="entries" title="Entries" description="Their latest mission entries and where each stands.">
        <Table label="Entry list" columns={['Mission', 'State', 'Submitted', 'Last change']} rows={user.entries} empty="No entries yet.">
          {(entry) => (
            <tr key={entry.id}>
              <td className={td}>
                <a href={`/admin/projects/${entry.projectId}/missions/${entry.missionId}`} className="text-primary underline-offset-4 hover:underline">
                  {entry.missionTitle}
                </a>
              </td>
              <td className={td}>
                <EntryStatusBadge status={entry.status} />
              </td>
              <td className={`${td} whitespace-nowrap`}>{entry.submittedAt ? formatDateTime(entry.submittedAt) : '—'}</td>
              <td className={`${td} whitespace-nowrap`}>{formatRelative(entry.updatedAt)}</td>
            </tr>
          )}
        </Table>
      </Section>

      <Section
        id="points"
        title="Points"
        description={
          <>
            Balance <strong className="tabular-nums">{user.points.balance}</strong>, pending <span className="tabular-nums">{user.points.pending}</span>
            {user.points.held > 0 && (
              <>
                , held for rewards <span className="tabular-nums">{user.points.held}</span>
              </>
            )}
            .
          </>
        }
        aside={
          isAdmin ? (
            <Button onClick={() => setAdjusting(true)}>Adjust points</Button>
          ) : (
            <div className="flex flex-col items-end gap-1">
              <Button disabled aria-describedby="points-note">
                Adjust points
              </Button>
              <p id="points-note" className="text-xs text-muted-foreground">
                {ADMIN_ONLY_NOTE}
              </p>
            </div>
          )
        }
      >
        <Table label="Points ledger" columns={['When', 'Points', 'State', 'Reason']} rows={user.points.entries} empty="No points yet.">
          {(entry) => (
            <tr key={entry.id}>
              <td className={`${td} whitespace-nowrap`}>{formatDateTime(entry.createdAt)}</td>
              <td className={`${td} tabular-nums`}>{entry.points > 0 ? `+${entry.points}` : entry.points}</td>
              <td className={td}>{entry.state}</td>
              <td className={td}>{entry.reason}</td>
            </tr>
          )}
        </Table>
      </Section>
      <AdjustPointsDialog open={adjusting} onOpenChange={setAdjusting} userId={user.id} name={name} onAdjusted={reload} />

      <Section id="rewards" title="Rewards" description="Above the community's yearly value, rewards are sent only once a tax form is on file.">
        <TaxFormSwitch user={user} isAdmin={isAdmin} onChanged={reload} />
      </Section>

      <Section id="audit" title="Audit trail" description="Everything done to or by this person, newest first.">
        <Table label="Audit rows" columns={['When', 'What', 'Who', 'Details']} rows={user.audit} empty="Nothing recorded yet.">
          {(row) => (
            <tr key={row.id}>
              <td className={`${td} whitespace-nowrap`}>{formatDateTime(row.createdAt)}</td>
              <td className={td}>
                {auditWhat(row)}
                {row.direction === 'by' && row.targetType && (
                  <span className="text-muted-foreground">
                    {' '}
                    (on {row.targetType} {row.targetId})
                  </span>
                )}
              </td>
              <td className={td}>{row.direction === 'by' ? 'They did' : (row.actorEmail ?? 'The system')}</td>
              <td className={`${td} text-muted-foreground`}>{summary(row.after)}</td>
            </tr>
          )}
        </Table>
      </Section>
    </div>
  );
}

/** "Tax form on file" (admins; `PUT /api/admin/users/{id}/tax-form`): on records that it was received, off withdraws it. */
function TaxFormSwitch({ user, isAdmin, onChanged }: { user: AdminUserDetail; isAdmin: boolean; onChanged: () => void }) {
  const id = useId();
  const [onFile, setOnFile] = useState(user.taxFormOnFileAt !== null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function change(next: boolean) {
    setProblem(null);
    setBusy(true);
    setOnFile(next);
    try {
      await apiSend<TaxFormRecord>('PUT', `/api/admin/users/${user.id}/tax-form`, { onFile: next });
      toast({ title: next ? 'Tax form recorded as on file' : 'Tax form withdrawn' });
      onChanged();
    } catch (error) {
      setOnFile(!next);
      if (!handleSessionLost(error)) setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start gap-3">
        <Switch
          id={id}
          checked={onFile}
          disabled={!isAdmin || busy}
          onCheckedChange={(checked) => void change(checked)}
          aria-describedby={`${id}-description`}
          className="mt-0.5"
        />
        <div className="flex flex-col gap-1">
          <Label htmlFor={id}>Tax form on file</Label>
          <p id={`${id}-description`} className="text-sm text-muted-foreground">
            {user.taxFormOnFileAt ? `Recorded on ${formatDate(user.taxFormOnFileAt)}.` : 'Not recorded.'}
            {isAdmin ? '' : ` ${ADMIN_ONLY_NOTE}`}
          </p>
        </div>
      </div>
      {problem && <Alert variant="destructive">{problem}</Alert>}
    </div>
  );
}
