/**
 * A project's reason templates (`/api/admin/projects/{id}/reason-templates`): loaded once for the
 * review screen, added ("Save as a template") and removed in place.
 */
import { useCallback } from 'react';
import type { ReasonTemplateKind, ReasonTemplateView } from '../../../shared/review.ts';
import { apiSend } from '../../../platform/api.ts';
import { useResource } from '../../../lib/resource.ts';

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

/** The project's templates; `projectId` null (not known yet, the review inbox): none are asked for, and none are listed. */
export function useReasonTemplates(projectId: number | null): ReasonTemplates {
  const base = `/api/admin/projects/${projectId ?? 0}/reason-templates`;
  const { load, reload, replace } = useResource<{ items: ReasonTemplateView[] }>(projectId === null ? null : base);

  const add = useCallback(
    async (kind: ReasonTemplateKind, text: string) => {
      const created = await apiSend<ReasonTemplateView>('POST', base, { kind, text });
      replace((data) => ({ items: [...data.items, created] }));
      return created;
    },
    [base, replace],
  );
  const remove = useCallback(
    async (id: number) => {
      await apiSend<unknown>('DELETE', `${base}/${id}`);
      replace((data) => ({ items: data.items.filter((item) => item.id !== id) }));
    },
    [base, replace],
  );
  const items = projectId === null ? [] : load.status === 'ready' ? load.data.items : load.status === 'loading' ? null : [];
  const error = load.status === 'ready' || load.status === 'loading' ? null : load.message;
  return { items, error, reload, add, remove };
}
