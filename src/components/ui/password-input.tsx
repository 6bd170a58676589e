import { useState, type ComponentProps } from 'react';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import { EyeIcon, EyeOffIcon } from '../icons.tsx';
import { controlClasses } from './input.tsx';

type PasswordInputProps = Omit<ComponentProps<'input'>, 'type'> & { id: string };

/**
 * A password field with a show/hide toggle. The toggle is a real button (keyboard reachable,
 * named "Show password" / "Hide password", pressed state announced) that never submits.
 */
export function PasswordInput({ className, id, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input
        id={id}
        type={visible ? 'text' : 'password'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className={cn(controlClasses, 'pe-11', className)}
        {...props}
      />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-controls={id}
        aria-pressed={visible}
        aria-label={visible ? m.shell_password_hide() : m.shell_password_show()}
        className="absolute inset-y-0 end-0 flex w-10 items-center justify-center rounded-e-md text-muted-foreground hover:text-foreground focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
      >
        {visible ? <EyeOffIcon className="size-4" /> : <EyeIcon className="size-4" />}
      </button>
    </div>
  );
}
