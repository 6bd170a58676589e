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
import { Section, transferProgress, type TransferWords } from '../admin-kit.tsx';

const EXPORT_PATH = '/api/admin/tools/export-reviews';
const HISTORY_PATH = '/api/admin/tools/export-reviews/history';
const NONE = '__none';

const FORMAT_DESCRIPTIONS: Readonly<Record<ReviewExportFormat, string>> = {
  csv: 'Fieldwork’s columns, for a spreadsheet.',
  xlsx: 'Fieldwork’s columns as an Excel workbook.',
  powerreviews: 'PowerReviews’ import file (CSV, their columns and limits).',
  bazaarvoice: 'Bazaarvoice’s native content import (XML).',
};

interface ProjectOption {
  id: number;
  name: string;
  client: string;
}

const number = (n: number) => n.toLocaleString('en');
const TRANSFER_WORDS: TransferWords = { starting: 'Preparing the file…', waiting: 'Preparing the file…' };

export default function ReviewExport() {
  const auth = useAuth();
  if (auth.status !== 'authenticated') return <Loading label="Loading the tool…" />;
  if (auth.user.role !== 'admin')
    return (
      <Alert variant="info" title="Only admins can run this tool">
        Ask an admin to export a project’s reviews.
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
      setAlert('Check the highlighted fields.');
    } else setAlert(errorMessage(error));
  }

  /**
   * A project first (the missions to tick come with it); the rest — a mission ticked, approved or
   * submitted, Bazaarvoice's campaign id — the API checks and words beside each field.
   */
  function projectChosen(): boolean {
    if (projectId !== '') return true;
    setFields({ projectId: [MESSAGES.required] });
    setAlert('Choose a project, then tick its missions.');
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
      setDone(`Saved ${fileName}: ${number(count)} ${count === 1 ? 'review' : 'reviews'}.`);
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
      <Section
        id="review-export"
        title="Export reviews"
        description="Turn the entries of product-review missions into reviews a ratings-and-reviews platform imports. Every review given for points says so."
      >
        <form
          className="flex flex-col gap-6"
          onSubmit={(event) => {
            event.preventDefault();
            void runPreview();
          }}
          noValidate
        >
          <FormField id={`${ids}-project`} label="Project" error={fieldError('projectId')}>
            {(c) => (
              <Select value={projectId} onValueChange={setProjectId} disabled={projects.load.status !== 'ready'}>
                <SelectTrigger {...c} className="sm:max-w-md">
                  <SelectValue placeholder={projects.load.status === 'ready' ? 'Choose a project' : 'Loading projects…'} />
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
          {projects.load.status === 'error' && <Failed title="The projects could not be loaded" message={projects.load.message} onRetry={projects.reload} />}

          {projectId !== '' && (
            <fieldset className="flex flex-col gap-3" aria-describedby={fieldError('missionIds') ? `${ids}-missions-error` : undefined}>
              <legend className="mb-1 text-sm font-medium">Missions</legend>
              {missions.load.status === 'loading' && <Loading label="Loading the missions…" />}
              {missions.load.status === 'error' && (
                <Failed title="The missions could not be loaded" message={missions.load.message} onRetry={missions.reload} />
              )}
              {missions.load.status === 'ready' && missionList.length === 0 && <p className="text-sm text-muted-foreground">This project has no missions.</p>}
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
                            Product id {mission.productId} · {mission.points > 0 ? `${number(mission.points)} points (incentivized)` : 'no points'}
                          </>
                        ) : (
                          <span className="text-destructive">No product id: set it on the mission’s edit screen.</span>
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
              <legend className="px-1 text-sm font-medium">Fields of “{mission.title}”</legend>
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
                      hint={required ? undefined : '(optional)'}
                      error={fieldError(`mapping.${mission.id}.${field}`)}
                    >
                      {(c) => (
                        <Select value={value ?? NONE} onValueChange={(next) => setField(mission.id, field, next)}>
                          <SelectTrigger {...c}>
                            <SelectValue />
                          </SelectTrigger>
                          <SelectContent>
                            <SelectItem value={NONE}>{options.length === 0 ? 'No question fits' : 'None'}</SelectItem>
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
            <FormField id={`${ids}-from`} label="Submitted from" hint="(optional)" error={fieldError('from')}>
              {(c) => <Input {...c} type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} className="w-44" />}
            </FormField>
            <FormField id={`${ids}-to`} label="to" hint="(optional, included)" error={fieldError('to')}>
              {(c) => <Input {...c} type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} className="w-44" />}
            </FormField>
          </div>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-medium">Entries</legend>
            <CheckboxField id={`${ids}-approved`} label="Approved" checked={withApproved} onCheckedChange={(on) => setWithApproved(on === true)} />
            <CheckboxField
              id={`${ids}-submitted`}
              label="Submitted, not reviewed yet"
              checked={withSubmitted}
              onCheckedChange={(on) => setWithSubmitted(on === true)}
            />
            {(fieldError('states') ?? (!withApproved && !withSubmitted)) && (
              <FieldError id={`${ids}-states-error`}>{fieldError('states') ?? 'Choose approved, submitted or both'}</FieldError>
            )}
          </fieldset>

          <fieldset className="flex flex-col gap-3">
            <legend className="mb-1 text-sm font-medium">Format</legend>
            <RadioCardGroup
              value={format}
              onValueChange={(value) => setFormat(value as ReviewExportFormat)}
              className="grid sm:grid-cols-2"
              aria-label="Format"
            >
              {REVIEW_EXPORT_FORMATS.map((value) => (
                <RadioCard
                  key={value}
                  id={`${ids}-format-${value}`}
                  value={value}
                  label={REVIEW_EXPORT_FORMAT_LABELS[value]}
                  description={FORMAT_DESCRIPTIONS[value]}
                />
              ))}
            </RadioCardGroup>
            {format === 'bazaarvoice' && (
              <FormField
                id={`${ids}-campaign`}
                label="Campaign id"
                hint="(required)"
                description="Bazaarvoice’s id of the sampling campaign; every review carries it."
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
            <Alert variant="destructive" title="The export could not be made">
              {alert}
            </Alert>
          )}

          <div className="flex flex-wrap gap-3">
            {/* Never disabled but while busy: what is missing is said beside its field (issue 28 §12). */}
            <Button type="submit" variant="outline" disabled={busy !== null}>
              {busy === 'preview' ? 'Checking…' : 'Preview'}
            </Button>
            <Button type="button" disabled={busy !== null} onClick={() => void download()}>
              Download
            </Button>
          </div>
          {busy === 'download' && <Progress {...transferProgress(progress, TRANSFER_WORDS)} />}
          {done && (
            <p className="text-sm text-muted-foreground" role="status">
              {done}
            </p>
          )}
        </form>

        {preview && <PreviewView preview={preview} />}
      </Section>

      <Section id="review-export-history" title="Exports made" description="Every download, newest first.">
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
          {number(preview.total)} {preview.total === 1 ? 'review' : 'reviews'}
          {preview.problems.length > 0 ? `, ${number(preview.problems.length)} ${preview.problems.length === 1 ? 'problem' : 'problems'}` : ', no problems'}
        </h3>
      </div>
      {preview.problems.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="px-3 py-2 text-left text-muted-foreground">Problems (row 0: the export as a whole)</caption>
            <thead className="bg-muted/50 text-left">
              <tr>
                <th scope="col" className="px-3 py-2 font-medium">
                  Row
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Field
                </th>
                <th scope="col" className="px-3 py-2 font-medium">
                  Problem
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.problems.map((problem, index) => (
                <tr key={`${problem.row}-${problem.field}-${index}`} className="border-t border-border">
                  <td className="px-3 py-2 tabular-nums">{problem.row === 0 ? '—' : problem.row}</td>
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
            <caption className="px-3 py-2 text-left text-muted-foreground">
              {preview.rows.length === preview.total
                ? `${preview.total === 1 ? 'The review' : `All ${number(preview.total)} reviews`}`
                : `The first ${number(preview.rows.length)} of ${number(preview.total)} reviews`}
            </caption>
            <thead className="bg-muted/50 text-left">
              <tr>
                {['#', 'Product', 'Rating', 'Title', 'Review', 'Recommends', 'Photos', 'Reviewer', 'Region', 'Submitted', 'Incentivized'].map((header) => (
                  <th key={header} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.rows.map((row, index) => (
                <tr key={row.reviewId} className="border-t border-border align-top">
                  <td className="px-3 py-2 tabular-nums">{index + 1}</td>
                  <td className="px-3 py-2">{row.productId ?? '—'}</td>
                  <td className="px-3 py-2 tabular-nums">{row.rating ?? '—'}</td>
                  <td className="px-3 py-2">{row.title}</td>
                  <td className="max-w-xs px-3 py-2">
                    <span className="line-clamp-3">{row.text}</span>
                  </td>
                  <td className="px-3 py-2">{row.recommend === null ? '—' : row.recommend ? 'Yes' : 'No'}</td>
                  <td className="px-3 py-2">
                    {row.photos.map((url, photo) => (
                      <a key={url} href={url} target="_blank" rel="noreferrer" className="mr-2 text-primary underline-offset-4 hover:underline">
                        Photo {photo + 1}
                      </a>
                    ))}
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{row.nickname}</td>
                  <td className="px-3 py-2">{row.region}</td>
                  <td className="px-3 py-2 whitespace-nowrap">{row.submittedAt.slice(0, 10)}</td>
                  <td className="px-3 py-2">{row.incentivized ? <Badge variant="secondary">Points</Badge> : 'No'}</td>
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
  if (load.status === 'loading') return <Loading label="Loading the exports…" />;
  if (load.status !== 'ready') return <Failed title="The exports could not be loaded" message={load.message} onRetry={onRetry} />;
  if (load.data.items.length === 0) return <p className="text-sm text-muted-foreground">No reviews exported yet.</p>;
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-sm">
        <caption className="sr-only">Exports made</caption>
        <thead className="bg-muted/50 text-left">
          <tr>
            {['When', 'Who', 'Project', 'Format', 'Reviews'].map((header) => (
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
