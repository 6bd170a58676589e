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
              <Badge variant="outline">{native ? 'Form' : 'Alchemer'}</Badge>
            </>
          }
          subtitle={survey.description || undefined}
          actions={
            <a href={editHref} className={buttonVariants({ variant: 'outline' })}>
              Edit survey
            </a>
          }
        />
      </div>

      <HiddenLiveAlert project={project} status={survey.status} subject="survey" onProjectLive={onProjectLive} />

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <Section id="details" title="Details">
          <dl className="grid gap-4 sm:grid-cols-2">
            {native ? (
              <Detail term="Form">
                {survey.formId !== null && survey.formVersion !== null ? (
                  <FormVersionLink formId={survey.formId} version={survey.formVersion} latest={survey.latestFormVersion} />
                ) : (
                  'None'
                )}
              </Detail>
            ) : (
              <Detail term="Alchemer link">
                {survey.externalUrl ? (
                  <a href={survey.externalUrl} target="_blank" rel="noopener noreferrer" className="break-all text-primary underline-offset-4 hover:underline">
                    {survey.externalUrl}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                ) : (
                  'None'
                )}
              </Detail>
            )}
            <Detail term="Points">{survey.points}</Detail>
            <Detail term="Estimated time">
              {survey.estimatedMinutes ? `${survey.estimatedMinutes} min` : <span className="text-muted-foreground">Not set</span>}
            </Detail>
            {!native && (
              <Detail term="Returns">
                {survey.trustReturns ? 'Trusted: complete returns credit points at once' : 'Points once Alchemer’s webhook (or the export) confirms'}
              </Detail>
            )}
            <Detail term="Opens">
              <Moment value={survey.opensAt} empty="When it goes live" />
            </Detail>
            <Detail term="Closes">
              <Moment value={survey.closesAt} empty="When closed by hand" />
            </Detail>
          </dl>
        </Section>
        <Section id="counts" title="Counts">
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
        <TabsList aria-label="Survey data" className="w-full sm:w-auto sm:self-start">
          <TabsTrigger value="results">Results</TabsTrigger>
          <TabsTrigger value="responses">Responses</TabsTrigger>
          <TabsTrigger value="preview">Preview</TabsTrigger>
        </TabsList>
        <TabsContent value="results">
          <Suspense fallback={<ResultsSkeleton />}>
            <SurveyResults surveyId={survey.id} />
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
  if (survey.formId === null || survey.formVersion === null) return <p className="text-sm text-muted-foreground">This survey has no form.</p>;
  if (load.status === 'loading') return <Bone className="h-96 w-full" />;
  if (load.status !== 'ready') return <Failed title="The form could not be loaded" message={load.message} onRetry={reload} />;
  return (
    <section aria-label="Preview" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">Version {survey.formVersion}, as members see it. Nothing you answer here is saved.</p>
        <Button variant="outline" size="sm" onClick={() => setRun((n) => n + 1)}>
          Restart preview
        </Button>
      </div>
      <Card variant="flat" className="mx-auto w-full max-w-2xl bg-background p-4 sm:p-6">
        <FormRenderer
          key={run}
          definition={load.data.definition}
          seed={`preview-${survey.id}`}
          idPrefix="survey-preview"
          headingLevel={3}
          submitLabel="Submit (preview)"
          onSubmit={async () => {
            toast({ title: 'This is a preview', description: 'Nothing was sent.' });
          }}
        />
      </Card>
    </section>
  );
}

type StatusFilter = 'all' | 'submitted' | 'draft';
const STATUS_OPTIONS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All responses' },
  { value: 'submitted', label: 'Submitted' },
  { value: 'draft', label: 'In progress' },
];

const RESPONSE_COLUMNS = ['Participant', 'Status', 'Version', 'Started', 'Submitted', { label: 'Actions', hidden: true }] as const;

function ResponsesTable({ survey }: { survey: AdminSurvey }) {
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AdminSurveyResponse | null>(null);
  const params: Record<string, string> = { page: String(page), pageSize: String(PER_PAGE) };
  if (status !== 'all') params.status = status;
  const { load, reload } = useResource<ResponseList>(withQuery(`/api/admin/surveys/${survey.id}/responses`, params));
  // The CSV holds what the table shows (the export's default is submitted responses only).
  const csvHref = withQuery(`/api/admin/surveys/${survey.id}/responses.csv`, { status });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <FilterSelect
          label="Show"
          value={status}
          options={STATUS_OPTIONS}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          className="sm:w-52"
        />
        <a href={csvHref} download onClick={(event) => downloadAfterSignInProof(event)} className={buttonVariants({ variant: 'outline' })}>
          Download CSV
        </a>
      </div>
      {load.status === 'loading' ? (
        <Loading label="Loading the responses…" className="flex flex-col gap-2">
          {[0, 1, 2, 3].map((row) => (
            <Bone key={row} className="h-12 w-full" />
          ))}
        </Loading>
      ) : load.status !== 'ready' ? (
        <Failed title="The responses could not be loaded" message={load.message} onRetry={reload} />
      ) : load.data.items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
          {status === 'all'
            ? 'No responses yet. They appear here as members start the survey.'
            : status === 'submitted'
              ? 'No submitted responses yet.'
              : 'No responses in progress.'}
        </p>
      ) : (
        <>
          <TableScroller label="Responses">
            <table className="relative w-full min-w-[40rem] border-collapse">
              <caption className="sr-only">Responses ({load.data.total})</caption>
              <TableHead columns={RESPONSE_COLUMNS} />
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
                        {response.status === 'submitted' ? 'Submitted' : 'In progress'}
                      </Badge>
                    </td>
                    <td className={`${td} tabular-nums`}>{response.formVersion}</td>
                    <td className={td}>
                      <time dateTime={response.startedAt}>{formatDateTime(response.startedAt)}</time>
                    </td>
                    <td className={td}>
                      <Moment value={response.submittedAt} empty="Not yet" />
                    </td>
                    <td className={`${td} text-right`}>
                      <Button variant="outline" size="sm" onClick={() => setOpen(response)}>
                        View<span className="sr-only"> the response of {fullNameOf(response.user) || response.user.email}</span>
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroller>
          <ListFooter page={load.data.page} total={load.data.total} perPage={load.data.pageSize} label="Response pages" onPageChange={setPage} />
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
                  ? `Submitted ${formatDateTime(response.submittedAt)}`
                  : `In progress, last saved ${formatDateTime(response.updatedAt)}`}{' '}
                · version {response.formVersion}
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
  if (load.status !== 'ready') return <Failed title="The form could not be loaded" message={load.message} onRetry={reload} />;
  const definition: FormDefinition = load.data.definition;
  return <AnswersView definition={definition} answers={answers} photos={{ thumbnailUrl: (id) => `/api/media/${id}/thumbnail` }} />;
}
