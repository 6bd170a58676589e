/**
 * The project page's "Members" card. Adding: paste addresses (any separators) or upload a CSV
 * file of them (papaparse, loaded when a file is chosen; the column of addresses is found by its
 * header or its content). The answer is shown in full: added, already members, addresses with no
 * account (listed, with "Invite these N people", which asks again with `invite: true`) and what
 * was not an address. The list: search, pages of 10, remove with a confirmation.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { PROGRAMME_LIMITS, type AddMembersResult, type ProjectMember } from '../../../shared/projects.ts';
import { apiSend, withQuery } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDate } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { HiddenFileInput } from '../../../components/ui/hidden-file-input.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { ConfirmButton, ListFooter, PER_PAGE, SearchForm, Section } from '../admin-kit.tsx';
import { chunk, emailsFromRows, mergeAddResults, parseEmailText } from './emails.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import type { MemberList } from './types.ts';

const STATUS_LABELS: Readonly<Record<ProjectMember['status'], () => string>> = {
  active: m.projects_members_status_active,
  invited: m.projects_members_status_invited,
  disabled: m.projects_members_status_disabled,
};

/** Sends the addresses in slices the API accepts and merges the answers. */
async function addMembers(projectId: number, emails: string[], invite: boolean): Promise<AddMembersResult> {
  const results: AddMembersResult[] = [];
  for (const slice of chunk(emails, PROGRAMME_LIMITS.membersPerCall)) {
    results.push(
      await apiSend<AddMembersResult>('POST', `/api/admin/projects/${projectId}/members`, invite ? { emails: slice, invite: true } : { emails: slice }),
    );
  }
  return mergeAddResults(results);
}

/** Reads a CSV file's addresses (papaparse is loaded on the first file). */
async function readCsvEmails(file: File): Promise<{ emails: string[]; header: string | null }> {
  const [{ default: Papa }, text] = await Promise.all([import('papaparse'), file.text()]);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const found = emailsFromRows(parsed.data);
  return { emails: found.emails, header: found.header };
}

export function MembersPanel({ projectId, onChanged }: { projectId: number; onChanged: () => void }) {
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (q) params.q = q;
  const { load, reload } = useResource<MemberList>(withQuery(`/api/admin/projects/${projectId}/members`, params));

  useEffect(() => {
    if (load.status !== 'ready') return;
    const last = Math.max(1, Math.ceil(load.data.total / load.data.pageSize));
    if (load.data.items.length === 0 && page > last) setPage(last);
  }, [load, page]);

  const changed = () => {
    reload();
    onChanged();
  };

  async function remove(member: ProjectMember) {
    try {
      await apiSend<unknown>('DELETE', `/api/admin/projects/${projectId}/members/${member.userId}`);
      toast({ title: m.projects_members_removed({ name: fullNameOf(member) || member.email }) });
      changed();
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.projects_members_remove_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  }

  return (
    <Section id="members" title={m.projects_counts_members()} description={m.projects_members_description()}>
      <AddMembers projectId={projectId} onAdded={changed} />

      <div className="flex flex-col gap-4 border-t border-border pt-5">
        <h3 className="text-base font-semibold">
          {m.projects_counts_members()}
          {load.status === 'ready' && !q ? <span className="font-normal text-muted-foreground"> ({formatCount(load.data.total)})</span> : null}
        </h3>
        <SearchForm
          label={m.projects_members_search()}
          value={q}
          onSearch={(value) => {
            setQ(value);
            setPage(1);
          }}
        />
        {load.status === 'loading' ? (
          <MemberRowsSkeleton />
        ) : load.status !== 'ready' ? (
          <Failed title={m.projects_members_failed()} message={load.message} onRetry={reload} />
        ) : load.data.items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
            {q ? m.projects_members_none_match({ q }) : m.projects_members_none()}
          </p>
        ) : (
          <>
            <ul aria-label={m.projects_counts_members()} className="flex flex-col divide-y divide-border rounded-lg border border-border">
              {load.data.items.map((member) => (
                <li key={member.userId} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
                  <div className="flex min-w-0 flex-col">
                    <span className="font-medium break-words">
                      {fullNameOf(member) || <span className="text-muted-foreground">{m.projects_members_no_name()}</span>}
                    </span>
                    <span className="text-sm break-all text-muted-foreground">{member.email}</span>
                  </div>
                  <div className="flex flex-wrap items-center gap-3">
                    <Badge variant={member.status === 'active' ? 'secondary' : 'outline'}>{STATUS_LABELS[member.status]()}</Badge>
                    <span className="text-xs text-muted-foreground">
                      {withNodes((marks) => m.projects_members_added_on(marks), {
                        date: <time dateTime={member.addedAt}>{formatDate(member.addedAt)}</time>,
                      })}
                    </span>
                    <ConfirmButton
                      confirmVariant="destructive"
                      confirmLabel={m.projects_members_remove()}
                      question={m.projects_members_remove_question({ name: fullNameOf(member) || member.email })}
                      onConfirm={() => remove(member)}
                    >
                      {withNodes((marks) => m.projects_members_remove_named(marks), {
                        name: <span className="sr-only">{fullNameOf(member) || member.email}</span>,
                      })}
                    </ConfirmButton>
                  </div>
                </li>
              ))}
            </ul>
            <ListFooter page={load.data.page} total={load.data.total} perPage={load.data.pageSize} label={m.projects_members_pages()} onPageChange={setPage} />
          </>
        )}
      </div>
    </Section>
  );
}

