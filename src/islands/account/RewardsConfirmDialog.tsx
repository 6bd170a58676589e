/**
 * `/account/rewards`: the confirmation of a chosen reward and value — what happens (the points
 * held now, spent when it is sent, back if not; a check that may come first; where we tell them)
 * — and the request (`POST /api/redemptions`). One retry key (`Idempotency-Key`) is made when the
 * dialog opens on a choice and sent with every attempt of that confirmation, so a retry after a
 * lost answer never makes a second request; a new choice makes a new key. A refusal (409) is said
 * in the dialog in the participant's words (`REDEMPTION_REFUSALS`).
 */
import { useState } from 'react';
import type { Redemption, RewardView } from '../../shared/rewards.ts';
import { ApiError, apiSend } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { FormAlert } from '../../components/FormAlert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { formatMoney, newIdempotencyKey, pointsText, refusalMessage } from './rewards.ts';
import { m } from '../../shared/i18n.ts';
import { withNodes } from '../../components/forms/rich-text.tsx';

/** A reward and value the participant chose, with what it costs. */
export interface Choice {
  reward: RewardView;
  value: number;
  points: number;
}

/** The words of a failed request: a refusal's own, a value's field message, or the general one. */
function failureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return errorMessage(error);
  if (error.status === 409) return refusalMessage(error.code, error.message, error.details);
  const fieldMessages = Object.values(error.fields).flat();
  if (error.status === 400 && fieldMessages.length > 0) return fieldMessages.join(' ');
  if (error.status === 0) return m.account_confirm_retry_safe({ message: error.message });
  return errorMessage(error);
}

export default function RewardsConfirmDialog({
  choice,
  email,
  onClose,
  onCreated,
  onRefused,
  onCloseAutoFocus,
}: {
  choice: Choice | null;
  email: string | null;
  onClose: () => void;
  onCreated: (redemption: Redemption) => void;
  /** A 409: what the screen shows may be out of date (the balance, an open request). */
  onRefused: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Dialog open={choice !== null} onOpenChange={(open) => !open && onClose()}>
      {/* Keyed by the choice: a new choice starts afresh, with a new retry key. */}
      {choice && (
        <Confirmation
          key={`${choice.reward.id}:${choice.value}`}
          choice={choice}
          email={email}
          onCreated={onCreated}
          onRefused={onRefused}
          onCloseAutoFocus={onCloseAutoFocus}
        />
      )}
    </Dialog>
  );
}

function Confirmation({
  choice,
  email,
  onCreated,
  onRefused,
  onCloseAutoFocus,
}: {
  choice: Choice;
  email: string | null;
  onCreated: (redemption: Redemption) => void;
  onRefused: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  const { reward, value, points } = choice;
  // Made once for this confirmation; every retry of it sends the same key.
  const [key] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const money = formatMoney(value, reward.currency);

  const request = async () => {
    setBusy(true);
    setAlert(null);
    try {
      const redemption = await apiSend<Redemption>('POST', '/api/redemptions', { rewardId: reward.id, value }, { headers: { 'Idempotency-Key': key } });
      onCreated(redemption);
    } catch (error) {
      if (handleSessionLost(error)) return;
      setAlert(failureMessage(error));
      if (error instanceof ApiError && error.status === 409) onRefused();
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogContent onCloseAutoFocus={onCloseAutoFocus} onInteractOutside={(event) => busy && event.preventDefault()}>
      <DialogHeader>
        <DialogTitle>{m.account_confirm_title({ title: reward.title })}</DialogTitle>
        <DialogDescription>{m.account_confirm_description({ money, points: pointsText(points) })}</DialogDescription>
      </DialogHeader>
      <FormAlert message={alert} title={m.account_confirm_failed_title()} />
      <ul className="flex list-disc flex-col gap-2 ps-5 text-sm">
        <li>{m.account_confirm_hold({ points: pointsText(points) })}</li>
        <li>{m.account_confirm_check()}</li>
        <li>
          {email
            ? withNodes((marks) => m.account_confirm_tell_at({ email: marks.email }), {
                email: <strong className="font-semibold wrap-anywhere">{email}</strong>,
              })
            : m.account_confirm_tell_by_email()}{' '}
          {reward.kind === 'gift_card' ? m.account_confirm_code_shown() : m.account_confirm_details_shown()}
        </li>
      </ul>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            {m.account_confirm_not_now()}
          </Button>
        </DialogClose>
        <Button loading={busy} onClick={() => void request()}>
          {m.account_confirm_request({ points: pointsText(points) })}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
