/**
 * /admin/forms/{id}: the form builder. Loads the form, then: a toolbar (the form's title edited
 * inline, save status, Undo/Redo with Ctrl/Cmd+Z, versions, import/export, publish), the palette,
 * the pages with their element cards, and a side panel with the selected element's settings and a
 * live preview (a sheet and a section below on phones). Every change goes through the reducer in
 * builder-state.ts (undoable) and is autosaved (use-autosave.ts).
 */
import { lazy, useCallback, useDeferredValue, useEffect, useId, useMemo, useReducer, useRef, useState, useSyncExternalStore, type RefObject } from 'react';
import { FORM_PROBLEMS_KEY, type ElementType } from '../../../shared/forms/constants.ts';
import type { FormDraft } from '../../../shared/forms/definition.ts';
import { sourceLanguageOf } from '../../../shared/forms/translations.ts';
import type { AdminForm, FormPublished, FormVersion } from '../../../shared/schemas/forms.ts';
import { utcDate } from '../../../shared/calendar-day.ts';
import { apiGet, apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource, useRouteIds } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { cn } from '../../../lib/utils.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { NotFound } from '../../../components/states/NotFound.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Label } from '../../../components/ui/label.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { builderReducer, deletePageLabel, findElement, initBuilderState, sameDraft, type BuilderState } from './builder-state.ts';
import { TYPE_LABELS, typeLabel } from './catalog.ts';
import { quote } from './conditions.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { ElementList } from './ElementList.tsx';
import { ElementPanel } from './ElementPanel.tsx';
import { ImportButton, exportDraft } from './ImportExport.tsx';
import { Palette } from './Palette.tsx';
import { SAVE_STATUS_TEXT, clearLocalDraft, readLocalDraft, useAutosave, type LocalDraft, type SaveStatus } from './use-autosave.ts';
import { Later } from '../../../components/states/Later.tsx';

// Loaded when used (issue 19, "page weight"): the preview (the form renderer) when its tab is
// chosen or, on a phone, when it scrolls into view; the publish and versions dialogs when opened.
const PreviewPanel = lazy(() => import('./PreviewPanel.tsx').then((loaded) => ({ default: loaded.PreviewPanel })));
const PublishDialog = lazy(() => import('./PublishDialog.tsx').then((loaded) => ({ default: loaded.PublishDialog })));
const VersionHistory = lazy(() => import('./VersionHistory.tsx').then((loaded) => ({ default: loaded.VersionHistory })));
// The language bar (its translation editor loads when opened) comes right after the first paint.
const LanguageBar = lazy(() => import('./LanguageBar.tsx').then((loaded) => ({ default: loaded.LanguageBar })));

/** True from the first time `on` is true: a part loaded on first use stays mounted (its state, a dialog's closing). */
function useOnceTrue(on: boolean): boolean {
  const [once, setOnce] = useState(on);
  if (on && !once) setOnce(true);
  return once || on;
}

/** True once `target` comes within 200 px of the viewport. */
function useNearView(target: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = target.current;
    if (!enabled || near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [target, enabled, near]);
  return near;
}

/** What the preview shows while its code loads: its heading (the panel is named by it) and a spinner. */
function PreviewLoading({ headingId }: { headingId: string }) {
  return (
    <div className="flex flex-col gap-4">
      <h2 id={headingId} className="text-lg font-semibold">
        {m.forms_preview_heading()}
      </h2>
      <Loading label={m.forms_preview_loading()} />
    </div>
  );
}

/** Large screens: three columns, the side panel beside the list. Below: the panel is a sheet. */
const DESKTOP_QUERY = '(min-width: 64rem)';

type PublishCheckFn = (typeof import('../../../shared/forms/publish.ts'))['checkForPublish'];

/**
 * The draft's publish problems (`checkForPublish`, the server's own check). The check and zod
 * (~70 KB) load after the first paint, not with the page (its JavaScript budget): until then no
 * problem is shown, and a publish meanwhile is checked by the server all the same.
 */
