/**
 * /account/security (issue 29 §1, §3): the second ways to sign in. An authenticator app (set up
 * with its QR code or its key as text, confirmed by a first code; removed), the recovery codes
 * (shown once, when made: copy, download as text; how many are left; "Make new codes") and
 * passkeys (added with a name, renamed, removed). Staff without a second factor are sent here from
 * the admin area (the route rules) and told why. A change that needs a recent sign-in asks for it
 * through the shell's dialog (src/stores/reauth.ts) and then goes on by itself.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { PasskeyView, RecoveryCodesAnswer, SecurityView, TotpEnrolment } from '../../platform/api.ts';
import { apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { describeDevice, formatDate, formatRelative } from '../../lib/format.ts';
import { passkeyErrorMessage, passkeyRegistration, passkeysSupported } from '../../lib/passkeys.ts';
import { useResource } from '../../lib/resource.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { cn } from '../../lib/utils.ts';
import { safeRedirectPath, STAFF_HOME_PATH } from '../../shared/route-rules.ts';
import { PASSKEY_NAME_MAX, PASSKEYS_MAX, RECOVERY_CODE_COUNT, TOO_MANY_PASSKEYS } from '../../shared/second-factors.ts';
import { currentUser, loadCurrentUser } from '../../stores/auth.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { KeyIcon, LockIcon, SmartphoneIcon } from '../../components/icons.tsx';
import { CODE_HINT, CODE_LABEL, codeProblem, normaliseCode, OneTimeCodeInput } from '../../components/one-time-code.tsx';
import { Failed } from '../../components/states/Failed.tsx';
import { LoadingNote } from '../../components/states/Loading.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Bone } from '../../components/ui/skeleton.tsx';
import { formatCount, m } from '../../shared/i18n.ts';

export const SECURITY_PATH = '/api/account/security';

/** A secret as people read it: groups of four. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The recovery codes as the downloaded text file holds them. */
export function recoveryCodesText(codes: readonly string[], email: string | null, madeAt: Date = new Date()): string {
  const lines = [
    m.account_security_codes_file_title(),
    email ? m.account_security_codes_file_account({ email }) : null,
    m.account_security_codes_file_made({ date: madeAt.toISOString().slice(0, 10) }),
    '',
    m.account_security_codes_file_each(),
    m.account_security_codes_file_keep(),
    '',
    ...codes,
    '',
  ];
  return lines.filter((line): line is string => line !== null).join('\n');
}

/** What is wrong with a passkey's name (trimmed), or null. */
function passkeyNameProblem(name: string): string | null {
  if (name === '') return m.account_security_passkey_name_missing();
  return name.length > PASSKEY_NAME_MAX ? m.account_security_passkey_name_too_long({ count: PASSKEY_NAME_MAX }) : null;
}

