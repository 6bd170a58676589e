/**
 * The content of one version of a mission entry, as the review screen shows it: the answers
 * (`AnswersView`, photos as thumbnails that open the UI kit's lightbox at their display size) and
 * the participant's other entries in the mission (each one opens in the review in turn). The
 * review's other parts (decision, versions, notes, probes) are beside this file.
 */
import { thumbnailUrl } from '../../../shared/media.ts';
import { useCallback, useState, type ReactNode } from 'react';
import type { Answers, FormDefinition } from '../../../shared/forms/definition.ts';
import type { ReviewSubmission } from '../../../shared/review.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { AnswersView, type VideoState } from '../../../components/forms/AnswersView.tsx';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Lightbox, type LightboxItem } from '../../../components/ui/lightbox.tsx';
import { EntryStatusBadge, formatDay, Moment } from '../projects/kit.tsx';

/** Where a stored photo's thumbnail is. */
/** Where a stored photo's display image is (what the lightbox shows). */
export const photoUrl = (mediaId: string): string => `/api/media/${mediaId}`;

/** Opens a set of photos in the lightbox at one of them. */
export type OpenPhotos = (ids: readonly string[], start: string) => void;

/**
 * One lightbox for a screen: `open(ids, start)` shows those photos (named "Photo i of n by who"),
 * starting at `start`; `lightbox` is the element to render once.
 */
export function usePhotoLightbox(who: string): { open: OpenPhotos; lightbox: ReactNode } {
  const [state, setState] = useState<{ items: LightboxItem[]; index: number } | null>(null);
  const open = useCallback<OpenPhotos>(
    (ids, start) => {
      const items = ids.map((id, index) => ({
        src: photoUrl(id),
        alt: m.review_photo_alt({ index: formatCount(index + 1), total: formatCount(ids.length), name: who }),
        title: m.review_photo_title({ index: formatCount(index + 1), total: formatCount(ids.length) }),
      }));
      const index = Math.max(0, ids.indexOf(start));
      if (items.length > 0) setState({ items, index });
    },
    [who],
  );
  const lightbox = (
    <Lightbox
      items={state?.items ?? []}
      open={state !== null}
      onOpenChange={(next) => !next && setState(null)}
      index={state?.index ?? 0}
      onIndexChange={(index) => setState((current) => (current ? { ...current, index } : current))}
    />
  );
  return { open, lightbox };
}

/**
 * An entry version's answers read-only; a photo opens the lightbox with every photo of these answers
 * (`photos`, in form order). `today`: the entry's day, for the form's date conditions.
 */
export function EntryVersionAnswers({
  definition,
  answers,
  photos,
  videos,
  today,
  onOpenPhotos,
  className,
}: {
  definition: FormDefinition;
  answers: Answers;
  photos: readonly string[];
  /** The videos' states (the submission's `media` of kind `video`): processing or failed ones say so. */
  videos?: readonly VideoState[];
  today?: string | undefined;
  onOpenPhotos: OpenPhotos;
  className?: string;
}) {
  return (
    <AnswersView
      className={className}
      definition={definition}
      answers={answers}
      today={today}
      photos={{ thumbnailUrl }}
      videos={videos}
      onOpenPhoto={(mediaId) => onOpenPhotos(photos.includes(mediaId) ? photos : [mediaId], mediaId)}
    />
  );
}

/** An entry's status inside a sentence ("Open the submitted entry"). */
const STATUS_SPOKEN: Record<ReviewSubmission['otherEntries'][number]['status'], () => string> = {
  draft: m.review_status_spoken_draft,
  submitted: m.review_status_spoken_submitted,
  approved: m.review_status_spoken_approved,
  changes_requested: m.review_status_spoken_changes_requested,
  rejected: m.review_status_spoken_rejected,
};

/** The participant's other entries in this mission, each with a button that opens it. */
export function OtherEntries({ entries, who, onOpen }: { entries: ReviewSubmission['otherEntries']; who: string; onOpen: (id: number) => void }) {
  if (entries.length === 0) return <p className="text-sm text-muted-foreground">{m.review_other_entries_none({ name: who })}</p>;
  return (
    <ul className="flex flex-col divide-y divide-border rounded-lg border border-border">
      {entries.map((entry) => (
        <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 p-2.5 text-sm">
          <span className="flex flex-wrap items-center gap-2">
            <EntryStatusBadge status={entry.status} />
            {entry.localDate ? formatDay(entry.localDate) : null}
            {entry.submittedAt && (
              <span className="text-muted-foreground">
                {withNodes((marks) => m.review_other_entries_submitted({ time: marks.time }), { time: <Moment value={entry.submittedAt} /> })}
              </span>
            )}
          </span>
          <Button variant="outline" size="sm" onClick={() => onOpen(entry.id)}>
            {m.review_other_entries_open()}
            <span className="sr-only">
              {' '}
              {entry.localDate
                ? m.review_other_entries_which_day({ status: STATUS_SPOKEN[entry.status](), day: formatDay(entry.localDate) })
                : m.review_other_entries_which({ status: STATUS_SPOKEN[entry.status]() })}
            </span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