function usePublishProblems(draft: FormDraft): Record<string, string[]> {
  const [check, setCheck] = useState<PublishCheckFn | null>(null);
  useEffect(() => {
    let live = true;
    void import('../../../shared/forms/publish.ts').then((loaded) => {
      if (live) setCheck(() => loaded.checkForPublish);
    });
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => (check ? check(draft).problems : {}), [check, draft]);
}

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => true,
  );
}

/** The island of /admin/forms/{id}. */
export default function FormBuilder() {
  const ids = useRouteIds('/admin/forms/:id');
  const { load, reload } = useResource<AdminForm>(ids ? `/api/admin/forms/${ids.id}` : null);

  if (ids === null || load.status === 'missing') {
    return (
      <NotFound title={m.forms_builder_not_found_title()} href="/admin/forms" linkLabel={m.forms_builder_not_found_link()} className="mx-auto">
        {m.forms_builder_not_found_body()}
      </NotFound>
    );
  }
  if (load.status === 'loading') return <BuilderSkeleton />;
  if (load.status === 'error') return <Failed title={m.forms_builder_load_failed()} message={load.message} onRetry={reload} className="mx-auto" />;
  return <Builder key={load.data.id} initial={load.data} />;
}

/** The builder's loading state, shaped like the builder. */
function BuilderSkeleton() {
  return (
    <Loading label={m.forms_builder_loading()} className="flex flex-col gap-4 lg:h-[calc(100dvh-6.5rem)] lg:min-h-[34rem]">
      <Card variant="flat" aria-hidden="true" className="h-[4.5rem] animate-pulse" />
      <div aria-hidden="true" className="grid gap-4 lg:min-h-0 lg:flex-1 lg:grid-cols-[13.5rem_minmax(0,1fr)_27.5rem]">
        <Card variant="flat" className="h-64 animate-pulse lg:h-full" />
        <div className="flex flex-col gap-3">
          <Card variant="flat" className="h-40 animate-pulse" />
          <Card variant="flat" className="h-40 animate-pulse" />
        </div>
        <Card variant="flat" className="hidden animate-pulse lg:block lg:h-full" />
      </div>
    </Loading>
  );
}

