/** The one date formatter (src/shared/dates.ts, issue 28 §12): one style on every screen, mail and stored sentence. */
import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDate, formatDateTime, formatDateTimeWithZone, formatShortDay, formatWeekdayDay } from '../../src/shared/dates.ts';

describe('dates', () => {
  const moment = new Date('2026-11-28T19:54:00Z');

  it('writes a moment month first, in the zone given', () => {
    expect(formatDate(moment, 'UTC')).toBe('Nov 28, 2026');
    expect(formatDateTime(moment, 'UTC')).toBe('Nov 28, 2026, 7:54 PM');
    expect(formatDateTime(moment.toISOString(), 'Asia/Tokyo')).toBe('Nov 29, 2026, 4:54 AM');
    expect(formatDateTimeWithZone(moment, 'UTC')).toBe('Nov 28, 2026, 7:54 PM UTC');
    expect(formatShortDay(moment, 'UTC')).toBe('Nov 28');
    expect(formatShortDay(new Date('2026-09-14T00:00:00Z'), 'UTC')).toBe('Sep 14');
    expect(formatWeekdayDay(moment, 'UTC')).toBe('Sat, Nov 28');
    expect(formatDate('not a date')).toBe('');
  });

  it('writes a calendar day as it is, whatever the zone', () => {
    expect(formatCalendarDay('2026-03-05')).toBe('Mar 5, 2026');
    expect(formatCalendarDay('5 March')).toBe('5 March');
  });
});
