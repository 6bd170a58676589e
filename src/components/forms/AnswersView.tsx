/**
 * A response, read-only: each question the person saw, in order, with its answer in words
 * (option labels, "Other: …", rankings as ordered lists, matrices as small tables, dates
 * written out, photos as thumbnails, videos as players with their poster). Questions left empty say "Not answered"; statements and
 * questions hidden by conditions are left out. Used by moderators (review) and participants
 * (their history).
 */
import type { ReactNode } from 'react';
import type { AnswerValue, Answers, FormDefinition, FormElement, FormOption } from '../../shared/forms/definition.ts';
import { isAnswered, isOtherAnswer, isPlainObject, resolveVisibility } from '../../shared/forms/logic.ts';
import { deviceDate } from '../../shared/calendar-day.ts';
import { cn } from '../../lib/utils.ts';
import { formatNumber, own } from './form-utils.ts';
import { formatCount, formatDuration, m } from '../../shared/i18n.ts';
import { posterUrl, videoUrl, type MediaStatus } from '../../shared/media.ts';
import { withNodes } from './rich-text.tsx';
import type { Thumbnails } from './types.ts';
import { formatCalendarDay } from '../../shared/dates.ts';

/** What the view needs to know of a video answer (a `SubmissionMedia` fits). */
export interface VideoState {
  id: string;
  status: MediaStatus;
  failureReason: string | null;
  durationMs: number | null;
}

export interface AnswersViewProps {
  definition: FormDefinition;
  answers: Answers;
  /** Where thumbnails of the photo answers are; without it photos are counted only. */
  photos?: Thumbnails;
  /** Makes each thumbnail a button that opens the photo (e.g. in a lightbox). */
  onOpenPhoto?(mediaId: string): void;
  /**
   * Where each video answer stands (the submission's `media`): a ready one plays with its length
   * shown, one still processing or failed says so. Without it (or for an id it does not know),
   * a video is offered as a player of its URLs.
   */
  videos?: readonly VideoState[];
  /** The day "today" stands for in conditions (default: the browser's local date). */
  today?: string;
  className?: string;
}

/** `2026-03-05` → "Mar 5, 2026" (the calendar day as written, whatever the time zone). */
export function formatAnswerDate(value: string): string {
  return formatCalendarDay(value);
}

function labelOf(options: readonly FormOption[], id: string): string {
  return options.find((option) => option.id === id)?.label ?? id;
}

/** A choice in words; the participant's own "Other" text keeps its own direction (Arabic on an English page). */
function choiceText(options: readonly FormOption[], item: unknown): ReactNode {
  if (isOtherAnswer(item)) return withNodes((marks) => m.participant_form_other_answer({ text: marks.text }), { text: <span dir="auto">{item.other}</span> });
  return typeof item === 'string' ? labelOf(options, item) : String(item);
}

/** A rating's or scale's point in the page's digits (ungrouped, as the control shows it). */
function pointText(value: AnswerValue): string {
  return typeof value === 'number' ? formatNumber(value, false) : String(value);
}

const Muted = ({ children }: { children: ReactNode }) => <span className="text-muted-foreground">{children}</span>;

/* eslint-disable jsx-a11y/media-has-caption -- a participant's recording comes with no caption track to offer */
function Videos({ ids, videos }: { ids: string[]; videos: AnswersViewProps['videos'] }) {
  return (
    <ul className="flex flex-col gap-3">
      {ids.map((id, index) => {
        const state = videos?.find((video) => video.id === id);
        const label = m.participant_form_video_label({ number: formatCount(index + 1), total: formatCount(ids.length) });
        if (state && state.status === 'failed')
          return (
            <li key={id}>
              {label}: {m.participant_form_video_failed({ reason: state.failureReason ?? '' })}
            </li>
          );
        if (state && state.status !== 'ready')
          return (
            <li key={id}>
              {label}: {m.participant_form_video_processing()}
            </li>
          );
        return (
          <li key={id} className="flex flex-col gap-1">
            <video
              controls
              preload="none"
              poster={posterUrl(id)}
              aria-label={label}
              className="aspect-video w-full max-w-md rounded-md border border-border bg-black"
            >
              <source src={videoUrl(id)} type="video/mp4" />
            </video>
            {state?.durationMs != null && <Muted>{m.participant_form_video_length({ length: formatDuration(state.durationMs / 1000) })}</Muted>}
          </li>
        );
      })}
    </ul>
  );
}
/* eslint-enable jsx-a11y/media-has-caption */