function Builder({ initial }: { initial: AdminForm }) {
  const formId = initial.id;
  const [meta, setMeta] = useState(initial);
  const [state, dispatch] = useReducer(builderReducer, initial.draft, (draft: FormDraft) => initBuilderState(draft));
  const stateRef = useRef<BuilderState>(state);
  stateRef.current = state;
  const desktop = useMediaQuery(DESKTOP_QUERY);
  const archived = meta.status === 'archived';

  const autosave = useAutosave({
    formId,
    draft: state.draft,
    initialDraft: initial.draft,
    initialRevision: initial.revision,
    enabled: !archived,
    onSaved: (saved) => setMeta((current) => ({ ...current, title: saved.title, updatedAt: saved.updatedAt })),
  });

  // A draft this browser kept but the server does not have (a reload before it was saved).
  const [recovered, setRecovered] = useState<LocalDraft | null>(() => {
    const local = readLocalDraft(formId);
    return local && !sameDraft(local.draft, initial.draft) ? local : null;
  });

  // Element ids of the published versions are locked (and never reused).
  const versionCount = meta.versions.length;
  useEffect(() => {
    if (versionCount === 0) return;
    let cancelled = false;
    Promise.all(meta.versions.slice(0, 50).map((version) => apiGet<FormVersion>(`/api/admin/forms/${formId}/versions/${version.version}`)))
      .then((versions) => {
        if (cancelled) return;
        const ids = versions.flatMap((version) => version.definition.pages.flatMap((page) => page.elements.map((element) => element.id)));
        dispatch({ type: 'set_reserved', ids });
      })
      .catch((error: unknown) => {
        if (!cancelled) handleSessionLost(error);
      });
    return () => {
      cancelled = true;
    };
    // The list of versions only grows; its length says when to read it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-fetch only when a version is added, not on every new copy of the list
  }, [formId, versionCount]);

  const deferredDraft = useDeferredValue(state.draft);
  const problems = usePublishProblems(deferredDraft);

  useEffect(() => {
    document.title = m.forms_builder_document_title({ title: state.draft.title.trim() || m.forms_untitled_form() });
  }, [state.draft.title]);

  // The live region: everything the builder says after a change.
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((text: string) => setAnnouncement((current) => (current === text ? `${text}\u00a0` : text)), []);

  // Focus requests that must wait for the next render (a moved card, the panel's heading).
  const focusNext = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const find = focusNext.current;
    if (!find) return;
    focusNext.current = null;
    const target = find();
    if (!target) return;
    const aside = asideRef.current;
    if (aside?.contains(target)) {
      // The side panel scrolls on its own: show the top of what opened, and leave the page where it is.
      aside.scrollTop = 0;
      target.focus({ preventScroll: true });
      // A new question's title is selected: typing replaces "Short text question".
      if (target instanceof HTMLTextAreaElement) target.select();
    } else {
      target.focus();
      target.scrollIntoView?.({ block: 'nearest' });
    }
  });

  const [tab, setTab] = useState<'settings' | 'preview'>('settings');
  const [sheetOpen, setSheetOpen] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const panelRef = useRef<HTMLDivElement>(null);
  const asideRef = useRef<HTMLElement>(null);
  const phonePreviewRef = useRef<HTMLElement>(null);
  const phonePreviewNear = useNearView(phonePreviewRef, !desktop);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const paletteRef = useRef<HTMLElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  const panelHeadingId = useId();
  const previewHeadingId = useId();

  /** Where focus goes when the phone sheet opens. */
  const sheetFocus = useRef<'heading' | 'title'>('heading');
  const openPanel = (focus: 'heading' | 'title') => {
    if (desktop) {
      setTab('settings');
      focusNext.current = () => (focus === 'title' ? panelRef.current?.querySelector('textarea') : panelHeading.current);
    } else {
      sheetFocus.current = focus;
      setSheetOpen(true);
    }
  };

  const edit = (elementId: string) => {
    dispatch({ type: 'select', elementId });
    openPanel('heading');
  };

  const editPage = (pageId: string) => {
    dispatch({ type: 'select', elementId: null, pageId });
    openPanel('heading');
  };

  const add = (type: ElementType) => {
    dispatch({ type: 'add_element', elementType: type });
    const current = stateRef.current;
    const pageIndex = Math.max(
      0,
      current.draft.pages.findIndex((page) => page.id === current.pageId),
    );
    announce(m.forms_builder_added({ type: TYPE_LABELS[type](), page: formatCount(pageIndex + 1) }));
    openPanel('title');
  };

  /** Undoes the change `label` from a toast, if it is still the last one. */
  const undoFromToast = (label: string, depth: number) => () => {
    const current = stateRef.current;
    if (current.past.length === depth && current.past[depth - 1]?.label === label) {
      dispatch({ type: 'undo' });
      announce(m.forms_builder_undid({ label }));
    } else {
      toast({ title: m.forms_builder_undo_later_title(), description: m.forms_builder_undo_later_description() });
    }
  };

  const remove = (elementId: string) => {
    const current = stateRef.current;
    const place = findElement(current.draft, elementId);
    if (!place) return;
    const next = place.page.elements[place.index + 1] ?? place.page.elements[place.index - 1];
    const name = quote(place.element.title.trim() || place.element.id);
    const label = m.forms_history_delete({ name });
    dispatch({ type: 'delete_element', id: elementId });
    const depth = Math.min(current.past.length + 1, 200);
    toast({
      title: m.forms_builder_deleted({ name }),
      action: { label: m.forms_builder_undo(), altText: m.forms_builder_undo_this({ label }), onClick: undoFromToast(label, depth) },
    });
    announce(m.forms_builder_deleted_announce({ name }));
    focusNext.current = () =>
      (next ? document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(`${next.id}|edit`)}"]`) : null) ??
      paletteRef.current?.querySelector<HTMLElement>('button');
  };

  const removePage = (pageId: string) => {
    const current = stateRef.current;
    const pageIndex = current.draft.pages.findIndex((page) => page.id === pageId);
    const page = current.draft.pages[pageIndex];
    if (!page || current.draft.pages.length <= 1) return;
    dispatch({ type: 'delete_page', id: pageId });
    const count = page.elements.length;
    const label = deletePageLabel(pageIndex, count);
    const pageNumber = formatCount(pageIndex + 1);
    const depth = Math.min(current.past.length + 1, 200);
    toast({
      title: m.forms_builder_deleted_page({ page: pageNumber }),
      description: count > 0 ? m.forms_builder_deleted_page_questions({ count }) : undefined,
      action: { label: m.forms_builder_undo(), altText: m.forms_builder_undo_this({ label }), onClick: undoFromToast(label, depth) },
    });
    announce(m.forms_builder_deleted_page_announce({ page: pageNumber }));
    focusNext.current = () => paletteRef.current?.querySelector<HTMLElement>('button');
  };

  const undo = useCallback(() => {
    const entry = stateRef.current.past.at(-1);
    if (!entry) return;
    dispatch({ type: 'undo' });
    announce(m.forms_builder_undid({ label: entry.label }));
  }, [announce]);
  const redo = useCallback(() => {
    const entry = stateRef.current.future.at(-1);
    if (!entry) return;
    dispatch({ type: 'redo' });
    announce(m.forms_builder_redid({ label: entry.label }));
  }, [announce]);

  // Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo (not while a dialog is open).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || archived) return;
      if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') redo();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [undo, redo, archived]);

  const replaceDraft = (draft: FormDraft, label: string, title: string) => {
    const depth = Math.min(stateRef.current.past.length + 1, 200);
    dispatch({ type: 'replace_draft', draft, label });
    toast({ title, action: { label: m.forms_builder_undo(), altText: m.forms_builder_undo_this({ label }), onClick: undoFromToast(label, depth) } });
    announce(`${title}.`);
  };

  const describeKey = (key: string): string => {
    if (key === FORM_PROBLEMS_KEY) return m.forms_builder_problem_form();
    const place = findElement(state.draft, key);
    if (place) {
      const title = place.element.title.trim();
      // An untitled question is named as its card names it, with its id to tell it apart.
      return m.forms_builder_problem_question({
        name: title ? quote(title) : m.forms_untitled_question_id({ id: place.element.id }),
        type: typeLabel(place.element.type),
        page: formatCount(place.pageIndex + 1),
      });
    }
    const pageIndex = state.draft.pages.findIndex((page) => page.id === key);
    return pageIndex === -1 ? key : m.forms_page_name({ page: formatCount(pageIndex + 1) });
  };

  const selectProblem = (key: string) => {
    if (findElement(stateRef.current.draft, key)) {
      dispatch({ type: 'select', elementId: key });
      openPanel('heading');
      focusNext.current ??= () => document.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(`${key}|edit`)}"]`);
    } else if (stateRef.current.draft.pages.some((page) => page.id === key)) editPage(key);
    else focusNext.current = () => titleInput.current;
  };

  const onPublished = (published: FormPublished) => {
    const version = formatCount(published.version);
    toast({ title: m.forms_builder_published({ version }) });
    announce(m.forms_builder_published_announce({ version }));
    apiGet<AdminForm>(`/api/admin/forms/${formId}`)
      .then((form) => setMeta(form))
      .catch((error: unknown) => {
        if (!handleSessionLost(error)) setMeta((current) => ({ ...current, status: 'published', latestVersion: published.version }));
      });
  };

  const restoreForm = async () => {
    try {
      const form = await apiSend<AdminForm>('POST', `/api/admin/forms/${formId}/restore`);
      setMeta(form);
      toast({ title: m.forms_builder_restored() });
    } catch (error) {
      if (!handleSessionLost(error)) toast({ title: m.forms_restore_failed(), description: errorMessage(error), variant: 'destructive' });
    }
  };

  const currentPageIndex = Math.max(
    0,
    state.draft.pages.findIndex((page) => page.id === state.pageId),
  );
  const currentPage = state.draft.pages[currentPageIndex];
  const selected =
    state.elementId !== null && currentPage?.elements.some((element) => element.id === state.elementId) ? findElement(state.draft, state.elementId) : null;
  const wherePage = formatCount(currentPageIndex + 1);
  const where = selected
    ? m.forms_palette_goes_to_after({ page: wherePage, title: selected.element.title.trim() || selected.element.id })
    : m.forms_palette_goes_to_page({ page: wherePage });
  const problemCount = Object.values(problems).reduce((sum, list) => sum + list.length, 0);

  const panel = (
    <ElementPanel
      state={state}
      dispatch={dispatch}
      problems={problems}
      today={utcDate()}
      headingRef={panelHeading}
      headingId={panelHeadingId}
      announce={announce}
    />
  );
  const previewWanted = useOnceTrue(desktop && tab === 'preview') || phonePreviewNear;
  const preview = previewWanted ? (
    <Later fallback={<PreviewLoading headingId={previewHeadingId} />}>
      <PreviewPanel draft={state.draft} headingId={previewHeadingId} />
    </Later>
  ) : (
    <PreviewLoading headingId={previewHeadingId} />
  );
  const publishMounted = useOnceTrue(publishOpen);
  const versionsMounted = useOnceTrue(versionsOpen);

  return (
    // Large screens: the builder fills the window under the header; each column scrolls on its own.
    <div className="flex flex-col gap-4 lg:h-[calc(100dvh-6.5rem)] lg:min-h-[34rem]">
      <Toolbar
        title={state.draft.title}
        titleInput={titleInput}
        onTitle={(title) => dispatch({ type: 'set_title', title })}
        status={autosave.status}
        saveMessage={autosave.message}
        onRetrySave={() => void autosave.flush()}
        formStatus={meta.status}
        latestVersion={meta.latestVersion}
        problemCount={problemCount}
        undoLabel={state.past.at(-1)?.label ?? null}
        redoLabel={state.future.at(-1)?.label ?? null}
        onUndo={undo}
        onRedo={redo}
        onVersions={() => setVersionsOpen(true)}
        onExport={() => exportDraft(state.draft)}
        onImport={(draft) => replaceDraft(draft, m.forms_builder_import_label(), m.forms_builder_imported())}
        onPublish={() => setPublishOpen(true)}
        disabled={archived}
      />

      {recovered && (
        <Alert variant="info" title={m.forms_builder_recovered_title()}>
          <p>
            {withNodes((marks) => m.forms_builder_recovered_body({ time: marks.time }), {
              time: <time dateTime={recovered.savedAt}>{formatDateTime(recovered.savedAt)}</time>,
            })}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              size="sm"
              onClick={() => {
                replaceDraft(recovered.draft, m.forms_builder_recover_label(), m.forms_builder_recovered());
                setRecovered(null);
              }}
            >
              {m.forms_builder_recover()}
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                clearLocalDraft(formId);
                setRecovered(null);
              }}
            >
              {m.forms_builder_discard()}
            </Button>
          </div>
        </Alert>
      )}

      {archived && (
        <Alert variant="destructive" title={m.forms_builder_archived_title()}>
          <p>{m.forms_builder_archived_body()}</p>
          <Button size="sm" className="mt-2" onClick={() => void restoreForm()}>
            {m.forms_builder_restore()}
          </Button>
        </Alert>
      )}

      <Later fallback={<Card variant="flat" aria-hidden="true" className="h-12 shrink-0 animate-pulse" />}>
        <LanguageBar draft={state.draft} dispatch={dispatch} announce={announce} status={autosave.status} disabled={archived} />
      </Later>

      <div inert={archived} className="grid items-start gap-4 lg:min-h-0 lg:flex-1 lg:grid-cols-[13.5rem_minmax(0,1fr)_27.5rem] lg:items-stretch">
        <div className="lg:min-h-0 lg:overflow-y-auto">
          <Palette ref={paletteRef} where={where} onAdd={add} />
        </div>
        <div className="lg:min-h-0 lg:overflow-y-auto lg:px-1 lg:pb-4">
          <ElementList
            state={state}
            dispatch={dispatch}
            problems={problems}
            onEdit={edit}
            onEditPage={editPage}
            onDelete={remove}
            onDeletePage={removePage}
            onAddHere={(pageId) => {
              dispatch({ type: 'select', elementId: null, pageId });
              focusNext.current = () => paletteRef.current?.querySelector<HTMLElement>('button');
            }}
            announce={announce}
          />
        </div>
        {desktop ? (
          <Card asChild className="lg:min-h-0 lg:overflow-y-auto">
            <aside ref={asideRef} aria-label={m.forms_builder_side_panel()}>
              <Tabs value={tab} onValueChange={(value) => setTab(value === 'preview' ? 'preview' : 'settings')} className="flex flex-col">
                <div className="sticky top-0 z-10 border-b border-border bg-card p-3">
                  <TabsList aria-label={m.forms_builder_side_panel()} className="w-full">
                    <TabsTrigger value="settings">{m.forms_builder_tab_settings()}</TabsTrigger>
                    <TabsTrigger value="preview">{m.forms_preview_heading()}</TabsTrigger>
                  </TabsList>
                </div>
                <TabsContent forceMount value="settings" className="p-4 data-[state=inactive]:hidden" ref={panelRef}>
                  {panel}
                </TabsContent>
                <TabsContent forceMount value="preview" className="p-4 data-[state=inactive]:hidden">
                  {preview}
                </TabsContent>
              </Tabs>
            </aside>
          </Card>
        ) : (
          <Card asChild className="p-3 sm:p-4">
            <section ref={phonePreviewRef} aria-labelledby={previewHeadingId}>
              {preview}
            </section>
          </Card>
        )}
      </div>

      {!desktop && (
        <Dialog open={sheetOpen} onOpenChange={setSheetOpen}>
          <DialogContent
            variant="sheet"
            aria-describedby={undefined}
            onOpenAutoFocus={(event) => {
              event.preventDefault();
              const title = sheetFocus.current === 'title' ? panelRef.current?.querySelector('textarea') : null;
              (title ?? panelHeading.current)?.focus();
              title?.select();
            }}
          >
            <DialogTitle className="sr-only">{state.elementId ? m.forms_panel_question_settings() : m.forms_panel_page_settings()}</DialogTitle>
            <div ref={panelRef}>{panel}</div>
            <Button variant="outline" onClick={() => setSheetOpen(false)}>
              {m.forms_builder_done()}
            </Button>
          </DialogContent>
        </Dialog>
      )}

      {publishMounted && (
        <Later fallback={null}>
          <PublishDialog
            open={publishOpen}
            onOpenChange={setPublishOpen}
            formId={formId}
            flush={autosave.flush}
            revision={autosave.revision}
            problems={problems}
            latestVersion={meta.latestVersion}
            sourceLanguage={sourceLanguageOf(state.draft)}
            describeKey={describeKey}
            onSelectProblem={selectProblem}
            onPublished={onPublished}
          />
        </Later>
      )}
      {versionsMounted && (
        <Later fallback={null}>
          <VersionHistory
            open={versionsOpen}
            onOpenChange={setVersionsOpen}
            formId={formId}
            versions={meta.versions}
            onCopy={(version) =>
              replaceDraft(
                version.definition,
                m.forms_builder_copy_label({ version: formatCount(version.version) }),
                m.forms_builder_copied({ version: formatCount(version.version) }),
              )
            }
          />
        </Later>
      )}
      <ConflictDialog
        conflict={autosave.conflict}
        onKeepMine={() => {
          autosave.keepMine();
          announce(m.forms_builder_saving_yours());
        }}
        onTakeTheirs={() => {
          const theirs = autosave.takeTheirs();
          if (theirs) replaceDraft(theirs, m.forms_conflict_load_theirs(), m.forms_builder_theirs_loaded());
        }}
      />

      <div aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
    </div>
  );
}

