import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { Icon } from '../icons.tsx';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils.ts';
import { m } from '../../shared/i18n.ts';
import {
  DEFAULT_ZOOM,
  canPan,
  canZoomIn,
  canZoomOut,
  clampPan,
  createWheelZoomThrottle,
  distance,
  pinchZoom,
  zoomBy,
  zoomIn,
  zoomOut,
  zoomPercent,
} from '../../lib/ui-kit/lightbox-zoom.ts';
import type { Point, Size } from '../../lib/ui-kit/lightbox-zoom.ts';
import {
  clampIndex,
  hasNext,
  hasPrevious,
  lightboxCounter,
  lightboxKeyAction,
  lightboxPosition,
  lightboxTitle,
  stepIndex,
  swipeAction,
} from '../../lib/ui-kit/lightbox-nav.ts';
import type { LightboxAction, LightboxItem } from '../../lib/ui-kit/lightbox-nav.ts';

export type { LightboxItem } from '../../lib/ui-kit/lightbox-nav.ts';

export interface LightboxProps {
  items: readonly LightboxItem[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shown item (controlled). */
  index?: number;
  /** First shown item when uncontrolled. */
  defaultIndex?: number;
  onIndexChange?: (index: number) => void;
  /** Going past the last item shows the first, and back. Default false. */
  loop?: boolean;
  className?: string;
  /**
   * A side panel beside the image (below it on narrow screens), e.g. the gallery's details of
   * the shown photo; named by `asideLabel`. Keys typed in it are its own (not the viewer's).
   */
  aside?: ReactNode;
  asideLabel?: string;
}

interface View {
  zoom: number;
  offset: Point;
}

const ORIGIN: Point = { x: 0, y: 0 };
const FITTED: View = { zoom: DEFAULT_ZOOM, offset: ORIGIN };

interface Gesture {
  start: Point;
  last: Point;
  startOffset: Point;
  pinch: { startDistance: number; startZoom: number } | null;
  /** A pinch happened during this gesture: its end is not a swipe. */
  pinched: boolean;
}

const toolButton =
  'inline-flex h-10 min-w-10 items-center justify-center gap-1 rounded-md px-2 text-sm font-medium text-white/90 hover:bg-white/15 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white aria-disabled:cursor-not-allowed aria-disabled:opacity-40';

const sideButton =
  'absolute top-1/2 z-10 inline-flex size-12 -translate-y-1/2 items-center justify-center rounded-full bg-black/50 text-white hover:bg-black/70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white aria-disabled:cursor-not-allowed aria-disabled:opacity-30';

/**
 * A button of the viewer that shows an icon and is named by its label. Unavailable is aria-disabled,
 * not disabled: a focused button that became disabled would drop focus out of the dialog.
 */
function IconButton({
  className,
  iconClassName = 'size-5',
  label,
  unavailable,
  onClick,
  children,
}: {
  className: string;
  /** The icon's classes (a direction's arrow is mirrored right to left). */
  iconClassName?: string;
  label: string;
  unavailable: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={className} aria-label={label} aria-disabled={unavailable || undefined} onClick={onClick}>
      <Icon className={iconClassName}>{children}</Icon>
    </button>
  );
}

/**
 * An image viewer in a modal dialog (docs/product.md §3, §9): one image at a time with its title and a
 * counter; Previous/Next; zoom in and out in steps of 0.12 between 0.1 and 3 (buttons, + and -,
 * the wheel at most one step per 80 ms, pinch); 0 resets; drag to pan while zoomed; a
 * horizontal swipe of more than 50 px changes image; ← and → too; a double click toggles 2× zoom;
 * Escape closes. Focus stays in the dialog and goes back where it was on close.
 */
export function Lightbox({
  items,
  open,
  onOpenChange,
  index,
  defaultIndex = 0,
  onIndexChange,
  loop = false,
  className,
  aside,
  asideLabel = m.shell_lightbox_details(),
}: LightboxProps) {
  const [innerIndex, setInnerIndex] = useState(defaultIndex);
  const current = clampIndex(index ?? innerIndex, items.length);
  const item = items[current];
  const count = items.length;

  const [view, setView] = useState<View>(FITTED);
  const [failed, setFailed] = useState(false);
  // Each image (and each opening) starts fitted: reset while rendering when either changes.
  const [shown, setShown] = useState({ index: current, open, src: item?.src });
  if (shown.index !== current || shown.open !== open || shown.src !== item?.src) {
    setShown({ index: current, open, src: item?.src });
    setView(FITTED);
    setFailed(false);
  }

  const imageRef = useRef<HTMLImageElement | null>(null);
  const closeRef = useRef<HTMLButtonElement | null>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const asideRef = useRef<HTMLElement | null>(null);
  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture | null>(null);

  /** The image's fitted (untransformed) size: the pan limits derive from it. */
  const imageSize = useCallback((): Size => {
    const image = imageRef.current;
    return image ? { width: image.offsetWidth, height: image.offsetHeight } : { width: 0, height: 0 };
  }, []);

  const zoomWith = useCallback(
    (update: (zoom: number) => number) => {
      setView((previous) => {
        const zoom = update(previous.zoom);
        return { zoom, offset: clampPan(previous.offset, zoom, imageSize()) };
      });
    },
    [imageSize],
  );

  // The wheel listener must be non-passive to keep the page from scrolling, so it is attached by
  // hand; a callback ref sees the stage when the dialog's portal mounts it.
  const stageRef = useCallback(
    (stage: HTMLDivElement | null) => {
      if (!stage) return;
      const step = createWheelZoomThrottle();
      const onWheel = (event: WheelEvent) => {
        event.preventDefault();
        const direction = step(event.deltaY, event.timeStamp);
        if (direction !== 0) zoomWith((zoom) => zoomBy(zoom, direction));
      };
      stage.addEventListener('wheel', onWheel, { passive: false });
      return () => stage.removeEventListener('wheel', onWheel);
    },
    [zoomWith],
  );

  function go(delta: number) {
    if (count === 0) return;
    const next = stepIndex(current, delta, count, loop);
    if (next === current) return;
    if (index === undefined) setInnerIndex(next);
    onIndexChange?.(next);
  }

  function run(action: LightboxAction) {
    if (action === 'previous') go(-1);
    else if (action === 'next') go(1);
    else if (action === 'zoomIn') zoomWith((zoom) => zoomIn(zoom));
    else if (action === 'zoomOut') zoomWith((zoom) => zoomOut(zoom));
    else setView(FITTED);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Typing in the side panel (tags, links) is not zooming or changing image.
    if (event.target instanceof Node && asideRef.current?.contains(event.target)) return;
    const action = lightboxKeyAction(event);
    if (!action) return;
    event.preventDefault();
    run(action);
  }

  // Preload the neighbours so Previous/Next show at once.
  useEffect(() => {
    if (!open || count < 2) return;
    for (const delta of [-1, 1]) {
      const neighbour = items[stepIndex(current, delta, count, loop)];
      if (neighbour && neighbour.src !== item?.src) new Image().src = neighbour.src;
    }
  }, [open, current, count, items, loop, item?.src]);

  function point(event: PointerEvent): Point {
    return { x: event.clientX, y: event.clientY };
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, point(event));
    const [first, second] = [...pointers.current.values()];
    if (pointers.current.size === 1 && first) {
      gesture.current = { start: first, last: first, startOffset: view.offset, pinch: null, pinched: false };
    } else if (first && second && gesture.current) {
      gesture.current.pinch = { startDistance: distance(first, second), startZoom: view.zoom };
      gesture.current.pinched = true;
    }
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const active = gesture.current;
    if (!active || !pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, point(event));
    const [first, second] = [...pointers.current.values()];
    if (active.pinch && first && second) {
      const { startDistance, startZoom } = active.pinch;
      zoomWith(() => pinchZoom(startZoom, startDistance, distance(first, second)));
    } else if (first && pointers.current.size === 1) {
      active.last = first;
      if (canPan(view.zoom)) {
        const offset = { x: active.startOffset.x + first.x - active.start.x, y: active.startOffset.y + first.y - active.start.y };
        setView((previous) => ({ zoom: previous.zoom, offset: clampPan(offset, previous.zoom, imageSize()) }));
      }
    }
  }

