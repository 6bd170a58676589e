/**
 * The form builder's state: the draft being edited, what is selected, and the undo/redo history.
 * A pure reducer (no React, no zod): every change to the draft is one action, and every action
 * that changes the draft can be undone. Consecutive edits with the same `key` (typing in one
 * field) are one undo step.
 *
 * Ids: a new element gets `${type}_${n}`, the first one not used by any element or page of the
 * draft nor by any element of a published version (`reserved`), so an id that once had answers
 * never comes back for a different question. Reserved ids are locked: they cannot be renamed,
 * and changing the type of such an element gives it a new id ("replace with a new question").
 * A rename to a badly formed id is kept (publishing names it); to an empty or taken one, refused.
 */
import { isElementType, type ElementType } from '../../../shared/forms/constants.ts';
import type { Condition, DraftElement, FormDraft } from '../../../shared/forms/definition.ts';
import { canHoldElementId, defaultSettings, newElement, typeLabel, uniqueId } from './catalog.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import type { Language } from '../../../shared/languages.ts';
import { sourceLanguageOf, withLanguages, withTranslation, type TranslatableText } from '../../../shared/forms/translations.ts';

export type DraftPage = FormDraft['pages'][number];

/** One step of the history: the draft as it was, and what the change was called. */
export interface HistoryEntry {
  draft: FormDraft;
  /** "Add Short text", "Delete “Your name”", … (the Undo button's description). */
  label: string;
  pageId: string;
  elementId: string | null;
}

export interface BuilderState {
  draft: FormDraft;
  /** Older drafts, newest last. */
  past: HistoryEntry[];
  /** Undone drafts, the next one to redo last. */
  future: HistoryEntry[];
  /** The current page: new elements go there. */
  pageId: string;
  /** The selected element (the side panel edits it), or null for the page's settings. */
  elementId: string | null;
  /** Element ids of published versions: locked and never reused. */
  reserved: string[];
  /** The merge key of the last change. */
  lastKey: string | null;
  /** What the last change was, for announcements ("Undo Add Short text"). */
  lastLabel: string | null;
}

/** How many steps Undo can go back. */
export const HISTORY_LIMIT = 200;

export type BuilderAction =
  | { type: 'load'; draft: FormDraft }
  | { type: 'set_reserved'; ids: readonly string[] }
  | { type: 'select'; elementId: string | null; pageId?: string }
  | { type: 'set_title'; title: string }
  | { type: 'add_element'; elementType: ElementType; pageId?: string; afterId?: string | null }
  | { type: 'update_element'; id: string; patch: Record<string, unknown>; key?: string; label?: string }
  | { type: 'rename_element'; id: string; newId: string }
  | { type: 'change_type'; id: string; elementType: ElementType }
  | { type: 'move_element'; id: string; toPageId: string; toIndex: number }
  | { type: 'move_element_by'; id: string; delta: -1 | 1 }
  | { type: 'duplicate_element'; id: string }
  | { type: 'delete_element'; id: string }
  | { type: 'add_page'; afterPageId?: string }
  | { type: 'update_page'; id: string; patch: Record<string, unknown>; key?: string }
  | { type: 'move_page'; id: string; delta: -1 | 1 }
  | { type: 'delete_page'; id: string }
  | { type: 'set_condition'; kind: 'element' | 'page'; id: string; condition: Condition | null; key?: string }
  | { type: 'replace_draft'; draft: FormDraft; label: string }
  /** The languages offered (the source kept first); `source` changes the source language too. */
  | { type: 'set_languages'; languages: readonly Language[]; source?: Language; label: string }
  /** One text's translation (blank removes it); typing in one field is one undo step. */
  | { type: 'set_translation'; text: TranslatableText; language: Language; value: string }
  | { type: 'undo' }
  | { type: 'redo' };

// ---------------------------------------------------------------------------------------------
// Reading a draft

/** Where an element is: its page, the page's index and its index on the page. */
export interface ElementPlace {
  element: DraftElement;
  page: DraftPage;
  pageIndex: number;
  index: number;
}

export function findElement(draft: FormDraft, id: string): ElementPlace | null {
  for (const [pageIndex, page] of draft.pages.entries()) {
    const index = page.elements.findIndex((element) => element.id === id);
    if (index !== -1) return { element: page.elements[index] as DraftElement, page, pageIndex, index };
  }
  return null;
}

