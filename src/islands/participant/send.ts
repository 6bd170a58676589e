/**
 * What the participant screens do with a refused submit. (Autosave requests go through the API
 * client with `keepalive`: `src/platform/api.ts`.)
 */
import { ApiError } from '../../platform/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { toast } from '../../stores/toasts.ts';
import type { SubmitErrors } from '../../components/forms/FormRenderer.tsx';
import { offlineSubmitMessage } from './autosave.ts';

/**
 * What a refused submit (of a survey response or a mission entry) means to the form renderer:
 * the server's messages per element id (400); nothing more when the session ended or on a 409
 * (closed, already submitted: said in a toast titled `notSent`, and the screen reloaded); else an
 * error the renderer shows (offline: that nothing typed is lost).
 */
export function submitFailure(failure: unknown, notSent: string, reload: () => void): SubmitErrors | undefined {
  if (handleSessionLost(failure)) return undefined;
  if (failure instanceof ApiError) {
    if (failure.status === 400 && Object.keys(failure.fields).length > 0) return { errors: failure.fields as Record<string, string[]> };
    if (failure.status === 409) {
      toast({ title: notSent, description: failure.message, variant: 'destructive' });
      reload();
      return undefined;
    }
    if (failure.status === 0) throw new Error(offlineSubmitMessage());
  }
  throw failure instanceof Error ? failure : new Error(errorMessage(failure));
}
