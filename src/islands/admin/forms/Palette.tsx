/**
 * The palette of the 14 element types: one button each ("Add Short text"); Enter, Space or a
 * click adds one to the current page, after the selected element.
 */
import { forwardRef, useId } from 'react';
import { ELEMENT_TYPES, type ElementType } from '../../../shared/forms/constants.ts';
import { TYPE_HINTS, TYPE_LABELS } from './catalog.ts';
import { Card } from '../../../components/ui/card.tsx';

export interface PaletteProps {
  /** Where the next element goes, in words ("Page 2, after “Your name”"). */
  where: string;
  onAdd: (type: ElementType) => void;
}

export const Palette = forwardRef<HTMLElement, PaletteProps>(function Palette({ where, onAdd }, ref) {
  const headingId = useId();
  const whereId = useId();
  return (
    <Card asChild className="flex flex-col gap-3 p-3 sm:p-4">
      <section ref={ref} aria-labelledby={headingId}>
        <div className="flex flex-col gap-1">
          <h2 id={headingId} className="text-base font-semibold">
            Add a question
          </h2>
          <p id={whereId} className="text-xs text-muted-foreground">
            Goes to {where}.
          </p>
        </div>
        <ul className="grid grid-cols-2 gap-1.5 sm:grid-cols-3 lg:grid-cols-1 lg:gap-1">
          {ELEMENT_TYPES.map((type) => (
            <li key={type}>
              <button
                type="button"
                title={TYPE_HINTS[type]}
                aria-describedby={whereId}
                data-palette={type}
                onClick={() => onAdd(type)}
                className="flex h-9 w-full items-center gap-2 lg:h-8 rounded-md border border-input bg-card px-2.5 text-left text-sm font-medium hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span aria-hidden="true" className="text-base leading-none text-primary">
                  +
                </span>
                <span className="truncate">
                  <span className="sr-only">Add </span>
                  {TYPE_LABELS[type]}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
});
