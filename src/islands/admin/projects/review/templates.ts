/**
 * A project's reason templates (`/api/admin/projects/{id}/reason-templates`): loaded once for the
 * review screen, added ("Save as a template") and removed in place.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ReasonTemplateKind, ReasonTemplateView } from '../../../../shared/review.ts';
import { apiGet, apiSend } from '../../../../lib/api.ts';
import { errorMessage } from '../../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../../lib/session.ts';

export interface ReasonTemplates {
  /** null while loading. */
  items: ReasonTemplateView[] | null;
  /** Why they could not be loaded, if so. */
  error: string | null;
  reload: () => void;
  /** Saves a template; resolves with it (throws the API's error). */
  add: (kind: ReasonTemplateKind, text: string) => Promise<ReasonTemplateView>;
  /** Removes a template (throws the API's error). */
  remove: (id: number) => Promise<void>;
}

export function useReasonTemplates(projectId: number): ReasonTemplates {
  const [items, setItems] = useState<ReasonTemplateView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const base = `/api/admin/projects/${projectId}/reason-templates`;

  useEffect(() => {
    const controller = new AbortController();
    setError(null);
    apiGet<{ items: ReasonTemplateView[] }>(base, { signal: controller.signal })
      .then((data) => setItems(data.items))
      .catch((cause: unknown) => {
        if (controller.signal.aborted || handleSessionLost(cause)) return;
        setError(errorMessage(cause));
        setItems((current) => current ?? []);
      });
    return () => controller.abort();
  }, [base, attempt]);

  const add = useCallback(
    async (kind: ReasonTemplateKind, text: string) => {
      const created = await apiSend<ReasonTemplateView>('POST', base, { kind, text });
      setItems((current) => [...(current ?? []), created]);
      return created;
    },
    [base],
  );
  const remove = useCallback(
    async (id: number) => {
      await apiSend<unknown>('DELETE', `${base}/${id}`);
      setItems((current) => (current ?? []).filter((item) => item.id !== id));
    },
    [base],
  );
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { items, error, reload, add, remove };
}
