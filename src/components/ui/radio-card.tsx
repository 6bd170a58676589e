/**
 * Radio cards: a Radix radio group whose choices are bordered cards with a label and an optional
 * description (the whole card is the click target; the checked card has the primary border).
 * Sizes: `sm` (three across, small print), `default`, `lg` (roomy, two across).
 */
import type { ComponentProps, ReactNode } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '../../lib/utils.ts';
import { RadioGroup, RadioGroupItem } from './radio-group.tsx';

export function RadioCardGroup({ className, ...props }: ComponentProps<typeof RadioGroup>) {
  return <RadioGroup className={cn('gap-3', className)} {...props} />;
}

const radioCardVariants = cva('flex cursor-pointer items-start rounded-lg border border-border has-[[data-state=checked]]:border-primary', {
  variants: {
    size: {
      sm: 'gap-2 p-3',
      default: 'gap-3 p-3',
      lg: 'gap-3 p-4',
    },
  },
  defaultVariants: { size: 'default' },
});

export interface RadioCardProps extends VariantProps<typeof radioCardVariants> {
  /** The radio's id; `{id}-label` and `{id}-description` name and describe it. */
  id: string;
  value: string;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  className?: string;
}

export function RadioCard({ id, value, label, description, disabled, size, className }: RadioCardProps) {
  return (
    <label htmlFor={id} className={cn(radioCardVariants({ size }), className)}>
      <RadioGroupItem
        id={id}
        value={value}
        disabled={disabled}
        className="mt-0.5"
        aria-labelledby={`${id}-label`}
        aria-describedby={description ? `${id}-description` : undefined}
      />
      <span className={cn('flex flex-col', size === 'lg' ? 'gap-1' : 'gap-0.5')}>
        <span id={`${id}-label`} className="text-sm font-medium">
          {label}
        </span>
        {description && (
          <span id={`${id}-description`} className={cn('text-muted-foreground', size === 'sm' ? 'text-xs' : 'text-sm')}>
            {description}
          </span>
        )}
      </span>
    </label>
  );
}
