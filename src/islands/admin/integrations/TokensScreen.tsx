/**
 * /admin/integrations/tokens (issue 32 §2; admins): the API tokens — name and first characters,
 * scopes, project, who made it and when, expiry, last use (when and from where), status — searched,
 * filtered by status and in pages (`GET /api/admin/tokens`, the list contract); "New token" (the
 * token then shown once, with a line to try it) and "Revoke" (asked once more; at once).
 */
import { useState } from 'react';
import type { ApiTokenListItem, ApiTokenStatus, CreatedApiToken } from '../../../shared/api-tokens.ts';
import type { ListPage } from '../../../shared/list.ts';
import { apiSend, withQuery } from '../../../platform/api.ts';
import { formatDate, formatDateTime, formatRelative } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton, FilterSelect, ListBody, ListFooter, PER_PAGE, SearchForm, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { AdminsOnly, attempt, Code, OnceDialog } from './kit.tsx';
import { curlExample, projectName, TOKEN_STATUS_LABELS, tokenPrefixText, type ProjectOption } from './logic.ts';
import { TokenDialog } from './TokenDialog.tsx';

type StatusFilter = 'all' | ApiTokenStatus;

/** The island of /admin/integrations/tokens. */
export default function TokensScreen() {
  return (
    <AdminsOnly loadingLabel={m.integrations_tokens_loading()}>
      <Tokens />
    </AdminsOnly>
  );
}

function TokenStatus({ status }: { status: ApiTokenStatus }) {
  return (
    <Badge variant={status === 'active' ? 'default' : 'outline'} className={cn(status === 'revoked' && 'text-muted-foreground')}>
      {TOKEN_STATUS_LABELS[status]()}
    </Badge>
  );
}

function Scopes({ token }: { token: ApiTokenListItem }) {
  return (
    <span className="flex flex-wrap gap-1">
      {token.scopes.map((scope) => (
        <Code key={scope}>{scope}</Code>
      ))}
    </span>
  );
}

/** When it was last used and from where, or "Never". */
function LastUsed({ token }: { token: ApiTokenListItem }) {
  if (!token.lastUsedAt) return <span className="text-muted-foreground">{m.integrations_token_never_used()}</span>;
  return (
    <span className="flex flex-col gap-0.5">
      <time dateTime={token.lastUsedAt} title={formatDateTime(token.lastUsedAt)}>
        {formatRelative(token.lastUsedAt)}
      </time>
      {token.lastUsedIp && (
        <span dir="ltr" className="self-start font-mono text-xs text-muted-foreground">
          {token.lastUsedIp}
        </span>
      )}
    </span>
  );
}

function Created({ token }: { token: ApiTokenListItem }) {
  return (
    <span className="flex flex-col gap-0.5">
      <time dateTime={token.createdAt}>{formatDate(token.createdAt)}</time>
      <span className="text-xs text-muted-foreground">{token.createdBy ? token.createdBy.name : m.integrations_token_creator_gone()}</span>
    </span>
  );
}

