/**
 * The header's notifications menu itself (Radix DropdownMenu), loaded on first intent by
 * NotificationsMenu.tsx: the recent notifications (text, when, unread marked), each opening its
 * link and marking it read; "Mark all as read"; a way to the participant's missions (for moderators
 * and admins: to the entries waiting for review, and words that fit them). The list and the unread
 * count are fetched each time it opens.
 */
import { useEffect, useRef, useState } from 'react';
import type { NotificationView, NotificationsAnswer } from '../../shared/notifications.ts';
import { apiGet, apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import { useTriggerHandoff, type TriggerHandoff } from '../../lib/lazy-module.ts';
import { navigateTo } from '../../lib/navigation.ts';
import { cn } from '../../lib/utils.ts';
import { CheckIcon, ChevronRightIcon } from '../../components/icons.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { m, formatCount } from '../../shared/i18n.ts';
import { safeLink } from './notification-words.ts';
import { BellFace } from './bell-face.tsx';

/** How many recent notifications the menu lists. */
export const MENU_PAGE_SIZE = 10;

export interface NotificationsDropdownProps extends TriggerHandoff {
  /** The trigger's accessible name ("Notifications, 3 unread"). */
  label: string;
  unread: number | null;
  /** A moderator or admin: notifications are a participant's matter, their work is in the admin area. */
  staff?: boolean;
  onUnreadChange: (unread: number) => void;
  triggerClassName: string;
}

type List = { status: 'loading' } | { status: 'ready'; items: NotificationView[] } | { status: 'error'; message: string };

export default function NotificationsDropdown({
  label,
  unread,
  staff = false,
  onUnreadChange,
  triggerClassName,
  defaultOpen,
  focusTrigger,
}: NotificationsDropdownProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [list, setList] = useState<List>({ status: 'loading' });
  const [marking, setMarking] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  /** The header the bell sits in: the open menu is placed inside it, within its landmark (axe `region`). */
  const [host, setHost] = useState<HTMLElement | null>(null);
  useEffect(() => setHost(triggerRef.current?.closest('header') ?? null), []);
  const attempt = useRef(0);
  /** A notification was opened: the page changes, focus need not go back to the bell. */
  const leaving = useRef(false);

  useTriggerHandoff(triggerRef, { defaultOpen, focusTrigger });

  const refresh = async (): Promise<void> => {
    const mine = ++attempt.current;
    try {
      const answer = await apiGet<NotificationsAnswer>(`/api/account/notifications?pageSize=${MENU_PAGE_SIZE}`);
      if (mine !== attempt.current) return;
      setList({ status: 'ready', items: answer.items });
      onUnreadChange(answer.unread);
    } catch (error) {
      if (mine === attempt.current) setList((current) => (current.status === 'ready' ? current : { status: 'error', message: errorMessage(error) }));
    }
  };

  useEffect(() => {
    if (open) void refresh();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fetch each time the menu opens, not on every render (refresh is a new function each render)
  }, [open]);

  const markRead = async (ids?: number[]): Promise<void> => {
    const answer = await apiSend<{ unread: number }>('POST', '/api/account/notifications/read', ids ? { ids } : {});
    onUnreadChange(answer.unread);
    setList((current) =>
      current.status === 'ready'
        ? { status: 'ready', items: current.items.map((item) => (!ids || ids.includes(item.id) ? { ...item, read: true } : item)) }
        : current,
    );
  };

  const openNotification = async (item: NotificationView): Promise<void> => {
    leaving.current = safeLink(item.link) !== null;
    setOpen(false);
    if (!item.read) {
      try {
        await markRead([item.id]);
      } catch {
        // Still go where it leads; it stays unread.
      }
    }
    const link = safeLink(item.link);
    if (!link) return;
    try {
      await navigateTo(link);
    } catch {
      // Refused and reported by navigateTo; the menu stays where it is.
    }
  };

  const markAll = async (): Promise<void> => {
    setMarking(true);
    try {
      await markRead();
    } catch (error) {
      setList({ status: 'error', message: errorMessage(error) });
    } finally {
      setMarking(false);
    }
  };

  const items = list.status === 'ready' ? list.items : [];
  const anyUnread = (unread ?? 0) > 0 || items.some((item) => !item.read);

  return (
    <DropdownMenu modal={false} open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger ref={triggerRef} aria-label={label} className={triggerClassName}>
        <BellFace unread={unread} />
      </DropdownMenuTrigger>
      <DropdownMenuContent
        container={host}
        className="w-[22rem]"
        onCloseAutoFocus={(event) => {
          if (leaving.current) event.preventDefault();
          leaving.current = false;
        }}
      >
        <DropdownMenuLabel className="flex items-baseline justify-between gap-3">
          <span className="font-semibold">{m.shell_notifications_title()}</span>
          {unread !== null && (
            <span className="text-xs font-normal text-muted-foreground">
              {unread === 0 ? m.shell_notifications_all_read() : m.shell_notifications_unread({ count: formatCount(unread) })}
            </span>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {list.status === 'loading' && (
          <p role="status" className="flex items-center gap-2 px-2.5 py-3 text-sm text-muted-foreground">
            <Spinner />
            {m.shell_notifications_loading()}
          </p>
        )}
        {list.status === 'error' && (
          <>
            <p role="alert" className="px-2.5 py-2 text-sm text-destructive">
              {list.message}
            </p>
            <DropdownMenuItem
              onSelect={(event) => {
                event.preventDefault();
                setList({ status: 'loading' });
                void refresh();
              }}
            >
              {m.shell_common_try_again()}
            </DropdownMenuItem>
          </>
        )}
        {list.status === 'ready' && items.length === 0 && (
          <p className="px-2.5 py-3 text-sm text-muted-foreground">{staff ? m.shell_notifications_empty_staff() : m.shell_notifications_empty()}</p>
        )}
        {items.length > 0 && (
          <div className="max-h-[min(24rem,60dvh)] overflow-y-auto">
            {items.map((item) => (
              <DropdownMenuItem
                key={item.id}
                data-notification={item.read ? 'read' : 'unread'}
                className={cn('items-start gap-2.5 py-2.5', !item.read && 'bg-primary/5')}
                onSelect={() => void openNotification(item)}
              >
                <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', item.read ? 'bg-transparent' : 'bg-primary')} />
                <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                  <span className={cn('line-clamp-3 text-sm break-words', item.read ? 'text-foreground/80' : 'font-semibold text-foreground')}>
                    {!item.read && <span className="sr-only">{m.shell_notifications_unread_mark()} </span>}
                    {item.text}
                  </span>
                  <time dateTime={item.createdAt} title={formatDateTime(item.createdAt)} className="text-xs text-muted-foreground">
                    {formatRelative(item.createdAt)}
                  </time>
                </span>
              </DropdownMenuItem>
            ))}
          </div>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={!anyUnread || marking}
          onSelect={(event) => {
            event.preventDefault();
            void markAll();
          }}
        >
          {marking ? <Spinner /> : <CheckIcon />}
          {m.shell_notifications_mark_all_read()}
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          {staff ? (
            <a href="/admin/review">
              <ChevronRightIcon className="size-4 rtl:-scale-x-100" />
              {m.shell_notifications_review_link()}
            </a>
          ) : (
            <a href="/account#mission-history">
              <ChevronRightIcon className="size-4 rtl:-scale-x-100" />
              {m.shell_notifications_missions_link()}
            </a>
          )}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
