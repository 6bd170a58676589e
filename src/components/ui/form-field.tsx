import type { ReactNode } from 'react';
import { cn } from '../../lib/utils.ts';
import { AlertCircleIcon } from '../icons.tsx';
import { Label } from './label.tsx';

/** What a field's control receives: its id and the ARIA links to its description and error. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length > 0 ? list.join(' ') : undefined;
}

/** The message under a field that failed validation. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-destructive">
      <AlertCircleIcon className="mt-0.5 size-4 shrink-0" />
      <span>{children}</span>
    </p>
  );
}

export interface FormFieldProps {
  /** The control's id; the description and error ids derive from it. */
  id: string;
  label: ReactNode;
  /** Help under the label, linked to the control. */
  description?: ReactNode;
  /** The validation message, shown under the control and linked to it. */
  error?: string | undefined;
  /** Shown after the label, e.g. "(optional)". */
  hint?: ReactNode;
  /** Beside the label on its right, e.g. a "Forgot password?" link. */
  labelAside?: ReactNode;
  /** More ids describing the control (e.g. a password requirements list). */
  extraDescribedBy?: string | undefined;
  className?: string;
  /** Renders the control with the props that tie it to its label, description and error. */
  children: (control: ControlProps) => ReactNode;
}

/** Label, control, description and error message, wired together for assistive technology. */
export function FormField({ id, label, description, error, hint, labelAside, extraDescribedBy, className, children }: FormFieldProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>
          {label}
          {/* A real space, so the accessible name reads "Description (optional)", not "Description(optional)". */}
          {hint && <span className="font-normal text-muted-foreground"> {hint}</span>}
        </Label>
        {labelAside}
      </div>
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(descriptionId, extraDescribedBy, errorId) })}
      {error && errorId && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}
