/**
 * A JSON call that may have to outlive the page (`keepalive`: sent on `pagehide` or when the tab
 * is hidden, so closing it loses nothing). Without keepalive it is the app's `apiSend`.
 */
import { ApiError, apiSend } from '../../lib/api.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { toast } from '../../stores/toasts.ts';
import type { SubmitErrors } from '../../components/forms/FormRenderer.tsx';
import { OFFLINE_SUBMIT_MESSAGE } from './autosave.ts';

/** Browsers refuse keepalive bodies above 64 KiB (for all pending keepalive requests together). */
const KEEPALIVE_MAX_BYTES = 60 * 1024;

/** Sends `body` as JSON; throws ApiError like `apiSend`. */
export async function sendJson<T>(method: 'POST' | 'PUT', path: string, body: unknown, { keepalive = false }: { keepalive?: boolean } = {}): Promise<T> {
  const text = JSON.stringify(body);
  if (!keepalive || text.length > KEEPALIVE_MAX_BYTES) return apiSend<T>(method, path, body);
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: text,
      credentials: 'include',
      cache: 'no-store',
      keepalive: true,
    });
  } catch {
    throw new ApiError(0, 'network_error', 'We could not reach Fieldwork. Check your connection and try again.');
  }
  const answer = await response.text();
  let data: unknown = null;
  try {
    data = answer ? (JSON.parse(answer) as unknown) : null;
  } catch {
    data = null;
  }
  if (response.ok) return data as T;
  const error = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  throw new ApiError(
    response.status,
    typeof error?.code === 'string' ? error.code : `http_${response.status}`,
    typeof error?.message === 'string' && error.message ? error.message : 'Your answers were not saved.',
    {},
    null,
    answer || null,
  );
}

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
    if (failure.status === 0) throw new Error(OFFLINE_SUBMIT_MESSAGE);
  }
  throw failure instanceof Error ? failure : new Error(errorMessage(failure));
}
