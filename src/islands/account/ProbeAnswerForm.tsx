/**
 * The answer to a moderator's waiting question on /account/mission-history/:missionId, loaded when
 * a question waits (React.lazy in MissionHistoryScreen.tsx): react-hook-form stays out of the page's
 * first load (its JavaScript budget).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ProbeView } from '../../shared/review.ts';
import { ApiError, apiSend } from '../../platform/api.ts';
import { applyApiError } from '../../lib/form-errors.ts';
import { lazyZodResolver } from '../../lib/lazy-resolver.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { m } from '../../shared/i18n.ts';

interface ProbeAnswerValues {
  answer: string;
}

/** The answer to a waiting question: `probeAnswerSchema`'s messages, 409 `already_answered` said plainly. */
export default function ProbeAnswerForm({ probe, onAnswered }: { probe: ProbeView; onAnswered: (probe: ProbeView) => void }) {
  const fieldId = `probe-${probe.id}-answer`;
  const [alert, setAlert] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ProbeAnswerValues>({
    resolver: lazyZodResolver(() => import('../../shared/schemas/review.ts').then((schemas) => schemas.probeAnswerSchema)),
    defaultValues: { answer: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setAlert(null);
    try {
      const answered = await apiSend<ProbeView>('POST', `/api/account/probes/${probe.id}/answer`, values);
      onAnswered(answered);
    } catch (error) {
      if (handleSessionLost(error)) return;
      if (error instanceof ApiError && error.code === 'already_answered') {
        setAlert(m.account_history_already_answered());
        return;
      }
      setAlert(applyApiError(error, setError, ['answer']));
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3" aria-label={m.account_history_answer_form()}>
      <FormAlert message={alert} />
      <FormField id={fieldId} label={m.account_history_your_answer()} error={errors.answer?.message}>
        {(control) => <Textarea {...control} {...register('answer')} rows={3} />}
      </FormField>
      <div>
        <Button type="submit" loading={isSubmitting} className="w-full sm:w-auto">
          {m.account_history_send_answer()}
        </Button>
      </div>
    </form>
  );
}
