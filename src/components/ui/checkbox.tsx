import type { ComponentProps, ReactNode } from 'react';
import { Checkbox as CheckboxPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { CheckIcon } from '../icons.tsx';
import { describedBy, FieldError } from './form-field.tsx';
import { Label } from './label.tsx';

export function Checkbox({ className, ...props }: ComponentProps<typeof CheckboxPrimitive.Root>) {
  return (
    <CheckboxPrimitive.Root
      className={cn(
        'peer inline-flex size-5 shrink-0 items-center justify-center rounded-[5px] border border-input bg-card text-primary-foreground shadow-xs transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive data-[state=checked]:border-primary data-[state=checked]:bg-primary',
        className,
      )}
      {...props}
    >
      <CheckboxPrimitive.Indicator className="flex items-center justify-center">
        <CheckIcon className="size-3.5" strokeWidth={3} />
      </CheckboxPrimitive.Indicator>
    </CheckboxPrimitive.Root>
  );
}

interface CheckboxFieldProps extends Omit<ComponentProps<typeof CheckboxPrimitive.Root>, 'id' | 'children'> {
  id: string;
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
}

/** A checkbox with its label on the right, an optional description and its error message. */
export function CheckboxField({ id, label, description, error, className, ...props }: CheckboxFieldProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <div className="flex items-start gap-3">
        <Checkbox id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(descriptionId, errorId)} className="mt-0.5" {...props} />
        <div className="flex flex-col gap-1">
          <Label htmlFor={id} className="leading-snug font-normal">
            {label}
          </Label>
          {description && (
            <p id={descriptionId} className="text-sm text-muted-foreground">
              {description}
            </p>
          )}
        </div>
      </div>
      {error && errorId && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}
