/**
 * The one form renderer (format `fieldwork.form/1`): participant surveys, missions and the form
 * builder's preview. One visible page at a time with its progress, Back and Next (Submit on the
 * last page), validation beside each field and a summary of problems on Next, conditions that
 * show and hide elements and pages as the person answers, photo uploads, server errors, and
 * autosave hooks.
 *
 * Bundle: only the zod-free modules of `src/shared/forms/` are imported as values (`logic.ts`,
 * `validate.ts`, `order.ts`, `constants.ts`); `definition.ts` for its types only.
 */
import { createElement, useEffect, useId, useImperativeHandle, useMemo, useRef, useState, type FormEvent, type MouseEvent, type Ref } from 'react';
import type { AnswerValue, Answers, FormDefinition, FormElement, FormPage } from '../../shared/forms/definition.ts';
import { answerOf, resolveVisibility, setOwn } from '../../shared/forms/logic.ts';
import { validateAnswers, validateElement } from '../../shared/forms/validate.ts';
import { deviceDate } from '../../shared/calendar-day.ts';
import { FormAlert } from '../FormAlert.tsx';
import { Alert } from '../ui/alert.tsx';
import { Button } from '../ui/button.tsx';
import { ElementField } from './ElementField.tsx';
import { domSafeId, elementIdOfKey, elementName, fieldIds, isEmptyAnswer, own, photosPendingMessage } from './form-utils.ts';
import { currentLanguage, formatCount, m } from '../../shared/i18n.ts';
import { directionOf, type Language } from '../../shared/languages.ts';
import { translateValidation } from '../../shared/validation-words.ts';
import { withNodes } from './rich-text.tsx';
import { Markdown } from './Markdown.tsx';
import { addressPage, listenToPages, pageBelow, pushPage, replacePage } from './page-address.ts';
import type { FieldContext, FormMedia, MediaStore, PhotoUploads } from './types.ts';

/** The photo and video fields of a form that has none: nothing to show, wait for or add. */
const NO_UPLOADS: PhotoUploads = {
  items: () => [],
  notice: () => null,
  announcement: () => '',
  add: () => undefined,
  retry: () => undefined,
  remove: () => undefined,
  pending: () => false,
  complete: (answers) => answers,
  notes: () => [],
};
const NO_STORE: MediaStore = {
  rows: () => ({}),
  subscribe: () => () => undefined,
  add: async () => undefined,
  retry: () => undefined,
  remove: () => undefined,
  token: (id) => id,
  thumbnailUrl: () => '',
  notes: () => [],
};
const NO_MEDIA: FormMedia = { store: NO_STORE, useUploads: () => NO_UPLOADS };

/** What `onSubmit` may resolve with: the server's messages per element id (the server is the judge). */
export interface SubmitErrors {
  errors: Record<string, string[]>;
}

/** What a caller may do to a mounted renderer (`ref`). */
export interface FormRendererHandle {
  /** Shows these answers instead (merged with another device's by the autosave); `onChange` is not called. */
  replaceAnswers(answers: Answers): void;
  /** The answers on screen now, typed a moment ago included. */
  answers(): Answers;
}