function Photos({ ids, photos, onOpenPhoto }: { ids: string[]; photos: AnswersViewProps['photos']; onOpenPhoto: AnswersViewProps['onOpenPhoto'] }) {
  if (!photos) return <>{m.participant_form_photos_count({ count: ids.length })}</>;
  return (
    <ul className="flex flex-wrap gap-2">
      {ids.map((id, index) => {
        const image = (
          // "Photo 2 of 3" says which photo it is: the position is the only name a participant's photo has
          <img
            src={photos.thumbnailUrl(id)}
            alt={m.participant_form_photo_alt({ number: formatCount(index + 1), total: formatCount(ids.length) })}
            className="size-20 rounded-md object-cover"
            loading="lazy"
          />
        );
        return (
          <li key={id}>
            {onOpenPhoto ? (
              <button
                type="button"
                className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                onClick={() => onOpenPhoto(id)}
              >
                {image}
              </button>
            ) : (
              image
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One answer in words (the element is answerable and the value answered). */
function AnswerText({
  element,
  value,
  photos,
  onOpenPhoto,
  videos,
}: { element: FormElement; value: AnswerValue } & Pick<AnswersViewProps, 'photos' | 'onOpenPhoto' | 'videos'>): ReactNode {
  switch (element.type) {
    case 'short_text':
    case 'long_text':
      return (
        <span dir="auto" className="whitespace-pre-wrap">
          {String(value)}
        </span>
      );
    case 'single_choice':
    case 'dropdown':
      return choiceText(element.options, value);
    case 'multiple_choice':
      return Array.isArray(value) ? (
        <ul className="list-disc ps-5">
          {value.map((item, index) => (
            <li key={index}>{choiceText(element.options, item)}</li>
          ))}
        </ul>
      ) : (
        String(value)
      );
    case 'rating':
      return m.participant_form_value_of_max({ value: pointText(value), max: formatCount(element.max) });
    case 'scale': {
      const label = value === element.min ? element.minLabel : value === element.max ? element.maxLabel : undefined;
      const shown = m.participant_form_scale_answer({ value: pointText(value), min: pointText(element.min), max: pointText(element.max) });
      return `${shown}${label ? ` – ${label}` : ''}`;
    }
    case 'number':
      return typeof value === 'number' ? `${formatNumber(value)}${element.unit ? ` ${element.unit}` : ''}` : String(value);
    case 'date':
      return typeof value === 'string' ? <time dateTime={value}>{formatAnswerDate(value)}</time> : String(value);
    case 'consent':
      return value === true ? m.participant_form_agreed() : String(value);
    case 'photo':
      return Array.isArray(value) ? (
        <Photos ids={value.filter((id): id is string => typeof id === 'string')} photos={photos} onOpenPhoto={onOpenPhoto} />
      ) : (
        String(value)
      );
    case 'video':
      return Array.isArray(value) ? <Videos ids={value.filter((id): id is string => typeof id === 'string')} videos={videos} /> : String(value);
    case 'ranking':
      return Array.isArray(value) ? (
        <ol className="list-decimal ps-5">
          {value.map((item, index) => (
            <li key={index}>{choiceText(element.options, item)}</li>
          ))}
        </ol>
      ) : (
        String(value)
      );
    case 'matrix': {
      if (!isPlainObject(value)) return String(value);
      const cells = value as Record<string, unknown>;
      return (
        <table className="w-full max-w-xl text-start text-sm">
          <tbody>
            {element.rows.map((row) => {
              const cell = own(cells, row.id);
              const text = Array.isArray(cell)
                ? cell.map((id) => labelOf(element.columns, String(id))).join(', ')
                : typeof cell === 'string'
                  ? labelOf(element.columns, cell)
                  : '';
              return (
                <tr key={row.id} className="border-b border-border last:border-0">
                  <th scope="row" className="py-1.5 pe-4 font-normal text-muted-foreground">
                    {row.label}
                  </th>
                  <td className="py-1.5">{text || <Muted>{m.participant_form_not_answered()}</Muted>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      );
    }
    default:
      return null;
  }
}

/** A read-only description list of a response's answers. */
export function AnswersView({ definition, answers, photos, onOpenPhoto, videos, today, className }: AnswersViewProps) {
  const { pages, elementIds } = resolveVisibility(definition, answers, { today: today ?? deviceDate() });
  const shown = pages.flatMap((page) => page.elements).filter((element) => element.type !== 'statement' && elementIds.has(element.id));
  return (
    <dl className={cn('flex flex-col gap-4', className)}>
      {shown.map((element) => {
        const value = own(answers, element.id);
        return (
          <div key={element.id} className="flex flex-col gap-1">
            <dt className="text-sm font-medium text-muted-foreground break-words">{element.title}</dt>
            <dd className="text-sm break-words">
              {value !== undefined && isAnswered(value) ? (
                <AnswerText element={element} value={value} photos={photos} onOpenPhoto={onOpenPhoto} videos={videos} />
              ) : (
                <Muted>{m.participant_form_not_answered()}</Muted>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