/** Every element and page id of the draft. */
export function takenIds(draft: FormDraft): Set<string> {
  const ids = new Set<string>();
  for (const page of draft.pages) {
    ids.add(page.id);
    for (const element of page.elements) ids.add(element.id);
  }
  return ids;
}

/** Ids a new or renamed element may not take: the draft's and the reserved ones. */
export function unavailableIds(state: Pick<BuilderState, 'draft' | 'reserved'>): Set<string> {
  const ids = takenIds(state.draft);
  for (const id of state.reserved) ids.add(id);
  return ids;
}

/** True when the id exists in a published version (it cannot change). */
export function isLocked(state: Pick<BuilderState, 'reserved'>, id: string): boolean {
  return state.reserved.includes(id);
}

/** A JSON text with keys in order, so drafts that are equal compare equal (the database reorders keys). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** True when two drafts hold the same content. */
export function sameDraft(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

// ---------------------------------------------------------------------------------------------
// The reducer

/** The state for a freshly loaded draft: first page current, nothing selected, no history. */
export function initBuilderState(draft: FormDraft, reserved: readonly string[] = []): BuilderState {
  return { draft, past: [], future: [], pageId: draft.pages[0]?.id ?? '', elementId: null, reserved: [...reserved], lastKey: null, lastLabel: null };
}

const quote = (text: string) => m.forms_quote({ text });
const nameOf = (element: { id: string; title: string }) => quote(element.title.trim() || element.id);

/** A draft whose pages are replaced (elements of other pages kept as they are). */
function withPages(draft: FormDraft, pages: DraftPage[]): FormDraft {
  return { ...draft, pages };
}

function mapElement(draft: FormDraft, id: string, update: (element: DraftElement) => DraftElement): FormDraft {
  return withPages(
    draft,
    draft.pages.map((page) =>
      page.elements.some((element) => element.id === id)
        ? { ...page, elements: page.elements.map((element) => (element.id === id ? update(element) : element)) }
        : page,
    ),
  );
}

/** Sets the patch's keys; a key set to `undefined` is removed. */
function patched<T extends Record<string, unknown>>(target: T, patch: Record<string, unknown>): T {
  const next: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as T;
}

/** Rewrites every `ref` equal to `from` in a condition. */
function renameRefs(condition: unknown, from: string, to: string): unknown {
  if (Array.isArray(condition)) return condition.map((part) => renameRefs(part, from, to));
  if (typeof condition !== 'object' || condition === null) return condition;
  const next: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(condition)) next[key] = key === 'ref' && value === from ? to : renameRefs(value, from, to);
  return next;
}

function renameEverywhere(draft: FormDraft, from: string, to: string): FormDraft {
  const fix = <T extends Record<string, unknown>>(owner: T): T =>
    owner.visibleIf === undefined || owner.visibleIf === null ? owner : { ...owner, visibleIf: renameRefs(owner.visibleIf, from, to) };
  return withPages(
    draft,
    draft.pages.map((page) => fix({ ...page, elements: page.elements.map((element) => fix(element.id === from ? { ...element, id: to } : element)) })),
  );
}

type TextMap = Record<string, Record<string, string>>;

/**
 * The draft without translations of what is gone (decision 035): a deleted page, element, option,
 * row or column takes its translations with it (Undo brings them back), so publishing never
 * finds a translation of nothing. A text emptied but still there keeps its translation.
 */
