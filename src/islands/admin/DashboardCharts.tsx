/**
 * The dashboard's two charts (recharts, SVG): participant sign-ups per week and mission entries
 * submitted per day. Loaded on demand by Dashboard.tsx (React.lazy), so recharts is never part of
 * the first load of an admin page. Each chart is a figure with its title and a one-line summary
 * (the SVG's <title> and <desc>, recharts' keyboard accessibility layer), and the numbers
 * themselves in a visually hidden table for screen readers.
 */
import { useId } from 'react';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import type { DashboardAnswer } from '../../shared/dashboard.ts';
import { formatShortDay } from '../../shared/dates.ts';
import { formatCount, m } from '../../shared/i18n.ts';

/** "Nov 3" for a `YYYY-MM-DD` day (UTC). */
export function shortDay(day: string): string {
  return formatShortDay(`${day}T00:00:00Z`, 'UTC');
}

interface Point {
  label: string;
  count: number;
}

/** How a chart's summary names its points: "in the week of 23 Nov" / "this week", "on 23 Nov" / "today". */
export interface PointWords {
  /** The things counted, one and many ("submission", "submissions"); with `count`, only the many (which also says "none of them"). */
  noun: readonly [one: string, many: string] | readonly [many: string];
  /** "5 submissions" in the page's language (a plural message); without it, the number and `noun`. */
  count?: (n: number) => string;
  period: string;
  point: (label: string) => string;
  latest: string;
}

/** One sentence a screen reader hears before the table (and everyone reads under the title): total, highest, latest. */
export function chartSummary(points: readonly Point[], words: PointWords): string {
  const total = points.reduce((sum, point) => sum + point.count, 0);
  const many = words.noun[words.noun.length - 1] ?? '';
  const count = words.count ?? ((n: number) => `${formatCount(n)} ${n === 1 ? words.noun[0] : many}`);
  if (total === 0) return m.admin_charts_none({ nouns: many, period: words.period });
  const top = points.reduce((best, point) => (point.count > best.count ? point : best));
  const last = points.at(-1) ?? top;
  const most = m.admin_charts_most({ point: words.point(top.label), count: formatCount(top.count) });
  return m.admin_charts_summary({ total: count(total), period: words.period, most, latest: words.latest, last: formatCount(last.count) });
}

function Chart({
  title,
  rowLabel,
  columnLabel,
  points,
  words,
  color,
}: {
  title: string;
  /** The table's first column: "Week of", "Day". */
  rowLabel: string;
  columnLabel: string;
  points: Point[];
  words: PointWords;
  color: string;
}) {
  const id = useId();
  const summary = chartSummary(points, words);
  return (
    <figure aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`} className="flex min-w-0 flex-col gap-3">
      <figcaption className="flex flex-col gap-1">
        <span id={`${id}-title`} className="font-semibold">
          {title}
        </span>
        <span id={`${id}-summary`} className="text-sm text-muted-foreground">
          {summary}
        </span>
      </figcaption>
      <BarChart
        data={points}
        responsive
        accessibilityLayer
        title={title}
        desc={summary}
        aria-label={title}
        style={{ width: '100%', height: 220 }}
        margin={{ top: 8, right: 8, bottom: 0, left: -16 }}
      >
        <CartesianGrid vertical={false} stroke="var(--color-border)" />
        <XAxis dataKey="label" tickLine={false} axisLine={false} minTickGap={12} tick={{ fill: 'var(--color-muted-foreground)', fontSize: 12 }} />
        <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={48} tick={{ fill: 'var(--color-muted-foreground)', fontSize: 12 }} />
        <Tooltip
          cursor={{ fill: 'var(--color-muted)' }}
          contentStyle={{ background: 'var(--color-card)', border: '1px solid var(--color-border)', borderRadius: 8, color: 'var(--color-foreground)' }}
          formatter={(value) => [value, columnLabel]}
        />
        <Bar dataKey="count" name={columnLabel} fill={color} radius={[3, 3, 0, 0]} isAnimationActive={false} />
      </BarChart>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{rowLabel}</th>
            <th scope="col">{columnLabel}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.label}>
              <th scope="row">{point.label}</th>
              <td>{formatCount(point.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** Both charts, side by side from large screens. */
export default function DashboardCharts({ data }: { data: Pick<DashboardAnswer, 'signupsPerWeek' | 'submissionsPerDay'> }) {
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <Chart
        title={m.admin_charts_signups_title()}
        rowLabel={m.admin_charts_week_of()}
        columnLabel={m.admin_charts_signups()}
        points={data.signupsPerWeek.map((week) => ({ label: shortDay(week.week), count: week.count }))}
        words={{
          noun: [m.admin_charts_signups_nouns()],
          count: (count) => m.admin_charts_signups_count({ count }),
          period: m.admin_charts_last_12_weeks(),
          point: (day) => m.admin_charts_in_week_of({ day }),
          latest: m.admin_charts_this_week(),
        }}
        color="var(--color-primary)"
      />
      <Chart
        title={m.admin_charts_submissions_title()}
        rowLabel={m.admin_charts_day()}
        columnLabel={m.admin_charts_submissions()}
        points={data.submissionsPerDay.map((day) => ({ label: shortDay(day.day), count: day.count }))}
        words={{
          noun: [m.admin_charts_submissions_nouns()],
          count: (count) => m.admin_charts_submissions_count({ count }),
          period: m.admin_charts_last_30_days(),
          point: (day) => m.admin_charts_on_day({ day }),
          latest: m.admin_charts_today(),
        }}
        color="var(--color-primary)"
      />
    </div>
  );
}
