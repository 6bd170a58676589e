import { useEffect, useRef, type ReactNode } from 'react';
import { AlertCircleIcon, CheckCircleIcon, MailIcon } from './icons.tsx';

const ICONS = {
  success: { className: 'bg-[color-mix(in_oklab,var(--success)_14%,var(--card))] text-success', Icon: CheckCircleIcon },
  info: { className: 'bg-secondary text-secondary-foreground', Icon: MailIcon },
  error: { className: 'bg-[color-mix(in_oklab,var(--destructive)_12%,var(--card))] text-destructive', Icon: AlertCircleIcon },
} as const;

/**
 * What a form or link screen shows once it is done (or failed): an icon, a heading that takes
 * focus so screen readers announce it (the window scrolled to its top first), the explanation and
 * an optional action.
 */
export function Outcome({
  tone,
  title,
  children,
  action,
  level = 'h2',
  focus = true,
}: {
  tone: keyof typeof ICONS;
  title: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  level?: 'h2' | 'h3';
  focus?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus) return;
    // It replaces a form the person may have scrolled down: the page opens at its top, icon and
    // heading in view, and the heading takes focus (screen readers announce it).
    window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    heading.current?.focus({ preventScroll: true });
  }, [focus]);
  const { className, Icon } = ICONS[tone];
  const Heading = level;
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className="flex flex-col items-start gap-4">
      <span className={`flex size-12 items-center justify-center rounded-full ${className}`}>
        <Icon className="size-6" />
      </span>
      <Heading ref={heading} tabIndex={focus ? -1 : undefined} className="text-xl font-semibold tracking-tight">
        {title}
      </Heading>
      <div className="flex flex-col gap-4 text-muted-foreground">{children}</div>
      {action}
    </div>
  );
}
