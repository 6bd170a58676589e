import { useState, type ReactNode } from 'react';
import { apiSend, type AccountSession, type AccountUser, type Address, type Preferences } from '../../platform/api.ts';
import { countryName } from '../../lib/countries.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { describeDevice, formatDate, formatDateTime, formatRelative } from '../../lib/format.ts';
import { useResource, type Load } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { fullNameOf, initialsOf, ROLE_LABELS } from '../../lib/user.ts';
import { cn } from '../../lib/utils.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { ChevronRightIcon, KeyIcon, MailIcon, MapPinIcon, MonitorIcon, SlidersIcon, SmartphoneIcon } from '../../components/icons.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Avatar } from '../../components/ui/avatar.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import type { PointsSummary } from '../../shared/points.ts';
import { Bone } from '../../components/ui/skeleton.tsx';
import { AccountPending, useAccount } from './use-account.tsx';
import { withNodes } from '../../components/forms/rich-text.tsx';
import { PointsSummaryPill } from '../../components/PointsPill.tsx';
import MissionsSection, { MISSION_HISTORY_ANCHOR } from './MissionsSection.tsx';
import PointsSection from './PointsSection.tsx';
import { mailSummary } from '../../lib/preferences.ts';
import { pointsPath } from './points.ts';
import { m } from '../../shared/i18n.ts';
import { LANGUAGE_NAMES } from '../../shared/languages.ts';

const COLOR_MODE_LABELS: Readonly<Record<Preferences['colorMode'], () => string>> = {
  system: m.account_overview_color_mode_system,
  light: m.account_overview_color_mode_light,
  dark: m.account_overview_color_mode_dark,
};

/** A card link in the corner of a section ("Edit address" →). */
function EditLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
      {children}
      <ChevronRightIcon className="size-4" />
    </a>
  );
}

function Section({
  icon,
  title,
  action,
  children,
  className,
}: {
  icon: ReactNode;
  title: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col', className)}>
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0 pb-4">
        <CardTitle className="flex items-center gap-2 text-lg">
          <span className="text-primary">{icon}</span>
          {title}
        </CardTitle>
        {action}
      </CardHeader>
      <CardContent className="flex-1">{children}</CardContent>
    </Card>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 py-2 first:pt-0 last:pb-0 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium sm:text-end">{children}</dd>
    </div>
  );
}

