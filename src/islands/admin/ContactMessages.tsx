import { useState } from 'react';
import { apiSend, withQuery } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDateTime } from '../../lib/format.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { m } from '../../shared/i18n.ts';
import type { ListPage } from '../../shared/list.ts';
import { ListBody, ListFooter, PER_PAGE, SearchForm, Section, useApi } from './admin-kit.tsx';

export interface ContactMessage {
  id: number;
  name: string;
  email: string;
  message: string;
  userId: number | null;
  ip: string | null;
  createdAt: string;
  handledAt: string | null;
}

/** "Contact messages": what people sent through /contact, newest first; mark handled or reopen. */
export function ContactMessages() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const query: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (search) query.q = search;
  const { load, reload, replace } = useApi<ListPage<ContactMessage>>(withQuery('/api/admin/contact-messages', query));

  async function setHandled(message: ContactMessage, handled: boolean) {
    setAlert(null);
    setBusy(message.id);
    try {
      const { message: updated } = await apiSend<{ message: ContactMessage }>('PATCH', `/api/admin/contact-messages/${message.id}`, { handled });
      replace((data) => ({ ...data, items: data.items.map((each) => (each.id === updated.id ? updated : each)) }));
    } catch (error) {
      setAlert(errorMessage(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Section id="contact-messages" title={m.admin_contact_title()} description={m.admin_contact_description()}>
      <SearchForm
        label={m.admin_contact_search()}
        value={search}
        onSearch={(value) => {
          setSearch(value);
          setPage(1);
        }}
      />
      <FormAlert message={alert} />
      <ListBody
        load={load}
        reload={reload}
        loadingLabel={m.admin_contact_loading()}
        isEmpty={(data) => data.items.length === 0}
        empty={search ? m.admin_contact_empty_search({ search }) : m.admin_contact_empty()}
      >
        {(data) => (
          <>
            <ul className="flex flex-col divide-y divide-border rounded-lg border border-border" aria-label={m.admin_contact_title()}>
              {data.items.map((message) => (
                <li key={message.id} className="flex flex-col gap-3 p-4">
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                    <div className="flex min-w-0 flex-col gap-0.5">
                      <p className="flex flex-wrap items-center gap-2">
                        <span className="font-medium">{message.name}</span>
                        {message.handledAt ? <Badge variant="outline">{m.admin_contact_handled()}</Badge> : <Badge>{m.admin_contact_new()}</Badge>}
                      </p>
                      <a href={`mailto:${message.email}`} className="text-sm text-primary underline-offset-4 wrap-anywhere hover:underline">
                        {message.email}
                      </a>
                      <p className="text-xs text-muted-foreground">
                        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
                        {message.handledAt && <> · {m.admin_contact_handled_at({ date: formatDateTime(message.handledAt) })}</>}
                      </p>
                    </div>
                    <Button
                      size="sm"
                      variant={message.handledAt ? 'ghost' : 'outline'}
                      loading={busy === message.id}
                      onClick={() => void setHandled(message, message.handledAt === null)}
                      className="self-start"
                    >
                      {message.handledAt ? m.admin_contact_reopen() : m.admin_contact_mark_handled()}
                    </Button>
                  </div>
                  <p className="text-sm whitespace-pre-line wrap-anywhere">{message.message}</p>
                </li>
              ))}
            </ul>
            <ListFooter page={data.page} total={data.total} perPage={data.pageSize} label={m.admin_contact_pages()} onPageChange={setPage} />
          </>
        )}
      </ListBody>
    </Section>
  );
}
