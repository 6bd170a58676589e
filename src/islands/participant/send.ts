/**
 * A JSON call that may have to outlive the page (`keepalive`: sent on `pagehide` or when the tab
 * is hidden, so closing it loses nothing). Without keepalive it is the app's `apiSend`.
 */
import { ApiError, apiSend } from '../../lib/api.ts';

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