function MemberRowsSkeleton() {
  return (
    <Loading label={m.projects_members_loading()} className="flex flex-col divide-y divide-border rounded-lg border border-border">
      {[0, 1, 2].map((row) => (
        <div key={row} aria-hidden="true" className="flex h-[4.25rem] flex-col justify-center gap-2 p-3">
          <Bone className="h-4 w-40" />
          <Bone className="h-3 w-56" />
        </div>
      ))}
    </Loading>
  );
}

/** The paste box, the CSV upload and the last answer. */
function AddMembers({ projectId, onAdded }: { projectId: number; onAdded: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AddMembersResult | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const fileId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setAlert(null);
    const emails = parseEmailText(text);
    if (emails.length === 0) {
      setError(m.projects_members_paste_one());
      textarea.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const answer = await addMembers(projectId, emails, false);
      setResult(answer);
      setText('');
      setNote(null);
      if (answer.added.length > 0) onAdded();
    } catch (failure) {
      if (handleSessionLost(failure)) return;
      setAlert(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  async function invite(emails: string[]) {
    setAlert(null);
    try {
      const answer = await addMembers(projectId, emails, true);
      const invited = answer.invited ?? [];
      setResult((current) => ({
        added: [...(current?.added ?? []), ...answer.added.filter((email) => !invited.includes(email))],
        alreadyMembers: [...(current?.alreadyMembers ?? []), ...answer.alreadyMembers],
        unknown: answer.unknown.filter((email) => !invited.includes(email)),
        invalid: current?.invalid ?? [],
        invited: [...(current?.invited ?? []), ...invited],
      }));
      onAdded();
    } catch (failure) {
      if (!handleSessionLost(failure)) setAlert(errorMessage(failure));
    }
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    setAlert(null);
    setNote(null);
    try {
      const found = await readCsvEmails(file);
      if (found.emails.length === 0) {
        setAlert(m.projects_members_csv_none({ file: file.name }));
        return;
      }
      setText((current) => [current.trim(), found.emails.join('\n')].filter(Boolean).join('\n'));
      setError(null);
      setNote(
        found.header
          ? m.projects_members_csv_read_column({ count: found.emails.length, file: file.name, column: found.header })
          : m.projects_members_csv_read({ count: found.emails.length, file: file.name }),
      );
      textarea.current?.focus();
    } catch {
      setAlert(m.projects_members_csv_unreadable({ file: file.name }));
    }
  }

  const count = parseEmailText(text).length;

  return (
    <div className="flex flex-col gap-4">
      <form noValidate aria-label={m.projects_members_add()} onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        {alert && <Alert variant="destructive">{alert}</Alert>}
        <FormField id={id} label={m.projects_members_add_by_email()} description={m.projects_members_add_description()} error={error ?? undefined}>
          {(control) => (
            <Textarea
              {...control}
              ref={textarea}
              rows={4}
              value={text}
              spellCheck={false}
              autoComplete="off"
              placeholder={'ada@example.org, grace@example.org\nAlan Turing <alan@example.org>'}
              onChange={(event) => setText(event.target.value)}
            />
          )}
        </FormField>
        {note && (
          <p role="status" className="text-sm text-muted-foreground">
            {note}
          </p>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" loading={busy}>
            {count > 1 ? m.projects_members_add_count({ count }) : m.projects_members_add()}
          </Button>
          <HiddenFileInput ref={fileInput} id={fileId} accept=".csv,text/csv,text/plain" onFile={(file) => void onFile(file)} />
          <Button variant="outline" onClick={() => fileInput.current?.click()}>
            {m.projects_members_upload_csv()}
          </Button>
        </div>
      </form>
      {result && <AddResult result={result} onInvite={invite} onDismiss={() => setResult(null)} />}
    </div>
  );
}

function AddressList({ title, emails, tone = 'default', children }: { title: string; emails: string[]; tone?: 'default' | 'warning'; children?: ReactNode }) {
  const headingId = useId();
  if (emails.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className={cn('flex flex-col gap-2 rounded-lg border p-3', tone === 'warning' ? 'border-destructive/50' : 'border-border')}
    >
      <h4 id={headingId} className="text-sm font-semibold">
        {title} <span className="font-normal text-muted-foreground">({formatCount(emails.length)})</span>
      </h4>
      <ul className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto">
        {emails.map((email) => (
          <li key={email} className="rounded-md bg-muted px-2 py-0.5 text-sm break-all">
            {email}
          </li>
        ))}
      </ul>
      {children}
    </section>
  );
}

/** What the last add did, in full: nothing is dropped silently. */
function AddResult({ result, onInvite, onDismiss }: { result: AddMembersResult; onInvite: (emails: string[]) => Promise<void>; onDismiss: () => void }) {
  const [inviting, setInviting] = useState(false);
  const invited = result.invited ?? [];
  const summary = [
    result.added.length > 0 && m.projects_members_summary_added({ count: result.added.length }),
    invited.length > 0 && m.projects_members_summary_invited({ count: invited.length }),
    result.alreadyMembers.length > 0 && m.projects_members_summary_already({ count: result.alreadyMembers.length }),
    result.unknown.length > 0 && m.projects_members_summary_unknown({ count: result.unknown.length }),
    result.invalid.length > 0 && m.projects_members_summary_invalid({ count: result.invalid.length }),
  ].filter(Boolean);
  return (
    <div className="flex flex-col gap-3 rounded-lg bg-muted/50 p-4" aria-label={m.projects_members_result()} role="region">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p role="status" className="text-sm font-medium">
          {summary.length > 0 ? `${summary.join(m.projects_members_summary_separator())}.` : m.projects_members_nothing_added()}
        </p>
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          {m.projects_members_dismiss()}
        </Button>
      </div>
      <AddressList title={m.projects_members_list_added()} emails={result.added} />
      <AddressList title={m.projects_members_list_invited()} emails={invited} />
      <AddressList title={m.projects_members_list_already()} emails={result.alreadyMembers} />
      <AddressList title={m.projects_members_list_unknown()} emails={result.unknown} tone="warning">
        <p className="text-sm text-muted-foreground">{m.projects_members_unknown_help()}</p>
        <Button
          className="self-start"
          loading={inviting}
          onClick={() => {
            setInviting(true);
            void onInvite(result.unknown).finally(() => setInviting(false));
          }}
        >
          {result.unknown.length === 1 ? m.projects_members_invite_one() : m.projects_members_invite_many({ count: result.unknown.length })}
        </Button>
      </AddressList>
      <AddressList title={m.projects_members_list_invalid()} emails={result.invalid} tone="warning">
        <p className="text-sm text-muted-foreground">{m.projects_members_invalid_help()}</p>
      </AddressList>
    </div>
  );
}
