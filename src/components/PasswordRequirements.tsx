import { cn } from '../lib/utils.ts';
import { m } from '../shared/i18n.ts';
import { PASSWORD_RULES } from '../lib/password.ts';
import { CheckCircleIcon, CircleIcon } from './icons.tsx';

interface Props {
  /** The list's id: the password input names it in aria-describedby. */
  id: string;
  password: string;
}

/** The password requirements, each ticked as soon as the typed password meets it. */
export function PasswordRequirements({ id, password }: Props) {
  return (
    <div id={id} className="rounded-md bg-muted px-3 py-2.5 text-sm">
      <p className="mb-1.5 font-medium text-foreground">{m.shell_password_requirements_title()}</p>
      <ul className="grid gap-1 sm:grid-cols-2">
        {PASSWORD_RULES.map((rule) => {
          const met = rule.test(password);
          return (
            <li key={rule.id} className={cn('flex items-start gap-2', met ? 'text-foreground' : 'text-muted-foreground')}>
              {met ? <CheckCircleIcon className="mt-0.5 size-4 shrink-0 text-success" /> : <CircleIcon className="mt-0.5 size-4 shrink-0" />}
              <span>
                {rule.label}
                <span className="sr-only"> {met ? m.shell_password_requirements_done() : m.shell_password_requirements_not_yet()}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
