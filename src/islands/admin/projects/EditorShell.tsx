/**
 * The frame of the survey and mission editors (`SurveyForm.tsx`, `MissionForm.tsx`): the heading
 * (the project pages' breadcrumbs, and "New survey" or "Edit survey"), the card with the
 * form, the message of a failed save, the editor's own fields (`children`), the status and the
 * save bar. Saving is the same for both (`useEditorForm`, on `useApiForm`): a new one is created
 * (POST in the project) and opened; an edit sends only what changed (PATCH) and goes back to its
 * page; the API's field messages land beside the fields named in `fields`.
 *
 * The shared fields (`EditorFields.tsx`: title, points, form, schedule, status) read the form
 * from react-hook-form's context, which the shell provides.
 */
import type { ComponentType, ReactNode } from 'react';
import { FormProvider, type DefaultValues, type Path } from 'react-hook-form';
import type { ActivityCounts, AdminProject } from '../../../shared/projects.ts';
import { apiSend } from '../../../platform/api.ts';
import { navigateTo } from '../../../lib/navigation.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useApiForm, type ApiForm, type ApiFormOptions } from '../../../lib/use-api-form.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { SaveBar, StatusChoiceField, type EditorSubject, type EditorValues } from './EditorFields.tsx';
import { Breadcrumbs, projectCrumbs, ScreenHeader } from './kit.tsx';
import { ProjectItemLoader } from './ProjectItemLoader.tsx';
import { m } from '../../../shared/i18n.ts';

/** A subject's texts (functions: read in the page's language when shown) and its path. */
const SUBJECT_WORDS: Readonly<Record<EditorSubject, { saved: () => string; isNew: () => string; edit: () => string; create: () => string; path: string }>> = {
  survey: {
    saved: m.projects_editor_survey_saved,
    isNew: m.projects_editor_new_survey,
    edit: m.projects_editor_edit_survey,
    create: m.projects_editor_create_survey,
    path: 'surveys',
  },
  mission: {
    saved: m.projects_editor_mission_saved,
    isNew: m.projects_editor_new_mission,
    edit: m.projects_editor_edit_mission,
    create: m.projects_editor_create_mission,
    path: 'missions',
  },
};

/** What an editor is given: the project, the survey or mission (null when new), and whether members have started it. */
export interface EditorProps<T> {
  project: AdminProject;
  item: T | null;
  answered: boolean;
}

/**
 * The island of an editor's two routes (`mode` says which): the project, and on an edit the item,
 * loaded (`ProjectItemLoader.tsx`, skeleton cards of the heights `cards`); then `Editor`.
 */
export function editorIsland<T extends { projectId: number; counts: ActivityCounts }>(
  subject: EditorSubject,
  cards: number[],
  Editor: ComponentType<EditorProps<T>>,
) {
  return function EditorIsland({ mode }: { mode: 'new' | 'edit' }) {
    return (
      <ProjectItemLoader<T> subject={subject} page={mode} cards={cards}>
        {(project, item) => <Editor project={project} item={item} answered={item !== null && item.counts.started > 0} />}
      </ProjectItemLoader>
    );
  };
}

/** Where the editor's pages are: the project's, and the survey's or mission's (null when new). */
function editorHrefs(subject: EditorSubject, project: AdminProject, existing: { id: number } | null) {
  const projectHref = `/admin/projects/${project.id}`;
  return { projectHref, existingHref: existing ? `${projectHref}/${SUBJECT_WORDS[subject].path}/${existing.id}` : null };
}

export interface EditorFormOptions<T extends EditorValues> {
  subject: EditorSubject;
  project: AdminProject;
  /** The survey or mission being edited; null on the "new" screen. */
  existing: { id: number } | null;
  schema: ApiFormOptions<T>['schema'];
  defaultValues: DefaultValues<T>;
  /** The fields the API's 400 messages may name (placed beside them). */
  fields: readonly Path<T>[];
  /** What an edit sends: the values that changed since it was loaded. */
  changes: (values: T) => Partial<T>;
}

/** The editor's form: a new one is created and opened; an edit sends what changed and goes back to its page. */
export function useEditorForm<T extends EditorValues>({
  subject,
  project,
  existing,
  schema,
  defaultValues,
  fields,
  changes,
}: EditorFormOptions<T>): ApiForm<T> {
  const words = SUBJECT_WORDS[subject];
  const { projectHref, existingHref } = editorHrefs(subject, project, existing);
  return useApiForm<T>({
    schema,
    defaultValues,
    fields,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      if (existing) {
        const body = changes(values);
        if (Object.keys(body).length > 0) await apiSend<unknown>('PATCH', `/api/admin/${words.path}/${existing.id}`, body);
        toast({ title: words.saved() });
        await navigateTo(existingHref ?? projectHref);
      } else {
        const created = await apiSend<{ id: number; title: string }>('POST', `/api/admin/projects/${project.id}/${words.path}`, values);
        toast({ title: m.projects_editor_created({ title: created.title }) });
        await navigateTo(`${projectHref}/${words.path}/${created.id}`);
      }
    },
  });
}

export interface EditorShellProps<T extends EditorValues> {
  subject: EditorSubject;
  project: AdminProject;
  /** The survey or mission being edited; null on the "new" screen. */
  existing: { id: number; title: string } | null;
  /** The line under "New survey" / "New mission". */
  subtitle: string;
  /** The editor's form (`useEditorForm`). */
  form: ApiForm<T>;
  /** The editor's own fields, between the message of a failed save and the status. */
  children: ReactNode;
  /** Shown after the status, before the save bar (messages of fields that have no place of their own). */
  afterStatus?: ReactNode;
}

export function EditorShell<T extends EditorValues>({ subject, project, existing, subtitle, form, children, afterStatus }: EditorShellProps<T>) {
  const { projectHref, existingHref } = editorHrefs(subject, project, existing);
  const words = SUBJECT_WORDS[subject];
  const {
    alert,
    onSubmit,
    formState: { isSubmitting, isDirty },
  } = form;

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-4">
      {existing ? (
        // The layout's bar holds the heading ("Edit survey").
        <Breadcrumbs items={projectCrumbs(project, { label: existing.title, href: existingHref ?? projectHref }, { label: m.projects_editor_crumb_edit() })} />
      ) : (
        <div>
          <Breadcrumbs items={projectCrumbs(project, { label: words.isNew() })} />
          <ScreenHeader title={words.isNew()} subtitle={subtitle} />
        </div>
      )}
      <Card className="p-5 sm:p-6">
        <FormProvider {...form}>
          <form noValidate aria-label={existing ? words.edit() : words.isNew()} onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-8">
            {alert && <Alert variant="destructive">{alert}</Alert>}
            {children}
            <StatusChoiceField />
            {afterStatus}
            <SaveBar
              submitting={isSubmitting}
              label={existing ? m.projects_editor_save_changes() : words.create()}
              cancelHref={existingHref ?? projectHref}
              dirty={isDirty}
            />
          </form>
        </FormProvider>
      </Card>
    </div>
  );
}
