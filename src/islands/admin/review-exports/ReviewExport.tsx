/**
 * /admin/tools/export-reviews-unilever: a project's product-review missions as reviews for a
 * client's ratings-and-reviews platform. Choose the project, its missions (product id shown; a
 * missing one is a problem), the dates and states, the form question behind each review field
 * (per mission, defaults by type), the format (CSV, Excel, PowerReviews, Bazaarvoice with its
 * campaign id); "Preview" shows the first 20 reviews and every problem, "Download" saves the file
 * (with progress); the exports made are listed below. Admins only (moderators are told so; the
 * API refuses them anyway). docs/api.md "Review export"; decision 017.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import {
  elementsFor,
  REVIEW_EXPORT_FORMAT_LABELS,
  REVIEW_EXPORT_FORMATS,
  REVIEW_FIELD_LABELS,
  REVIEW_FIELDS,
  REQUIRED_REVIEW_FIELDS,
  type ReviewExportFormat,
  type ReviewExportMission,
  type ReviewExportPreview,
  type ReviewExportRecord,
  type ReviewField,
  type ReviewMapping,
} from '../../../shared/review-exports.ts';
import type { ReviewExportInput } from '../../../shared/schemas/review-exports.ts';
import { MESSAGES } from '../../../shared/messages.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useAuth } from '../../../lib/use-auth.ts';
import { ApiError, apiSend, type FieldErrors } from '../../../platform/api.ts';
import { saveBlob, uploadForFile, type TransferProgress } from '../../../platform/upload.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox.tsx';
import { FieldError, FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { RadioCard, RadioCardGroup } from '../../../components/ui/radio-card.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../../components/ui/select.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { Section, transferProgress, type TransferWords } from '../admin-kit.tsx';

const EXPORT_PATH = '/api/admin/tools/export-reviews';
const HISTORY_PATH = '/api/admin/tools/export-reviews/history';
const NONE = '__none';

const FORMAT_DESCRIPTIONS: Readonly<Record<ReviewExportFormat, () => string>> = {
  csv: m.admin_reviews_format_csv,
  xlsx: m.admin_reviews_format_xlsx,
  powerreviews: m.admin_reviews_format_powerreviews,
  bazaarvoice: m.admin_reviews_format_bazaarvoice,
};

interface ProjectOption {
  id: number;
  name: string;
  client: string;
}

const number = formatCount;
const transferWords = (): TransferWords => ({ starting: m.admin_reviews_preparing(), waiting: m.admin_reviews_preparing() });

export default function ReviewExport() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label={m.admin_reviews_loading()} />;
  if (auth.user.role !== 'admin')
    return (
      <Alert variant="info" title={m.admin_reviews_admins_only_title()}>
        {m.admin_reviews_admins_only_text()}
      </Alert>
    );
  return <ExportTool />;
}

function ExportTool() {
  const ids = useId();
  const projects = useResource<{ items: ProjectOption[] }>('/api/admin/projects?pageSize=100&sort=name');
  const history = useResource<{ items: ReviewExportRecord[] }>(HISTORY_PATH);
  const [projectId, setProjectId] = useState('');
  const missions = useResource<{ items: ReviewExportMission[] }>(projectId ? `/api/admin/tools/export-reviews/projects/${projectId}/missions` : null);
  const [chosen, setChosen] = useState<readonly number[]>([]);
  const [mapping, setMapping] = useState<Record<string, ReviewMapping>>({});
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [withApproved, setWithApproved] = useState(true);
  const [withSubmitted, setWithSubmitted] = useState(false);
  const [format, setFormat] = useState<ReviewExportFormat>('csv');
  const [campaignId, setCampaignId] = useState('');
  const [preview, setPreview] = useState<ReviewExportPreview | null>(null);
  const [fields, setFields] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState<'preview' | 'download' | null>(null);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const missionList = useMemo(() => (missions.load.status === 'ready' && projectId ? missions.load.data.items : []), [missions.load, projectId]);

  // A new project: nothing chosen yet.
  useEffect(() => {
    setChosen([]);
    setMapping({});
    setPreview(null);
    setFields({});
    setAlert(null);
  }, [projectId]);

  // Anything changed: the preview shown no longer fits.
  useEffect(() => {
    setPreview(null);
    setDone(null);
  }, [chosen, mapping, from, to, withApproved, withSubmitted, format, campaignId]);

  function toggleMission(mission: ReviewExportMission, on: boolean) {
    setChosen((current) => (on ? [...current.filter((id) => id !== mission.id), mission.id] : current.filter((id) => id !== mission.id)));
    if (on) setMapping((current) => (current[mission.id] ? current : { ...current, [mission.id]: mission.defaults }));
  }

  function setField(missionId: number, field: ReviewField, value: string) {
    setMapping((current) => {
      const before = current[missionId] ?? { rating: null, title: null, text: null, recommend: null, photos: null };
      return { ...current, [missionId]: { ...before, [field]: value === NONE ? null : value } };
    });
  }

  function request(): ReviewExportInput {
    const missionIds = missionList.filter((mission) => chosen.includes(mission.id)).map((mission) => mission.id);
    return {
      projectId: Number(projectId),
      missionIds,
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      states: [...(withApproved ? (['approved'] as const) : []), ...(withSubmitted ? (['submitted'] as const) : [])],
      format,
      mapping: Object.fromEntries(
        missionIds.map((id) => [String(id), mapping[id] ?? { rating: null, title: null, text: null, recommend: null, photos: null }]),
      ),
      ...(format === 'bazaarvoice' ? { campaignId } : {}),
    };
  }

  function failed(error: unknown) {
    if (handleSessionLost(error)) return;
    if (error instanceof ApiError && error.code === 'validation_failed') {
      setFields(error.fields);
      setAlert(m.admin_reviews_check_fields());
    } else setAlert(errorMessage(error));
  }

  /**
   * A project first (the missions to tick come with it); the rest — a mission ticked, approved or
   * submitted, Bazaarvoice's campaign id — the API checks and words beside each field.
   */
  function projectChosen(): boolean {
    if (projectId !== '') return true;
    setFields({ projectId: [MESSAGES.required] });
    setAlert(m.admin_reviews_choose_project_first());
    return false;
  }

  async function runPreview() {
    setAlert(null);
    setFields({});
    if (!projectChosen()) return;
    setBusy('preview');
    try {
      setPreview(await apiSend<ReviewExportPreview>('POST', `${EXPORT_PATH}?preview=1`, request()));
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  }

  async function download() {
    setAlert(null);
    setFields({});
    setDone(null);
    if (!projectChosen()) return;
    setBusy('download');
    setProgress(null);
    try {
      const answer = await uploadForFile(EXPORT_PATH, JSON.stringify(request()), {
        headers: { 'Content-Type': 'application/json' },
        onProgress: setProgress,
      });
      const fileName = answer.fileName ?? `reviews.${format === 'xlsx' ? 'xlsx' : format === 'bazaarvoice' ? 'xml' : 'csv'}`;
      saveBlob(answer.blob, fileName);
      const count = Number(answer.headers('X-Review-Count') ?? 0);
      setDone(m.admin_reviews_saved({ name: fileName, count }));
      void history.refresh().catch(() => history.reload());
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  }

  const fieldError = (key: string) => fields[key]?.join(' ');
  const chosenMissions = missionList.filter((mission) => chosen.includes(mission.id));

  return (
    <div className="flex flex-col gap-8">
      <Section id="review-export" title={m.admin_reviews_title()} description={m.admin_reviews_description()}>
        <form
          className="flex flex-col gap-6"
          onSubmit={(event) => {
            event.preventDefault();
            void runPreview();
          }}
          noValidate
        >
          <FormField id={`${ids}-project`} label={m.admin_reviews_project()} error={fieldError('projectId')}>
            {(c) => (
              <Select value={projectId} onValueChange={setProjectId} disabled={projects.load.status !== 'ready'}>
                <SelectTrigger {...c} className="sm:max-w-md">
                  <SelectValue placeholder={projects.load.status === 'ready' ? m.admin_reviews_choose_project() : m.admin_reviews_loading_projects()} />
                </SelectTrigger>
                <SelectContent>
                  {projects.load.status === 'ready' &&
                    projects.load.data.items.map((project) => (
                      <SelectItem key={project.id} value={String(project.id)}>
                        {project.client ? `${project.name} (${project.client})` : project.name}
                      </SelectItem>
                    ))}
                </SelectContent>
              </Select>
            )}
          </FormField>
          {projects.load.status === 'error' && <Failed title={m.admin_reviews_projects_failed()} message={projects.load.message} onRetry={projects.reload} />}

          {projectId !== '' && (
            <fieldset className="flex flex-col gap-3" aria-describedby={fieldError('missionIds') ? `${ids}-missions-error` : undefined}>
              <legend className="mb-1 text-sm font-medium">{m.admin_reviews_missions()}</legend>
              {missions.load.status === 'loading' && <Loading label={m.admin_reviews_loading_missions()} />}
              {missions.load.status === 'error' && (
                <Failed title={m.admin_reviews_missions_failed()} message={missions.load.message} onRetry={missions.reload} />
              )}
              {missions.load.status === 'ready' && missionList.length === 0 && <p className="text-sm text-muted-foreground">{m.admin_reviews_no_missions()}</p>}
              <ul className="flex flex-col gap-3">
                {missionList.map((mission) => (
                  <li key={mission.id}>
                    <CheckboxField
                      id={`${ids}-mission-${mission.id}`}
                      label={mission.title}
                      checked={chosen.includes(mission.id)}
                      onCheckedChange={(on) => toggleMission(mission, on === true)}
                      description={
                        mission.productId ? (
                          <>
                            {m.admin_reviews_product_id({ id: mission.productId })} ·{' '}
                            {mission.points > 0 ? m.admin_reviews_points_incentivized({ count: mission.points }) : m.admin_reviews_no_points()}
                          </>
                        ) : (
                          <span className="text-destructive">{m.admin_reviews_no_product_id()}</span>
                        )
                      }
                    />
                  </li>
                ))}
              </ul>
              {fieldError('missionIds') && <FieldError id={`${ids}-missions-error`}>{fieldError('missionIds')}</FieldError>}
              {fieldError('mapping') && <FieldError id={`${ids}-mapping-error`}>{fieldError('mapping')}</FieldError>}
            </fieldset>
          )}

          {chosenMissions.map((mission) => (
            <fieldset key={mission.id} className="flex flex-col gap-3 rounded-lg border border-border p-4">
              <legend className="px-1 text-sm font-medium">{m.admin_reviews_fields_of({ title: mission.title })}</legend>
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {REVIEW_FIELDS.map((field) => {
                  const options = elementsFor(field, mission.elements);
                  const value = mapping[mission.id]?.[field] ?? null;
                  const required = REQUIRED_REVIEW_FIELDS.includes(field);
                  return (
                    <FormField
                      key={field}
                      id={`${ids}-map-${mission.id}-${field}`}
                      label={REVIEW_FIELD_LABELS[field]}
                      hint={required ? undefined : m.admin_reviews_optional()}
                      error={fieldError(`mapping.${mission.id}.${field}`)}
                    >
                      {(c) => (
                        <Select value={value ?? NONE} onValueChange={(next) => setField(mission.id, field, next)}>
                          <SelectTrigger {...c}>
                            <SelectValue />
                          </SelectTrigger>
                          <SelectContent>
                            <SelectItem value={NONE}>{options.length === 0 ? m.admin_reviews_no_question() : m.admin_reviews_none()}</SelectItem>
                            {options.map((element) => (
                              <SelectItem key={element.id} value={element.id}>
                                {element.title || element.id}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                      )}
                    </FormField>
                  );
                })}
              </div>
            </fieldset>
          ))}

          <div className="flex flex-wrap gap-5">
            <FormField id={`${ids}-from`} label={m.admin_reviews_submitted_from()} hint={m.admin_reviews_optional()} error={fieldError('from')}>
              {(c) => <Input {...c} type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} className="w-44" />}
            </FormField>
            <FormField id={`${ids}-to`} label={m.admin_reviews_to()} hint={m.admin_reviews_optional_included()} error={fieldError('to')}>
              {(c) => <Input {...c} type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} className="w-44" />}
            </FormField>
          </div>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-medium">{m.admin_reviews_entries()}</legend>
            <CheckboxField
              id={`${ids}-approved`}
              label={m.admin_reviews_approved()}
              checked={withApproved}
              onCheckedChange={(on) => setWithApproved(on === true)}
            />
            <CheckboxField
              id={`${ids}-submitted`}
              label={m.admin_reviews_submitted()}
              checked={withSubmitted}
              onCheckedChange={(on) => setWithSubmitted(on === true)}
            />
            {(fieldError('states') ?? (!withApproved && !withSubmitted)) && (
              <FieldError id={`${ids}-states-error`}>{fieldError('states') ?? m.admin_reviews_choose_states()}</FieldError>
            )}
          </fieldset>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-medium">{m.admin_reviews_format()}</legend>
            <RadioCardGroup
              value={format}
              onValueChange={(value) => setFormat(value as ReviewExportFormat)}
              className="grid sm:grid-cols-2"
              aria-label={m.admin_reviews_format()}
            >
              {REVIEW_EXPORT_FORMATS.map((value) => (
                <RadioCard
                  key={value}
                  id={`${ids}-format-${value}`}
                  value={value}
                  label={REVIEW_EXPORT_FORMAT_LABELS[value]}
                  description={FORMAT_DESCRIPTIONS[value]()}
                />
              ))}
            </RadioCardGroup>
            {format === 'bazaarvoice' && (
              <FormField
                id={`${ids}-campaign`}
                label={m.admin_reviews_campaign()}
                hint={m.admin_reviews_required()}
                description={m.admin_reviews_campaign_help()}
                error={fieldError('campaignId')}
                className="sm:max-w-sm"
              >
                {(c) => (
                  <Input
                    {...c}
                    value={campaignId}
                    onChange={(event) => setCampaignId(event.target.value)}
                    autoComplete="off"
                    spellCheck={false}
                    maxLength={100}
                    required
                  />
                )}
              </FormField>
            )}
          </fieldset>

          {alert && (
            <Alert variant="destructive" title={m.admin_reviews_failed_title()}>
              {alert}
            </Alert>
          )}

          <div className="flex flex-wrap gap-3">
            {/* Never disabled but while busy: what is missing is said beside its field (issue 28 §12). */}
            <Button type="submit" variant="outline" disabled={busy !== null}>
              {busy === 'preview' ? m.admin_reviews_checking() : m.admin_reviews_preview()}
            </Button>
            <Button type="button" disabled={busy !== null} onClick={() => void download()}>
              {m.admin_reviews_download()}
            </Button>
          </div>
          {busy === 'download' && <Progress {...transferProgress(progress, transferWords())} />}
          {done && (
            <p className="text-sm text-muted-foreground" role="status">
              {done}
            </p>
          )}
        </form>

        {preview && <PreviewView preview={preview} />}
      </Section>

      <Section id="review-export-history" title={m.admin_reviews_exports_made()} description={m.admin_reviews_exports_made_description()}>
        <HistoryView load={history.load} onRetry={history.reload} />
      </Section>
    </div>
  );
}

function PreviewView({ preview }: { preview: ReviewExportPreview }) {
  return (
    <section className="flex flex-col gap-4" aria-labelledby="review-preview-heading">
      <div role="status">
        <h3 id="review-preview-heading" className="text-lg font-semibold">
          {preview.problems.length > 0
            ? m.admin_reviews_preview_heading_problems({
                reviews: m.admin_reviews_preview_reviews({ count: preview.total }),
                problems: m.admin_reviews_preview_problems({ count: preview.problems.length }),
              })
            : m.admin_reviews_preview_heading_clean({ reviews: m.admin_reviews_preview_reviews({ count: preview.total }) })}
        </h3>
      </div>
      {preview.problems.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="px-3 py-2 text-start text-muted-foreground">{m.admin_reviews_problems_caption()}</caption>
            <thead className="bg-muted/50 text-start">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  {m.admin_reviews_col_row()}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {m.admin_reviews_col_field()}
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  {m.admin_reviews_col_problem()}
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.problems.map((problem, index) => (
                <tr key={`${problem.row}-${problem.field}-${index}`} className="border-t border-border">
                  <td className="px-3 py-2 tabular-nums">{problem.row === 0 ? '—' : number(problem.row)}</td>
                  <td className="px-3 py-2">{problem.field}</td>
                  <td className="px-3 py-2">{problem.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {preview.rows.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full min-w-[48rem] text-sm">
            <caption className="px-3 py-2 text-start text-muted-foreground">
              {preview.rows.length === preview.total
                ? m.admin_reviews_rows_all({ count: preview.total })
                : m.admin_reviews_rows_first({ shown: number(preview.rows.length), count: preview.total })}
            </caption>
            <thead className="bg-muted/50 text-start">
              <tr>
                {[
                  '#',
                  m.admin_reviews_col_product(),
                  m.admin_reviews_col_rating(),
                  m.admin_reviews_col_title(),
                  m.admin_reviews_col_review(),
                  m.admin_reviews_col_recommends(),
                  m.admin_reviews_col_photos(),
                  m.admin_reviews_col_reviewer(),
                  m.admin_reviews_col_region(),
                  m.admin_reviews_col_submitted(),
                  m.admin_reviews_col_incentivized(),
                ].map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row, index) => (
                <tr key={row.reviewId} className="border-t border-border align-top">
                  <td className="px-3 py-2 tabular-nums">{number(index + 1)}</td>
                  <td className="px-3 py-2">{row.productId ?? '—'}</td>
                  <td className="px-3 py-2 tabular-nums">{row.rating ?? '—'}</td>
                  <td className="px-3 py-2">{row.title}</td>
                  <td className="max-w-xs px-3 py-2">
                    <span className="line-clamp-3">{row.text}</span>
                  </td>
                  <td className="px-3 py-2">{row.recommend === null ? '—' : row.recommend ? m.admin_reviews_yes() : m.admin_reviews_no()}</td>
                  <td className="px-3 py-2">
                    {row.photos.map((url, photo) => (
                      <a key={url} href={url} target="_blank" rel="noreferrer" className="me-2 text-primary underline-offset-4 hover:underline">
                        {m.admin_reviews_photo({ number: number(photo + 1) })}
                      </a>
                    ))}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{row.nickname}</td>
                  <td className="px-3 py-2">{row.region}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{row.submittedAt.slice(0, 10)}</td>
                  <td className="px-3 py-2">{row.incentivized ? <Badge variant="secondary">{m.admin_reviews_points_badge()}</Badge> : m.admin_reviews_no()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HistoryView({ load, onRetry }: { load: ReturnType<typeof useResource<{ items: ReviewExportRecord[] }>>['load']; onRetry: () => void }) {
  if (load.status === 'loading') return <Loading label={m.admin_reviews_loading_exports()} />;
  if (load.status !== 'ready') return <Failed title={m.admin_reviews_exports_failed()} message={load.message} onRetry={onRetry} />;
  if (load.data.items.length === 0) return <p className="text-sm text-muted-foreground">{m.admin_reviews_no_exports()}</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-sm">
        <caption className="sr-only">{m.admin_reviews_exports_made()}</caption>
        <thead className="bg-muted/50 text-start">
          <tr>
            {[
              m.admin_reviews_col_when(),
              m.admin_reviews_col_who(),
              m.admin_reviews_col_project(),
              m.admin_reviews_col_format(),
              m.admin_reviews_col_reviews(),
            ].map((header) => (
              <th key={header} scope="col" className="px-3 py-2 font-medium">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {load.data.items.map((item) => (
            <tr key={item.id} className="border-t border-border">
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
              </td>
              <td className="px-3 py-2">{item.createdBy ? `${item.createdBy.firstName} ${item.createdBy.lastName}`.trim() || item.createdBy.email : '—'}</td>
              <td className="px-3 py-2">{item.projectName ?? '—'}</td>
              <td className="px-3 py-2">{REVIEW_EXPORT_FORMAT_LABELS[item.format as ReviewExportFormat] ?? item.format}</td>
              <td className="px-3 py-2 tabular-nums">{number(item.rows)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
