/**
 * Home's "News from your projects": the latest announcements of the participant's live projects
 * (`GET /api/home`, `announcements`), newest first. Each is a disclosure (a native <details>, so
 * keyboard and screen readers know it): the newest open, the others by their title, so a phone's
 * first screen still reaches the work to do. Its anchor (`#announcement-{id}`, the notification's
 * link) opens it. The text is the staff's Markdown, rendered safely (`Markdown`: no raw HTML, safe
 * links only).
 */
import { useEffect, useState } from 'react';
import type { HomeAnnouncement } from '../../shared/announcements.ts';
import { Markdown } from '../../components/forms/Markdown.tsx';
import { Card } from '../../components/ui/card.tsx';
import { formatDate } from '../../lib/format.ts';
import { m } from '../../shared/i18n.ts';

/** The element id of an announcement on home (the notification's link ends with it). */
export const announcementAnchor = (id: number): string => `announcement-${id}`;

export function HomeAnnouncements({ items }: { items: readonly HomeAnnouncement[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="home-news" className="mb-8 flex flex-col gap-3">
      <h2 id="home-news" className="text-xl font-semibold tracking-tight">
        {m.participant_home_news()}
      </h2>
      <ul className="flex flex-col gap-3">
        {items.map((announcement, index) => (
          <li key={announcement.id}>
            <AnnouncementCard announcement={announcement} initiallyOpen={index === 0} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function AnnouncementCard({ announcement, initiallyOpen }: { announcement: HomeAnnouncement; initiallyOpen: boolean }) {
  const anchor = announcementAnchor(announcement.id);
  const [open, setOpen] = useState(initiallyOpen);
  // Arriving from the notification (`/#announcement-{id}`), or following it from the bell while on home: open it.
  useEffect(() => {
    const openIfTarget = () => {
      if (window.location.hash === `#${anchor}`) setOpen(true);
    };
    openIfTarget();
    window.addEventListener('hashchange', openIfTarget);
    return () => window.removeEventListener('hashchange', openIfTarget);
  }, [anchor]);
  return (
    <Card asChild className="group scroll-mt-6 border-s-4 border-s-primary">
      <details id={anchor} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className="flex cursor-pointer list-none flex-col gap-1 rounded-xl px-4 py-3 outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
          <span className="text-xs font-medium text-muted-foreground">
            <span>{announcement.projectName}</span>
            <span aria-hidden="true"> · </span>
            <time dateTime={announcement.createdAt}>{formatDate(announcement.createdAt)}</time>
          </span>
          <span className="flex items-start justify-between gap-3">
            <span className="text-lg leading-snug font-semibold break-words">{announcement.title}</span>
            <span aria-hidden="true" className="mt-1 shrink-0 text-sm text-primary group-open:hidden">
              {m.participant_home_news_read()}
            </span>
            <span aria-hidden="true" className="mt-1 hidden shrink-0 text-sm text-muted-foreground group-open:inline">
              {m.participant_home_news_hide()}
            </span>
          </span>
        </summary>
        <div className="border-t border-border px-4 pt-3 pb-4">
          <Markdown headingLevel={3}>{announcement.body}</Markdown>
        </div>
      </details>
    </Card>
  );
}
