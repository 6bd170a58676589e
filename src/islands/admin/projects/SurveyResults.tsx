/**
 * A native survey's results (`GET /api/admin/surveys/{id}/results`), one card per question: a
 * bar chart of the counts per option with their percentages (recharts; the same numbers are in a
 * table for screen readers, the chart itself is hidden from them), the average, lowest and
 * highest for ratings, scales and numbers, a table for matrices, and the latest text answers.
 * Loaded on its own (recharts is large) when the Results tab shows. Questions and options read in
 * the staff member's language when the version offers it (`staffContent`; decision 035).
 */
import { useId, useMemo, useState } from 'react';
import { Bar, BarChart, LabelList, XAxis, YAxis } from 'recharts';
import { ResultsSkeleton } from './kit.tsx';
import { formatAverage, percentOf } from './logic.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import type { ResultElement, SurveyResults as Results } from './types.ts';
import type { FormVersion } from '../../../shared/schemas/forms.ts';
import { OTHER_OPTION_ID } from '../../../shared/surveys.ts';
import { useResource } from '../../../lib/resource.ts';
import { languageFilterOptions, localizedResults, staffContent, type ContentAttributes } from '../content-language.tsx';
import { FilterSelect } from '../admin-kit.tsx';
import { withQuery } from '../../../platform/api.ts';
import { isLanguage } from '../../../shared/languages.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { knownTypeLabel } from '../forms/catalog.ts';

/** A type's name as the builder says it, but "Photos": a photo question's answers are photos. */
const resultTypeLabel = (type: string): string => (type === 'photo' ? m.projects_results_type_photos() : (knownTypeLabel(type) ?? type));

/** A share as the results write it ("33.3%"), in the page's digits. */
const percentText = (count: number, whole: number): string => m.projects_percent({ percent: formatAverage(percentOf(count, whole)) });

/** At most this many characters of an option's label beside its bar (the table has them whole). */
const TICK_MAX = 26;
const shorten = (text: string) => (text.length > TICK_MAX ? `${text.slice(0, TICK_MAX - 1)}…` : text);

/** An option's label as the results show it: "Other" in the page's language, else the (localized) label. */
const optionLabel = (option: { id: string; label: string }): string => (option.id === OTHER_OPTION_ID ? m.projects_results_other() : option.label);

