/**
 * /admin/projects/{projectId}/surveys/{surveyId}: the survey's details and counts; for an
 * external survey what to set up in Alchemer (`AlchemerSetup.tsx`: the return links, the webhook
 * and its secret); for a native one three tabs:
 * the results (per-question summaries with charts, loaded on demand), the responses (a paged
 * table, each response opened with `AnswersView`, CSV download) and a preview of the pinned
 * version (the member's form; submitting sends nothing).
 */
import { ProjectItemLoader } from './ProjectItemLoader.tsx';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { FormDefinition } from '../../../shared/forms/definition.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import type { AdminSurvey, AdminSurveyResponse } from '../../../shared/surveys.ts';
import type { FormVersion } from '../../../shared/schemas/forms.ts';
import { withQuery } from '../../../platform/api.ts';
import { downloadAfterSignInProof } from '../../../platform/download.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { fullNameOf } from '../../../lib/user.ts';
import { toast } from '../../../stores/toasts.ts';
import { AnswersView } from '../../../components/forms/AnswersView.tsx';
import { FormRenderer } from '../../../components/forms/FormRenderer.tsx';
import { usePreviewMedia } from '../../../components/forms/preview-store.ts';
import { Failed } from '../../../components/states/Failed.tsx';
import { Loading } from '../../../components/states/Loading.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../../components/ui/dialog.tsx';
import { Bone } from '../../../components/ui/skeleton.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs.tsx';
import { FilterSelect, ListFooter, PER_PAGE, Section, TableHead, TableScroller, td } from '../admin-kit.tsx';
import {
  ActivityStatusBadge,
  HiddenLiveAlert,
  Breadcrumbs,
  projectCrumbs,
  CompletionBar,
  CountsRow,
  Detail,
  FormVersionLink,
  Moment,
  ResultsSkeleton,
  ScreenHeader,
} from './kit.tsx';
import { AlchemerSetup } from './AlchemerSetup.tsx';
import type { ResponseList } from './types.ts';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';
import { isLanguage } from '../../../shared/languages.ts';
import { AnswerLanguageBadge, languageFilterOptions, staffContent } from '../content-language.tsx';

const SurveyResults = lazy(() => import('./SurveyResults.tsx'));

/** The island of the survey page. */
export default function SurveyScreen() {
  return (
    <ProjectItemLoader<AdminSurvey> subject="survey" page="item" cards={[14, 10, 24]}>
      {(project, survey, reloadProject) => survey && <Survey project={project} survey={survey} onProjectLive={reloadProject} />}
    </ProjectItemLoader>
  );
}

function Survey({ project, survey, onProjectLive }: { project: AdminProject; survey: AdminSurvey; onProjectLive: () => void }) {
  const projectHref = `/admin/projects/${project.id}`;
  const editHref = `${projectHref}/surveys/${survey.id}/edit`;
  const native = survey.kind === 'native';
  return (
    <div className="flex flex-col gap-6">
      <div>
        <Breadcrumbs items={projectCrumbs(project, { label: survey.title })} />
        <ScreenHeader
          title={survey.title}
          badges={
            <>
              <ActivityStatusBadge status={survey.status} projectStatus={project.status} />
              <Badge variant="outline">{native ? m.projects_detail_form() : 'Alchemer'}</Badge>
            </>
          }
          subtitle={survey.description || undefined}
          actions={
            <a href={editHref} className={buttonVariants({ variant: 'outline' })}>
              {m.projects_editor_edit_survey()}
            </a>
          }
        />
      </div>

      <HiddenLiveAlert project={project} status={survey.status} subject="survey" onProjectLive={onProjectLive} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Section id="details" title={m.projects_details_title()}>
          <dl className="grid gap-4 sm:grid-cols-2">
            {native ? (
              <Detail term={m.projects_detail_form()}>
                {survey.formId !== null && survey.formVersion !== null ? (
                  <FormVersionLink formId={survey.formId} version={survey.formVersion} latest={survey.latestFormVersion} />
                ) : (
                  m.projects_none()
                )}
              </Detail>
            ) : (
              <Detail term={m.projects_survey_alchemer_link()}>
                {survey.externalUrl ? (
                  <a href={survey.externalUrl} target="_blank" rel="noopener noreferrer" className="break-all text-primary underline-offset-4 hover:underline">
                    {survey.externalUrl}
                    <span className="sr-only"> {m.projects_opens_new_tab()}</span>
                  </a>
                ) : (
                  m.projects_none()
                )}
              </Detail>
            )}
            <Detail term={m.projects_detail_points()}>{formatCount(survey.points)}</Detail>
            <Detail term={m.projects_survey_estimated_time()}>
              {survey.estimatedMinutes ? (
                m.projects_survey_minutes_value({ minutes: formatCount(survey.estimatedMinutes) })
              ) : (
                <span className="text-muted-foreground">{m.projects_not_set()}</span>
              )}
            </Detail>
            {!native && (
              <Detail term={m.projects_survey_returns()}>
                {survey.trustReturns ? m.projects_survey_returns_trusted() : m.projects_survey_returns_confirmed()}
              </Detail>
            )}
            <Detail term={m.projects_detail_opens()}>
              <Moment value={survey.opensAt} empty={m.projects_detail_opens_empty()} />
            </Detail>
            <Detail term={m.projects_detail_closes()}>
              <Moment value={survey.closesAt} empty={m.projects_detail_closes_empty()} />
            </Detail>
          </dl>
        </Section>
        <Section id="counts" title={m.projects_counts_title()}>
          <CountsRow counts={survey.counts} />
          <CompletionBar counts={survey.counts} />
        </Section>
      </div>

      {native ? <NativeTabs survey={survey} /> : <AlchemerSetup survey={survey} />}
    </div>
  );
}

