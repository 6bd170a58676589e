import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { CheckboxField } from '../../components/ui/checkbox.tsx';
import { LINK_CLASS } from '../../components/CheckInbox.tsx';
import { m } from '../../shared/i18n.ts';

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
              {m.auth_terms_before()}{' '}
              <a href="/terms" target="_blank" rel="noopener" className={LINK_CLASS}>
                {m.auth_terms_terms_link()}
                <span className="sr-only"> {m.shell_common_new_tab()}</span>
              </a>{' '}
              {m.auth_terms_between()}{' '}
              <a href="/privacy" target="_blank" rel="noopener" className={LINK_CLASS}>
                {m.auth_terms_privacy_link()}
                <span className="sr-only"> {m.shell_common_new_tab()}</span>
              </a>
            </>
          }
        />
      )}
    />
  );
}