function withoutOrphanTranslations(draft: FormDraft): FormDraft {
  const raw = draft as Record<string, unknown>;
  const maps = (['translations', 'translatedFrom'] as const).filter((field) => typeof raw[field] === 'object' && raw[field] !== null);
  if (maps.length === 0) return draft;
  const pages = new Set(draft.pages.map((page) => page.id));
  const elements = new Map<string, Record<string, unknown>>();
  for (const page of draft.pages) for (const element of page.elements) elements.set(element.id, element);
  const itemAlive = (element: Record<string, unknown>, rest: string): boolean => {
    const dot = rest.indexOf('.');
    if (dot === -1) return true;
    const list = element[rest.slice(0, dot)];
    const item = rest.slice(dot + 1);
    return Array.isArray(list) && list.some((entry) => typeof entry === 'object' && entry !== null && (entry as { id?: unknown }).id === item);
  };
  const alive = (key: string): boolean => {
    if (key.startsWith('form.')) return true;
    if (key.startsWith('pages.')) return [...pages].some((id) => key.startsWith(`pages.${id}.`));
    if (!key.startsWith('elements.')) return false;
    // Ids are plain (`[a-z0-9_]`) once publishable; one being typed may hold a dot.
    const plain = key.split('.')[1] ?? '';
    const direct = elements.get(plain);
    if (direct) return itemAlive(direct, key.slice(`elements.${plain}.`.length));
    for (const [id, element] of elements) if (key.startsWith(`elements.${id}.`)) return itemAlive(element, key.slice(`elements.${id}.`.length));
    return false;
  };
  let changed = false;
  const out: Record<string, unknown> = { ...raw };
  for (const field of maps) {
    const map = raw[field] as TextMap;
    if (Object.keys(map).every(alive)) continue;
    changed = true;
    out[field] = Object.fromEntries(Object.entries(map).filter(([key]) => alive(key)));
  }
  return changed ? (out as FormDraft) : draft;
}

/** Translations keyed by an element id moved to its new id. */
function renameTranslations(draft: FormDraft, from: string, to: string): FormDraft {
  const raw = draft as Record<string, unknown>;
  const out: Record<string, unknown> = { ...raw };
  const prefix = `elements.${from}.`;
  for (const field of ['translations', 'translatedFrom'] as const) {
    const map = raw[field];
    if (typeof map !== 'object' || map === null) continue;
    out[field] = Object.fromEntries(
      Object.entries(map as TextMap).map(([key, value]) => [key.startsWith(prefix) ? `elements.${to}.${key.slice(prefix.length)}` : key, value]),
    );
  }
  return out as FormDraft;
}

/** Records a change: the old draft goes to the history (unless it merges with the last change). */
function commit(state: BuilderState, next: FormDraft, label: string, changes: Partial<BuilderState> = {}, key: string | null = null): BuilderState {
  const draft = next === state.draft ? next : withoutOrphanTranslations(next);
  if (draft === state.draft) return { ...state, ...changes };
  const merge = key !== null && key === state.lastKey && state.past.length > 0;
  const past = merge ? state.past : [...state.past, { draft: state.draft, label, pageId: state.pageId, elementId: state.elementId }].slice(-HISTORY_LIMIT);
  return { ...state, ...changes, draft, past, future: [], lastKey: key, lastLabel: label };
}

/** A selection that still exists in `draft` (after undo, delete, …). */
function fixSelection(draft: FormDraft, pageId: string, elementId: string | null): Pick<BuilderState, 'pageId' | 'elementId'> {
  if (elementId !== null) {
    const place = findElement(draft, elementId);
    if (place) return { pageId: place.page.id, elementId };
  }
  const page = draft.pages.find((candidate) => candidate.id === pageId) ?? draft.pages[0];
  return { pageId: page?.id ?? '', elementId: null };
}

function addElement(state: BuilderState, elementType: ElementType, pageId: string | undefined, afterId: string | null | undefined): BuilderState {
  const { draft } = state;
  const targetPageId = pageId ?? state.pageId;
  let pageIndex = draft.pages.findIndex((page) => page.id === targetPageId);
  let pages = draft.pages;
  if (pageIndex === -1) {
    if (pages.length > 0) pageIndex = 0;
    else {
      pages = [{ id: uniqueId('page', unavailableIds(state)), title: '', elements: [] }];
      pageIndex = 0;
    }
  }
  const page = pages[pageIndex] as DraftPage;
  const after =
    afterId === undefined ? (state.elementId !== null && page.elements.some((element) => element.id === state.elementId) ? state.elementId : null) : afterId;
  const position = after === null ? page.elements.length : page.elements.findIndex((element) => element.id === after) + 1 || page.elements.length;
  const id = uniqueId(elementType, unavailableIds({ draft: { ...draft, pages }, reserved: state.reserved }));
  const element = newElement(elementType, id);
  const elements = [...page.elements.slice(0, position), element, ...page.elements.slice(position)];
  const next = withPages(
    draft,
    pages.map((each, index) => (index === pageIndex ? { ...page, elements } : each)),
  );
  return commit(state, next, m.forms_history_add({ type: typeLabel(elementType) }), { pageId: page.id, elementId: id });
}