/** Results, responses and preview of a native survey. */
function NativeTabs({ survey }: { survey: AdminSurvey }) {
  const [tab, setTab] = useState('results');
  useEffect(() => {
    const hash = location.hash.slice(1);
    if (hash === 'responses' || hash === 'preview' || hash === 'results') setTab(hash);
  }, []);
  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <Tabs
        value={tab}
        onValueChange={(next) => {
          setTab(next);
          history.replaceState(history.state, '', `${location.pathname}${location.search}#${next}`);
        }}
        className="flex flex-col gap-5"
      >
        <TabsList aria-label={m.projects_survey_tabs()} className="w-full sm:w-auto sm:self-start">
          <TabsTrigger value="results">{m.projects_survey_tab_results()}</TabsTrigger>
          <TabsTrigger value="responses">{m.projects_survey_tab_responses()}</TabsTrigger>
          <TabsTrigger value="preview">{m.projects_markdown_preview()}</TabsTrigger>
        </TabsList>
        <TabsContent value="results">
          <Suspense fallback={<ResultsSkeleton />}>
            <SurveyResults surveyId={survey.id} formId={survey.formId} formVersion={survey.formVersion} />
          </Suspense>
        </TabsContent>
        <TabsContent value="responses">
          <ResponsesTable survey={survey} />
        </TabsContent>
        <TabsContent value="preview">
          <Preview survey={survey} />
        </TabsContent>
      </Tabs>
    </Card>
  );
}

/** Definitions of a form's versions, fetched once each. */
function useVersion(formId: number | null, version: number | null) {
  return useResource<FormVersion>(formId !== null && version !== null ? `/api/admin/forms/${formId}/versions/${version}` : null);
}

/** The member's form at the pinned version; submitting sends nothing. */
function Preview({ survey }: { survey: AdminSurvey }) {
  const { load, reload } = useVersion(survey.formId, survey.formVersion);
  const [run, setRun] = useState(0);
  const media = usePreviewMedia();
  if (survey.formId === null || survey.formVersion === null) return <p className="text-sm text-muted-foreground">{m.projects_survey_no_form()}</p>;
  if (load.status === 'loading') return <Bone className="h-96 w-full" />;
  if (load.status !== 'ready') return <Failed title={m.projects_form_failed()} message={load.message} onRetry={reload} />;
  return (
    <section aria-label={m.projects_markdown_preview()} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{m.projects_survey_preview_note({ version: formatCount(survey.formVersion) })}</p>
        <Button variant="outline" size="sm" onClick={() => setRun((n) => n + 1)}>
          {m.projects_survey_preview_restart()}
        </Button>
      </div>
      <Card variant="flat" className="mx-auto w-full max-w-2xl bg-background p-4 sm:p-6">
        <FormRenderer
          key={run}
          definition={load.data.definition}
          seed={`preview-${survey.id}`}
          media={media}
          idPrefix="survey-preview"
          headingLevel={3}
          submitLabel={m.projects_survey_preview_submit()}
          onSubmit={async () => {
            toast({ title: m.projects_survey_preview_toast(), description: m.projects_survey_preview_toast_description() });
          }}
        />
      </Card>
    </section>
  );
}

type StatusFilter = 'all' | 'submitted' | 'draft';
const statusOptions = (): readonly { value: StatusFilter; label: string }[] => [
  { value: 'all', label: m.projects_responses_all() },
  { value: 'submitted', label: m.projects_responses_submitted() },
  { value: 'draft', label: m.projects_responses_in_progress() },
];

const responseColumns = () =>
  [
    m.projects_responses_participant(),
    m.projects_responses_status(),
    m.projects_results_language(),
    m.projects_form_version(),
    m.projects_responses_started(),
    m.projects_responses_submitted(),
    { label: m.projects_responses_actions(), hidden: true },
  ] as const;

