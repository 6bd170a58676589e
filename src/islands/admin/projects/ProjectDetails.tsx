/**
 * The project page's "Details" card: the project's name, client, dates and description, edited
 * in place ("Edit details" turns the list into a form), and its status with the moves it allows
 * (draft → live → closed, reopen, archive, restore), each confirmed with what it means for members.
 */
import { useEffect, useRef, useState } from 'react';
import type { AdminProject } from '../../../shared/projects.ts';
import { apiSend } from '../../../platform/api.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { toast } from '../../../stores/toasts.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton, Section } from '../admin-kit.tsx';
import { Detail, formatDay, ProjectStatusBadge } from './kit.tsx';
import { PROJECT_STATUS_HELP, projectMoves } from './logic.ts';
import { PROJECT_FIELD_NAMES, ProjectFields, type ProjectValues } from './ProjectFields.tsx';
import { m } from '../../../shared/i18n.ts';

/** "The project is live" and the like, after a status move. */
const STATUS_TOAST: Readonly<Record<AdminProject['status'], () => string>> = {
  draft: m.projects_details_now_draft,
  live: m.projects_toast_project_live,
  closed: m.projects_details_now_closed,
  archived: m.projects_details_now_archived,
};

export function ProjectDetails({ project, onSaved }: { project: AdminProject; onSaved: (project: AdminProject) => void }) {
  const [editing, setEditing] = useState(false);
  const [statusError, setStatusError] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Back from the form: the focus returns to "Edit details".
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  async function move(to: AdminProject['status']) {
    setStatusError(null);
    try {
      const saved = await apiSend<AdminProject>('PATCH', `/api/admin/projects/${project.id}`, { status: to });
      onSaved(saved);
      toast({ title: STATUS_TOAST[saved.status](), description: PROJECT_STATUS_HELP[saved.status] });
    } catch (error) {
      if (!handleSessionLost(error)) setStatusError(errorMessage(error));
    }
  }

  return (
    <Section
      id="details"
      title={m.projects_details_title()}
      aside={
        !editing && (
          <Button ref={editButton} variant="outline" size="sm" onClick={() => setEditing(true)}>
            {m.projects_details_edit()}
          </Button>
        )
      }
    >
      {editing ? (
        <DetailsForm
          project={project}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => {
            onSaved(saved);
            setEditing(false);
            toast({ title: m.projects_details_saved() });
          }}
        />
      ) : (
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Detail term={m.projects_field_client()}>{project.client || <span className="text-muted-foreground">{m.projects_none()}</span>}</Detail>
          <Detail term={m.projects_field_start_date()}>
            {project.startsAt ? formatDay(project.startsAt) : <span className="text-muted-foreground">{m.projects_not_set()}</span>}
          </Detail>
          <Detail term={m.projects_field_end_date()}>
            {project.endsAt ? formatDay(project.endsAt) : <span className="text-muted-foreground">{m.projects_not_set()}</span>}
          </Detail>
          <Detail term={m.projects_details_last_change()}>
            <time dateTime={project.updatedAt}>{formatDateTime(project.updatedAt)}</time>
          </Detail>
          <Detail term={m.projects_field_description()} className="sm:col-span-2 lg:col-span-4">
            {project.description ? (
              <p className="whitespace-pre-line">{project.description}</p>
            ) : (
              <span className="text-muted-foreground">{m.projects_details_no_description()}</span>
            )}
          </Detail>
        </dl>
      )}

      <div className="flex flex-col gap-3 border-t border-border pt-4">
        <h3 className="text-base font-semibold">{m.projects_list_status()}</h3>
        <div className="flex flex-wrap items-center gap-2">
          <ProjectStatusBadge status={project.status} />
          <span className="text-sm text-muted-foreground">{PROJECT_STATUS_HELP[project.status]}</span>
        </div>
        {statusError && <Alert variant="destructive">{statusError}</Alert>}
        <div className="flex flex-wrap gap-2">
          {projectMoves(project.status).map((next) => (
            <ConfirmButton
              key={next.to}
              variant={next.to === 'archived' ? 'outline' : 'default'}
              confirmVariant={next.to === 'archived' ? 'destructive' : 'default'}
              confirmLabel={next.label}
              question={next.effect}
              onConfirm={() => move(next.to)}
            >
              {next.label}
            </ConfirmButton>
          ))}
        </div>
      </div>
    </Section>
  );
}

function DetailsForm({ project, onCancel, onSaved }: { project: AdminProject; onCancel: () => void; onSaved: (project: AdminProject) => void }) {
  const {
    onSubmit,
    alert,
    register,
    setFocus,
    formState: { errors, isSubmitting },
  } = useApiForm<ProjectValues>({
    schema: () => import('../../../shared/schemas/projects.ts').then((schemas) => schemas.projectPatchSchema),
    defaultValues: { name: project.name, client: project.client, description: project.description, startsAt: project.startsAt, endsAt: project.endsAt },
    fields: PROJECT_FIELD_NAMES,
    describeError: (error) => (handleSessionLost(error) ? null : undefined),
    submit: async (values) => {
      onSaved(await apiSend<AdminProject>('PATCH', `/api/admin/projects/${project.id}`, values));
    },
  });

  // The form replaces the details: the first field takes the focus.
  useEffect(() => setFocus('name'), [setFocus]);

  return (
    <form noValidate aria-label={m.projects_details_form()} onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-5">
      {alert && <Alert variant="destructive">{alert}</Alert>}
      <ProjectFields register={register} errors={errors} idPrefix="project" />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={isSubmitting}>
          {m.projects_details_save()}
        </Button>
        <Button variant="outline" onClick={onCancel} disabled={isSubmitting}>
          {m.projects_cancel()}
        </Button>
      </div>
    </form>
  );
}
