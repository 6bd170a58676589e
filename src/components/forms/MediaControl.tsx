/**
 * The media control: what the photo and video controls (`PhotoControl.tsx`, `VideoControl.tsx`)
 * both show around their pickers. Each file as a row with its thumbnail (or the control's icon),
 * where it stands (saved on this phone, an upload progress bar, uploaded, ready), the reason when
 * it failed with "Try again" when that can help, and "Remove"; then the pickers (`MediaPickers`:
 * file inputs dressed as buttons, for the camera and the library), the "n of max" count, the
 * notice of the last pick, the notes on the device's storage and a polite live region. A control
 * gives its words, its icon and what it adds (the video's recorder). Loaded with them, in the
 * `media-controls.ts` chunk: nothing outside that chunk imports this file.
 */
import { useEffect, useRef, useState, type ChangeEvent, type ComponentProps, type JSX, type ReactNode } from 'react';
import type { ElementOf } from '../../shared/forms/definition.ts';
import { cn } from '../../lib/utils.ts';
import { Button, buttonVariants } from '../ui/button.tsx';
import type { FieldContext, FieldIds, PhotoItem } from './types.ts';
import { formatCount, m } from '../../shared/i18n.ts';
import { stateText } from './store-uploads.ts';

export type IconProps = Omit<ComponentProps<'svg'>, 'children'>;

const iconProps = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function CameraIcon(props: IconProps) {
  return (
    <svg {...iconProps} {...props}>
      <path d="M14.5 4h-5L7 7H4a2 2 0 0 0-2 2v9a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V9a2 2 0 0 0-2-2h-3z" />
      <circle cx="12" cy="13" r="3" />
    </svg>
  );
}

export function ImageIcon(props: IconProps) {
  return (
    <svg {...iconProps} {...props}>
      <rect width="18" height="18" x="3" y="3" rx="2" />
      <circle cx="9" cy="9" r="2" />
      <path d="m21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21" />
    </svg>
  );
}

export function VideoIcon(props: IconProps) {
  return (
    <svg {...iconProps} {...props}>
      <path d="m16 13 5.2 3.5a.5.5 0 0 0 .8-.4V7.9a.5.5 0 0 0-.8-.4L16 11" />
      <rect x="2" y="6" width="14" height="12" rx="2" />
    </svg>
  );
}

/** How many of an element's files count toward its limit: all but the failed ones. */
export const keptCount = (items: readonly PhotoItem[]): number => items.filter((item) => item.status !== 'failed').length;

/** What the outbox says of the device's storage after a capture (space short, the iPhone 7-day rule). */
function StorageNotes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <div className="flex flex-col gap-1 text-sm text-muted-foreground">
      {notes.map((note) => (
        <p key={note}>{note}</p>
      ))}
    </div>
  );
}

/** A file input dressed as a button: the input itself takes focus and opens the picker. */
function PickButton({
  id,
  label,
  camera,
  disabled,
  describedBy,
  onPick,
  accept = 'image/*',
  icon,
}: {
  id: string;
  label: string;
  camera: boolean;
  disabled: boolean;
  describedBy: string | undefined;
  onPick(files: File[]): void;
  /** `image/*` unless said. */
  accept?: string;
  icon?: ReactNode;
}) {
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that picking the same file again is a change.
    event.target.value = '';
    if (files.length > 0) onPick(files);
  };
  return (
    <label
      htmlFor={id}
      className={cn(
        buttonVariants({ variant: 'outline' }),
        'relative h-11 cursor-pointer has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
      )}
    >
      <input
        id={id}
        type="file"
        accept={accept}
        capture={camera ? 'environment' : undefined}
        multiple={!camera}
        disabled={disabled}
        aria-describedby={describedBy}
        className="sr-only"
        onChange={change}
      />
      {icon ?? (camera ? <CameraIcon /> : <ImageIcon />)}
      {label}
    </label>
  );
}

/**
 * The row of pickers: the camera's (`{control id}-camera`: one file, `capture`) unless the element
 * takes the library only, the library's (`{control id}-library`: several at once) unless it takes
 * the camera only, then `children` (more buttons).
 */
export function MediaPickers({
  ids,
  capture,
  cameraLabel,
  libraryLabel,
  cameraIcon,
  accept,
  disabled,
  describedBy,
  onPick,
  children,
}: {
  ids: FieldIds;
  capture: NonNullable<ElementOf<'photo' | 'video'>['capture']>;
  cameraLabel: string;
  libraryLabel: string;
  /** The camera's icon (the library's is always the picture); a camera unless said. */
  cameraIcon?: ReactNode;
  /** `image/*` unless said. */
  accept?: string;
  disabled: boolean;
  describedBy: string | undefined;
  onPick(files: File[]): void;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {capture !== 'library' && (
        <PickButton
          id={`${ids.control}-camera`}
          label={cameraLabel}
          camera
          accept={accept}
          icon={cameraIcon}
          disabled={disabled}
          describedBy={describedBy}
          onPick={onPick}
        />
      )}
      {capture !== 'camera' && (
        <PickButton
          id={`${ids.control}-library`}
          label={libraryLabel}
          camera={false}
          accept={accept}
          disabled={disabled}
          describedBy={describedBy}
          onPick={onPick}
        />
      )}
      {children}
    </div>
  );
}

/**
 * The picture a row shows: a stored photo's thumbnail at once; a local file (`blob:`) only once it
 * has loaded off-screen, so a file that is no image (a text file named .jpg, HEIC in most
 * browsers) shows the placeholder instead of a broken picture.
 */