function ResponsesTable({ survey }: { survey: AdminSurvey }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [language, setLanguage] = useState<string>('all');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AdminSurveyResponse | null>(null);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (status !== 'all') params.status = status;
  if (isLanguage(language)) params.language = language;
  const { load, reload } = useResource<ResponseList>(withQuery(`/api/admin/surveys/${survey.id}/responses`, params));
  // The CSV holds what the table shows (the export's default is submitted responses only).
  const csvHref = withQuery(`/api/admin/surveys/${survey.id}/responses.csv`, isLanguage(language) ? { status, language } : { status });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <FilterSelect
          label={m.projects_responses_show()}
          value={status}
          options={statusOptions()}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          className="sm:w-52"
        />
        <FilterSelect
          label={m.projects_results_language()}
          value={language}
          options={languageFilterOptions(m.projects_results_language_all())}
          onChange={(value) => {
            setLanguage(value);
            setPage(1);
          }}
          className="sm:w-44"
        />
        <a href={csvHref} download onClick={(event) => downloadAfterSignInProof(event)} className={`${buttonVariants({ variant: 'outline' })} sm:ms-auto`}>
          {m.projects_responses_download_csv()}
        </a>
      </div>
      {load.status === 'loading' ? (
        <Loading label={m.projects_responses_loading()} className="flex flex-col gap-2">
          {[0, 1, 2, 3].map((row) => (
            <Bone key={row} className="h-12 w-full" />
          ))}
        </Loading>
      ) : load.status !== 'ready' ? (
        <Failed title={m.projects_responses_failed()} message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          {status === 'all'
            ? m.projects_responses_none()
            : status === 'submitted'
              ? m.projects_responses_none_submitted()
              : m.projects_responses_none_in_progress()}
        </p>
      ) : (
        <>
          <TableScroller label={m.projects_survey_tab_responses()}>
            <table className="relative w-full min-w-[40rem] border-collapse">
              <caption className="sr-only">{m.projects_responses_caption({ total: formatCount(load.data.total) })}</caption>
              <TableHead columns={responseColumns()} />
              <tbody>
                {load.data.items.map((response) => (
                  <tr key={response.id}>
                    <td className={td}>
                      <span className="flex flex-col">
                        <span className="font-medium">{fullNameOf(response.user) || response.user.email}</span>
                        <span className="text-xs break-all text-muted-foreground">{response.user.email}</span>
                      </span>
                    </td>
                    <td className={td}>
                      <Badge variant={response.status === 'submitted' ? 'default' : 'secondary'}>
                        {response.status === 'submitted' ? m.projects_responses_submitted() : m.projects_responses_in_progress()}
                      </Badge>
                    </td>
                    <td className={td}>
                      <AnswerLanguageBadge language={response.language} label={m.projects_results_answered_in()} />
                    </td>
                    <td className={`${td} tabular-nums`}>{formatCount(response.formVersion)}</td>
                    <td className={td}>
                      <time dateTime={response.startedAt}>{formatDateTime(response.startedAt)}</time>
                    </td>
                    <td className={td}>
                      <Moment value={response.submittedAt} empty={m.projects_responses_not_yet()} />
                    </td>
                    <td className={`${td} text-end`}>
                      <Button variant="outline" size="sm" onClick={() => setOpen(response)}>
                        {withNodes((marks) => m.projects_responses_view(marks), {
                          whose: <span className="sr-only">{m.projects_responses_view_whose({ name: fullNameOf(response.user) || response.user.email })}</span>,
                        })}
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
          <ListFooter page={load.data.page} total={load.data.total} perPage={load.data.pageSize} label={m.projects_responses_pages()} onPageChange={setPage} />
        </>
      )}
      <ResponseDialog survey={survey} response={open} onClose={() => setOpen(null)} />
    </div>
  );
}

function ResponseDialog({ survey, response, onClose }: { survey: AdminSurvey; response: AdminSurveyResponse | null; onClose: () => void }) {
  return (
    <Dialog open={response !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {response && (
          <>
            <DialogHeader>
              <DialogTitle>{fullNameOf(response.user) || response.user.email}</DialogTitle>
              <DialogDescription>
                {response.status === 'submitted' && response.submittedAt
                  ? m.projects_responses_dialog_submitted({ date: formatDateTime(response.submittedAt), version: formatCount(response.formVersion) })
                  : m.projects_responses_dialog_in_progress({ date: formatDateTime(response.updatedAt), version: formatCount(response.formVersion) })}
              </DialogDescription>
            </DialogHeader>
            <ResponseAnswers formId={survey.formId} version={response.formVersion} answers={response.answers} />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function ResponseAnswers({ formId, version, answers }: { formId: number | null; version: number; answers: AdminSurveyResponse['answers'] }) {
  const { load, reload } = useVersion(formId, version);
  if (load.status === 'loading') return <Bone className="h-48 w-full" />;
  if (load.status !== 'ready') return <Failed title={m.projects_form_failed()} message={load.message} onRetry={reload} />;
  // The questions in the staff member's language when the version offers it (decision 035).
  const content = staffContent<FormDefinition>(load.data.definition);
  return (
    <div {...content.attributes}>
      <AnswersView definition={content.definition} answers={answers} photos={{ thumbnailUrl: (id) => `/api/media/${id}/thumbnail` }} />
    </div>
  );
}
