/**
 * The header account menu itself (Radix DropdownMenu), loaded on first intent by AccountMenu.tsx:
 * Account, Rewards for participants, Admin for moderators and admins, Sign out.
 */
import { useRef, type ReactNode } from 'react';
import { isElevated } from '../../shared/roles.ts';
import { m } from '../../shared/i18n.ts';
import type { CurrentUser } from '../../platform/api.ts';
import { useTriggerHandoff, type TriggerHandoff } from '../../lib/lazy-module.ts';
import { LogOutIcon, ShieldIcon, StarIcon, UserIcon } from '../../components/icons.tsx';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx';

export interface AccountMenuDropdownProps extends TriggerHandoff {
  user: CurrentUser;
  name: string;
  triggerClassName: string;
  trigger: ReactNode;
  signingOut: boolean;
  onSignOut: () => void;
}

export default function AccountMenuDropdown({
  user,
  name,
  triggerClassName,
  trigger,
  signingOut,
  onSignOut,
  defaultOpen,
  focusTrigger,
}: AccountMenuDropdownProps) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  useTriggerHandoff(triggerRef, { defaultOpen, focusTrigger });
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={triggerRef} className={triggerClassName} aria-busy={signingOut || undefined}>
        {trigger}
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="flex flex-col gap-0.5">
          <span className="truncate font-semibold">{name}</span>
          <span className="truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <a href="/account">
            <UserIcon />
            {m.shell_account_menu_account()}
          </a>
        </DropdownMenuItem>
        {user.role === 'participant' && (
          <DropdownMenuItem asChild>
            <a href="/account/rewards">
              <StarIcon />
              {m.shell_account_menu_rewards()}
            </a>
          </DropdownMenuItem>
        )}
        {isElevated(user.role) && (
          <DropdownMenuItem asChild>
            <a href="/admin">
              <ShieldIcon />
              {m.shell_account_menu_admin()}
            </a>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={signingOut} onSelect={onSignOut}>
          <LogOutIcon />
          {m.shell_account_menu_sign_out()}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
