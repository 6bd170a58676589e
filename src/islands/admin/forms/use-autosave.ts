/**
 * Autosave of the form builder's draft: a PUT with the revision it is based on, ~800 ms after the
 * last change and at once when the page is hidden (a `keepalive` request, so it survives closing
 * the tab). Every unsaved draft is also kept in localStorage under the form's id, so a reload or a
 * failed save loses nothing: the builder offers it back when it differs from the server's.
 *
 * States: saved · saving · retrying (the server or the network failed; tried again with back-off)
 * · offline (the browser says so; tried again when it is back) · conflict (409 `stale_revision`:
 * someone else saved; nothing is sent until the person chooses) · error (refused for good, e.g.
 * the form was archived).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import type { FormDraftSaved, StaleRevisionError } from '../../../shared/schemas/forms.ts';
import { ApiError, apiSend } from '../../../lib/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { local, readItem, removeItem, writeItem } from '../../../lib/storage.ts';
import { canonicalJson } from './builder-state.ts';

/** Debounce of the autosave after the last change. */
export const AUTOSAVE_DELAY_MS = 800;
const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 30_000;

export type SaveStatus = 'saved' | 'saving' | 'retrying' | 'offline' | 'conflict' | 'error';

/** What the status region says for each state. */
export const SAVE_STATUS_TEXT: Readonly<Record<SaveStatus, string>> = {
  saved: 'Saved',
  saving: 'Saving…',
  retrying: 'Not saved — retrying',
  offline: 'Offline',
  conflict: 'Not saved — someone else saved this form',
  error: 'Not saved',
};

/** A draft kept in the browser until the server has it. */
export interface LocalDraft {
  draft: FormDraft;
  /** The revision it was based on. */
  revision: number;
  /** When it was written (ISO). */
  savedAt: string;
}

/** The localStorage key of a form's unsaved draft. */
export const localDraftKey = (formId: number) => `fieldwork-form-draft-${formId}`;

/** The unsaved draft kept for a form, if any. */
export function readLocalDraft(formId: number): LocalDraft | null {
  const text = readItem(local(), localDraftKey(formId));
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<LocalDraft>;
    if (typeof value !== 'object' || value === null || typeof value.draft !== 'object' || value.draft === null || typeof value.revision !== 'number') return null;
    return { draft: value.draft, revision: value.revision, savedAt: typeof value.savedAt === 'string' ? value.savedAt : new Date(0).toISOString() };
  } catch {
    return null;
  }
}

export function clearLocalDraft(formId: number): void {
  removeItem(local(), localDraftKey(formId));
}

function writeLocalDraft(formId: number, draft: FormDraft, revision: number): void {
  const value: LocalDraft = { draft, revision, savedAt: new Date().toISOString() };
  writeItem(local(), localDraftKey(formId), JSON.stringify(value));
}

/** The 409 `stale_revision` details from an ApiError's body. */
export function staleRevisionOf(error: unknown): StaleRevisionError | null {
  if (!(error instanceof ApiError) || error.code !== 'stale_revision' || !error.body) return null;
  try {
    const body = JSON.parse(error.body) as { error?: StaleRevisionError };
    return body.error && typeof body.error.revision === 'number' ? body.error : null;
  } catch {
    return null;
  }
}

/** PUT the draft; with `keepalive` the request outlives the page (closing the tab). */
async function putDraft(formId: number, body: { definition: FormDraft; revision: number }, keepalive: boolean): Promise<FormDraftSaved> {
  const path = `/api/admin/forms/${formId}/draft`;
  if (!keepalive) return apiSend<FormDraftSaved>('PUT', path, body);
  let response: Response;
  try {
    response = await fetch(path, { method: 'PUT', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body), credentials: 'include', keepalive: true });
  } catch {
    throw new ApiError(0, 'network_error', 'We could not reach Fieldwork.');
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    data = null;
  }
  if (response.ok) return data as FormDraftSaved;
  const error = (data as { error?: { code?: string; message?: string } } | null)?.error;
  throw new ApiError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? 'The draft was not saved.', {}, null, text || null);
}

function retriable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}

export interface AutosaveOptions {
  formId: number;
  /** The draft as it is now. */
  draft: FormDraft;
  /** The draft and revision the server holds when the builder loads. */
  initialDraft: FormDraft;
  initialRevision: number;
  /** False stops saving (an archived form). */
  enabled?: boolean;
  /** After each successful save (the server's new revision, title and time). */
  onSaved?: (saved: FormDraftSaved) => void;
}

export interface Autosave {
  status: SaveStatus;
  /** Why saving stopped (status `error`). */
  message: string | null;
  /** Someone else's save (status `conflict`). */
  conflict: StaleRevisionError | null;
  /** When the server last took the draft from this page. */
  savedAt: string | null;
  /** The revision the next save is based on. */
  revision: () => number;
  /** Saves now; true when the server holds the current draft afterwards. */
  flush: () => Promise<boolean>;
  /** Conflict: save this page's draft over theirs. */
  keepMine: () => void;
  /** Conflict: take their draft (returned, for the caller to put in the builder; the current one stays in undo). */
  takeTheirs: () => FormDraft | null;
}

