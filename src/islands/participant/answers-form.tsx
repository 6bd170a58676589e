/**
 * The form a participant answers, for a survey response and a mission entry alike: resumed from
 * the answers kept on this device (they win over the server's, element by element), autosaved as
 * the person goes, merged with another device's changes (with a note when an answer on screen
 * changed), and submitted once what is on its way has landed.
 */
import { lazy, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { Answers, FormDefinition } from '../../shared/forms/definition.ts';
import type { AnswersSaved } from '../../shared/answers.ts';
import { SOURCE_LANGUAGE, type Language } from '../../shared/languages.ts';
import { Later } from '../../components/states/Later.tsx';
import { ApiError } from '../../platform/api.ts';
import { local } from '../../platform/storage.ts';
import { errorMessage } from '../../lib/form-errors.ts';
import { handleSessionLost } from '../../lib/session.ts';
import { toast } from '../../stores/toasts.ts';
import { FormRenderer, type FormRendererHandle, type SubmitErrors } from '../../components/forms/FormRenderer.tsx';
import { asksForMedia } from '../../components/forms/form-utils.ts';
import { controlsToLoad, loadControls } from '../../components/forms/ElementField.tsx';
import type { FormMedia } from '../../components/forms/types.ts';
import { Card } from '../../components/ui/card.tsx';
import { checkAndSubmitAgain, changedOnPage, clearLocalDraft, mergedNote, readLocalDraft, resumeFrom, samePayload, type AnswersPayload } from './autosave.ts';
import type { LanguageTools } from './content-language.tsx';
import { m } from '../../shared/i18n.ts';
import { translateValidation } from '../../shared/validation-words.ts';
import { Alert } from '../../components/ui/alert.tsx';
import type { FormMediaStore } from './outbox/media-store.ts';
import { queueSubmit, type QueuedTarget } from './outbox/queue.ts';
import { FormSkeleton, SaveLine, useTransientNote } from './parts.tsx';
import { submitFailure } from './send.ts';
import { useAnswersAutosave } from './use-autosave.ts';
import { isLocalToken } from './outbox/types.ts';

export interface AnswersFormProps<T extends AnswersPayload> {
  definition: FormDefinition;
  seed: string;
  headingLevel?: 2 | 3;
  /** The survey's or mission's title: heads the pages without a title of their own (the form's title is for staff). */
  activityTitle: string;
  /** Where unsent answers are kept on this device; read each time (a new entry's key changes once it exists). */
  storageKey: () => string;
  /** Read when nothing is kept under `storageKey`: answers typed under another key that are this form's (that copy is removed once taken). */
  adoptKey?: string | null;
  /** The pages in the browser's history (`?page=`: Back and Forward move between them; the survey). */
  pageInAddress?: boolean;
  /** What the server holds when the form opens, and its revision (0 before the first save). */
  server: T;
  revision: number;
  /** The content language the server recorded the answers in (null or absent: none). */
  recordedLanguage?: Language | null | undefined;
  /** What is saved of the answers on screen and the page they are on (the form adds the content language). */
  payload: (answers: Answers, pageId: string | null) => T;
  /** Sends a payload (its `language` always set) based on `revision`. */
  save: (payload: T, how: { revision: number; keepalive: boolean }) => Promise<AnswersSaved>;
  /** A refused save the screen expects (the reload shows what happened): no toast. */
  quietRejection?: () => boolean;
  /** Sends the answers, given in `language`, based on `revision`. */
  submit: (answers: Answers, revision: number, language: Language) => Promise<unknown>;
  /** Which form this is in the outbox (its files and a queued submit): stable for the form's life. */
  formKey: string;
  /** Where a submit that cannot be sent now goes later (the sender sends it with the same revision). */
  queued: (language: Language) => QueuedTarget;
  /** The title of the toast when the submit is refused for good. */
  notSent: string;
  reload: () => void;
  /** The answers were submitted, given in `language`. */
  onSubmitted: (answers: Answers, language: Language) => void;
}

/** Whether answers hold a file kept on the device whose media id is not known yet. */
function waitsForFiles(answers: Answers): boolean {
  return Object.values(answers).some((value) => Array.isArray(value) && value.some((item) => isLocalToken(item)));
}

/** A form in its source language only: nothing to choose or translate. */
const ONE_LANGUAGE: LanguageTools = {
  opening: (definition) => (definition as FormDefinition).language ?? SOURCE_LANGUAGE,
  offered: (definition) => [(definition as FormDefinition).language ?? SOURCE_LANGUAGE],
  localize: (definition) => definition,
  Picker: () => null,
};

/** Whether a definition offers languages besides its source (`offeredLanguages` has more than one). */
function multilingual(definition: FormDefinition): boolean {
  const source = definition.language ?? SOURCE_LANGUAGE;
  return (definition.languages ?? []).some((language) => language !== source);
}

/** What a form needs beyond the renderer. */
interface FormParts {
  tools: LanguageTools;
  /** Its photo and video fields' parts (the outbox's store), for a form asking for them. */
  media: FormMedia<FormMediaStore> | null;
}

/**
 * Loads what a form needs before it shows, at once: choosing and translating the questions
 * (`./content-language.tsx`) for a form offering several languages, the controls few forms use
 * (photos and videos, matrix and ranking: `loadControls`), and for a form asking for photos or
 * videos the outbox's store (`./outbox/media-store.ts`). A form needing none (most surveys) loads
 * nothing more and shows at once.
 */
async function loadParts(definition: FormDefinition, formKey: string): Promise<FormParts> {
  const [tools, media] = await Promise.all([
    multilingual(definition) ? import('./content-language.tsx').then((module) => module.languageTools) : ONE_LANGUAGE,
    asksForMedia(definition) ? import('./outbox/media-store.ts').then((module) => module.formMedia(formKey)) : null,
    loadControls(definition),
  ]);
  return { tools, media };
}

export function AnswersForm<T extends AnswersPayload>(props: AnswersFormProps<T>) {
  const { definition, formKey } = props;
  // Made once for the form's life (its definition's languages and element types do not change on screen).
  const [Loaded] = useState(() =>
    multilingual(definition) || asksForMedia(definition) || controlsToLoad(definition).length > 0
      ? lazy(() =>
          loadParts(definition, formKey).then((parts) => ({
            default: ((loaded: AnswersFormProps<T>) => <FormWith<T> {...loaded} parts={parts} />) as ComponentType<AnswersFormProps<T>>,
          })),
        )
      : null,
  );
  if (!Loaded) return <FormWith<T> {...props} parts={{ tools: ONE_LANGUAGE, media: null }} />;
  return (
    <Later fallback={<FormSkeleton fields={2} />}>
      <Loaded {...props} />
    </Later>
  );
}

function FormWith<T extends AnswersPayload>(props: AnswersFormProps<T> & { parts: FormParts }) {
  const { definition, storageKey } = props;
  const { tools, media } = props.parts;
  const openingLanguage = tools.opening;
  // Read once, when the form opens (a state's initial value, which React keeps, unlike a memo's).
  const [start] = useState(() => {
    const own = readLocalDraft<T>(local(), storageKey());
    const adopted = !own && props.adoptKey ? readLocalDraft<T>(local(), props.adoptKey) : null;
    const kept = own ?? adopted;
    // The server's side holds the language the form opens in: opening it saves nothing.
    const server: T = { ...props.server, language: openingLanguage(definition, null, props.recordedLanguage) };
    const resumed = resumeFrom(kept, server);
    // A switch of language kept on this device (not saved yet) stays, and is sent.
    const language = openingLanguage(definition, kept?.payload.language, props.recordedLanguage);
    const payload: T = { ...resumed.payload, language };
    const restored = !samePayload(payload, server);
    if (kept && !restored) clearLocalDraft(local(), storageKey());
    return { ...resumed, payload, restored, server, adoptedFrom: adopted ? props.adoptKey : null };
  });
  const offered = useMemo(() => tools.offered(definition), [definition, tools]);
  /** The language the questions are shown in; sent with every save and the submit. */
  const [language, setLanguage] = useState<Language>(start.payload.language as Language);
  const languageRef = useRef(language);
  const shown = useMemo(() => tools.localize(definition, language), [definition, language, tools]);
  const [touched, setTouched] = useState(start.restored);
  const form = useRef<FormRendererHandle>(null);
  /** The page on screen (for the merge note). */
  const page = useRef(start.payload.pageId ?? null);
  /** Set when a merge changed the answers: a submit under way stops and asks to check them. */
  const merged = useRef(false);
  const [note, showNote] = useTransientNote();
  /** A submit waiting in the outbox: what the screen says, until the sender has sent it. */
  const [queuedNote, setQueuedNote] = useState<string | null>(null);

  const { status, error, autosave } = useAnswersAutosave<T>({
    save: props.save,
    storageKey,
    server: start.server,
    revision: props.revision,
    onMerged: (next, mine) => {
      merged.current = true;
      form.current?.replaceAnswers(next.answers);
      if (changedOnPage(definition, page.current, mine.answers, next.answers)) showNote(mergedNote());
    },
    onRejected: (failure) => {
      if (handleSessionLost(failure)) return;
      if (!props.quietRejection?.()) toast({ title: m.participant_save_not_saved(), description: errorMessage(failure), variant: 'destructive' });
      props.reload();
    },
  });

  useEffect(() => {
    // Answers restored from this device go to the server at once; a note when the other device changed some on screen meanwhile.
    if (start.restored) autosave.change(start.payload);
    if (start.adoptedFrom) clearLocalDraft(local(), start.adoptedFrom);
    if (start.seen && changedOnPage(definition, page.current, start.seen, start.payload.answers)) showNote(mergedNote());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the answers found when the form opened: re-running would send them again
  }, [autosave, start]);

  /** Puts the submit in the outbox (with the revision the answers are based on); the sender sends it when it can. */
  const queue = async (answers: Answers, why: 'offline' | 'files') => {
    const language = languageRef.current;
    autosave.dispose();
    setQueuedNote(m.outbox_submit_queued());
    const { online } = await queueSubmit({
      formKey: props.formKey,
      target: props.queued(language),
      answers,
      revision: autosave.revision(),
      language,
      draftKey: storageKey(),
      onSent: () => props.onSubmitted(answers, language),
      onFailed: (reason) => setQueuedNote(translateValidation(reason)),
    });
    // Reachable after all, only the files are not sent yet: said as it is.
    if (why === 'files' && online) setQueuedNote((note) => (note === m.outbox_submit_queued() ? m.outbox_submit_waiting_files() : note));
  };

  const onSubmit = async (answers: Answers): Promise<void | SubmitErrors> => {
    // What is on its way lands first (a late autosave would find the answers submitted).
    merged.current = false;
    await autosave.flush();
    if (autosave.status() === 'error') return;
    // Answers from the other device arrived meanwhile: the person checks them first.
    if (merged.current) throw new Error(checkAndSubmitAgain());
    // Files kept on this phone not sent and processed yet: the submit waits for them in the outbox.
    if (waitsForFiles(answers)) return queue(answers, 'files');
    try {
      await props.submit(answers, autosave.revision(), languageRef.current);
    } catch (failure) {
      // The server cannot be reached: the submit waits in the outbox.
      if (failure instanceof ApiError && failure.status === 0) return queue(answers, 'offline');
      // Changed on the other device since: merged like a save, never submitted unseen.
      if (autosave.handleConflict(failure)) throw new Error(checkAndSubmitAgain());
      // Refused answers are saved first: the server holds them at the revision it gives.
      if (failure instanceof ApiError && failure.status === 400 && typeof failure.details.revision === 'number')
        autosave.acknowledge(payloadOf(answers, page.current), failure.details.revision);
      return submitFailure(failure, props.notSent, props.reload);
    }
    autosave.discard();
    autosave.dispose();
    // Photos and videos were kept on the device first (the outbox): done with.
    media?.store.submitted();
    props.onSubmitted(answers, languageRef.current);
  };

  /** What is saved: the screen's payload, in the language the questions are shown in. */
  const payloadOf = (answers: Answers, pageId: string | null): T => ({ ...props.payload(answers, pageId), language: languageRef.current });

  const change = (answers: Answers, pageId: string | null) => {
    setTouched(true);
    page.current = pageId;
    autosave.change(payloadOf(answers, pageId));
  };

  /** The questions in another language: the same form (answers and page stay), saved at once with the new language. */
  const switchLanguage = (next: Language) => {
    if (next === languageRef.current) return;
    languageRef.current = next;
    setLanguage(next);
    const answers = form.current?.answers() ?? start.payload.answers;
    // Nothing answered or saved yet: no response or entry is made for a language; the first save carries it.
    if (autosave.revision() === 0 && !autosave.pending() && Object.keys(answers).length === 0) return;
    change(answers, page.current);
    void autosave.flush();
  };

  return (
    <div className="flex flex-col gap-4">
      <tools.Picker offered={offered} value={language} onChange={switchLanguage} />
      <SaveLine status={status} error={error} idle={!touched} note={note} />
      {queuedNote !== null && (
        <Alert variant="info" title={m.outbox_submit_title()} role="status">
          {queuedNote}
        </Alert>
      )}
      <Card className="p-4 sm:p-6" hidden={queuedNote !== null}>
        <FormRenderer
          ref={form}
          definition={shown}
          contentLanguage={language}
          seed={props.seed}
          initialAnswers={start.payload.answers}
          initialPageId={start.payload.pageId ?? null}
          {...(media ? { media } : {})}
          headingLevel={props.headingLevel ?? 2}
          onChange={change}
          onPageChange={(pageId, answers) => {
            change(answers, pageId);
            void autosave.flush();
          }}
          onSubmit={onSubmit}
          submitLabel={m.participant_form_submit()}
          activityTitle={props.activityTitle}
          scrollToTop
          pageInAddress={props.pageInAddress === true}
        />
      </Card>
    </div>
  );
}