function moveElement(state: BuilderState, id: string, toPageId: string, toIndex: number): BuilderState {
  const place = findElement(state.draft, id);
  const target = state.draft.pages.find((page) => page.id === toPageId);
  if (!place || !target) return state;
  const without = state.draft.pages.map((page) => (page === place.page ? { ...page, elements: page.elements.filter((element) => element.id !== id) } : page));
  const targetIndex = state.draft.pages.indexOf(target);
  const targetPage = without[targetIndex] as DraftPage;
  const index = Math.max(0, Math.min(toIndex, targetPage.elements.length));
  if (targetPage.id === place.page.id && index === place.index) return state;
  const pages = without.map((page, pageIndex) =>
    pageIndex === targetIndex ? { ...page, elements: [...page.elements.slice(0, index), place.element, ...page.elements.slice(index)] } : page,
  );
  const name = nameOf(place.element);
  const label = targetPage.id === place.page.id ? m.forms_history_move({ name }) : m.forms_history_move_to_page({ name, page: formatCount(targetIndex + 1) });
  return commit(state, withPages(state.draft, pages), label, { pageId: targetPage.id, elementId: id });
}

/** Up/down by one; past the top or bottom of a page it goes to the end of the previous page or the start of the next. */
function moveElementBy(state: BuilderState, id: string, delta: -1 | 1): BuilderState {
  const place = findElement(state.draft, id);
  if (!place) return state;
  const within = place.index + delta;
  if (within >= 0 && within < place.page.elements.length) return moveElement(state, id, place.page.id, within);
  const neighbour = state.draft.pages[place.pageIndex + delta];
  if (!neighbour) return state;
  return moveElement(state, id, neighbour.id, delta === -1 ? neighbour.elements.length : 0);
}

/** A copy of an element with a new id; its options keep their ids (they are the element's own). */
function duplicateElement(state: BuilderState, id: string): BuilderState {
  const place = findElement(state.draft, id);
  if (!place) return state;
  const type = isElementType(place.element.type) ? place.element.type : 'element';
  const copyId = uniqueId(type, unavailableIds(state));
  const copy: DraftElement = { ...structuredClone(place.element), id: copyId };
  const pages = state.draft.pages.map((page) =>
    page === place.page ? { ...page, elements: [...page.elements.slice(0, place.index + 1), copy, ...page.elements.slice(place.index + 1)] } : page,
  );
  return commit(state, withPages(state.draft, pages), m.forms_history_duplicate({ name: nameOf(place.element) }), { pageId: place.page.id, elementId: copyId });
}

function deleteElement(state: BuilderState, id: string): BuilderState {
  const place = findElement(state.draft, id);
  if (!place) return state;
  const pages = state.draft.pages.map((page) => (page === place.page ? { ...page, elements: page.elements.filter((element) => element.id !== id) } : page));
  const neighbour = place.page.elements[place.index + 1] ?? place.page.elements[place.index - 1];
  const elementId = state.elementId === id ? (neighbour?.id ?? null) : state.elementId;
  return commit(state, withPages(state.draft, pages), m.forms_history_delete({ name: nameOf(place.element) }), { pageId: place.page.id, elementId });
}

/**
 * Changes an element's type. Title, description, required, condition and (between types that have
 * them) options carry over; the new type's defaults fill the rest. A locked element (its id is in
 * a published version) becomes a new question with a new id, so its old answers keep their meaning.
 */
function changeType(state: BuilderState, id: string, elementType: ElementType): BuilderState {
  const place = findElement(state.draft, id);
  if (!place || place.element.type === elementType) return state;
  const old = place.element as Record<string, unknown>;
  const locked = isLocked(state, id);
  const newId = locked ? uniqueId(elementType, unavailableIds(state)) : id;
  const next: Record<string, unknown> = { id: newId, type: elementType, title: place.element.title, ...defaultSettings(elementType) };
  for (const key of ['description', 'required', 'visibleIf'] as const) if (old[key] !== undefined) next[key] = old[key];
  if (Array.isArray(old.options) && Array.isArray(next.options)) next.options = structuredClone(old.options);
  if (elementType === 'statement') delete next.required;
  const draft = mapElement(state.draft, id, () => next as DraftElement);
  const label = locked
    ? m.forms_history_replace({ name: nameOf(place.element), type: typeLabel(elementType) })
    : m.forms_history_change_type({ name: nameOf(place.element), type: typeLabel(elementType) });
  return commit(state, draft, label, { pageId: place.page.id, elementId: newId });
}

