/**
 * The palette of the 14 element types: one button each ("Add Short text"); Enter, Space or a
 * click adds one to the current page, after the selected element.
 */
import { forwardRef, useId } from 'react';
import { ELEMENT_TYPES, type ElementType } from '../../../shared/forms/constants.ts';
import { TYPE_HINTS, TYPE_LABELS } from './catalog.ts';
import { Card } from '../../../components/ui/card.tsx';
import { m } from '../../../shared/i18n.ts';

export interface PaletteProps {
  /** Where the next element goes, as a sentence ("Goes to page 2, after “Your name”."). */
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
            {m.forms_palette_heading()}
          </h2>
          <p id={whereId} className="text-xs text-muted-foreground">
            {where}
          </p>
        </div>
        <ul className="grid grid-cols-2 gap-1.5 sm:grid-cols-3 lg:grid-cols-1 lg:gap-1">
          {ELEMENT_TYPES.map((type) => (
            <li key={type}>
              <button
                type="button"
                title={TYPE_HINTS[type]()}
                aria-label={m.forms_palette_add({ type: TYPE_LABELS[type]() })}
                aria-describedby={whereId}
                data-palette={type}
                onClick={() => onAdd(type)}
                className="flex h-9 w-full items-center gap-2 lg:h-8 rounded-md border border-input bg-card px-2.5 text-start text-sm font-medium hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <span aria-hidden="true" className="text-base leading-none text-primary">
                  +
                </span>
                <span className="truncate">{TYPE_LABELS[type]()}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
});
