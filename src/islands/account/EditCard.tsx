import type { BaseSyntheticEvent, ReactNode } from 'react';
import { m } from '../../shared/i18n.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '../../components/ui/card.tsx';

/** What the card reads of the page's form (`useAccountForm`). */
interface EditForm {
  onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  alert: string | null;
  /** The success message after a save, or null. */
  saved: string | null;
  formState: { isSubmitting: boolean };
}

interface EditCardProps {
  description: ReactNode;
  form: EditForm;
  submitLabel?: string;
  children: ReactNode;
}

/** The frame of an account edit page: description, messages, fields, Save and Back. */
export function EditCard({ description, form, submitLabel, children }: EditCardProps) {
  const { saved, alert } = form;
  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={(event) => void form.onSubmit(event)}>
        <CardHeader>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {saved && (
            <Alert variant="success" title={saved}>
              <a href="/account">{m.account_edit_back_to_account()}</a>
            </Alert>
          )}
          <FormAlert message={alert} />
          {children}
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-end">
          <Button asChild variant="ghost">
            <a href="/account">{m.account_common_cancel()}</a>
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel ?? m.account_edit_save_changes()}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
