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
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
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
import { adminOnlyNote, StatusBadge, useCurrentRole } from './parts.tsx';
import { preferenceRows } from '../../../lib/preferences.ts';

/** The island of /admin/users/{userId}. */
export default function UserDetail() {
  return (
    <RecordScreen<AdminUserDetail>
      pattern="/admin/users/:userId"
      path={(ids) => `/api/admin/users/${ids.userId}`}
      loading={m.users_detail_loading()}
      cards={[12, 10, 10, 14]}
      missing={{
        title: m.users_detail_missing_title(),
        href: '/admin/users',
        linkLabel: m.users_detail_missing_link(),
        text: m.users_detail_missing_text(),
      }}
      failed={m.users_detail_failed()}
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

const ACTION_LABELS: Record<string, () => string> = {
  'user.invite': m.users_audit_invite,
  'user.invite_resend': m.users_audit_invite_resend,
  'user.update': m.users_audit_update,
  'user.tax_form': m.users_audit_tax_form,
  'user.sessions_end': m.users_audit_sessions_end,
  'user.onboard': m.users_audit_onboard,
  'user.password_reset': m.users_audit_password_reset,
  'user.password_change': m.users_audit_password_change,
  'points.adjust': m.users_audit_points_adjust,
  'user.create': m.users_audit_create,
  'user.register': m.users_audit_register,
  'user.profile': m.users_audit_profile,
  'user.email_change': m.users_audit_email_change,
  'user.sign_in': m.users_audit_sign_in,
  'user.session_end': m.users_audit_session_end,
  'user.reauth': m.users_audit_reauth,
  'user.second_factor_failed': m.users_audit_second_factor_failed,
  'user.totp_enabled': m.users_audit_totp_enabled,
  'user.totp_removed': m.users_audit_totp_removed,
  'user.recovery_codes_made': m.users_audit_recovery_codes_made,
  'user.passkey_added': m.users_audit_passkey_added,
  'user.passkey_renamed': m.users_audit_passkey_renamed,
  'user.passkey_removed': m.users_audit_passkey_removed,
  'user.second_factors_reset': m.users_audit_second_factors_reset,
};

/** A role inside a sentence ("Make Ann moderator?"). */
const ROLE_SPOKEN: Record<Role, () => string> = {
  participant: m.users_role_spoken_participant,
  moderator: m.users_role_spoken_moderator,
  admin: m.users_role_spoken_admin,
};

/** What an audit row did, in words: a role or status change says which. */
function auditWhat(row: AdminUserDetail['audit'][number]): string {
  if (row.action !== 'user.update') return ACTION_LABELS[row.action]?.() ?? row.action;
  const before = (row.before ?? {}) as { role?: Role; status?: string };
  const after = (row.after ?? {}) as { role?: Role; status?: string };
  const parts: string[] = [];
  if (before.role && after.role && before.role !== after.role)
    parts.push(m.users_audit_role_change({ from: ROLE_LABELS[before.role], to: ROLE_LABELS[after.role] }));
  if (before.status !== after.status) parts.push(after.status === 'disabled' ? m.users_audit_disabled() : m.users_audit_enabled());
  return parts.join('; ') || m.users_audit_update();
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
    <p className="text-xs text-muted-foreground">
      {adminOnlyNote()} {m.users_detail_moderators_note()}
    </p>
  );

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs
          items={[{ label: m.users_detail_crumb_dashboard(), href: '/admin' }, { label: m.users_detail_crumb_users(), href: '/admin/users' }, { label: name }]}
        />
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
        <Alert variant="destructive" title={m.users_detail_problem()}>
          {problem}
        </Alert>
      )}

      <Section id="profile" title={m.users_detail_profile()}>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Detail term={m.users_detail_name()}>{fullNameOf(user) || m.users_detail_not_given_yet()}</Detail>
          <Detail term={m.users_detail_email()}>{user.email}</Detail>
          <Detail term={m.users_detail_role()}>{ROLE_LABELS[user.role]}</Detail>
          <Detail term={m.users_detail_status()}>
            <StatusBadge status={user.status} />
          </Detail>
          <Detail term={m.users_detail_signed_up()}>{formatDateTime(user.createdAt)}</Detail>
          <Detail term={m.users_detail_last_active()}>{user.lastActiveAt ? formatRelative(user.lastActiveAt) : m.users_detail_never()}</Detail>
          <Detail term={m.users_detail_last_sign_in()}>{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : m.users_detail_never()}</Detail>
          <Detail term={m.users_detail_terms()}>{user.termsAcceptedAt ? formatDate(user.termsAcceptedAt) : m.users_detail_not_yet()}</Detail>
          <Detail term={m.users_detail_address()}>
            {user.address ? (
              <span className="whitespace-pre-line">
                {[user.address.line1, user.address.line2, `${user.address.postalCode} ${user.address.city}`, user.address.region, user.address.country]
                  .filter(Boolean)
                  .join('\n')}
              </span>
            ) : (
              m.users_detail_not_given()
            )}
          </Detail>
          {user.birthYear !== null && <Detail term={m.users_detail_birth_year()}>{user.birthYear}</Detail>}
          {preferenceRows(user.preferences, user.role).map((row) => (
            <Detail key={row.term} term={row.term}>
              {row.value}
            </Detail>
          ))}
        </dl>
      </Section>

      <Section id="access" title={m.users_detail_access()} description={m.users_detail_access_description()}>
        <div className="flex flex-col gap-4">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <FilterSelect
              label={m.users_detail_role()}
              value={nextRole}
              options={ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
              onChange={setNextRole}
              className="sm:w-48"
            />
            {isAdmin && nextRole !== user.role ? (
              <ConfirmButton
                confirmLabel={m.users_detail_change_role()}
                question={m.users_detail_change_role_question({ name, role: ROLE_SPOKEN[nextRole]() })}
                onConfirm={() => act(() => patch({ role: nextRole }), m.users_detail_change_role_done({ name, role: ROLE_SPOKEN[nextRole]() }))}
              >
                {m.users_detail_change_role()}
              </ConfirmButton>
            ) : (
              <Button variant="outline" size="sm" disabled aria-describedby={isAdmin ? undefined : 'access-note'}>
                {m.users_detail_change_role()}
              </Button>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            {isAdmin && user.status !== 'disabled' && (
              <ConfirmButton
                confirmLabel={m.users_detail_disable()}
                confirmVariant="destructive"
                question={m.users_detail_disable_question({ name })}
                onConfirm={() => act(() => patch({ status: 'disabled' }), m.users_detail_disable_done({ name }))}
              >
                {m.users_detail_disable_account()}
              </ConfirmButton>
            )}
            {isAdmin && user.status === 'disabled' && (
              <ConfirmButton
                confirmLabel={m.users_detail_enable()}
                question={m.users_detail_enable_question({ name })}
                onConfirm={() => act(() => patch({ status: 'active' }), m.users_detail_enable_done({ name }))}
              >
                {m.users_detail_enable_account()}
              </ConfirmButton>
            )}
            {isAdmin && (
              <ConfirmButton
                confirmLabel={m.users_detail_end_sessions()}
                question={m.users_detail_end_sessions_question({ name })}
                onConfirm={() =>
                  act(() => apiSend<{ ended: number }>('POST', `/api/admin/users/${user.id}/sessions/end`), m.users_detail_end_sessions_done({ name }))
                }
              >
                {m.users_detail_end_all_sessions()}
              </ConfirmButton>
            )}
            {!isAdmin && (
              <>
                <Button variant="outline" size="sm" disabled aria-describedby="access-note">
                  {user.status === 'disabled' ? m.users_detail_enable_account() : m.users_detail_disable_account()}
                </Button>
                <Button variant="outline" size="sm" disabled aria-describedby="access-note">
                  {m.users_detail_end_all_sessions()}
                </Button>
              </>
            )}
            {user.status === 'invited' && (isAdmin || user.role === 'participant') && (
              <ConfirmButton
                confirmLabel={m.users_detail_resend()}
                question={m.users_detail_resend_question({ email: user.email })}
                onConfirm={() => act(() => apiSend('POST', `/api/admin/users/${user.id}/invitation`), m.users_detail_resend_done({ email: user.email }))}
              >
                {m.users_detail_resend_invitation()}
              </ConfirmButton>
            )}
          </div>
          <div id="access-note">{adminNote}</div>
        </div>
      </Section>

      <Section id="sessions" title={m.users_detail_sessions()} description={m.users_detail_sessions_description()}>
        <Table
          label={m.users_detail_sessions_table()}
          columns={[m.users_detail_column_device(), m.users_detail_column_address(), m.users_detail_column_signed_in(), m.users_detail_column_last_seen()]}
          rows={user.sessions}
          empty={m.users_detail_sessions_empty()}
        >
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

      <Section id="projects" title={m.users_detail_projects()}>
        {user.projects.length === 0 ? (
          <Empty>{m.users_detail_projects_empty()}</Empty>
        ) : (
          <ul className="flex flex-col gap-2">
            {user.projects.map((project) => (
              <li key={project.id} className="text-sm">
                <a href={`/admin/projects/${project.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
                  {project.name}
                </a>{' '}
                <span className="text-muted-foreground">{m.users_detail_member_since({ status: project.status, date: formatDate(project.addedAt) })}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="entries" title={m.users_detail_entries()} description={m.users_detail_entries_description()}>
        <Table
          label={m.users_detail_entries_table()}
          columns={[m.users_detail_column_mission(), m.users_detail_column_state(), m.users_detail_column_submitted(), m.users_detail_column_last_change()]}
          rows={user.entries}
          empty={m.users_detail_entries_empty()}
        >
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
        title={m.users_detail_points()}
        description={withNodes((marks) => (user.points.held > 0 ? m.users_detail_points_balance_held(marks) : m.users_detail_points_balance(marks)), {
          balance: <strong className="tabular-nums">{formatCount(user.points.balance)}</strong>,
          pending: <span className="tabular-nums">{formatCount(user.points.pending)}</span>,
          held: <span className="tabular-nums">{formatCount(user.points.held)}</span>,
        })}
        aside={
          isAdmin ? (
            <Button onClick={() => setAdjusting(true)}>{m.users_detail_adjust_points()}</Button>
          ) : (
            <div className="flex flex-col items-end gap-1">
              <Button disabled aria-describedby="points-note">
                {m.users_detail_adjust_points()}
              </Button>
              <p id="points-note" className="text-xs text-muted-foreground">
                {adminOnlyNote()}
              </p>
            </div>
          )
        }
      >
        <Table
          label={m.users_detail_points_table()}
          columns={[m.users_detail_column_when(), m.users_detail_column_points(), m.users_detail_column_state(), m.users_detail_column_reason()]}
          rows={user.points.entries}
          empty={m.users_detail_points_empty()}
        >
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

      <Section id="rewards" title={m.users_detail_rewards()} description={m.users_detail_rewards_description()}>
        <TaxFormSwitch user={user} isAdmin={isAdmin} onChanged={reload} />
      </Section>

      <Section id="audit" title={m.users_detail_audit()} description={m.users_detail_audit_description()}>
        <Table
          label={m.users_detail_audit_table()}
          columns={[m.users_detail_column_when(), m.users_detail_column_what(), m.users_detail_column_who(), m.users_detail_column_details()]}
          rows={user.audit}
          empty={m.users_detail_audit_empty()}
        >
          {(row) => (
            <tr key={row.id}>
              <td className={`${td} whitespace-nowrap`}>{formatDateTime(row.createdAt)}</td>
              <td className={td}>
                {auditWhat(row)}
                {row.direction === 'by' && row.targetType && (
                  <span className="text-muted-foreground"> {m.users_audit_on({ type: row.targetType, id: row.targetId ?? '' })}</span>
                )}
              </td>
              <td className={td}>{row.direction === 'by' ? m.users_audit_they_did() : (row.actorEmail ?? m.users_audit_system())}</td>
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
      toast({ title: next ? m.users_tax_recorded() : m.users_tax_withdrawn() });
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
          <Label htmlFor={id}>{m.users_tax_on_file()}</Label>
          <p id={`${id}-description`} className="text-sm text-muted-foreground">
            {user.taxFormOnFileAt ? m.users_tax_recorded_on({ date: formatDate(user.taxFormOnFileAt) }) : m.users_tax_not_recorded()}
            {isAdmin ? '' : ` ${adminOnlyNote()}`}
          </p>
        </div>
      </div>
      {problem && <Alert variant="destructive">{problem}</Alert>}
    </div>
  );
}
