import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { CheckboxField } from '../../components/ui/checkbox.tsx';
import { LINK_CLASS } from '../../components/CheckInbox.tsx';

/** "I accept the terms of use and the privacy policy" (both open in a new tab), for /register and onboarding. */
export function TermsField<T extends FieldValues>({ id, control, name, error }: { id: string; control: Control<T>; name: Path<T>; error?: string }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <CheckboxField
          id={id}
          name={field.name}
          ref={field.ref}
          checked={field.value === true}
          onCheckedChange={(checked) => field.onChange(checked === true)}
          onBlur={field.onBlur}
          error={error}
          label={
            <>
              I accept the{' '}
              <a href="/terms" target="_blank" rel="noopener" className={LINK_CLASS}>
                terms of use<span className="sr-only"> (opens in a new tab)</span>
              </a>{' '}
              and the{' '}
              <a href="/privacy" target="_blank" rel="noopener" className={LINK_CLASS}>
                privacy policy<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </>
          }
        />
      )}
    />
  );
}
