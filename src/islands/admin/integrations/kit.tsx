/**
 * What the three integrations screens share: the sub-navigation between them (prerendered, no
 * script), the admins-only gate, the dialog that shows a secret or a token once, copying, and the
 * words of a refused action.
 */
import { useId, useState, type ReactNode } from 'react';
import { ApiError, REAUTH_REQUIRED } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { m } from '../../../shared/i18n.ts';

const TABS = [
  { href: '/admin/integrations', label: m.integrations_tab_webhooks },
  { href: '/admin/integrations/tokens', label: m.integrations_tab_tokens },
  { href: '/admin/integrations/docs', label: m.integrations_tab_reference },
] as const;

export type IntegrationsTab = (typeof TABS)[number]['href'];

/**
 * Webhooks · API tokens · API reference: links between the three pages, the current one marked.
 * Placed by the pages without a `client:` directive: plain HTML, prerendered in each language.
 */
export function IntegrationsNav({ current }: { current: IntegrationsTab }) {
  return (
    <nav aria-label={m.integrations_nav_label()} className="mb-6 max-w-full overflow-x-auto">
      <ul className="inline-flex items-center gap-1 rounded-lg border border-border bg-card p-1 shadow-xs">
        {TABS.map((tab) => {
          const here = tab.href === current;
          return (
            <li key={tab.href}>
              <a
                href={tab.href}
                aria-current={here ? 'page' : undefined}
                className={cn(
                  'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap text-muted-foreground no-underline hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  here && 'bg-secondary text-secondary-foreground hover:bg-secondary hover:text-secondary-foreground',
                )}
              >
                {tab.label()}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The screen for admins; moderators are told it is not theirs (the API refuses them anyway). */
export function AdminsOnly({ loadingLabel, children }: { loadingLabel: string; children: ReactNode }) {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={loadingLabel} />;
  if (auth.user.role !== 'admin') {
    return (
      <Alert variant="info" title={m.integrations_admins_only_title()}>
        {m.integrations_admins_only_text()}
      </Alert>
    );
  }
  return <>{children}</>;
}

/** A refused action in words: our own for the codes these screens meet, else the usual. */
export function problemText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === REAUTH_REQUIRED) return m.integrations_error_reauth();
    if (error.code === 'webhook_disabled') return m.integrations_error_webhook_disabled();
    if (error.code === 'too_many_webhooks') return m.integrations_error_too_many_webhooks();
    if (error.status === 404) return m.integrations_error_gone();
  }
  return errorMessage(error);
}

/** A refusal for a dialog's fields: the API names the project `projectId`; the dialogs' forms, `project`. */
export function onFormFields(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.fields.projectId) return error;
  const { projectId, ...rest } = error.fields;
  return new ApiError(error.status, error.code, error.message, { ...rest, project: projectId }, error.retryAfter, error.body, error.details);
}

/** A refusal no field of a dialog shows (and no lost session): the dialog says it in its alert, in `problemText`'s words. */
export function isFieldlessRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && Object.keys(error.fields).length === 0 && error.status !== 401;
}

/** Runs an action; a failure (but a lost session, which goes to sign-in) is a toast titled `failedTitle`. */
export async function attempt(failedTitle: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!handleSessionLost(error)) toast({ title: failedTitle, description: problemText(error), variant: 'destructive' });
  }
}

/** Copies a text; says whether it worked (a browser that refuses: select the field and copy by hand). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A read-only field holding a secret, selected on focus, with its Copy button and what copying did. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <input
          id={id}
          readOnly
          dir="ltr"
          value={value}
          spellCheck={false}
          onFocus={(event) => event.target.select()}
          className="h-10 min-w-0 flex-1 rounded-md border border-input bg-muted px-3 font-mono text-sm text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        />
        <Button type="button" variant="secondary" className="self-start sm:self-auto" onClick={() => void copyText(value).then(setCopied)}>
          {m.integrations_copy()}
          <span className="sr-only"> {label}</span>
        </Button>
      </div>
      <p role="status" className={cn('text-sm', copied === false ? 'text-destructive' : 'text-muted-foreground')}>
        {copied === true ? m.integrations_copied() : copied === false ? m.integrations_copy_failed() : ''}
      </p>
    </div>
  );
}

/**
 * A secret or a token, shown this once: the value with its Copy button, the warning that it will
 * not be shown again, anything more the caller adds, and Done. A click beside it does not close it
 * (the value would be lost); Escape and Done do.
 */
export function OnceDialog({
  open,
  onDone,
  title,
  description,
  label,
  value,
  children,
}: {
  open: boolean;
  onDone: () => void;
  title: string;
  description: string;
  label: string;
  value: string;
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => !next && onDone()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Alert variant="destructive" role="note" title={m.integrations_once_title()}>
          {m.integrations_once_text()}
        </Alert>
        <CopyField label={label} value={value} />
        {children}
        <DialogFooter>
          <Button onClick={onDone}>{m.integrations_done()}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** A short code-like text kept left to right inside right-to-left pages (addresses, event types, scopes). */
export function Code({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <code dir="ltr" className={cn('rounded bg-muted px-1.5 py-0.5 font-mono text-xs wrap-anywhere', className)}>
      {children}
    </code>
  );
}