function usePicture(src: string | null): string | null {
  const local = src?.startsWith('blob:') === true;
  const [loaded, setLoaded] = useState<string | null>(null);
  useEffect(() => {
    if (!src || !local) return;
    const probe = new Image();
    probe.onload = () => setLoaded(src);
    probe.src = src;
    return () => {
      probe.onload = null;
    };
  }, [src, local]);
  return local && loaded !== src ? null : src;
}

function PhotoRow({
  item,
  index,
  disabled,
  onRetry,
  onRemove,
  nameOf,
  Icon,
}: {
  item: PhotoItem;
  index: number;
  disabled: boolean;
  onRetry(): void;
  onRemove(): void;
  nameOf(number: string): string;
  Icon: (props: IconProps) => JSX.Element;
}) {
  const name = item.name || nameOf(formatCount(index + 1));
  const percent = Math.round(item.progress * 100);
  const picture = usePicture(item.src);
  // A stored thumbnail that does not load shows the placeholder, not a broken image.
  const [broken, setBroken] = useState<string | null>(null);
  const src = picture !== broken ? picture : null;
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-card p-2 text-sm" data-photo={item.key}>
      <div className="flex size-16 shrink-0 items-center justify-center overflow-hidden rounded bg-muted text-muted-foreground">
        {src ? <img src={src} alt="" className="size-full object-cover" onError={() => setBroken(src)} /> : <Icon className="size-6" />}
      </div>
      <div className="flex min-w-0 flex-1 basis-32 flex-col gap-1">
        <p dir="auto" className="truncate font-medium">
          {name}
        </p>
        {item.status !== 'done' && item.status !== 'failed' && (
          <p className={cn('text-muted-foreground', item.status === 'saved' && item.error && 'text-foreground')} data-state={item.status}>
            {stateText({ state: item.status as 'saved', progress: item.progress, reason: item.error })}
          </p>
        )}
        {item.status === 'uploading' && (
          <div
            role="progressbar"
            aria-label={m.participant_form_photo_uploading({ name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        )}
        {item.status === 'done' && (
          <p className="text-muted-foreground">
            {item.mediaId?.startsWith('preview-') ? m.participant_form_photo_added_preview() : m.participant_form_photo_uploaded()}
          </p>
        )}
        {item.status === 'failed' && <p className="font-medium text-destructive">{item.error ?? m.outbox_state_failed()}</p>}
      </div>
      <div className="flex gap-1">
        {item.status === 'failed' && item.retry && (
          <Button variant="outline" className="h-11" disabled={disabled} onClick={onRetry}>
            {m.outbox_try_again()}
            <span className="sr-only"> {name}</span>
          </Button>
        )}
        <Button variant="ghost" className="h-11" disabled={disabled} data-remove="" onClick={onRemove}>
          {m.participant_form_photo_remove()}
          <span className="sr-only"> {name}</span>
        </Button>
      </div>
    </li>
  );
}

export function MediaControl({
  element,
  ctx,
  nameOf,
  Icon,
  countText,
  problem = null,
  children,
}: {
  element: ElementOf<'photo' | 'video'>;
  ctx: FieldContext;
  /** A file's name when it has none ("Photo 1"), from its formatted number. */
  nameOf(number: string): string;
  /** What a row shows while it has no picture. */
  Icon: (props: IconProps) => JSX.Element;
  /** The count line ("2 of 3 photos") from the formatted number of files kept; shown once one is. */
  countText(kept: string): string;
  /** A problem the control found itself (a video too long), shown instead of the store's notice. */
  problem?: string | null;
  /** The pickers (`MediaPickers`), or what stands in their place. */
  children: ReactNode;
}) {
  const uploads = ctx.photos;
  const items = uploads.items(element.id);
  const kept = keptCount(items);
  const notice = problem ?? uploads.notice(element.id);
  const root = useRef<HTMLDivElement>(null);
  // The index of the row just removed, until the render that no longer shows it.
  const removedAt = useRef<number | null>(null);

  useEffect(() => {
    const index = removedAt.current;
    if (index === null) return;
    removedAt.current = null;
    const removes = root.current?.querySelectorAll<HTMLButtonElement>('button[data-remove]');
    const next =
      removes && removes.length > 0 ? removes[Math.min(index, removes.length - 1)] : root.current?.querySelector<HTMLInputElement>('input[type=file]');
    next?.focus();
  });

  return (
    <div ref={root} className="flex flex-col gap-3">
      {items.length > 0 && (
        <ul className="flex flex-col gap-2">
          {items.map((item, index) => (
            <PhotoRow
              key={item.key}
              item={item}
              index={index}
              disabled={ctx.disabled}
              nameOf={nameOf}
              Icon={Icon}
              onRetry={() => uploads.retry(element.id, item.key)}
              onRemove={() => {
                // Its button goes with it: the focus moves to the next file's Remove, else the first picker.
                removedAt.current = index;
                uploads.remove(element.id, item.key);
              }}
            />
          ))}
        </ul>
      )}
      {children}
      {kept > 0 && <p className="text-xs text-muted-foreground tabular-nums">{countText(formatCount(kept))}</p>}
      {notice && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {notice}
        </p>
      )}
      <StorageNotes notes={uploads.notes()} />
      <p role="status" className="sr-only">
        {uploads.announcement(element.id)}
      </p>
    </div>
  );
}