export default function SurveyResults({ surveyId, formId, formVersion }: { surveyId: number; formId?: number | null; formVersion?: number | null }) {
  // The results of every response, or of those answered in one language (decision 035).
  const [language, setLanguage] = useState<string>('all');
  const { load, reload } = useResource<Results>(withQuery(`/api/admin/surveys/${surveyId}/results`, isLanguage(language) ? { language } : {}));
  // The version the results are counted on: its texts in the staff member's language when it offers it.
  const version = useResource<FormVersion>(formId != null && formVersion != null ? `/api/admin/forms/${formId}/versions/${formVersion}` : null);
  const definition = version.load.status === 'ready' ? version.load.data.definition : null;
  const content = useMemo(() => (definition ? staffContent(definition) : null), [definition]);
  const elements = useMemo(
    () => (load.status === 'ready' ? (content ? localizedResults(load.data.elements, content.definition) : load.data.elements) : []),
    [load, content],
  );
  // Only a survey with no submitted response at all says so without the filter.
  if (load.status === 'ready' && load.data.submitted === 0 && language === 'all') {
    return <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">{m.projects_results_none()}</p>;
  }
  const attributes = content?.attributes ?? {};
  return (
    <div className="flex flex-col gap-4">
      {/* The filter stays while another language's results load: the keyboard's focus stays on it. */}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        {load.status === 'ready' && <p className="text-sm text-muted-foreground">{m.projects_results_from({ count: load.data.submitted })}</p>}
        <FilterSelect
          label={m.projects_results_language()}
          value={language}
          options={languageFilterOptions(m.projects_results_language_all())}
          onChange={setLanguage}
          className="sm:ms-auto sm:w-44"
        />
      </div>
      {load.status === 'loading' ? (
        <ResultsSkeleton />
      ) : load.status !== 'ready' ? (
        <Failed title={m.projects_results_failed()} message={load.message} onRetry={reload} />
      ) : load.data.submitted === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          {m.projects_results_none_language()}
        </p>
      ) : (
        <ol className="flex flex-col gap-4">
          {elements.map((element, index) => (
            <li key={element.id}>
              <ElementResult element={element} index={index} submitted={load.data.submitted} attributes={attributes} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function ElementResult({
  element,
  index,
  submitted,
  attributes,
}: {
  element: ResultElement;
  index: number;
  submitted: number;
  /** `lang` and `dir` of the version's texts when they are not in the page's language. */
  attributes: ContentAttributes;
}) {
  const headingId = useId();
  const hasAverage = element.average !== undefined && element.average !== null;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-col gap-0.5">
        <h3 id={headingId} className="font-semibold break-words">
          <span className="text-muted-foreground">{formatCount(index + 1)}. </span>
          {element.title ? <span {...attributes}>{element.title}</span> : m.projects_results_untitled()}
        </h3>
        <p className="text-xs text-muted-foreground">
          {resultTypeLabel(element.type)} ·{' '}
          {m.projects_results_answered({
            answered: formatCount(element.answered),
            submitted: formatCount(submitted),
            percent: percentText(element.answered, submitted),
          })}
        </p>
      </div>
      {hasAverage && (
        <dl className="flex flex-wrap gap-x-6 gap-y-2">
          <Stat term={m.projects_results_average()} value={formatAverage(element.average)} strong />
          {element.min !== undefined && <Stat term={m.projects_results_lowest()} value={formatAverage(element.min)} />}
          {element.max !== undefined && <Stat term={m.projects_results_highest()} value={formatAverage(element.max)} />}
        </dl>
      )}
      {element.options && element.options.length > 0 && <OptionsChart element={element} options={element.options} attributes={attributes} />}
      {element.rows && element.rows.length > 0 && <MatrixTable element={element} rows={element.rows} attributes={attributes} />}
      {element.samples && element.samples.length > 0 && (
        <div className="flex flex-col gap-2">
          <h4 className="text-sm font-medium">{m.projects_results_latest()}</h4>
          <ul className="flex flex-col gap-1.5">
            {element.samples.map((sample, sampleIndex) => (
              // A participant's own words, in whatever language they wrote: the browser finds its direction.
              <li key={sampleIndex} dir="auto" className="rounded-md bg-muted px-3 py-2 text-start text-sm break-words whitespace-pre-line">
                {sample}
              </li>
            ))}
          </ul>
        </div>
      )}
      {element.answered === 0 && <p className="text-sm text-muted-foreground">{m.projects_results_nobody()}</p>}
    </section>
  );
}

function Stat({ term, value, strong = false }: { term: string; value: string; strong?: boolean }) {
  return (
    <div className="flex items-baseline gap-1.5">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className={strong ? 'text-2xl font-semibold tabular-nums' : 'text-sm font-medium tabular-nums'}>{value}</dd>
    </div>
  );
}

/** Counts per option: a horizontal bar chart for the eye, a table with the same numbers for everyone else. */
function OptionsChart({
  element,
  options,
  attributes,
}: {
  element: ResultElement;
  options: NonNullable<ResultElement['options']>;
  attributes: ContentAttributes;
}) {
  const data = options.map((option) => {
    const percent = percentText(option.count, element.answered);
    const count = formatCount(option.count);
    const label = optionLabel(option);
    return { id: option.id, label, short: shorten(label), count: option.count, percent, display: `${count} (${percent})` };
  });
  const height = Math.max(80, data.length * 36 + 16);
  // Room for the longest (shortened) label, about 7 px a character at 12 px.
  const axisWidth = Math.min(170, Math.max(28, ...data.map((row) => row.short.length * 7 + 12)));
  return (
    <div className="flex flex-col gap-2">
      {/* The chart is drawn left to right in every language (dir="ltr"): recharts places its texts by
          `text-anchor`, which a right-to-left page turns around, and its reversed axis put the counts
          over the labels (Arabic). The table below reads in the page's direction. */}
      <div
        aria-hidden="true"
        dir="ltr"
        className="w-full text-foreground [&_.recharts-bar-rectangle_path]:fill-primary [&_.recharts-cartesian-axis-tick-value]:fill-foreground [&_.recharts-label]:fill-muted-foreground"
      >
        <BarChart
          layout="vertical"
          data={data}
          responsive
          accessibilityLayer={false}
          style={{ width: '100%', height }}
          margin={{ top: 4, right: 72, bottom: 4, left: 4 }}
        >
          <XAxis type="number" hide allowDecimals={false} domain={[0, 'dataMax']} />
          <YAxis type="category" dataKey="short" width={axisWidth} tickLine={false} axisLine={false} tick={{ fontSize: 12 }} interval={0} />
          <Bar dataKey="count" radius={[0, 4, 4, 0]} barSize={20} isAnimationActive={false} minPointSize={2}>
            <LabelList dataKey="display" position="right" style={{ fontSize: 12 }} />
          </Bar>
        </BarChart>
      </div>
      {/* A table lays out at its content width whatever its own box: the hidden box clips it. */}
      <div className="sr-only">
        <table>
          <caption>{m.projects_results_per_option({ title: element.title || m.projects_results_untitled() })}</caption>
          <thead>
            <tr>
              <th scope="col">{m.projects_results_option()}</th>
              <th scope="col">{m.projects_results_count()}</th>
              <th scope="col">{m.projects_results_percent_answered()}</th>
            </tr>
          </thead>
          <tbody>
            {data.map((row) => (
              <tr key={row.id}>
                <th scope="row" {...(row.id === OTHER_OPTION_ID ? {} : attributes)}>
                  {row.label}
                </th>
                <td>{formatCount(row.count)}</td>
                <td>{row.percent}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A matrix: rows × columns with the count in each cell (visible: a table reads well here). */
function MatrixTable({ element, rows, attributes }: { element: ResultElement; rows: NonNullable<ResultElement['rows']>; attributes: ContentAttributes }) {
  const columns = rows[0]?.columns ?? [];
  return (
    <div
      role="region"
      aria-label={m.projects_results_matrix_counts({ title: element.title || m.projects_results_matrix() })}
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable to scroll with the keyboard (axe: scrollable-region-focusable)
      tabIndex={0}
      className="overflow-x-auto rounded-md focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className="relative w-full min-w-[24rem] border-collapse text-sm">
        <caption className="sr-only">{m.projects_results_per_row_column({ title: element.title || m.projects_results_untitled() })}</caption>
        <thead>
          <tr>
            <td className="border-b border-border px-2 py-1.5" />
            {columns.map((column) => (
              <th
                key={column.id}
                scope="col"
                {...attributes}
                className="border-b border-border px-2 py-1.5 text-center text-xs font-semibold text-muted-foreground"
              >
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const total = row.columns.reduce((sum, column) => sum + column.count, 0);
            return (
              <tr key={row.id}>
                <th scope="row" {...attributes} className="border-b border-border px-2 py-1.5 text-start font-medium">
                  {row.label}
                </th>
                {row.columns.map((column) => (
                  <td key={column.id} className="border-b border-border px-2 py-1.5 text-center tabular-nums">
                    {formatCount(column.count)}
                    <span className="block text-xs text-muted-foreground">{percentText(column.count, total)}</span>
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