function renameElement(state: BuilderState, id: string, newId: string): BuilderState {
  if (id === newId || isLocked(state, id)) return state;
  const place = findElement(state.draft, id);
  if (!place) return state;
  const taken = unavailableIds(state);
  taken.delete(id);
  if (!canHoldElementId(newId, taken)) return state;
  const draft = renameTranslations(renameEverywhere(state.draft, id, newId), id, newId);
  // Typing an id is one step, whatever it passes through.
  return commit(
    state,
    draft,
    m.forms_history_rename({ from: quote(id), to: quote(newId) }),
    { elementId: newId, pageId: place.page.id },
    `id:${place.page.id}:${place.index}`,
  );
}

function addPage(state: BuilderState, afterPageId: string | undefined): BuilderState {
  const id = uniqueId('page', unavailableIds(state));
  const at =
    afterPageId === undefined ? state.draft.pages.length : state.draft.pages.findIndex((page) => page.id === afterPageId) + 1 || state.draft.pages.length;
  const pages = [...state.draft.pages.slice(0, at), { id, title: '', elements: [] }, ...state.draft.pages.slice(at)];
  return commit(state, withPages(state.draft, pages), m.forms_history_add_page({ page: formatCount(at + 1) }), { pageId: id, elementId: null });
}

function movePage(state: BuilderState, id: string, delta: -1 | 1): BuilderState {
  const index = state.draft.pages.findIndex((page) => page.id === id);
  const to = index + delta;
  if (index === -1 || to < 0 || to >= state.draft.pages.length) return state;
  const pages = [...state.draft.pages];
  const [page] = pages.splice(index, 1);
  pages.splice(to, 0, page as DraftPage);
  return commit(state, withPages(state.draft, pages), m.forms_history_move_page({ page: formatCount(index + 1), position: formatCount(to + 1) }), {
    pageId: id,
    elementId: null,
  });
}

/** "Delete page 2", "Delete page 2 and its question", "Delete page 2 and its 3 questions" (also the toast's Undo). */
export function deletePageLabel(index: number, count: number): string {
  const page = formatCount(index + 1);
  return count === 0 ? m.forms_history_delete_page({ page }) : m.forms_history_delete_page_and_questions({ page, count });
}

function deletePage(state: BuilderState, id: string): BuilderState {
  const index = state.draft.pages.findIndex((page) => page.id === id);
  if (index === -1 || state.draft.pages.length <= 1) return state;
  const pages = state.draft.pages.filter((page) => page.id !== id);
  const neighbour = pages[Math.min(index, pages.length - 1)] as DraftPage;
  const page = state.draft.pages[index] as DraftPage;
  const count = page.elements.length;
  return commit(state, withPages(state.draft, pages), deletePageLabel(index, count), { pageId: neighbour.id, elementId: null });
}

function setCondition(state: BuilderState, kind: 'element' | 'page', id: string, condition: Condition | null, key: string | undefined): BuilderState {
  const label = condition === null ? m.forms_history_remove_condition() : m.forms_history_change_condition();
  const set = <T extends Record<string, unknown>>(owner: T): T => patched(owner, { visibleIf: condition ?? undefined });
  if (kind === 'element') {
    if (!findElement(state.draft, id)) return state;
    return commit(state, mapElement(state.draft, id, set), label, {}, key ?? null);
  }
  if (!state.draft.pages.some((page) => page.id === id)) return state;
  return commit(
    state,
    withPages(
      state.draft,
      state.draft.pages.map((page) => (page.id === id ? set(page) : page)),
    ),
    label,
    {},
    key ?? null,
  );
}