export interface FormRendererProps {
  ref?: Ref<FormRendererHandle>;
  definition: FormDefinition;
  /** Fixes the random option order for this respondent (e.g. the response id). */
  seed: string;
  /** Answers to start from (a saved draft). */
  initialAnswers?: Answers;
  /** The page to start on (where the person stopped); the first visible page when it is hidden now. */
  initialPageId?: string | null;
  /** Every change of an answer, with the current page (the caller debounces its autosave). Hidden elements' answers are kept here. */
  onChange?(answers: Answers, pageId: string): void;
  /** The page changed (Back, Next, or a jump to a page with errors). */
  onPageChange?(pageId: string, answers: Answers): void;
  /**
   * Submit: receives the cleaned answers of visible elements only. Resolve with `{ errors }` to
   * show the server's messages; throw to show a form-level alert (nothing typed is lost).
   */
  onSubmit(answers: Answers): Promise<void | SubmitErrors>;
  /** The last page's button (default "Submit"). */
  submitLabel?: string;
  /**
   * The participant's screens: the title of the survey or mission the form is answered for. A
   * page without a title of its own is headed by it, for screen readers only (the screen's <h1>
   * shows it): the form's own title is for staff (docs/decisions/018-first-use.md). Without it
   * (the builder's previews) the form's title heads such pages.
   */
  activityTitle?: string;
  /** On each page change, scroll the window to its top before focusing the page's heading (the participant's screens). */
  scrollToTop?: boolean;
  /**
   * Pages in the browser's history (`page-address.ts`; the participant's survey): each page after
   * the first is `?page=` in the address and a history entry, so the browser's Back and Forward
   * move between pages and a reload opens the same one (the address's page wins over
   * `initialPageId` when it is visible).
   */
  pageInAddress?: boolean;
  /**
   * Where photos and videos go, for a form asking for them: the participant's outbox (kept on the
   * device first, then sent) or a staff preview's page (`usePreviewMedia`, `preview-N` ids). The
   * same for the renderer's life.
   */
  media?: FormMedia;
  /** The respondent's day, `YYYY-MM-DD` (default: the browser's local date). */
  today?: string;
  /** Prefix of DOM ids, for two renderers on one page (default: from React's useId). */
  idPrefix?: string;
  /** Read-only: answers shown, nothing can change, Back and Next still browse, no Submit. */
  disabled?: boolean;
  /** Headings level of the page title (default 2). */
  headingLevel?: 2 | 3;
  /**
   * The language the definition's texts are in (`localizeDefinition`; the participant's screens):
   * the form carries its `lang` and `dir`, and the renderer's own words (progress, hints, messages,
   * buttons: the interface's language) carry the page's when it differs.
   */
  contentLanguage?: Language;
}

type FocusTarget = 'heading' | 'summary' | null;

function findPage(pages: FormPage[], definition: FormDefinition, pageId: string | null): FormPage | undefined {
  const exact = pages.find((page) => page.id === pageId);
  if (exact) return exact;
  // The page is hidden now (or gone): the next visible one after its place, else the last one.
  const order = definition.pages.map((page) => page.id);
  const at = pageId === null ? -1 : order.indexOf(pageId);
  return pages.find((page) => order.indexOf(page.id) >= at) ?? pages[pages.length - 1];
}

