import { useEffect, useRef } from 'react';
import { Alert } from './ui/alert.tsx';

/**
 * The error at the top of a form, for problems that belong to no single field. It is announced
 * when it appears (role="alert") and scrolled into view when the form is long.
 */
export function FormAlert({ message, title }: { message: string | null; title?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [message]);
  if (!message) return null;
  return (
    <div ref={ref}>
      <Alert variant="destructive" title={title}>
        {message}
      </Alert>
    </div>
  );
}
