/**
 * The pages of the draft with a card per element: title, type, id, required, condition summary
 * and the element's live publish problems. Reorder by drag and drop (dnd-kit sortable, with its
 * keyboard sensor: Space to pick up, arrows, Space to drop, Escape to cancel; across pages too) or
 * with "Move up" / "Move down" (focus stays on the moved element's button; the live region says
 * the new position). Pages can be edited, moved and deleted from their header.
 */
import { useEffect, useId, useRef, type Dispatch } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS as DndCss } from '@dnd-kit/utilities';
import type { DraftElement, FormDraft } from '../../../shared/forms/definition.ts';
import { cn } from '../../../lib/utils.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { findElement, positionText, type BuilderAction, type BuilderState, type DraftPage } from './builder-state.ts';
import { pageName, typeLabel } from './catalog.ts';
import { conditionSummary, elementIndex, quote } from './conditions.ts';
import { formatCount, m } from '../../../shared/i18n.ts';

export interface ElementListProps {
  state: BuilderState;
  dispatch: Dispatch<BuilderAction>;
  problems: Readonly<Record<string, string[]>>;
  /** Opens an element's settings (the side panel, or the sheet on phones). */
  onEdit: (elementId: string) => void;
  /** Opens a page's settings. */
  onEditPage: (pageId: string) => void;
  /** Deletes an element (with an undo toast). */
  onDelete: (elementId: string) => void;
  onDeletePage: (pageId: string) => void;
  /** Moves focus to the palette (after "Add questions here"). */
  onAddHere: (pageId: string) => void;
  announce: (text: string) => void;
}

const PAGE_DROP = 'page:';
const titleOf = (element: { id: string; title: string }) => element.title.trim() || element.id;
const MOVES = [
  { delta: -1, way: 'up' },
  { delta: 1, way: 'down' },
] as const;

/** The "Move … up" and "Move … down" buttons of a page or a card; their focus keys end in `up` and `down`. */
function MoveButtons({
  labels,
  focusKey,
  describedBy,
  className,
  blocked,
  onMove,
}: {
  /** The buttons' words: "Move up", "Move down". */
  labels: { up: string; down: string };
  focusKey: string;
  describedBy: string;
  className?: string;
  blocked: (delta: -1 | 1) => boolean;
  onMove: (delta: -1 | 1) => void;
}) {
  return MOVES.map(({ delta, way }) => (
    <Button
      key={way}
      variant="ghost"
      size="sm"
      className={className}
      aria-describedby={describedBy}
      data-focus-key={`${focusKey}${way}`}
      disabled={blocked(delta)}
      onClick={() => onMove(delta)}
    >
      {labels[way]}
    </Button>
  ));
}

