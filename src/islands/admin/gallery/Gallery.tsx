/**
 * The gallery (`/admin/gallery`, docs/product.md §2): every photo participants' answers hold,
 * newest first, as a grid of thumbnails loaded as the list scrolls (the API's keyset `cursor`;
 * "Load more photos" for keyboards and when the observer is not there). Filters in the address
 * bar (`?projectId=&missionId=&userId=&participant=&state=&replaced=&tag=&starred=&from=&to=`; other
 * screens link here with `?userId=`). The photos of each entry's current version unless
 * `replaced=true` asks for the others, which carry a "Replaced" badge. Each photo opens the UI
 * kit's lightbox with its details beside it (`PhotoPanel.tsx`); it can be starred and selected
 * from the grid, and the selected photos downloaded as one ZIP, a plain form post the browser
 * streams to disk. A change the server refuses is undone on screen, with the reason.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  galleryFiltersFrom,
  galleryQuery,
  GALLERY_LIMITS,
  GALLERY_PAGE,
  formatClock,
  GALLERY_VERSION_LABELS,
  mergeTags,
  normalizeTags,
  type GalleryFilters,
  type GalleryItem,
  type GalleryPage,
} from '../../../shared/gallery.ts';
import { ApiError, apiGet, apiSend } from '../../../lib/api.ts';
import { formatDuration, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDate } from '../../../lib/format.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { PlayIcon, StarIcon } from '../../../components/icons.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Lightbox, type LightboxItem } from '../../../components/ui/lightbox.tsx';
import { cn } from '../../../lib/utils.ts';
import { GalleryFiltersBar } from './GalleryFilters.tsx';
import { PhotoPanel } from './PhotoPanel.tsx';

type Status = { kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string };

/** A photo's text alternative: who took it, for what, when (and "replaced" when it is not in the current version). */
function altOf(item: GalleryItem): string {
  const params = { name: item.userName, source: item.sourceTitle || item.projectName, date: formatDate(item.createdAt) };
  if (item.versionState === 'current') return m.gallery_photo_alt(params);
  return m.gallery_photo_alt_state({ ...params, state: GALLERY_VERSION_LABELS[item.versionState].badge.toLowerCase() });
}

/** Why a change was refused: the field's own message when there is one (never just "Check the highlighted fields"). */
function refusal(error: unknown): string {
  const fields = error instanceof ApiError ? Object.values(error.fields).flat() : [];
  return fields.length > 0 ? fields.join(' ') : errorMessage(error);
}

