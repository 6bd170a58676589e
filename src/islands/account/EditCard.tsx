import type { ComponentProps, ReactNode } from 'react';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '../../components/ui/card.tsx';

interface EditCardProps {
  description: ReactNode;
  onSubmit: ComponentProps<'form'>['onSubmit'];
  submitting: boolean;
  /** The success message after a save, or null. */
  saved: string | null;
  alert: string | null;
  submitLabel?: string;
  children: ReactNode;
}

/** The frame of an account edit page: description, messages, fields, Save and Back. */
export function EditCard({ description, onSubmit, submitting, saved, alert, submitLabel = 'Save changes', children }: EditCardProps) {
  return (
    <Card className="max-w-2xl">
      <form noValidate onSubmit={onSubmit}>
        <CardHeader>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          {saved && (
            <Alert variant="success" title={saved}>
              <a href="/account">Back to your account</a>
            </Alert>
          )}
          <FormAlert message={alert} />
          {children}
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-end">
          <Button asChild variant="ghost">
            <a href="/account">Cancel</a>
          </Button>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