export function ElementList({ state, dispatch, problems, onEdit, onEditPage, onDelete, onDeletePage, onAddHere, announce }: ElementListProps) {
  const root = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  const { draft } = state;
  const index = elementIndex(draft);

  // After a move the card may be on another page (a new DOM node): put focus back on its button.
  useEffect(() => {
    const key = pendingFocus.current;
    if (key === null) return;
    pendingFocus.current = null;
    const [id, which] = key.split('|');
    const find = (name: string) => root.current?.querySelector<HTMLButtonElement>(`[data-focus-key="${CSS.escape(`${id}|${name}`)}"]`);
    const place = () => {
      const wanted = find(which ?? '');
      const target = wanted && !wanted.disabled ? wanted : (find(which === 'up' ? 'down' : which === 'down' ? 'up' : 'edit') ?? find('edit'));
      if (target && document.activeElement !== target) target.focus();
    };
    place();
    // A card that changed pages is a new node whose sortable wrapper settles a frame later.
    requestAnimationFrame(place);
  });

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const nameOfId = (id: UniqueIdentifier) => {
    const text = String(id);
    if (text.startsWith(PAGE_DROP)) {
      const pageIndex = draft.pages.findIndex((page) => page.id === text.slice(PAGE_DROP.length));
      return m.forms_list_drag_page_end({ page: formatCount(pageIndex + 1) });
    }
    const place = findElement(draft, text);
    return place ? `${quote(titleOf(place.element))}${m.forms_list_separator()}${positionText(draft, text)}` : text;
  };

  const announcements: Announcements = {
    onDragStart: ({ active }) => m.forms_list_drag_start({ name: nameOfId(active.id) }),
    onDragOver: ({ active, over }) => (over && over.id !== active.id ? m.forms_list_drag_over({ name: nameOfId(over.id) }) : undefined),
    onDragEnd: ({ active, over }) =>
      over
        ? m.forms_list_drag_end({ name: quote(titleOf(findElement(draft, String(active.id))?.element ?? { id: String(active.id), title: '' })) })
        : m.forms_list_drag_end_nowhere(),
    onDragCancel: ({ active }) => m.forms_list_drag_cancel({ name: nameOfId(active.id) }),
  };

  function onDragEnd(event: DragEndEvent) {
    const activeId = String(event.active.id);
    const overId = event.over ? String(event.over.id) : null;
    if (overId === null || overId === activeId) return;
    const from = findElement(draft, activeId);
    if (!from) return;
    let toPageId: string;
    let toIndex: number;
    if (overId.startsWith(PAGE_DROP)) {
      toPageId = overId.slice(PAGE_DROP.length);
      const page = draft.pages.find((each) => each.id === toPageId);
      if (!page) return;
      toIndex = page.id === from.page.id ? page.elements.length - 1 : page.elements.length;
    } else {
      const to = findElement(draft, overId);
      if (!to) return;
      toPageId = to.page.id;
      toIndex = to.index;
    }
    dispatch({ type: 'move_element', id: activeId, toPageId, toIndex });
    pendingFocus.current = `${activeId}|drag`;
    // Say where it ended up (the position after the move).
    const pages = draft.pages.map((page) => ({ ...page, elements: page.elements.filter((element) => element.id !== activeId) }));
    const target = pages.find((page) => page.id === toPageId);
    if (target) {
      const count = target.elements.length + 1;
      announce(
        m.forms_list_now_at({
          name: quote(titleOf(from.element)),
          position: m.forms_position({
            position: formatCount(Math.min(toIndex, count - 1) + 1),
            count: formatCount(count),
            page: formatCount(pages.indexOf(target) + 1),
          }),
        }),
      );
    }
  }

  const move = (element: DraftElement, delta: -1 | 1) => {
    const before = findElement(draft, element.id);
    if (!before) return;
    dispatch({ type: 'move_element_by', id: element.id, delta });
    pendingFocus.current = `${element.id}|${delta === -1 ? 'up' : 'down'}`;
    // Work out the new position the same way the reducer does.
    const within = before.index + delta;
    let text: string;
    if (within >= 0 && within < before.page.elements.length)
      text = m.forms_position({ position: formatCount(within + 1), count: formatCount(before.page.elements.length), page: formatCount(before.pageIndex + 1) });
    else {
      const neighbour = draft.pages[before.pageIndex + delta];
      if (!neighbour) return;
      const count = neighbour.elements.length + 1;
      text = m.forms_position({ position: formatCount(delta === -1 ? count : 1), count: formatCount(count), page: formatCount(before.pageIndex + delta + 1) });
    }
    announce(m.forms_list_moved({ name: quote(titleOf(element)), position: text }));
  };

  const first = draft.pages[0]?.elements[0]?.id;
  const lastPage = draft.pages[draft.pages.length - 1];
  const last = lastPage?.elements[lastPage.elements.length - 1]?.id;

  return (
    <div ref={root} className="flex flex-col gap-5">
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable: m.forms_list_drag_instructions(),
          },
        }}
      >
        {draft.pages.map((page, pageIndex) => (
          <PageSection
            key={page.id}
            page={page}
            pageIndex={pageIndex}
            pageCount={draft.pages.length}
            current={page.id === state.pageId}
            selectedId={state.elementId}
            problems={problems}
            index={index}
            draft={draft}
            isFirst={(id) => id === first}
            isLast={(id) => id === last}
            onEdit={onEdit}
            onEditPage={onEditPage}
            onSelect={(elementId) => dispatch({ type: 'select', elementId, pageId: page.id })}
            onMove={move}
            onDuplicate={(element) => {
              dispatch({ type: 'duplicate_element', id: element.id });
              announce(m.forms_list_duplicated({ name: quote(titleOf(element)) }));
            }}
            onDelete={onDelete}
            onMovePage={(delta) => {
              dispatch({ type: 'move_page', id: page.id, delta });
              pendingFocus.current = `${page.id}|page-${delta === -1 ? 'up' : 'down'}`;
              announce(m.forms_list_page_moved({ from: formatCount(pageIndex + 1), to: formatCount(pageIndex + delta + 1) }));
            }}
            onDeletePage={() => onDeletePage(page.id)}
            onAddHere={() => onAddHere(page.id)}
          />
        ))}
      </DndContext>
      <Button
        variant="outline"
        className="self-start"
        onClick={() => {
          dispatch({ type: 'add_page', afterPageId: lastPage?.id });
          announce(m.forms_list_page_added({ page: formatCount(draft.pages.length + 1) }));
        }}
      >
        <span aria-hidden="true">+</span> {m.forms_list_add_page()}
      </Button>
    </div>
  );
}

