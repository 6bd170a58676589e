/**
 * The notifications trigger's face — the bell, its unread count and its classes — shared by the
 * stand-in button (NotificationsMenu) and the real trigger in the lazily loaded dropdown, so the
 * dropdown never imports the menu back.
 */
import { BellIcon } from '../../components/icons.tsx';
import { unreadBadge } from './notification-words.ts';

export const NOTIFICATIONS_TRIGGER_CLASSES =
  'relative inline-flex size-10 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=open]:bg-accent data-[state=open]:text-accent-foreground';

/** The bell and its count, the same in the stand-in and the real trigger. */
export function BellFace({ unread }: { unread: number | null }) {
  const badge = unreadBadge(unread);
  return (
    <>
      <BellIcon className="size-5" />
      {badge && (
        <span
          aria-hidden="true"
          data-unread-badge
          className="absolute top-0.5 end-0.5 flex h-[1.125rem] min-w-[1.125rem] items-center justify-center rounded-full bg-destructive px-1 text-[0.6875rem] leading-none font-semibold text-destructive-foreground tabular-nums ring-2 ring-card"
        >
          {badge}
        </span>
      )}
    </>
  );
}