function AddressLines({ address }: { address: Address }) {
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(' ');
  const lines = [address.line1, address.line2, cityLine, address.region, countryName(address.country)].filter((line) => line.trim() !== '');
  return (
    <address className="text-sm not-italic leading-relaxed">
      {lines.map((line, i) => (
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}

/**
 * /account: who you are, your address and preferences, where you are signed in, then your points
 * (`#points`) and your missions (`#mission-history`). The account part waits for the account store
 * (one GET /api/account per page load) with a skeleton of its final size; points and missions load
 * with their own calls and skeletons, below it, so nothing above them moves when they come.
 */
export default function AccountOverview() {
  const { load, reload, setSessions } = useAccount();
  // One call for the points: the balance pill at the top and the points section share its first page.
  const points = useResource<PointsSummary>(pointsPath(1));
  return (
    <div className="flex flex-col gap-6">
      {load.status === 'ready' ? (
        <AccountDetails user={load.data.user} sessions={load.data.sessions} setSessions={setSessions} points={points.load} />
      ) : (
        <AccountPending load={load} reload={reload} skeleton={<OverviewSkeleton />} />
      )}
      <PointsSection load={points.load} reload={points.reload} />
      <MissionsSection />
    </div>
  );
}

function AccountDetails({
  user,
  sessions,
  setSessions,
  points,
}: {
  user: AccountUser;
  sessions: AccountSession[];
  setSessions: (sessions: AccountSession[]) => void;
  points: Load<PointsSummary>;
}) {
  return (
    <div className="flex flex-col gap-6">
      <IdentityCard user={user} points={points} />
      <div className="grid gap-6 md:grid-cols-2">
        <Section
          icon={<MailIcon className="size-5" />}
          title={m.account_overview_sign_in_title()}
          action={<EditLink href="/account/edit">{m.account_overview_change()}</EditLink>}
        >
          <dl className="divide-y divide-border">
            <Row term={m.account_overview_email()}>
              <span className="wrap-anywhere">{user.email}</span>
            </Row>
            <Row term={m.account_overview_password()}>••••••••</Row>
          </dl>
          {user.pendingEmail && (
            <p className="mt-4 rounded-md bg-muted px-3 py-2 text-sm text-muted-foreground">
              {withNodes((marks) => m.account_overview_pending_email({ email: marks.email }), {
                email: <strong className="font-semibold wrap-anywhere text-foreground">{user.pendingEmail}</strong>,
              })}
            </p>
          )}
        </Section>
        <Section
          icon={<MapPinIcon className="size-5" />}
          title={m.account_common_address()}
          action={<EditLink href="/account/edit/address">{user.address ? m.account_overview_edit() : m.account_overview_add()}</EditLink>}
        >
          {user.address ? <AddressLines address={user.address} /> : <p className="text-sm text-muted-foreground">{m.account_overview_no_address()}</p>}
        </Section>
        <Section
          icon={<SlidersIcon className="size-5" />}
          title={m.account_common_preferences()}
          action={<EditLink href="/account/edit/preferences">{m.account_overview_edit()}</EditLink>}
        >
          <dl className="divide-y divide-border">
            <Row term={m.account_common_email_notifications()}>{mailSummary(user.preferences)}</Row>
            <Row term={m.account_common_language()}>{LANGUAGE_NAMES[user.preferences.language] ?? user.preferences.language}</Row>
            <Row term={m.account_common_color_mode()}>{COLOR_MODE_LABELS[user.preferences.colorMode]?.() ?? user.preferences.colorMode}</Row>
          </dl>
        </Section>
        <Section
          icon={<KeyIcon className="size-5" />}
          title={m.account_overview_security_title()}
          action={<EditLink href="/account/edit">{m.account_overview_manage()}</EditLink>}
        >
          <SecurityNote />
        </Section>
      </div>
      <DevicesCard sessions={sessions} onSessionsChange={setSessions} />
    </div>
  );
}

/** The Security card's words, and the way to the second ways to sign in (/account/security). */
function SecurityNote() {
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-sm text-muted-foreground">{m.account_overview_security_note()}</p>
      <EditLink href="/account/security">{m.account_overview_security_link()}</EditLink>
    </div>
  );
}

/** The way to the points and missions below, at the top: the balance, and a link to the missions. */
function PointsAndMissionsLinks({ balance }: { balance: ReactNode }) {
  return (
    <div className="flex flex-col items-start gap-3 border-t border-border pt-4 md:flex-row md:items-center md:gap-6">
      {balance}
      <a href={`#${MISSION_HISTORY_ANCHOR}`} className="inline-flex h-5 items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
        {m.account_missions_title()}
        <ChevronRightIcon className="size-4" />
      </a>
    </div>
  );
}

function IdentityCard({ user, points }: { user: AccountUser; points: Load<PointsSummary> }) {
  return (
    <Card className="flex flex-col gap-5 p-6">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
        <Avatar initials={initialsOf(user)} size="lg" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-xl font-semibold tracking-tight">{fullNameOf(user)}</h2>
            <Badge variant={user.role === 'participant' ? 'secondary' : 'default'}>{ROLE_LABELS[user.role]}</Badge>
          </div>
          <p className="text-sm wrap-anywhere text-muted-foreground">{user.email}</p>
          {user.createdAt && <p className="text-sm text-muted-foreground">{m.account_overview_member_since({ date: formatDate(user.createdAt) })}</p>}
        </div>
        <Button asChild variant="outline" className="self-start sm:self-center">
          <a href="/account/edit/profile">{m.account_overview_edit_profile()}</a>
        </Button>
      </div>
      <PointsAndMissionsLinks balance={<PointsSummaryPill load={points} href="#points" />} />
    </Card>
  );
}

/** The card of the signed-in devices, loading or loaded. */
function DevicesFrame({ children }: { children: ReactNode }) {
  return (
    <Card>
      <CardHeader className="pb-4">
        <CardTitle className="flex items-center gap-2 text-lg">
          <span className="text-primary">
            <MonitorIcon className="size-5" />
          </span>
          {m.account_devices_title()}
        </CardTitle>
        <CardDescription>{m.account_devices_description()}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">{children}</CardContent>
    </Card>
  );
}

function DevicesCard({ sessions, onSessionsChange }: { sessions: AccountSession[]; onSessionsChange: (sessions: AccountSession[]) => void }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const sorted = [...sessions].sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt.localeCompare(a.lastSeenAt));
  const others = sessions.filter((session) => !session.current).length;

  /** Runs a sign-out, saying what happened (or what went wrong) above the list. */
  const act = async (key: string, action: () => Promise<string>) => {
    setAlert(null);
    setEnded(null);
    setBusy(key);
    try {
      setEnded(await action());
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const revokeOthers = () =>
    act('others', async () => {
      const result = await apiSend<{ ended: number }>('POST', '/api/account/sessions/revoke-others', {});
      onSessionsChange(sessions.filter((session) => session.current));
      return result.ended === 0 ? m.account_devices_none_other() : m.account_devices_signed_out_others({ count: result.ended });
    });

  const revokeOne = (session: AccountSession, device: string) =>
    act(String(session.id), async () => {
      await apiSend<{ ok: true }>('DELETE', `/api/account/sessions/${encodeURIComponent(String(session.id))}`, {});
      onSessionsChange(sessions.filter((each) => each.id !== session.id));
      return m.account_devices_signed_out_one({ device });
    });

  return (
    <DevicesFrame>
      <FormAlert message={alert} />
      {ended !== null && <Alert variant="success">{ended}</Alert>}
      <ul className="divide-y divide-border rounded-lg border border-border">
        {sorted.map((session) => {
          const described = describeDevice(session.userAgent);
          const device = session.device ?? described.label;
          return (
            <li key={String(session.id)} className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-start">
              <div className="flex min-w-0 flex-1 items-start gap-3">
                <span className="mt-0.5 text-muted-foreground">
                  {described.mobile ? <SmartphoneIcon className="size-5" /> : <MonitorIcon className="size-5" />}
                </span>
                <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    {device}
                    {session.current && <Badge variant="default">{m.account_devices_this_device()}</Badge>}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    {session.current ? m.account_devices_active_now() : m.account_devices_last_active({ when: formatRelative(session.lastSeenAt) })}
                    {session.ip ? ` · ${session.ip}` : ''}
                  </p>
                  <p className="text-xs text-muted-foreground">{m.account_devices_signed_in_at({ date: formatDateTime(session.createdAt) })}</p>
                </div>
              </div>
              {!session.current && (
                <Button
                  variant="outline"
                  size="sm"
                  className="self-start"
                  loading={busy === String(session.id)}
                  disabled={busy !== null && busy !== String(session.id)}
                  onClick={() => void revokeOne(session, device)}
                >
                  {m.account_devices_sign_out()}
                  <span className="sr-only"> {m.account_devices_sign_out_hidden({ device })}</span>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <div>
          <Button variant="outline" loading={busy === 'others'} disabled={busy !== null && busy !== 'others'} onClick={() => void revokeOthers()}>
            {m.account_devices_sign_out_others()}
          </Button>
        </div>
      ) : (
        ended === null && <p className="text-sm text-muted-foreground">{m.account_devices_only_this()}</p>
      )}
    </DevicesFrame>
  );
}

/** The overview's frame at its final size while the account loads (no layout shift when it comes). */
function OverviewSkeleton() {
  const value = <Bone className="h-5 w-28" />;
  return (
    <div className="flex flex-col gap-6">
      <LoadingNote label={m.account_loading()} />
      <Card className="flex flex-col gap-5 p-6">
        <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
          <Bone className="size-16 rounded-full" />
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <Bone className="h-7 w-48" />
            <Bone className="h-5 w-56" />
            <Bone className="h-5 w-40" />
          </div>
          <Bone className="h-10 w-28 self-start rounded-md sm:self-center" />
        </div>
        <PointsAndMissionsLinks balance={<Bone className="h-10 w-48 rounded-full" />} />
      </Card>
      <div className="grid gap-6 md:grid-cols-2">
        <Section icon={<MailIcon className="size-5" />} title={m.account_overview_sign_in_title()}>
          <dl className="divide-y divide-border">
            <Row term={m.account_overview_email()}>{value}</Row>
            <Row term={m.account_overview_password()}>{value}</Row>
          </dl>
        </Section>
        <Section icon={<MapPinIcon className="size-5" />} title={m.account_common_address()}>
          <Bone className="h-5 w-48" />
        </Section>
        <Section icon={<SlidersIcon className="size-5" />} title={m.account_common_preferences()}>
          <dl className="divide-y divide-border">
            <Row term={m.account_common_email_notifications()}>{value}</Row>
            <Row term={m.account_common_language()}>{value}</Row>
            <Row term={m.account_common_color_mode()}>{value}</Row>
          </dl>
        </Section>
        <Section icon={<KeyIcon className="size-5" />} title={m.account_overview_security_title()}>
          <SecurityNote />
        </Section>
      </div>
      <DevicesFrame>
        <div className="flex items-start gap-3 rounded-lg border border-border px-4 py-3">
          <Bone className="mt-0.5 size-5" />
          <div className="flex flex-1 flex-col gap-0.5">
            <Bone className="h-5 w-40" />
            <Bone className="h-5 w-32" />
            <Bone className="h-4 w-36" />
          </div>
        </div>
        <Bone className="h-5 w-72 max-w-full" />
      </DevicesFrame>
    </div>
  );
}