/** Autosaves `draft`; see the module comment. */
export function useAutosave({ formId, draft, initialDraft, initialRevision, enabled = true, onSaved }: AutosaveOptions): Autosave {
  const [status, setStatus] = useState<SaveStatus>('saved');
  const [message, setMessage] = useState<string | null>(null);
  const [conflict, setConflict] = useState<StaleRevisionError | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(null);

  const draftRef = useRef(draft);
  draftRef.current = draft;
  const savedJson = useRef(canonicalJson(initialDraft));
  const revisionRef = useRef(initialRevision);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const retryDelay = useRef(0);
  const stopped = useRef(false);
  const conflictRef = useRef<StaleRevisionError | null>(null);
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;

  const currentJson = useMemo(() => canonicalJson(draft), [draft]);

  const clearTimer = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
  };

  const send = useCallback(
    async (keepalive: boolean): Promise<boolean> => {
      if (conflictRef.current || stopped.current || !enabledRef.current) return false;
      const sent = draftRef.current;
      const json = canonicalJson(sent);
      if (json === savedJson.current) {
        clearLocalDraft(formId);
        setStatus('saved');
        return true;
      }
      setStatus((current) => (current === 'offline' || current === 'retrying' ? current : 'saving'));
      try {
        const saved = await putDraft(formId, { definition: sent, revision: revisionRef.current }, keepalive);
        savedJson.current = json;
        revisionRef.current = saved.revision;
        retryDelay.current = 0;
        setSavedAt(saved.updatedAt);
        onSavedRef.current?.(saved);
        if (canonicalJson(draftRef.current) === json) {
          clearLocalDraft(formId);
          setStatus('saved');
          return true;
        }
        setStatus('saving');
        clearTimer();
        timer.current = setTimeout(() => void flushRef.current(), AUTOSAVE_DELAY_MS);
        return false;
      } catch (error) {
        const stale = staleRevisionOf(error);
        if (stale) {
          conflictRef.current = stale;
          setConflict(stale);
          setStatus('conflict');
          return false;
        }
        if (handleSessionLost(error)) return false;
        if (retriable(error)) {
          const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
          setStatus(offline ? 'offline' : 'retrying');
          const wait = error instanceof ApiError && error.retryAfter !== null ? error.retryAfter * 1000 : retryDelay.current || RETRY_FIRST_MS;
          retryDelay.current = Math.min(RETRY_MAX_MS, Math.max(RETRY_FIRST_MS, wait) * 2);
          clearTimer();
          if (!offline) timer.current = setTimeout(() => void flushRef.current(), wait);
          return false;
        }
        stopped.current = true;
        setMessage(errorMessage(error));
        setStatus('error');
        return false;
      }
    },
    [formId],
  );

  const flush = useCallback((): Promise<boolean> => {
    clearTimer();
    if (inFlight.current) return inFlight.current.then(() => flushRef.current());
    const request = send(false).finally(() => {
      inFlight.current = null;
    });
    inFlight.current = request;
    return request;
  }, [send]);
  const flushRef = useRef(flush);
  flushRef.current = flush;

  // Each change: keep it locally at once, save it after the pause.
  const firstRun = useRef(true);
  useEffect(() => {
    // On load the kept copy (if any) is left alone: the builder offers it back first.
    const first = firstRun.current;
    firstRun.current = false;
    if (!enabled) return;
    if (currentJson === savedJson.current) {
      if (!first) clearLocalDraft(formId);
      if (!inFlight.current && !conflictRef.current && !stopped.current) setStatus('saved');
      return;
    }
    writeLocalDraft(formId, draftRef.current, revisionRef.current);
    if (conflictRef.current || stopped.current) return;
    setStatus((current) => (current === 'offline' || current === 'retrying' ? current : 'saving'));
    clearTimer();
    timer.current = setTimeout(() => void flushRef.current(), AUTOSAVE_DELAY_MS);
    return clearTimer;
  }, [currentJson, enabled, formId]);

  // Back online: save now. Page hidden (tab switched or closed): save now, surviving the unload.
  useEffect(() => {
    const online = () => void flushRef.current();
    const offline = () => setStatus((current) => (current === 'saved' || current === 'conflict' || current === 'error' ? current : 'offline'));
    const saveBeforeLeaving = () => {
      if (inFlight.current || canonicalJson(draftRef.current) === savedJson.current) return;
      clearTimer();
      const request = send(true).finally(() => {
        inFlight.current = null;
      });
      inFlight.current = request;
    };
    const hide = () => {
      if (document.visibilityState === 'hidden') saveBeforeLeaving();
    };
    const pagehide = saveBeforeLeaving;
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    document.addEventListener('visibilitychange', hide);
    window.addEventListener('pagehide', pagehide);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
      document.removeEventListener('visibilitychange', hide);
      window.removeEventListener('pagehide', pagehide);
    };
  }, [send]);

  useEffect(() => clearTimer, []);

  const keepMine = useCallback(() => {
    const current = conflictRef.current;
    if (!current) return;
    revisionRef.current = current.revision;
    conflictRef.current = null;
    setConflict(null);
    setStatus('saving');
    void flushRef.current();
  }, []);

  const takeTheirs = useCallback((): FormDraft | null => {
    const current = conflictRef.current;
    if (!current) return null;
    revisionRef.current = current.revision;
    savedJson.current = canonicalJson(current.draft);
    conflictRef.current = null;
    setConflict(null);
    setStatus('saved');
    return current.draft;
  }, []);

  const revision = useCallback(() => revisionRef.current, []);

  return { status, message, conflict, savedAt, revision, flush, keepMine, takeTheirs };
}