export default function Gallery() {
  const [filters, setFilters] = useState<GalleryFilters | null>(null);
  const [items, setItems] = useState<GalleryItem[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const [loadingMore, setLoadingMore] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [open, setOpen] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const sentinel = useRef<HTMLDivElement | null>(null);
  const running = useRef<AbortController | null>(null);

  // The address bar is read once the browser has it (and again if the page's entry is revisited).
  useEffect(() => {
    const read = () => setFilters(galleryFiltersFrom(location.search));
    read();
    window.addEventListener('popstate', read);
    return () => window.removeEventListener('popstate', read);
  }, []);

  const fetchPage = useCallback(async (current: GalleryFilters, cursor: string | null) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const extra: Record<string, string> = { limit: String(GALLERY_PAGE.default) };
    if (cursor) extra.cursor = cursor;
    const page = await apiGet<GalleryPage>(`/api/admin/gallery${galleryQuery(current, extra)}`, { signal: controller.signal });
    return controller.signal.aborted ? null : page;
  }, []);

  const loadFirst = useCallback(
    async (current: GalleryFilters) => {
      setStatus({ kind: 'loading' });
      setItems([]);
      setNextCursor(null);
      setSelected(new Set());
      try {
        const page = await fetchPage(current, null);
        if (!page) return;
        setItems(page.items);
        setNextCursor(page.nextCursor);
        setStatus({ kind: 'ready' });
      } catch (error) {
        if ((error instanceof DOMException && error.name === 'AbortError') || handleSessionLost(error)) return;
        setStatus({ kind: 'error', message: errorMessage(error) });
      }
    },
    [fetchPage],
  );

  useEffect(() => {
    if (filters) void loadFirst(filters);
  }, [filters, loadFirst]);

  const loadMore = useCallback(async () => {
    if (!filters || !nextCursor || loadingMore) return;
    setLoadingMore(true);
    try {
      const page = await fetchPage(filters, nextCursor);
      if (!page) return;
      setItems((current) => {
        const seen = new Set(current.map((item) => item.id));
        return [...current, ...page.items.filter((item) => !seen.has(item.id))];
      });
      setNextCursor(page.nextCursor);
    } catch (error) {
      if ((error instanceof DOMException && error.name === 'AbortError') || handleSessionLost(error)) return;
      toast({ title: m.gallery_more_failed(), description: errorMessage(error), variant: 'destructive' });
    } finally {
      setLoadingMore(false);
    }
  }, [filters, nextCursor, loadingMore, fetchPage]);

  // Infinite loading: the next page when the end of the grid comes near.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !nextCursor || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadMore();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [nextCursor, loadMore]);

  function applyFilters(next: GalleryFilters) {
    // Replaced, not pushed: the client router owns the history entries (as the review queue does).
    history.replaceState(history.state, '', `${location.pathname}${galleryQuery(next)}${location.hash}`);
    setFilters(next);
  }

  const replaceItem = (next: GalleryItem) => setItems((current) => current.map((item) => (item.id === next.id ? next : item)));

  async function patch(item: GalleryItem, body: { tags?: string[]; starred?: boolean; baseTags?: string[] }): Promise<void> {
    setSaving(true);
    try {
      replaceItem(await apiSend<GalleryItem>('PATCH', `/api/admin/media/${item.id}`, body));
    } catch (error) {
      let failure: unknown = error;
      // Another moderator changed the tags meanwhile: keep their change and ours, and send again.
      const current = error instanceof ApiError && error.code === 'conflict' ? (error.details.current as { tags?: string[] } | undefined) : undefined;
      if (current?.tags && body.tags && body.baseTags) {
        const merged = mergeTags(body.baseTags, body.tags, current.tags).slice(0, GALLERY_LIMITS.tagsMax);
        try {
          replaceItem(await apiSend<GalleryItem>('PATCH', `/api/admin/media/${item.id}`, { tags: merged, baseTags: current.tags }));
          toast({ title: m.gallery_tags_merged(), description: m.gallery_tags_merged_description() });
          return;
        } catch (again) {
          failure = again;
        }
      }
      // Not saved: the photo shows what the server has again.
      replaceItem(item);
      if (handleSessionLost(failure)) return;
      toast({ title: m.gallery_save_failed(), description: refusal(failure), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  const setTags = (item: GalleryItem, typed: string[]) => {
    // Shown as they will be stored (lower-case, no duplicates).
    const tags = normalizeTags(typed);
    replaceItem({ ...item, tags });
    void patch(item, { tags, baseTags: item.tags });
  };
  const setStar = (item: GalleryItem, starred: boolean) => {
    replaceItem({ ...item, starred });
    void patch(item, { starred });
  };

  function toggle(id: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else if (next.size < GALLERY_LIMITS.zipMax) next.add(id);
      else toast({ title: m.gallery_zip_too_many({ count: GALLERY_LIMITS.zipMax }), variant: 'destructive' });
      return next;
    });
  }

  const lightboxItems: LightboxItem[] = items.map((item) => ({
    src: item.url,
    ...(item.kind === 'video' ? { video: { poster: item.thumbnailUrl } } : {}),
    alt: altOf(item),
    title: [item.userName, item.sourceTitle, item.versionState === 'current' ? '' : GALLERY_VERSION_LABELS[item.versionState].badge]
      .filter(Boolean)
      .join(' · '),
  }));
  const shown = open === null ? undefined : items[open];
  const selectedIds = items.filter((item) => selected.has(item.id)).map((item) => item.id);

  return (
    <div className="flex flex-col gap-6 pb-24">
      <p className="text-sm text-muted-foreground">{m.gallery_intro()}</p>
      {filters && <GalleryFiltersBar filters={filters} onChange={applyFilters} />}

      {filters?.userId && items[0] && (
        <p className="text-sm">
          {withNodes((marks) => m.gallery_by_user({ name: marks.name, id: filters.userId ?? '' }), {
            name: <span className="font-semibold">{items[0].userName}</span>,
          })}
        </p>
      )}
      {filters?.participant && (
        <p className="text-sm">
          {withNodes((marks) => m.gallery_by_participant({ text: marks.text }), { text: <span className="font-semibold">{filters.participant}</span> })}
        </p>
      )}
      {filters?.replaced === 'true' && (
        <p className="text-sm">
          {m.gallery_replaced_intro({ replaced: GALLERY_VERSION_LABELS.replaced.badge, unsubmitted: GALLERY_VERSION_LABELS.unsubmitted.badge })}
        </p>
      )}
      {status.kind === 'loading' && <Loading label={m.gallery_loading()} />}
      {status.kind === 'error' && <Failed title={m.gallery_failed()} message={status.message} onRetry={() => filters && void loadFirst(filters)} />}
      {status.kind === 'ready' && items.length === 0 && (
        <p className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted-foreground">{m.gallery_empty()}</p>
      )}

      {items.length > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
          <span>{nextCursor ? m.gallery_shown_more({ count: items.length }) : m.gallery_count({ count: items.length })}</span>
          <Button type="button" variant="ghost" size="sm" onClick={() => setSelected(new Set(items.slice(0, GALLERY_LIMITS.zipMax).map((item) => item.id)))}>
            {items.length > GALLERY_LIMITS.zipMax ? m.gallery_select_first({ count: GALLERY_LIMITS.zipMax }) : m.gallery_select_all_shown()}
          </Button>
        </div>
      )}
      {items.length > 0 && (
        <ul aria-label={m.gallery_photos_label()} className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-5">
          {items.map((item, index) => {
            const isSelected = selected.has(item.id);
            return (
              <li key={item.id} className={cn('flex flex-col overflow-hidden rounded-lg border border-border bg-card', isSelected && 'ring-2 ring-primary')}>
                <div className="relative aspect-square bg-muted">
                  <button
                    type="button"
                    className="block size-full focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-ring"
                    onClick={() => setOpen(index)}
                  >
                    <img
                      src={item.thumbnailUrl}
                      alt={altOf(item)}
                      width={item.thumbnailWidth}
                      height={item.thumbnailHeight}
                      loading="lazy"
                      decoding="async"
                      className="size-full object-cover"
                    />
                  </button>
                  <button
                    type="button"
                    aria-pressed={item.starred}
                    aria-label={m.gallery_star_photo({ name: item.userName })}
                    onClick={() => setStar(item, !item.starred)}
                    className={cn(
                      'absolute end-2 top-2 inline-flex size-9 items-center justify-center rounded-full bg-black/55 text-white hover:bg-black/75 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                      item.starred && 'text-yellow-300',
                    )}
                  >
                    <StarIcon className={cn('size-5', item.starred && 'fill-current')} />
                  </button>
                  {item.kind === 'video' && item.durationMs !== null && (
                    <span
                      aria-label={m.gallery_video_duration({ length: formatDuration(item.durationMs / 1000) })}
                      className="pointer-events-none absolute end-2 bottom-2 inline-flex items-center gap-1 rounded-sm bg-black/75 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums"
                    >
                      <PlayIcon aria-hidden="true" className="size-3 fill-current" />
                      {formatClock(item.durationMs)}
                    </span>
                  )}
                  {item.versionState !== 'current' && (
                    <span className="pointer-events-none absolute start-2 bottom-2 rounded-sm bg-black/75 px-1.5 py-0.5 text-xs font-semibold text-white">
                      {GALLERY_VERSION_LABELS[item.versionState].badge}
                    </span>
                  )}
                  <label className="absolute start-2 top-2 inline-flex size-9 cursor-pointer items-center justify-center rounded-full bg-black/55 hover:bg-black/75">
                    <input
                      type="checkbox"
                      checked={isSelected}
                      onChange={() => toggle(item.id)}
                      aria-label={m.gallery_select_photo({ name: item.userName })}
                      className="size-4 accent-primary"
                    />
                  </label>
                </div>
                <div className="flex min-w-0 flex-col gap-1 p-2 text-xs">
                  <span className="truncate font-medium">{item.userName}</span>
                  <span className="truncate text-muted-foreground">{item.sourceTitle || item.projectName}</span>
                  {item.versionState !== 'current' && <span className="font-medium">{GALLERY_VERSION_LABELS[item.versionState].line}</span>}
                  {item.tags.length > 0 && (
                    <ul aria-label={m.gallery_tags_label()} className="flex flex-wrap gap-1">
                      {item.tags.map((tag) => (
                        <li key={tag} className="rounded-sm bg-secondary px-1.5 py-0.5 text-secondary-foreground">
                          {tag}
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}

      <div ref={sentinel} aria-hidden="true" />
      {nextCursor && status.kind === 'ready' && (
        <div className="flex justify-center">
          <Button type="button" variant="outline" loading={loadingMore} onClick={() => void loadMore()}>
            {m.gallery_load_more()}
          </Button>
        </div>
      )}

      {selectedIds.length > 0 && (
        <div
          role="region"
          aria-label={m.gallery_selected_label()}
          className="fixed inset-x-0 bottom-0 z-40 flex flex-wrap items-center justify-center gap-3 border-t border-border bg-card/95 p-3 shadow-lg backdrop-blur"
        >
          <span className="text-sm font-medium">{m.gallery_selected_count({ count: selectedIds.length })}</span>
          {/* A plain form post: the browser streams the ZIP to disk (data-astro-reload: not the client router's). */}
          <form method="post" action="/api/admin/media/zip" data-astro-reload>
            {selectedIds.map((id) => (
              <input key={id} type="hidden" name="ids" value={id} />
            ))}
            <Button type="submit">{m.gallery_download_zip({ count: selectedIds.length })}</Button>
          </form>
          <Button type="button" variant="outline" onClick={() => setSelected(new Set())}>
            {m.gallery_clear_selection()}
          </Button>
        </div>
      )}

      <Lightbox
        items={lightboxItems}
        open={open !== null}
        onOpenChange={(next) => !next && setOpen(null)}
        index={open ?? 0}
        onIndexChange={(index) => {
          setOpen(index);
          if (index >= items.length - 3) void loadMore();
        }}
        asideLabel={m.gallery_photo_details()}
        aside={
          shown ? <PhotoPanel item={shown} saving={saving} onTags={(tags) => setTags(shown, tags)} onStar={(starred) => setStar(shown, starred)} /> : undefined
        }
      />
    </div>
  );
}