  function onPointerEnd(event: PointerEvent<HTMLDivElement>) {
    if (!pointers.current.delete(event.pointerId)) return;
    const active = gesture.current;
    if (!active) return;
    if (active.pinch && pointers.current.size < 2) active.pinch = null;
    if (pointers.current.size > 0) return;
    gesture.current = null;
    if (event.type !== 'pointerup' || active.pinched || canPan(view.zoom)) return;
    const action = swipeAction(active.start, point(event));
    if (action) run(action);
  }

  const title = lightboxTitle(item);
  const position = lightboxPosition(current, count);

  const stage = (
    <div className="relative min-h-0 flex-1">
      <div
        ref={stageRef}
        className={cn(
          'flex h-full w-full touch-none items-center justify-center overflow-hidden select-none',
          canPan(view.zoom) ? 'cursor-grab active:cursor-grabbing' : 'cursor-default',
        )}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerEnd}
        onPointerCancel={onPointerEnd}
        onDoubleClick={() => zoomWith((zoom) => (canPan(zoom) ? DEFAULT_ZOOM : 2))}
      >
        {item?.video && (
          // A video plays with its own controls (no zoom or pan); the pointer handlers leave its controls alone at the default zoom.
          // eslint-disable-next-line jsx-a11y/media-has-caption -- a participant's recording comes with no caption track to offer
          <video key={item.src} controls preload="metadata" poster={item.video.poster} aria-label={item.alt} className="max-h-full max-w-full">
            <source src={item.src} type="video/mp4" />
          </video>
        )}
        {item && !item.video && !failed && (
          <img
            key={item.src}
            ref={imageRef}
            src={item.src}
            alt={item.alt}
            draggable={false}
            onError={() => setFailed(true)}
            className="max-h-full max-w-full object-contain transition-transform duration-75 ease-out motion-reduce:transition-none"
            style={{ transform: `translate(${view.offset.x}px, ${view.offset.y}px) scale(${view.zoom})` }}
          />
        )}
        {item && failed && (
          <p role="alert" className="px-6 text-center text-sm text-white/80">
            {m.shell_lightbox_image_failed()} {item.alt}
          </p>
        )}
        {!item && <p className="text-sm text-white/80">{m.shell_lightbox_no_images()}</p>}
      </div>