/** The form builder's reducer; see BuilderAction. */
export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'load':
      return initBuilderState(action.draft, state.reserved);
    case 'set_reserved':
      return { ...state, reserved: [...new Set(action.ids)] };
    case 'select': {
      const selection = fixSelection(state.draft, action.pageId ?? state.pageId, action.elementId);
      return { ...state, ...selection, lastKey: null };
    }
    case 'set_title':
      if (action.title === state.draft.title) return state;
      return commit(state, { ...state.draft, title: action.title }, m.forms_history_rename_form(), {}, 'form:title');
    case 'add_element':
      return addElement(state, action.elementType, action.pageId, action.afterId);
    case 'update_element': {
      const place = findElement(state.draft, action.id);
      if (!place) return state;
      const draft = mapElement(state.draft, action.id, (element) => patched(element, action.patch));
      return commit(
        state,
        draft,
        action.label ?? m.forms_history_edit({ name: nameOf(place.element) }),
        { elementId: action.id, pageId: place.page.id },
        action.key ?? null,
      );
    }
    case 'rename_element':
      return renameElement(state, action.id, action.newId);
    case 'change_type':
      return changeType(state, action.id, action.elementType);
    case 'move_element':
      return moveElement(state, action.id, action.toPageId, action.toIndex);
    case 'move_element_by':
      return moveElementBy(state, action.id, action.delta);
    case 'duplicate_element':
      return duplicateElement(state, action.id);
    case 'delete_element':
      return deleteElement(state, action.id);
    case 'add_page':
      return addPage(state, action.afterPageId);
    case 'update_page': {
      const index = state.draft.pages.findIndex((page) => page.id === action.id);
      if (index === -1) return state;
      const pages = state.draft.pages.map((page) => (page.id === action.id ? patched(page, action.patch) : page));
      return commit(
        state,
        withPages(state.draft, pages),
        m.forms_history_edit_page({ page: formatCount(index + 1) }),
        { pageId: action.id },
        action.key ?? null,
      );
    }
    case 'move_page':
      return movePage(state, action.id, action.delta);
    case 'delete_page':
      return deletePage(state, action.id);
    case 'set_condition':
      return setCondition(state, action.kind, action.id, action.condition, action.key);
    case 'replace_draft': {
      if (sameDraft(action.draft, state.draft)) return state;
      const selection = fixSelection(action.draft, state.pageId, state.elementId);
      return commit(state, action.draft, action.label, selection);
    }
    case 'set_languages': {
      const source = action.source ?? sourceLanguageOf(state.draft);
      const draft = withLanguages<FormDraft>({ ...state.draft, language: source }, action.languages);
      return sameDraft(draft, state.draft) ? state : commit(state, draft, action.label);
    }
    case 'set_translation': {
      const draft = withTranslation(state.draft, action.text, action.language, action.value);
      if (sameDraft(draft, state.draft)) return state;
      return commit(state, draft, m.forms_history_translate(), {}, `translation:${action.language}:${action.text.key}`);
    }
    case 'undo': {
      const entry = state.past[state.past.length - 1];
      if (!entry) return state;
      const redo: HistoryEntry = { draft: state.draft, label: entry.label, pageId: state.pageId, elementId: state.elementId };
      return {
        ...state,
        draft: entry.draft,
        past: state.past.slice(0, -1),
        future: [...state.future, redo],
        ...fixSelection(entry.draft, entry.pageId, entry.elementId),
        lastKey: null,
        lastLabel: m.forms_history_undid({ label: entry.label }),
      };
    }
    case 'redo': {
      const entry = state.future[state.future.length - 1];
      if (!entry) return state;
      const undo: HistoryEntry = { draft: state.draft, label: entry.label, pageId: state.pageId, elementId: state.elementId };
      return {
        ...state,
        draft: entry.draft,
        past: [...state.past, undo],
        future: state.future.slice(0, -1),
        ...fixSelection(entry.draft, entry.pageId, entry.elementId),
        lastKey: null,
        lastLabel: m.forms_history_redid({ label: entry.label }),
      };
    }
  }
}

/** The position of an element for people: "position 2 of 3 on page 1". */
export function positionText(draft: FormDraft, id: string): string {
  const place = findElement(draft, id);
  if (!place) return '';
  return m.forms_position({ position: formatCount(place.index + 1), count: formatCount(place.page.elements.length), page: formatCount(place.pageIndex + 1) });
}
