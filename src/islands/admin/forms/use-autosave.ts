/**
 * Autosave of the form builder's draft: the app's engine (`src/lib/autosave-react.ts`) saving a
 * PUT with the revision it is based on, ~800 ms after the last change and at once when the page
 * is hidden (a `keepalive` request, so it survives closing the tab). Every unsaved draft is kept
 * in localStorage under the form's id, so a reload or a failed save loses nothing: the builder
 * offers it back when it differs from the server's.
 *
 * States: saved · saving · retrying (the server failed; tried again with back-off) · offline (the
 * network failed or the browser says so; tried again when it is back) · conflict (409
 * `stale_revision`: someone else saved; nothing is sent until the person chooses "keep mine" or
 * "take theirs") · error (refused for good, e.g. the form was archived).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import type { FormDraftSaved, StaleRevisionError } from '../../../shared/schemas/forms.ts';
import { ApiError, apiSend } from '../../../platform/api.ts';
import { clearKept, readKept, type KeptCodec, type SaveStatus } from '../../../lib/autosave.ts';
import { useAutosave as useAutosaveEngine } from '../../../lib/autosave-react.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { local } from '../../../platform/storage.ts';
import { canonicalJson } from './builder-state.ts';
import { m } from '../../../shared/i18n.ts';

export type { SaveStatus };

/** Debounce of the autosave after the last change. */
export const AUTOSAVE_DELAY_MS = 800;

/** What the status region says for each state (messages, called at render). */
export const SAVE_STATUS_TEXT: Readonly<Record<SaveStatus, () => string>> = {
  saved: m.forms_save_saved,
  saving: m.forms_save_saving,
  retrying: m.forms_save_retrying,
  offline: m.forms_save_offline,
  conflict: m.forms_save_conflict,
  error: m.forms_save_error,
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

/** What the engine saves: the draft, with its canonical JSON (compared on every change). */
interface DraftPayload {
  definition: FormDraft;
  json: string;
}

const payloadOf = (definition: FormDraft): DraftPayload => ({ definition, json: canonicalJson(definition) });

/** Kept as `{ draft, revision, savedAt }` (the builder offers it back on load). */
const draftCodec: KeptCodec<DraftPayload> = {
  encode: (kept): LocalDraft => ({ draft: kept.payload.definition, revision: kept.revision, savedAt: kept.savedAt }),
  decode(value) {
    if (typeof value !== 'object' || value === null) return null;
    const { draft, revision, savedAt } = value as Partial<LocalDraft>;
    if (typeof draft !== 'object' || draft === null || typeof revision !== 'number') return null;
    return { payload: payloadOf(draft), base: null, revision, savedAt: typeof savedAt === 'string' ? savedAt : new Date(0).toISOString() };
  },
};

/** The unsaved draft kept for a form, if any. */
export function readLocalDraft(formId: number): LocalDraft | null {
  const kept = readKept(local(), localDraftKey(formId), draftCodec);
  return kept ? { draft: kept.payload.definition, revision: kept.revision, savedAt: kept.savedAt } : null;
}

export function clearLocalDraft(formId: number): void {
  clearKept(local(), localDraftKey(formId));
}

/** The 409 `stale_revision` details of a failed save. */
export function staleRevisionOf(error: unknown): StaleRevisionError | null {
  if (!(error instanceof ApiError) || error.code !== 'stale_revision') return null;
  const details = error.details;
  if (typeof details.revision !== 'number' || typeof details.draft !== 'object' || details.draft === null) return null;
  return { ...(details as unknown as StaleRevisionError), code: 'stale_revision', message: error.message };
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
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const current = useMemo(() => payloadOf(draft), [draft]);
  const currentRef = useRef(current);
  currentRef.current = current;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  // The server's draft when the builder loaded: taken once (a state React keeps, unlike a memo).
  const [initial] = useState(() => payloadOf(initialDraft));

  const { status, error, conflict, autosave } = useAutosaveEngine<DraftPayload, FormDraftSaved, StaleRevisionError>({
    save: (payload, { revision, keepalive }) =>
      apiSend<FormDraftSaved>('PUT', `/api/admin/forms/${formId}/draft`, { definition: payload.definition, revision }, { keepalive }),
    base: initial,
    revision: initialRevision,
    same: (a, b) => a.json === b.json,
    conflictOf: staleRevisionOf,
    conflictRevision: (stale) => stale.revision,
    // Someone else's draft is a whole other draft: the person chooses (ConflictDialog).
    onConflict: () => null,
    storageKey: () => localDraftKey(formId),
    codec: draftCodec,
    delayMs: AUTOSAVE_DELAY_MS,
    onSaved: (saved) => {
      setSavedAt(saved.updatedAt);
      onSavedRef.current?.(saved);
    },
    onRejected: (failure) => void handleSessionLost(failure),
  });

  // Each change after the first render goes to the engine (on load, a kept copy is left alone:
  // the builder offers it back first).
  const firstRun = useRef(true);
  useEffect(() => {
    if (firstRun.current) {
      firstRun.current = false;
      return;
    }
    if (enabled) autosave.change(currentRef.current);
  }, [current.json, enabled, autosave]);

  const keepMine = useCallback(() => {
    const theirs = autosave.conflict();
    if (theirs) autosave.resolve({ base: payloadOf(theirs.draft), revision: theirs.revision, payload: currentRef.current });
  }, [autosave]);

  const takeTheirs = useCallback((): FormDraft | null => {
    const theirs = autosave.conflict();
    if (!theirs) return null;
    const payload = payloadOf(theirs.draft);
    autosave.resolve({ base: payload, revision: theirs.revision, payload });
    return theirs.draft;
  }, [autosave]);

  const revision = useCallback(() => autosave.revision(), [autosave]);
  const flush = useCallback(() => autosave.flush(), [autosave]);

  return { status, message: status === 'error' ? errorMessage(error) : null, conflict, savedAt, revision, flush, keepMine, takeTheirs };
}