function Tokens() {
  const [q, setQ] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [made, setMade] = useState<CreatedApiToken | null>(null);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (q) params.q = q;
  if (status !== 'all') params.status = status;
  const list = useResource<ListPage<ApiTokenListItem>>(withQuery('/api/admin/tokens', params));
  const projectsLoad = useResource<{ items: ProjectOption[] }>('/api/admin/projects?pageSize=100&sort=name');
  const projects = projectsLoad.load.status === 'ready' ? projectsLoad.load.data.items : [];
  const filtered = q !== '' || status !== 'all';

  const statusOptions: readonly { value: StatusFilter; label: string }[] = [
    { value: 'all', label: m.integrations_token_status_all() },
    { value: 'active', label: TOKEN_STATUS_LABELS.active() },
    { value: 'expired', label: TOKEN_STATUS_LABELS.expired() },
    { value: 'revoked', label: TOKEN_STATUS_LABELS.revoked() },
  ];

  const revoke = (token: ApiTokenListItem) =>
    attempt(m.integrations_token_revoke_failed(), async () => {
      const revoked = await apiSend<ApiTokenListItem>('DELETE', `/api/admin/tokens/${token.id}`, {});
      toast({ title: m.integrations_token_revoked({ name: revoked.name }) });
      list.replace((was) => ({ ...was, items: was.items.map((other) => (other.id === revoked.id ? revoked : other)) }));
    });

  const revokeButton = (token: ApiTokenListItem) =>
    token.status === 'active' ? (
      <ConfirmButton
        confirmVariant="destructive"
        question={m.integrations_token_revoke_question()}
        confirmLabel={m.integrations_token_revoke_confirm()}
        onConfirm={() => revoke(token)}
      >
        {m.integrations_token_revoke()}
        <span className="sr-only"> {token.name}</span>
      </ConfirmButton>
    ) : null;

  return (
    <>
      <Section
        id="tokens"
        title={m.integrations_tokens_title()}
        description={m.integrations_tokens_description()}
        aside={<Button onClick={() => setCreating(true)}>{m.integrations_token_new()}</Button>}
      >
        <SearchForm
          label={m.integrations_tokens_search()}
          value={q}
          onSearch={(next) => {
            setQ(next);
            setPage(1);
          }}
        >
          <FilterSelect
            label={m.integrations_token_status()}
            value={status}
            options={statusOptions}
            onChange={(next) => {
              setStatus(next);
              setPage(1);
            }}
            className="sm:w-48"
          />
        </SearchForm>
        <ListBody
          load={list.load}
          reload={list.reload}
          loadingLabel={m.integrations_tokens_loading()}
          isEmpty={(data) => data.items.length === 0}
          empty={filtered ? m.integrations_tokens_empty_filtered() : m.integrations_tokens_empty()}
        >
          {(data) => (
            <>
              {/* Narrower screens: one card per token. */}
              <ul className="flex flex-col divide-y divide-border border-y border-border xl:hidden" aria-label={m.integrations_tokens_title()}>
                {data.items.map((token) => (
                  <li key={token.id} className="flex flex-col gap-3 py-4 text-sm">
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <div className="flex min-w-0 flex-col gap-1">
                        <p className="font-medium wrap-anywhere">
                          <bdi>{token.name}</bdi>
                        </p>
                        <Code className="self-start">{tokenPrefixText(token.prefix)}</Code>
                      </div>
                      <TokenStatus status={token.status} />
                    </div>
                    <Scopes token={token} />
                    <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
                      <div className="flex flex-col gap-0.5">
                        <dt className="text-xs text-muted-foreground">{m.integrations_project()}</dt>
                        <dd>{projectName(projects, token.projectId)}</dd>
                      </div>
                      <div className="flex flex-col gap-0.5">
                        <dt className="text-xs text-muted-foreground">{m.integrations_token_expires()}</dt>
                        <dd>
                          <time dateTime={token.expiresAt}>{formatDate(token.expiresAt)}</time>
                        </dd>
                      </div>
                      <div className="flex flex-col gap-0.5">
                        <dt className="text-xs text-muted-foreground">{m.integrations_token_created()}</dt>
                        <dd>
                          <Created token={token} />
                        </dd>
                      </div>
                      <div className="flex flex-col gap-0.5">
                        <dt className="text-xs text-muted-foreground">{m.integrations_token_last_used()}</dt>
                        <dd>
                          <LastUsed token={token} />
                        </dd>
                      </div>
                    </dl>
                    {revokeButton(token)}
                  </li>
                ))}
              </ul>
              {/* From the `xl` width: the table. */}
              <div className="hidden xl:block">
                <TableScroller label={m.integrations_tokens_table()}>
                  <div className="relative">
                    <table className="w-full min-w-[52rem] border-collapse">
                      <caption className="sr-only">{m.integrations_tokens_caption({ total: formatCount(data.total) })}</caption>
                      <TableHead
                        columns={[
                          m.integrations_token_name(),
                          m.integrations_token_scopes(),
                          m.integrations_project(),
                          m.integrations_token_created(),
                          m.integrations_token_expires(),
                          m.integrations_token_last_used(),
                          m.integrations_token_status(),
                          { label: m.integrations_actions(), hidden: true },
                        ]}
                      />
                      <tbody>
                        {data.items.map((token) => (
                          <tr key={token.id}>
                            <td className={td}>
                              <span className="flex flex-col gap-1">
                                <span className="font-medium wrap-anywhere">
                                  <bdi>{token.name}</bdi>
                                </span>
                                <Code className="self-start">{tokenPrefixText(token.prefix)}</Code>
                              </span>
                            </td>
                            <td className={td}>
                              <Scopes token={token} />
                            </td>
                            <td className={td}>{projectName(projects, token.projectId)}</td>
                            <td className={td}>
                              <Created token={token} />
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              <time dateTime={token.expiresAt}>{formatDate(token.expiresAt)}</time>
                            </td>
                            <td className={`${td} whitespace-nowrap`}>
                              <LastUsed token={token} />
                            </td>
                            <td className={td}>
                              <TokenStatus status={token.status} />
                            </td>
                            <td className={`${td} text-end`}>{revokeButton(token)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </TableScroller>
              </div>
              <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.integrations_tokens_pages()} onPageChange={setPage} />
            </>
          )}
        </ListBody>
      </Section>

      <TokenDialog
        open={creating}
        onOpenChange={setCreating}
        projects={projects}
        onCreated={(created) => {
          setMade(created);
          setPage(1);
          list.reload();
        }}
      />

      <OnceDialog
        open={made !== null}
        onDone={() => setMade(null)}
        title={m.integrations_token_made_title({ name: made?.name ?? '' })}
        description={m.integrations_token_made_description()}
        label={m.integrations_token_label()}
        value={made?.token ?? ''}
      >
        {made && (
          <div className="flex flex-col gap-2">
            <p className="text-sm font-medium">{m.integrations_token_try()}</p>
            <pre dir="ltr" className="rounded-md bg-muted p-3 text-start font-mono text-xs whitespace-pre-wrap break-all">
              {curlExample(location.origin, made.token)}
            </pre>
          </div>
        )}
      </OnceDialog>
    </>
  );
}