interface ToolbarProps {
  title: string;
  titleInput: RefObject<HTMLInputElement | null>;
  onTitle: (title: string) => void;
  status: SaveStatus;
  saveMessage: string | null;
  onRetrySave: () => void;
  formStatus: AdminForm['status'];
  latestVersion: number | null;
  problemCount: number;
  undoLabel: string | null;
  redoLabel: string | null;
  onUndo: () => void;
  onRedo: () => void;
  onVersions: () => void;
  onExport: () => void;
  onImport: (draft: FormDraft) => void;
  onPublish: () => void;
  disabled: boolean;
}

const STATUS_DOT: Record<SaveStatus, string> = {
  saved: 'bg-success',
  saving: 'bg-primary animate-pulse',
  retrying: 'bg-destructive',
  offline: 'bg-muted-foreground',
  conflict: 'bg-destructive',
  error: 'bg-destructive',
};

function Toolbar(props: ToolbarProps) {
  const titleId = useId();
  const { status } = props;
  return (
    <Card asChild className="flex flex-col gap-3 p-3 lg:flex-row lg:items-end lg:gap-4">
      <section aria-label={m.forms_toolbar_label()}>
        {/* The title field is what the eye reads as the heading; a screen reader's heading list gets it too. */}
        <h1 className="sr-only">{props.title.trim() || m.forms_untitled_form()}</h1>
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <Label htmlFor={titleId} className="text-xs text-muted-foreground">
            {m.forms_toolbar_title()}
          </Label>
          <Input
            ref={props.titleInput}
            id={titleId}
            value={props.title}
            disabled={props.disabled}
            placeholder={m.forms_untitled_form()}
            autoComplete="off"
            className="h-10 text-lg font-semibold sm:text-lg"
            onChange={(event) => props.onTitle(event.target.value)}
          />
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <Badge variant={props.formStatus === 'published' ? 'default' : 'outline'}>
            {props.formStatus === 'archived'
              ? m.forms_status_archived()
              : props.latestVersion === null
                ? m.forms_toolbar_never_published()
                : m.forms_builder_published({ version: formatCount(props.latestVersion) })}
          </Badge>
          <p role="status" className="flex items-center gap-1.5 text-sm whitespace-nowrap" title={props.saveMessage ?? undefined}>
            <span aria-hidden="true" className={cn('size-2 rounded-full', STATUS_DOT[status])} />
            {SAVE_STATUS_TEXT[status]()}
            {status === 'error' && props.saveMessage ? <span className="sr-only">: {props.saveMessage}</span> : null}
          </p>
          {(status === 'retrying' || status === 'offline') && (
            <Button variant="link" size="sm" onClick={props.onRetrySave}>
              {m.forms_toolbar_retry()}
            </Button>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-1.5">
          <Button
            variant="outline"
            size="sm"
            disabled={props.disabled || props.undoLabel === null}
            title={props.undoLabel ? m.forms_toolbar_undo_title({ label: props.undoLabel }) : m.forms_toolbar_nothing_to_undo()}
            aria-keyshortcuts="Control+Z Meta+Z"
            onClick={props.onUndo}
          >
            {m.forms_builder_undo()}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={props.disabled || props.redoLabel === null}
            title={props.redoLabel ? m.forms_toolbar_redo_title({ label: props.redoLabel }) : m.forms_toolbar_nothing_to_redo()}
            aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
            onClick={props.onRedo}
          >
            {m.forms_toolbar_redo()}
          </Button>
          <Button variant="outline" size="sm" onClick={props.onVersions}>
            {m.forms_toolbar_versions()}
          </Button>
          <ImportButton onImport={props.onImport} />
          <Button variant="outline" size="sm" onClick={props.onExport}>
            {m.forms_toolbar_export()}
          </Button>
          <Button size="sm" disabled={props.disabled} onClick={props.onPublish} aria-describedby={props.problemCount > 0 ? `${titleId}-problems` : undefined}>
            {m.forms_toolbar_publish()}
          </Button>
          {props.problemCount > 0 && (
            <span id={`${titleId}-problems`} className="text-xs text-destructive">
              {m.forms_toolbar_problems({ count: props.problemCount })}
            </span>
          )}
        </div>
      </section>
    </Card>
  );
}

/** 409 `stale_revision`: someone else saved. Nothing typed is lost: either version can be kept. */
function ConflictDialog({
  conflict,
  onKeepMine,
  onTakeTheirs,
}: {
  conflict: ReturnType<typeof useAutosave>['conflict'];
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  return (
    <Dialog open={conflict !== null}>
      <DialogContent
        hideClose
        onEscapeKeyDown={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{m.forms_conflict_title()}</DialogTitle>
          <DialogDescription>
            {conflict === null
              ? m.forms_conflict_description_unknown()
              : conflict.updatedBy
                ? m.forms_conflict_description_named({ name: fullNameOf(conflict.updatedBy), date: formatDateTime(conflict.updatedAt) })
                : m.forms_conflict_description({ date: formatDateTime(conflict.updatedAt) })}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onTakeTheirs}>
            {m.forms_conflict_load_theirs()}
          </Button>
          <Button onClick={onKeepMine}>{m.forms_conflict_keep_mine()}</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