interface PageSectionProps {
  page: DraftPage;
  pageIndex: number;
  pageCount: number;
  current: boolean;
  selectedId: string | null;
  problems: Readonly<Record<string, string[]>>;
  index: ReturnType<typeof elementIndex>;
  draft: FormDraft;
  isFirst: (id: string) => boolean;
  isLast: (id: string) => boolean;
  onEdit: (elementId: string) => void;
  onEditPage: (pageId: string) => void;
  onSelect: (elementId: string | null) => void;
  onMove: (element: DraftElement, delta: -1 | 1) => void;
  onDuplicate: (element: DraftElement) => void;
  onDelete: (elementId: string) => void;
  onMovePage: (delta: -1 | 1) => void;
  onDeletePage: () => void;
  onAddHere: () => void;
}

function PageSection(props: PageSectionProps) {
  const { page, pageIndex, pageCount, current, problems, index } = props;
  const headingId = useId();
  // Only an empty page needs a drop target of its own: elsewhere its elements are the targets.
  const { setNodeRef, isOver } = useDroppable({ id: `${PAGE_DROP}${page.id}`, disabled: page.elements.length > 0 });
  const summary = conditionSummary(page.visibleIf, index);
  const pageProblems = problems[page.id];
  return (
    <Card asChild className={cn('flex flex-col gap-3 p-3 sm:p-4', current ? 'border-primary/60 ring-1 ring-primary/30' : 'border-border')}>
      <section aria-labelledby={headingId} data-current={current || undefined}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="flex min-w-0 flex-col gap-0.5">
            <h2 id={headingId} className="text-base font-semibold break-words">
              {pageName(page, pageIndex)}
            </h2>
            {current && <p className="text-xs font-medium text-primary">{m.forms_list_current_page()}</p>}
            {summary && <p className="text-sm text-muted-foreground">{summary}</p>}
          </div>
          <div className="flex flex-wrap gap-1">
            <Button variant="ghost" size="sm" aria-describedby={headingId} onClick={() => props.onEditPage(page.id)}>
              {m.forms_panel_page_settings()}
            </Button>
            <MoveButtons
              labels={{ up: m.forms_list_move_page_up(), down: m.forms_list_move_page_down() }}
              focusKey={`${page.id}|page-`}
              describedBy={headingId}
              blocked={(delta) => pageIndex + delta < 0 || pageIndex + delta >= pageCount}
              onMove={props.onMovePage}
            />
            <Button variant="ghost" size="sm" aria-describedby={headingId} className="text-destructive" disabled={pageCount === 1} onClick={props.onDeletePage}>
              {m.forms_list_delete_page()}
            </Button>
          </div>
        </div>
        {pageProblems && pageProblems.length > 0 && (
          <ul className="flex flex-col gap-1 text-sm text-destructive">
            {pageProblems.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <SortableContext items={page.elements.map((element) => element.id)} strategy={verticalListSortingStrategy}>
          <ol
            ref={setNodeRef}
            aria-label={m.forms_list_questions_on_page({ page: formatCount(pageIndex + 1) })}
            className={cn('flex min-h-16 flex-col gap-2 rounded-lg', isOver && 'bg-accent/60')}
          >
            {page.elements.map((element) => (
              <ElementCard key={element.id} {...props} element={element} selected={element.id === props.selectedId} />
            ))}
            {page.elements.length === 0 && (
              <li className="rounded-lg border border-dashed border-border px-3 py-5 text-sm text-muted-foreground">{m.forms_list_no_questions()}</li>
            )}
          </ol>
        </SortableContext>
        {!current && (
          <Button variant="link" size="sm" className="self-start" aria-describedby={headingId} onClick={props.onAddHere}>
            {m.forms_list_add_here()}
          </Button>
        )}
      </section>
    </Card>
  );
}

function ElementCard({
  element,
  selected,
  problems,
  index,
  isFirst,
  isLast,
  onEdit,
  onSelect,
  onMove,
  onDuplicate,
  onDelete,
}: PageSectionProps & { element: DraftElement; selected: boolean }) {
  const titleId = useId();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: element.id });
  const raw = element as Record<string, unknown>;
  const summary = conditionSummary(raw.visibleIf, index);
  const messages = problems[element.id] ?? [];
  const title = element.title.trim();
  return (
    <li
      ref={setNodeRef}
      style={{ transform: DndCss.Translate.toString(transform), transition }}
      className={cn(
        'relative rounded-lg border bg-card',
        selected ? 'border-primary ring-2 ring-primary/40' : 'border-border',
        isDragging && 'z-10 shadow-lg',
        messages.length > 0 && !selected && 'border-destructive/60',
      )}
    >
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a pointer shortcut only: the card's Edit button selects it from the keyboard */}
      <article
        aria-labelledby={titleId}
        className="flex gap-2 p-3"
        onClick={(event) => {
          // A click on the card selects it; its buttons do their own thing.
          if (!(event.target as HTMLElement).closest('button')) onSelect(element.id);
        }}
      >
        <button
          ref={setActivatorNodeRef}
          type="button"
          {...attributes}
          {...listeners}
          aria-label={m.forms_list_drag_handle({ name: quote(title || element.id) })}
          data-focus-key={`${element.id}|drag`}
          className="mt-0.5 flex h-9 w-7 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring active:cursor-grabbing"
        >
          <svg viewBox="0 0 12 20" className="h-5 w-3" aria-hidden="true" focusable="false">
            {[4, 10, 16].map((y) => (
              <g key={y} fill="currentColor">
                <circle cx="3" cy={y} r="1.5" />
                <circle cx="9" cy={y} r="1.5" />
              </g>
            ))}
          </svg>
        </button>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-col gap-1">
            <h3 id={titleId} className={cn('font-medium break-words', !title && 'text-muted-foreground italic')}>
              {title || m.forms_untitled_question()}
            </h3>
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
              <Badge variant="outline">{typeLabel(element.type)}</Badge>
              <span className="font-mono">{element.id}</span>
              {raw.required === true && <Badge variant="secondary">{m.forms_panel_required()}</Badge>}
            </p>
            {summary && <p className="text-sm text-muted-foreground">{summary}</p>}
            {messages.length > 0 && (
              <ul aria-label={m.forms_list_problems()} className="flex flex-col gap-0.5 text-sm text-destructive">
                {messages.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
          </div>
          <div className="flex flex-wrap gap-1">
            <Button
              variant={selected ? 'secondary' : 'outline'}
              size="sm"
              className="h-8"
              aria-describedby={titleId}
              data-focus-key={`${element.id}|edit`}
              onClick={() => onEdit(element.id)}
            >
              {m.forms_list_edit()}
            </Button>
            <MoveButtons
              labels={{ up: m.forms_list_move_up(), down: m.forms_list_move_down() }}
              focusKey={`${element.id}|`}
              describedBy={titleId}
              className="h-8"
              blocked={(delta) => (delta === -1 ? isFirst : isLast)(element.id)}
              onMove={(delta) => onMove(element, delta)}
            />
            <Button variant="ghost" size="sm" className="h-8" aria-describedby={titleId} onClick={() => onDuplicate(element)}>
              {m.forms_list_duplicate()}
            </Button>
            <Button variant="ghost" size="sm" className="h-8 text-destructive" aria-describedby={titleId} onClick={() => onDelete(element.id)}>
              {m.forms_list_delete()}
            </Button>
          </div>
        </div>
      </article>
    </li>
  );
}
