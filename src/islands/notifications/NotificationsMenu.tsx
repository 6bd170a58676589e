/**
 * The header's notifications bell (default, admin and formbuilder layouts, beside the account
 * menu; signed-in users only): a bell with the unread count ("Notifications, 3 unread"), and a
 * menu of the recent notifications (NotificationsDropdown.tsx). The unread count is fetched once
 * per full page load, once the signed-in user is known (no polling), and again whenever the menu
 * opens.
 *
 * The bell is on every signed-in page, the participant's survey screen included, so it stays tiny:
 * until someone shows an intent to open it (pointer over, focus, press) it is a stand-in button of
 * the same look; the menu (Radix) loads then, as the account menu does.
 */
import { useEffect } from 'react';
import { atom } from 'nanostores';
import type { NotificationsAnswer } from '../../shared/notifications.ts';
import { isElevated } from '../../shared/roles.ts';
import { apiGet } from '../../platform/api.ts';
import { lazyModule, useLazyTrigger } from '../../lib/lazy-module.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { useClientStore } from '../../lib/use-client-store.ts';
import { notificationsLabel } from './notification-words.ts';
import { BellFace, NOTIFICATIONS_TRIGGER_CLASSES } from './bell-face.tsx';

/** The menu itself (Radix), loaded when someone shows an intent to open it. */
const dropdown = lazyModule(() => import('./NotificationsDropdown.tsx'));

/** The unread count of the signed-in user (null until known). */
interface UnreadState {
  userId: number | string;
  unread: number | null;
}
const $unread = atom<UnreadState | null>(null);
let requestedFor: number | string | null = null;

/** Fetches the unread count once per page load for this user (a failure leaves the bell without a number). */
function loadUnread(userId: number | string): void {
  if (requestedFor === userId) return;
  requestedFor = userId;
  $unread.set({ userId, unread: null });
  apiGet<NotificationsAnswer>('/api/account/notifications?pageSize=1').then(
    (answer) => {
      if (requestedFor === userId) $unread.set({ userId, unread: answer.unread });
    },
    () => {
      // No count shown; opening the menu asks again.
    },
  );
}

/** Puts a newer unread count in place (the menu loaded the list, or marked some read). */
function setUnread(userId: number | string, unread: number): void {
  if (requestedFor === userId) $unread.set({ userId, unread });
}

export default function NotificationsMenu() {
  const auth = useAuth();
  const state = useClientStore($unread, null);
  const { loaded: Dropdown, handoff, standIn } = useLazyTrigger(dropdown);
  const userId = auth.status === 'authenticated' ? auth.user.id : null;
  const staff = auth.status === 'authenticated' && isElevated(auth.user.role);

  useEffect(() => {
    if (userId !== null) loadUnread(userId);
  }, [userId]);

  if (auth.status === 'unknown') return <span className="block size-10" aria-hidden="true" data-notifications-placeholder />;
  if (userId === null) return null;

  const unread = state?.userId === userId ? state.unread : null;
  const label = notificationsLabel(unread);

  if (Dropdown) {
    return (
      <Dropdown.default
        label={label}
        unread={unread}
        staff={staff}
        onUnreadChange={(count) => setUnread(userId, count)}
        triggerClassName={NOTIFICATIONS_TRIGGER_CLASSES}
        {...handoff}
      />
    );
  }
  // A stand-in of the same look until the menu is loaded: pointer over or focus loads it, a press opens it.
  return (
    <button {...standIn} aria-label={label} className={NOTIFICATIONS_TRIGGER_CLASSES}>
      <BellFace unread={unread} />
    </button>
  );
}