/** Renders a form definition page by page; see FormRendererProps. */
export function FormRenderer(props: FormRendererProps) {
  const {
    definition,
    seed,
    initialAnswers,
    initialPageId,
    submitLabel = m.participant_form_submit(),
    today: todayProp,
    idPrefix,
    disabled = false,
    headingLevel = 2,
  } = props;
  const reactId = useId();
  const prefix = idPrefix ?? `form-${domSafeId(reactId)}`;
  const today = todayProp ?? deviceDate();

  const [answers, setAnswers] = useState<Answers>(() => ({ ...initialAnswers }));
  const answersRef = useRef(answers);
  const [pageId, setPageId] = useState<string | null>(() => {
    const pages = resolveVisibility(definition, initialAnswers ?? {}, { today }).pages;
    const wanted = [props.pageInAddress ? addressPage() : null, initialPageId];
    return wanted.find((id) => id && pages.some((page) => page.id === id)) ?? pages[0]?.id ?? null;
  });
  /** Pages where Next or Submit was tried: every field shows its errors. */
  const [attempted, setAttempted] = useState<ReadonlySet<string>>(() => new Set());
  /** Elements changed and then left: they show their errors. */
  const [left, setLeft] = useState<ReadonlySet<string>>(() => new Set());
  const changed = useRef(new Set<string>());
  /** Problems the controls know of (a number field holding text). */
  const [issues, setIssues] = useState<Record<string, string>>({});
  /** The server's messages, per element, until the element changes. */
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [summary, setSummary] = useState<{ pageId: string; version: number } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const heading = useRef<HTMLHeadingElement>(null);
  const summaryBox = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLFormElement>(null);
  const focusNext = useRef<FocusTarget>(null);
  const mounted = useRef(true);

  const visibility = useMemo(() => resolveVisibility(definition, answers, { today }), [definition, answers, today]);
  const pages = visibility.pages;
  const page = findPage(pages, definition, pageId);
  const pageIndex = page ? pages.indexOf(page) : -1;
  const isLast = pageIndex === pages.length - 1;

  // The latest props, page and pages for callbacks that run later (uploads finishing, submit answers, history moves).
  const latest = useRef({ props, pageId: page?.id ?? '', today, pages });
  latest.current = { props, pageId: page?.id ?? '', today, pages };

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === 'heading') {
      // The new page opens at the top, not where the old one was scrolled to; its heading takes focus.
      if (props.scrollToTop) window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
      heading.current?.focus({ preventScroll: props.scrollToTop === true });
    }
    if (target === 'summary') summaryBox.current?.focus();
  });

  const setAnswer = (elementId: string, value: AnswerValue | undefined) => {
    const next: Answers = { ...answersRef.current };
    if (value === undefined || isEmptyAnswer(value)) delete next[elementId];
    else setOwn(next, elementId, value);
    answersRef.current = next;
    setAnswers(next);
    changed.current.add(elementId);
    setServerErrors((current) => {
      if (!Object.hasOwn(current, elementId)) return current;
      const { [elementId]: _, ...rest } = current;
      return rest;
    });
    latest.current.props.onChange?.(next, latest.current.pageId);
  };

  // The form's media parts are given from the start or never (a hook's identity never changes).
  const { store, useUploads } = props.media ?? NO_MEDIA;
  const photos = useUploads(store, (elementId) => answerOf(answersRef.current, elementId), setAnswer);

  // At once (not after a render), so a keystroke right after builds on the replaced answers.
  useImperativeHandle(
    props.ref,
    () => ({
      replaceAnswers(next: Answers) {
        answersRef.current = { ...next };
        setAnswers(answersRef.current);
      },
      answers: () => answersRef.current,
    }),
    [],
  );

  // Content in another language than the page's: the form is the content's, the renderer's own words the page's.
  const pageLanguage = currentLanguage();
  const contentLanguage = props.contentLanguage;
  const contentAttrs = contentLanguage ? { lang: contentLanguage, dir: directionOf(contentLanguage) } : {};
  const ui = contentLanguage && contentLanguage !== pageLanguage ? { lang: pageLanguage, dir: directionOf(pageLanguage) } : {};
  const ctx: FieldContext = { prefix, seed, today, disabled, headingLevel, photos, ui };

  /** What blocks an element now, checked or not: a control's issue or running uploads. */
  const blockerOf = (elementId: string): string | undefined => own(issues, elementId) ?? (photos.pending(elementId) ? photosPendingMessage() : undefined);

  /** The messages an element shows now, in the page's language (the validator's and the API's are English). */
  const errorsOf = (element: FormElement, onPageId: string): string[] => {
    const server = own(serverErrors, element.id);
    if (server && server.length > 0) return server.map((message) => translateValidation(message));
    if (!attempted.has(onPageId) && !left.has(element.id)) return [];
    const blocker = blockerOf(element.id);
    return blocker
      ? [blocker]
      : validateElement(element, answerOf(photos.complete(answers), element.id), { today }).map((message) => translateValidation(message));
  };

  const visibleElements = (of: FormPage) => of.elements.filter((element) => visibility.elementIds.has(element.id));

  /** Shows a page; `entry`: a new history entry for it, or this entry shows it instead (`pageInAddress` only). */
  const goTo = (nextPageId: string, focus: FocusTarget = 'heading', entry: 'push' | 'replace' | null = 'push') => {
    const shown = latest.current;
    if (shown.props.pageInAddress && entry) {
      const first = shown.pages[0]?.id === nextPageId;
      if (entry === 'push') pushPage(nextPageId, first, shown.pageId);
      else replacePage(nextPageId, first);
    }
    setPageId(nextPageId);
    setSummary(null);
    setFormError(null);
    focusNext.current = focus;
    shown.props.onPageChange?.(nextPageId, answersRef.current);
  };

  // The browser's Back and Forward between the pages' history entries; the entry the form opens on shows its page.
  const goToRef = useRef(goTo);
  goToRef.current = goTo;
  const savedPage = useRef(initialPageId ?? null);
  useEffect(() => {
    if (!props.pageInAddress) return;
    const { pages: shown, pageId: opened } = latest.current;
    if (opened) replacePage(opened, shown[0]?.id === opened);
    // Opened on the address's page rather than the saved one (a reload before that save landed): it is where the person is now.
    if (opened && opened !== savedPage.current && opened === addressPage()) latest.current.props.onPageChange?.(opened, answersRef.current);
    return listenToPages((wanted) => {
      const target = wanted ?? latest.current.pages[0]?.id;
      if (target && target !== latest.current.pageId) goToRef.current(target, 'heading', null);
    });
  }, [props.pageInAddress]);

  /** Shows the summary of a page's problems (going there first) and focuses it. */
  const showProblems = (onPageId: string) => {
    if (onPageId !== page?.id) goTo(onPageId, 'summary');
    else focusNext.current = 'summary';
    setAttempted((current) => new Set(current).add(onPageId));
    setSummary((current) => ({ pageId: onPageId, version: (current?.version ?? 0) + 1 }));
  };

  /** Elements of visible pages (all, or one page) that block Next or Submit, in document order. */
  const problemsOf = (onlyPageId?: string): string[] => {
    const result = validateAnswers(definition, photos.complete(answersRef.current), onlyPageId === undefined ? { today } : { pageId: onlyPageId, today });
    const ids: string[] = [];
    for (const each of pages) {
      if (onlyPageId !== undefined && each.id !== onlyPageId) continue;
      for (const element of visibleElements(each))
        if (own(result.errors, element.id) || blockerOf(element.id) || own(serverErrors, element.id)?.length) ids.push(element.id);
    }
    return ids;
  };

  const applyServerErrors = (errors: Record<string, string[]>) => {
    const current = resolveVisibility(definition, answersRef.current, { today });
    const known = new Set(definition.pages.flatMap((each) => each.elements.map((element) => element.id)));
    const byElement: Record<string, string[]> = {};
    const loose: string[] = [];
    for (const [key, messages] of Object.entries(errors)) {
      const list = Array.isArray(messages) ? messages.filter((message) => typeof message === 'string') : [];
      const id = elementIdOfKey(key, known);
      if (list.length === 0) continue;
      if (id !== undefined && current.elementIds.has(id)) setOwn(byElement, id, [...(own(byElement, id) ?? []), ...list]);
      else loose.push(...list);
    }
    setServerErrors(byElement);
    const first = current.pages.find((each) => each.elements.some((element) => own(byElement, element.id)));
    if (first) showProblems(first.id);
    // After the jump (which clears the form-level alert).
    if (loose.length > 0 || !first)
      setFormError(loose.length > 0 ? loose.map((message) => translateValidation(message)).join(' ') : m.participant_form_not_accepted());
  };

  const next = () => {
    if (!page) return;
    if (!disabled && problemsOf(page.id).length > 0) {
      showProblems(page.id);
      return;
    }
    const following = pages[pageIndex + 1];
    if (following) goTo(following.id);
  };

  const back = () => {
    const previous = pages[pageIndex - 1];
    if (!previous) return;
    // The entry under this one is the previous page: back in the history (its listener shows the page), so both Backs walk one list.
    if (props.pageInAddress && pageBelow() === previous.id) history.back();
    else goTo(previous.id, 'heading', 'replace');
  };

  const submit = async () => {
    if (disabled || submitting) return;
    setFormError(null);
    const problems = problemsOf();
    if (problems.length > 0) {
      const first = pages.find((each) => each.elements.some((element) => problems.includes(element.id)));
      if (first) showProblems(first.id);
      return;
    }
    // Files kept on the device without a media id yet stand in as `local-…` (the submit is then queued).
    const { answers: cleaned } = validateAnswers(definition, photos.complete(answersRef.current), { today });
    setSubmitting(true);
    try {
      const outcome = await latest.current.props.onSubmit(cleaned);
      if (!mounted.current) return;
      if (outcome && outcome.errors && Object.keys(outcome.errors).length > 0) applyServerErrors(outcome.errors);
    } catch (error) {
      if (mounted.current) setFormError(error instanceof Error && error.message ? error.message : m.participant_form_send_failed());
    } finally {
      if (mounted.current) setSubmitting(false);
    }
  };

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (isLast && !disabled) void submit();
    else next();
  };

  const focusElement = (event: MouseEvent, elementId: string) => {
    event.preventDefault();
    const field = root.current?.querySelector<HTMLElement>(`[data-element="${elementId}"]`);
    if (!field) return;
    const target =
      field.querySelector<HTMLElement>('input:checked:not(:disabled)') ??
      field.querySelector<HTMLElement>('input:not(:disabled), select:not(:disabled), textarea:not(:disabled), button:not(:disabled)');
    field.scrollIntoView?.({ block: 'start' });
    target?.focus({ preventScroll: true });
  };

  if (!page) {
    return (
      <Alert variant="info" title={m.participant_form_no_pages_title()}>
        {m.participant_form_no_pages_body()}
      </Alert>
    );
  }

  const elements = visibleElements(page);
  const problems =
    summary && summary.pageId === page.id
      ? elements.flatMap((element) => {
          const messages = errorsOf(element, page.id);
          return messages.length > 0 ? [{ element, message: messages[0] as string }] : [];
        })
      : [];
  const headingId = `${prefix}-page-heading`;
  const progressId = `${prefix}-progress`;
  const ownTitle = page.title?.trim();
  const title = ownTitle || props.activityTitle || definition.title;
  const hiddenTitle = !ownTitle && props.activityTitle !== undefined;
  const hasRequired = elements.some((element) => element.required === true && element.type !== 'statement');

  return (
    <form ref={root} noValidate aria-labelledby={headingId} className="flex flex-col gap-6" onSubmit={onFormSubmit} {...contentAttrs}>
      {pages.length > 1 && (
        <div className="flex flex-col gap-1.5" {...ui}>
          <p id={progressId} className="text-sm font-medium text-muted-foreground tabular-nums">
            {m.participant_form_page_of({ page: formatCount(pageIndex + 1), total: formatCount(pages.length) })}
          </p>
          <div aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-muted">
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${((pageIndex + 1) / pages.length) * 100}%` }} />
          </div>
        </div>
      )}

      <div className="flex flex-col gap-2">
        {createElement(
          `h${headingLevel}`,
          // Focused on each page change: screen readers hear the title, then "Page 2 of 3".
          {
            ref: heading,
            id: headingId,
            tabIndex: -1,
            'aria-describedby': pages.length > 1 ? progressId : undefined,
            className: hiddenTitle ? 'sr-only' : 'text-xl leading-tight font-semibold tracking-tight break-words',
          },
          title,
        )}
        {page.description && <Markdown headingLevel={headingLevel + 1}>{page.description}</Markdown>}
        {hasRequired && !disabled && (
          <p aria-hidden="true" className="text-sm text-muted-foreground" {...ui}>
            {withNodes((marks) => m.participant_form_required_note({ mark: marks.mark }), { mark: <span className="text-destructive">*</span> })}
          </p>
        )}
      </div>

      {problems.length > 0 && (
        // A new key per attempt: the alert is announced again, and it takes focus.
        <Alert
          key={summary?.version}
          ref={summaryBox}
          tabIndex={-1}
          variant="destructive"
          title={m.participant_form_problems({ count: problems.length })}
          {...ui}
        >
          <ul className="mt-1 flex flex-col gap-1">
            {problems.map(({ element, message }) => (
              <li key={element.id}>
                <a href={`#${fieldIds(prefix, element.id).control}`} onClick={(event) => focusElement(event, element.id)}>
                  {ui.lang ? (
                    <span {...contentAttrs}>{elementName(element, page.elements.indexOf(element))}</span>
                  ) : (
                    elementName(element, page.elements.indexOf(element))
                  )}
                  : {message}
                </a>
              </li>
            ))}
          </ul>
        </Alert>
      )}

      <div {...ui} className="contents">
        <FormAlert message={formError} title={m.participant_form_not_sent()} />
      </div>

      {/* On a phone the Back/Next bar sticks to the bottom: what takes focus or is scrolled to stays above it. */}
      <div className="flex flex-col gap-8 max-sm:[&_*]:scroll-mb-28">
        {elements.map((element) => (
          <ElementField
            key={element.id}
            element={element}
            value={answerOf(answers, element.id)}
            errors={errorsOf(element, page.id)}
            ctx={ctx}
            onChange={setAnswer}
            onIssue={(elementId, message) =>
              setIssues((current) => {
                if ((own(current, elementId) ?? null) === message) return current;
                const { [elementId]: _, ...rest } = current;
                return message === null ? rest : { ...rest, [elementId]: message };
              })
            }
            onLeave={(elementId) => {
              if (changed.current.has(elementId)) setLeft((current) => (current.has(elementId) ? current : new Set(current).add(elementId)));
            }}
          />
        ))}
      </div>

      <div
        data-sticky-actions
        {...ui}
        className="sticky bottom-0 z-10 flex gap-3 border-t border-border bg-background/95 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur-sm sm:static sm:border-0 sm:bg-transparent sm:pb-0 sm:backdrop-blur-none"
      >
        {pageIndex > 0 && (
          <Button variant="outline" size="lg" className="flex-1 sm:flex-none" onClick={back}>
            {m.participant_form_back()}
          </Button>
        )}
        {(!isLast || !disabled) && (
          <Button type="submit" size="lg" className="flex-1 sm:ms-auto sm:flex-none" loading={submitting}>
            {isLast ? submitLabel : m.participant_form_next()}
          </Button>
        )}
      </div>
    </form>
  );
}
