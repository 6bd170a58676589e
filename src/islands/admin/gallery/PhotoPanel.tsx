/**
 * The lightbox's side panel for one gallery photo: who, where and when; the star and the tags
 * (saved as they change); the original to download; the answers of the entry that holds it and a
 * link to its review (survey photos: a link to the survey).
 */
import { useId } from 'react';
import type { GalleryItem } from '../../../shared/gallery.ts';
import { GALLERY_LIMITS } from '../../../shared/gallery.ts';
import { thumbnailUrl } from '../../../shared/media.ts';
import type { AdminSubmissionDetail } from '../../../shared/mission-entries.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { AnswersView } from '../../../components/forms/AnswersView.tsx';
import { LoadingNote } from '../../../components/states/Loading.tsx';
import { StarIcon } from '../../../components/icons.tsx';
import { TagsInput } from '../../../components/ui/tags-input.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EntryStatusBadge } from '../projects/kit.tsx';

/** Where a gallery photo's answer is reviewed (mission entries) or read (survey responses). */
export function sourceHref(item: GalleryItem): string {
  if (item.entryId !== null && item.missionId !== null) {
    return `/admin/projects/${item.projectId}/missions/${item.missionId}?status=all&submission=${item.entryId}#review`;
  }
  return `/admin/projects/${item.projectId}/surveys/${item.surveyId ?? ''}`;
}

/** The name a downloaded original gets: the ZIP's name for it. */
export function downloadName(item: GalleryItem): string {
  return `${item.projectId}-${item.entryId !== null ? `${item.missionId ?? 0}-${item.entryId}` : `survey${item.surveyId ?? 0}-${item.responseId ?? 0}`}-${item.id}.jpg`;
}

function EntryAnswers({ entryId }: { entryId: number }) {
  const { load } = useResource<AdminSubmissionDetail>(`/api/admin/submissions/${entryId}`);
  if (load.status === 'loading') return <LoadingNote label="Loading the answers…" />;
  if (load.status !== 'ready') return <p className="text-sm text-muted-foreground">The answers could not be loaded: {load.message}</p>;
  if (!load.data.definition) return <p className="text-sm text-muted-foreground">This entry’s form is not available.</p>;
  return <AnswersView definition={load.data.definition} answers={load.data.answers} photos={{ thumbnailUrl }} />;
}

export function PhotoPanel({
  item,
  onTags,
  onStar,
  saving,
}: {
  item: GalleryItem;
  onTags: (tags: string[]) => void;
  onStar: (starred: boolean) => void;
  saving: boolean;
}) {
  const tagsId = useId();
  return (
    <div className="flex flex-col gap-4 p-4">
      <div className="flex flex-col gap-1">
        <p className="font-semibold">{item.userName}</p>
        <p className="text-sm text-muted-foreground">
          {item.projectName} · {item.sourceTitle || (item.entryId !== null ? 'Mission' : 'Survey')}
        </p>
        <p className="text-sm text-muted-foreground">Uploaded {formatDateTime(item.createdAt)}</p>
        {item.entryStatus && (
          <p className="text-sm">
            <EntryStatusBadge status={item.entryStatus} />
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant={item.starred ? 'default' : 'outline'} aria-pressed={item.starred} onClick={() => onStar(!item.starred)}>
          <StarIcon className="size-4" /> Star
        </Button>
        <Button asChild variant="outline">
          <a href={item.url} download={downloadName(item)}>
            Download original
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={sourceHref(item)}>{item.entryId !== null ? 'Open the entry' : 'Open the survey'}</a>
        </Button>
      </div>
      <div className="flex flex-col gap-2">
        <label htmlFor={tagsId} className="text-sm font-medium">
          Tags
        </label>
        <TagsInput id={tagsId} value={item.tags} max={GALLERY_LIMITS.tagsMax} onChange={onTags} disabled={false} />
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {saving ? 'Saving…' : 'Tags are saved as you add or remove them.'}
        </p>
      </div>
      {item.entryId !== null ? (
        <section aria-label="Answers of the entry" className="flex flex-col gap-2 border-t border-border pt-4">
          <h2 className="text-sm font-semibold">Answers of the entry</h2>
          <EntryAnswers key={item.entryId} entryId={item.entryId} />
        </section>
      ) : (
        <p className="border-t border-border pt-4 text-sm text-muted-foreground">A photo of a survey response: its answers are in the survey’s results.</p>
      )}
    </div>
  );
}