      {count > 1 && (
        <>
          {/* aria-disabled, not disabled: a focused button that became disabled would drop focus out of the dialog. */}
          <IconButton
            className={cn(sideButton, 'start-3')}
            iconClassName="size-5 rtl:-scale-x-100"
            label={m.shell_lightbox_previous_image()}
            unavailable={!hasPrevious(current, count, loop)}
            onClick={() => go(-1)}
          >
            <path d="m15 18-6-6 6-6" />
          </IconButton>
          <IconButton
            className={cn(sideButton, 'end-3')}
            iconClassName="size-5 rtl:-scale-x-100"
            label={m.shell_lightbox_next_image()}
            unavailable={!hasNext(current, count, loop)}
            onClick={() => go(1)}
          >
            <path d="m9 18 6-6-6-6" />
          </IconButton>
        </>
      )}
    </div>
  );

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        {/* Opaque: the page must not show through around the photo (at 95 % its white fields and text still did). */}
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black" />
        <DialogPrimitive.Content
          className={cn('fixed inset-0 z-50 flex flex-col text-white outline-none', className)}
          onKeyDown={onKeyDown}
          onOpenAutoFocus={(event) => {
            // Remember the opener (there may be no Dialog.Trigger) and start on Close.
            returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            event.preventDefault();
            closeRef.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus.current?.focus();
            returnFocus.current = null;
          }}
        >
          <div className="flex items-center gap-2 bg-black/70 px-3 py-2">
            <div className="min-w-0 flex-1">
              <DialogPrimitive.Title className="truncate text-sm font-semibold sm:text-base">{title}</DialogPrimitive.Title>
              <DialogPrimitive.Description className="sr-only">{m.shell_lightbox_description({ position })}</DialogPrimitive.Description>
              {count > 1 && (
                <p className="text-xs text-white/75 tabular-nums" aria-hidden="true">
                  {lightboxCounter(current, count)}
                </p>
              )}
            </div>
            <IconButton className={toolButton} label={m.shell_lightbox_zoom_out()} unavailable={!canZoomOut(view.zoom)} onClick={() => run('zoomOut')}>
              <circle cx="11" cy="11" r="8" />
              <path d="m21 21-4.3-4.3M8 11h6" />
            </IconButton>
            <button
              type="button"
              className={cn(toolButton, 'w-16 tabular-nums')}
              aria-label={m.shell_lightbox_reset_zoom({ zoom: zoomPercent(view.zoom) })}
              onClick={() => run('reset')}
            >
              {zoomPercent(view.zoom)}
            </button>
            <IconButton className={toolButton} label={m.shell_lightbox_zoom_in()} unavailable={!canZoomIn(view.zoom)} onClick={() => run('zoomIn')}>
              <circle cx="11" cy="11" r="8" />
              <path d="m21 21-4.3-4.3M11 8v6M8 11h6" />
            </IconButton>
            <DialogPrimitive.Close ref={closeRef} className={toolButton} aria-label={m.shell_common_close()}>
              <Icon className="size-5">
                <path d="M18 6 6 18M6 6l12 12" />
              </Icon>
            </DialogPrimitive.Close>
          </div>

          {aside === undefined ? (
            stage
          ) : (
            <div className="flex min-h-0 flex-1 flex-col md:flex-row">
              {stage}
              <aside
                ref={asideRef}
                aria-label={asideLabel}
                className="max-h-[45%] shrink-0 overflow-y-auto border-t border-white/10 bg-card text-card-foreground md:max-h-none md:w-96 md:border-t-0 md:border-s"
              >
                {aside}
              </aside>
            </div>
          )}

          <p className="sr-only" aria-live="polite">
            {open && count > 1 ? `${position}: ${title}` : ''}
          </p>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