/** The QR code as an image: our server's SVG, shown as a picture (never put into the page as markup). */
function qrImageSource(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** Where to go once a staff member has a second factor: the admin page they were sent from (`r`), or the dashboard. */
function adminTarget(): string {
  const r = safeRedirectPath(new URLSearchParams(location.search).get('r'));
  return r?.startsWith('/admin') ? r : STAFF_HOME_PATH;
}

export default function SecurityScreen() {
  const security = useResource<SecurityView>(SECURITY_PATH);
  const { load } = security;
  // The codes of the last set made (at confirmation or "Make new codes"): shown once, until "Done".
  const [codes, setCodes] = useState<string[] | null>(null);

  if (load.status === 'loading') return <SecuritySkeleton />;
  if (load.status !== 'ready') return <Failed title={m.account_security_load_failed()} message={load.message} onRetry={security.reload} />;

  const view = load.data;
  const hasFactor = view.totp || view.passkeys.length > 0;
  /** After any change: the screen's view again, and the signed-in user (what the route rules read for the admin area). */
  const changed = async () => {
    await Promise.all([security.refresh().catch(() => security.reload()), loadCurrentUser()]);
  };

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <p className="text-muted-foreground">{m.account_security_intro()}</p>
      {view.required && !hasFactor && (
        <Alert variant="destructive" title={m.account_security_staff_need()} role="status">
          {m.account_security_staff_why()}
        </Alert>
      )}
      {view.required && hasFactor && !codes && new URLSearchParams(location.search).has('r') && (
        <Alert variant="success" title={m.account_security_two_step_on()}>
          <a href={adminTarget()}>{m.account_security_continue_admin()}</a>
        </Alert>
      )}
      {codes ? (
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      ) : (
        <>
          <AuthenticatorCard view={view} onChanged={changed} onCodes={setCodes} />
          <PasskeysCard passkeys={view.passkeys} onChanged={changed} />
          {(hasFactor || view.recoveryCodesLeft > 0) && <RecoveryCodesCard left={view.recoveryCodesLeft} onCodes={setCodes} onChanged={changed} />}
        </>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function SectionCard({
  icon,
  title,
  status,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  status?: ReactNode;
  description: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Card asChild>
      <section aria-labelledby={`${id}-title`}>
        <CardHeader className="pb-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <CardTitle id={`${id}-title`} className="flex items-center gap-2 text-lg">
              <span className="text-primary">{icon}</span>
              {title}
            </CardTitle>
            {status}
          </div>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">{children}</CardContent>
      </section>
    </Card>
  );
}

function OnOff({ on }: { on: boolean }) {
  return <Badge variant={on ? 'default' : 'secondary'}>{on ? m.account_security_on() : m.account_security_off()}</Badge>;
}

/** Runs a change and says what went wrong in the card's alert (a 401 sends the person to sign in). */
function useAction() {
  const [alert, setAlert] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, words: (error: unknown) => string = errorMessage) => {
    setAlert(null);
    try {
      await action();
    } catch (error) {
      if (!handleSessionLost(error)) setAlert(words(error));
    }
  };
  return { alert, setAlert, run };
}

// ---------------------------------------------------------------------------------------------
// Authenticator app

function AuthenticatorCard({ view, onChanged, onCodes }: { view: SecurityView; onChanged: () => Promise<void>; onCodes: (codes: string[]) => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [starting, setStarting] = useState(false);
  const { alert, run } = useAction();

  const start = () =>
    run(async () => {
      setStarting(true);
      try {
        setEnrolment(await apiSend<TotpEnrolment>('POST', '/api/account/totp', {}));
      } finally {
        setStarting(false);
      }
    });

  return (
    <SectionCard
      icon={<SmartphoneIcon className="size-5" />}
      title={m.account_security_totp_title()}
      status={<OnOff on={view.totp} />}
      description={m.account_security_totp_description()}
    >
      <FormAlert message={alert} />
      {enrolment ? (
        <TotpSetup
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onConfirmed={async (codes) => {
            setEnrolment(null);
            onCodes(codes);
            await onChanged();
          }}
        />
      ) : view.totp ? (
        <div>
          <ConfirmButton
            size="default"
            confirmVariant="destructive"
            question={m.account_security_totp_remove_question()}
            confirmLabel={m.account_security_remove()}
            onConfirm={() =>
              run(async () => {
                await apiSend('DELETE', '/api/account/totp', {});
                await onChanged();
              })
            }
          >
            {m.account_security_totp_remove()}
          </ConfirmButton>
        </div>
      ) : (
        <div>
          <Button loading={starting} onClick={() => void start()}>
            {m.account_security_totp_set_up()}
          </Button>
        </div>
      )}
    </SectionCard>
  );
}

function TotpSetup({ enrolment, onCancel, onConfirmed }: { enrolment: TotpEnrolment; onCancel: () => void; onConfirmed: (codes: string[]) => Promise<void> }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  const { alert, run } = useAction();

  // The steps replace the button just pressed: the focus goes to their heading.
  useEffect(() => heading.current?.focus(), []);

  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = codeProblem(code);
    setFieldError(problem);
    if (problem) {
      document.getElementById(`${id}-code`)?.focus();
      return;
    }
    setBusy(true);
    await run(async () => {
      try {
        const { recoveryCodes } = await apiSend<RecoveryCodesAnswer>('POST', '/api/account/totp/confirm', { code: normaliseCode(code) });
        await onConfirmed(recoveryCodes);
      } catch (error) {
        const message = (error as { fields?: Record<string, readonly string[]> }).fields?.code?.join(' ');
        if (message) setFieldError(message);
        throw error;
      } finally {
        setBusy(false);
      }
    });
  };

  const copyKey = async () => {
    try {
      await navigator.clipboard.writeText(enrolment.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <div className="flex flex-col gap-5 rounded-lg border border-border p-4 sm:p-5">
      <h3 ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">
        {m.account_security_totp_setup_title()}
      </h3>
      <ol className="flex list-decimal flex-col gap-5 ps-5 text-sm marker:font-semibold">
        <li>
          <div className="flex flex-col gap-3">
            <span>{m.account_security_totp_scan()}</span>
            <div className="self-start rounded-lg border border-border bg-white p-3">
              <img src={qrImageSource(enrolment.qrSvg)} alt={m.account_security_totp_qr_alt()} width={176} height={176} className="size-44" />
            </div>
          </div>
        </li>
        <li>
          <div className="flex flex-col gap-2">
            <span id={`${id}-key-label`}>{m.account_security_totp_key_label()}</span>
            <div className="flex flex-wrap items-center gap-3">
              <code aria-labelledby={`${id}-key-label`} className="rounded-md bg-muted px-3 py-2 font-mono text-base tracking-wider">
                {groupSecret(enrolment.secret)}
              </code>
              <Button type="button" variant="outline" size="sm" onClick={() => void copyKey()}>
                {copied ? m.account_security_totp_key_copied() : m.account_security_totp_copy_key()}
              </Button>
            </div>
          </div>
        </li>
        <li>
          <div className="flex flex-col gap-3">
            <span>{m.account_security_totp_enter_code()}</span>
            <form noValidate onSubmit={(event) => void confirm(event)} className="flex flex-col gap-4">
              <FormAlert message={alert} />
              <FormField id={`${id}-code`} label={CODE_LABEL} description={CODE_HINT} error={fieldError ?? undefined} className="max-w-xs">
                {(control) => <OneTimeCodeInput {...control} value={code} onChange={(event) => setCode(event.target.value)} />}
              </FormField>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" loading={busy}>
                  {m.account_security_totp_turn_on()}
                </Button>
                <Button type="button" variant="ghost" disabled={busy} onClick={onCancel}>
                  {m.account_common_cancel()}
                </Button>
              </div>
            </form>
          </div>
        </li>
      </ol>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Recovery codes

function RecoveryCodesCard({ left, onCodes, onChanged }: { left: number; onCodes: (codes: string[]) => void; onChanged: () => Promise<void> }) {
  const { alert, run } = useAction();
  return (
    <SectionCard
      icon={<KeyIcon className="size-5" />}
      title={m.account_security_codes_title()}
      status={
        <Badge variant={left === 0 ? 'outline' : 'secondary'}>
          {m.account_security_codes_left({ left: formatCount(left), total: formatCount(RECOVERY_CODE_COUNT) })}
        </Badge>
      }
      description={m.account_security_codes_description()}
    >
      <FormAlert message={alert} />
      {left <= 2 && <p className="text-sm font-medium">{left === 0 ? m.account_security_codes_none_left() : m.account_security_codes_running_out()}</p>}
      <div>
        <ConfirmButton
          size="default"
          confirmVariant="destructive"
          question={m.account_security_codes_new_question()}
          confirmLabel={m.account_security_codes_new()}
          onConfirm={() =>
            run(async () => {
              const { recoveryCodes } = await apiSend<RecoveryCodesAnswer>('POST', '/api/account/recovery-codes', {});
              onCodes(recoveryCodes);
              await onChanged();
            })
          }
        >
          {m.account_security_codes_new()}
        </ConfirmButton>
      </div>
    </SectionCard>
  );
}

function RecoveryCodesPanel({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => heading.current?.focus(), []);

  const text = () => {
    return recoveryCodesText(codes, currentUser()?.email ?? null);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text()], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'fieldwork-recovery-codes.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  return (
    <Card asChild>
      <section aria-labelledby={`${id}-title`} className="flex flex-col gap-5 p-6">
        <div className="flex flex-col gap-1.5">
          <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold tracking-tight outline-none">
            {m.account_security_codes_save_title()}
          </h2>
          <p className="text-sm text-muted-foreground">{m.account_security_codes_save_description()}</p>
        </div>
        <ol
          aria-label={m.account_security_codes_title()}
          className="grid grid-cols-1 gap-2 rounded-lg border border-border bg-muted p-4 font-mono text-base sm:grid-cols-2"
        >
          {codes.map((code) => (
            <li key={code} className="tracking-wider">
              {code}
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => void copy()}>
            {m.account_security_codes_copy()}
          </Button>
          <Button variant="outline" onClick={download}>
            {m.account_security_codes_download()}
          </Button>
          <Button onClick={onDone}>{m.account_security_codes_done()}</Button>
        </div>
        <p role="status" className="min-h-5 text-sm text-muted-foreground">
          {copied === true ? m.account_security_codes_copied() : copied === false ? m.account_security_codes_copy_failed() : ''}
        </p>
      </section>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------
// Passkeys

function PasskeysCard({ passkeys, onChanged }: { passkeys: readonly PasskeyView[]; onChanged: () => Promise<void> }) {
  const id = useId();
  const supported = passkeysSupported();
  const [name, setName] = useState(() => (typeof navigator === 'undefined' ? '' : describeDevice(navigator.userAgent).label));
  const [nameError, setNameError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const { alert, run } = useAction();

  const add = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = passkeyNameProblem(trimmed);
    setNameError(problem);
    if (problem) {
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setAdding(true);
    await run(async () => {
      try {
        const response = await passkeyRegistration();
        await apiSend<PasskeyView>('POST', '/api/account/passkeys', { name: trimmed, response });
        setName('');
        await onChanged();
      } finally {
        setAdding(false);
      }
    }, passkeyErrorMessage);
  };

  return (
    <SectionCard
      icon={<LockIcon className="size-5" />}
      title={m.account_security_passkeys_title()}
      status={<OnOff on={passkeys.length > 0} />}
      description={m.account_security_passkeys_description()}
    >
      <FormAlert message={alert} />
      {passkeys.length > 0 && (
        <ul aria-label={m.account_security_passkeys_yours()} className="divide-y divide-border rounded-lg border border-border">
          {passkeys.map((passkey) => (
            <PasskeyRow key={String(passkey.id)} passkey={passkey} onChanged={onChanged} />
          ))}
        </ul>
      )}
      {passkeys.length >= PASSKEYS_MAX ? (
        <p className="text-sm text-muted-foreground">{TOO_MANY_PASSKEYS}.</p>
      ) : supported ? (
        <form noValidate onSubmit={(event) => void add(event)} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <FormField id={`${id}-name`} label={m.account_security_passkey_new_name()} error={nameError ?? undefined} className="flex-1">
            {(control) => <Input {...control} value={name} maxLength={PASSKEY_NAME_MAX + 10} onChange={(event) => setName(event.target.value)} />}
          </FormField>
          <Button type="submit" loading={adding} className={cn(nameError && 'sm:mb-7')}>
            {m.account_security_passkey_add()}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted-foreground">{m.account_security_passkeys_unsupported()}</p>
      )}
    </SectionCard>
  );
}

function PasskeyRow({ passkey, onChanged }: { passkey: PasskeyView; onChanged: () => Promise<void> }) {
  const id = useId();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(passkey.name);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { alert, run } = useAction();

  const rename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const trimmed = name.trim();
    const problem = passkeyNameProblem(trimmed);
    setNameError(problem);
    if (problem) return;
    setBusy(true);
    await run(async () => {
      try {
        await apiSend('PATCH', `/api/account/passkeys/${encodeURIComponent(String(passkey.id))}`, { name: trimmed });
        setRenaming(false);
        await onChanged();
      } finally {
        setBusy(false);
      }
    });
  };

  return (
    <li className="flex flex-col gap-3 px-4 py-3">
      <FormAlert message={alert} />
      {renaming ? (
        <form noValidate onSubmit={(event) => void rename(event)} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <FormField
            id={`${id}-rename`}
            label={m.account_security_passkey_rename_label({ name: passkey.name })}
            error={nameError ?? undefined}
            className="flex-1"
          >
            {(control) => (
              // eslint-disable-next-line jsx-a11y/no-autofocus -- the Rename button just pressed is gone: the field it opened takes the focus
              <Input {...control} autoFocus value={name} maxLength={PASSKEY_NAME_MAX + 10} onChange={(event) => setName(event.target.value)} />
            )}
          </FormField>
          <div className="flex gap-2">
            <Button type="submit" loading={busy}>
              {m.account_security_passkey_save()}
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={busy}
              onClick={() => {
                setRenaming(false);
                setName(passkey.name);
                setNameError(null);
              }}
            >
              {m.account_common_cancel()}
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex min-w-0 flex-col gap-0.5">
            <p className="font-medium wrap-anywhere">{passkey.name}</p>
            <p className="text-sm text-muted-foreground">
              {m.account_security_passkey_added({ date: formatDate(passkey.createdAt) })} ·{' '}
              {passkey.lastUsedAt ? m.account_security_passkey_last_used({ when: formatRelative(passkey.lastUsedAt) }) : m.account_security_passkey_not_used()}
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setRenaming(true)}>
              {m.account_security_passkey_rename()}
              <span className="sr-only"> {passkey.name}</span>
            </Button>
            <ConfirmButton
              confirmVariant="destructive"
              question={m.account_security_passkey_remove_question({ name: passkey.name })}
              confirmLabel={m.account_security_remove()}
              onConfirm={() =>
                run(async () => {
                  await apiSend('DELETE', `/api/account/passkeys/${encodeURIComponent(String(passkey.id))}`, {});
                  await onChanged();
                })
              }
            >
              {m.account_security_remove()}
              <span className="sr-only"> {passkey.name}</span>
            </ConfirmButton>
          </div>
        </div>
      )}
    </li>
  );
}

// ---------------------------------------------------------------------------------------------

function SecuritySkeleton() {
  const frame = (title: string, icon: ReactNode) => (
    <SectionCard icon={icon} title={title} description={<Bone className="h-5 w-full max-w-md" />}>
      <Bone className="h-10 w-56 rounded-md" />
    </SectionCard>
  );
  return (
    <div aria-busy="true" className="flex max-w-3xl flex-col gap-6">
      <LoadingNote label={m.account_security_loading()} />
      <Bone className="h-6 w-full max-w-xl" />
      {frame(m.account_security_totp_title(), <SmartphoneIcon className="size-5" />)}
      {frame(m.account_security_passkeys_title(), <LockIcon className="size-5" />)}
    </div>
  );
}
