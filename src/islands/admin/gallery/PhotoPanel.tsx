/**
 * The lightbox's side panel for one gallery photo: who, where and when; whether the entry's
 * current version holds it (a replaced photo says so); the star and the tags (saved as they
 * change; a tag stops at its limit as it is typed); the stored JPEG to download (named for what
 * it is: the original file is not kept, decision 010); the answers of the entry's current version
 * and a link to its review (survey photos: a link to the survey).
 */
import { useId } from 'react';
import type { GalleryItem } from '../../../shared/gallery.ts';
import { GALLERY_LIMITS, GALLERY_MESSAGES, GALLERY_VERSION_LABELS, galleryZipName } from '../../../shared/gallery.ts';
import { MEDIA_LIMITS, thumbnailUrl } from '../../../shared/media.ts';
import type { ReviewSubmission } from '../../../shared/review.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { AnswersView } from '../../../components/forms/AnswersView.tsx';
import { LoadingNote } from '../../../components/states/Loading.tsx';
import { StarIcon } from '../../../components/icons.tsx';
import { TagsInput } from '../../../components/ui/tags-input.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EntryStatusBadge } from '../projects/kit.tsx';
import { staffContent } from '../content-language.tsx';

/** Where a gallery photo's answer is reviewed (mission entries) or read (survey responses). */
export function sourceHref(item: GalleryItem): string {
  if (item.entryId !== null && item.missionId !== null) {
    return `/admin/projects/${item.projectId}/missions/${item.missionId}?status=all&submission=${item.entryId}#review`;
  }
  return `/admin/projects/${item.projectId}/surveys/${item.surveyId ?? ''}`;
}

/** The name a downloaded photo gets: the ZIP's name for it. */
export function downloadName(item: GalleryItem): string {
  return galleryZipName(item, 'jpg');
}

/** The answers of the entry's current version: its latest submitted version, or its draft before any (the rule of `entry-versions.ts`). */
function EntryAnswers({ entryId }: { entryId: number }) {
  const { load } = useResource<ReviewSubmission>(`/api/admin/submissions/${entryId}`);
  if (load.status === 'loading') return <LoadingNote label={m.gallery_answers_loading()} />;
  if (load.status !== 'ready') return <p className="text-sm text-muted-foreground">{m.gallery_answers_failed({ message: load.message })}</p>;
  const latest = load.data.history.at(-1);
  // The questions in the staff member's language when the version offers it (decision 035).
  const content = staffContent(load.data.definition);
  return (
    <>
      <p className="text-xs text-muted-foreground">
        {latest
          ? m.gallery_answers_version({ version: formatCount(latest.version), date: formatDateTime(latest.submittedAt) })
          : m.gallery_answers_not_submitted()}
      </p>
      <div {...content.attributes}>
        <AnswersView definition={content.definition} answers={latest?.answers ?? load.data.answers} photos={{ thumbnailUrl }} />
      </div>
    </>
  );
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
          {item.projectName} · {item.sourceTitle || (item.entryId !== null ? m.gallery_panel_mission() : m.gallery_panel_survey())}
        </p>
        <p className="text-sm text-muted-foreground">{m.gallery_panel_uploaded({ date: formatDateTime(item.createdAt) })}</p>
        {item.entryStatus && (
          <p className="text-sm">
            <EntryStatusBadge status={item.entryStatus} />
          </p>
        )}
      </div>
      {item.versionState !== 'current' && (
        <p className="flex flex-col gap-1 rounded-md border border-border bg-muted p-3 text-sm">
          <Badge variant="outline" className="self-start">
            {GALLERY_VERSION_LABELS[item.versionState].badge}
          </Badge>
          {GALLERY_VERSION_LABELS[item.versionState].text}
        </p>
      )}
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant={item.starred ? 'default' : 'outline'} aria-pressed={item.starred} onClick={() => onStar(!item.starred)}>
            <StarIcon className="size-4" /> {m.gallery_panel_star()}
          </Button>
          <Button asChild variant="outline">
            <a href={item.url} download={downloadName(item)} aria-describedby={`${tagsId}-download`}>
              {m.gallery_panel_download()}
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={sourceHref(item)}>{item.entryId !== null ? m.gallery_panel_open_entry() : m.gallery_panel_open_survey()}</a>
          </Button>
        </div>
        <p id={`${tagsId}-download`} className="text-xs text-muted-foreground">
          {m.gallery_panel_stored({ side: formatCount(MEDIA_LIMITS.displaySide) })}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <label htmlFor={tagsId} className="text-sm font-medium">
          {m.gallery_panel_tags()}
        </label>
        <TagsInput
          id={tagsId}
          value={item.tags}
          max={GALLERY_LIMITS.tagsMax}
          maxLength={GALLERY_LIMITS.tagLength}
          tooLongMessage={GALLERY_MESSAGES.tagTooLong}
          onChange={onTags}
          disabled={false}
        />
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {saving ? m.gallery_panel_saving() : m.gallery_panel_tags_saved()}
        </p>
      </div>
      {item.entryId !== null ? (
        <section aria-label={m.gallery_panel_answers_label()} className="flex flex-col gap-2 border-t border-border pt-4">
          <h2 className="text-sm font-semibold">{m.gallery_panel_answers_heading()}</h2>
          <EntryAnswers key={item.entryId} entryId={item.entryId} />
        </section>
      ) : (
        <p className="border-t border-border pt-4 text-sm text-muted-foreground">{m.gallery_panel_survey_photo()}</p>
      )}
    </div>
  );
}
