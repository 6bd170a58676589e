/**
 * The project page's "Announcements" card (issue 28 §15): staff write a title and a Markdown text
 * (Write and Preview tabs: the preview is what members see on home), then send it to the project's
 * members, confirmed once with how many it reaches; below, the announcements sent before, newest
 * first. A project that is not live says why nothing can be sent yet. Data:
 * `GET`/`POST /api/admin/projects/{id}/announcements`.
 */
import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { ANNOUNCEMENT_LIMITS, type AdminAnnouncement, type AdminAnnouncementList } from '../../../shared/announcements.ts';
import type { AnnouncementCreateInput } from '../../../shared/schemas/announcements.ts';
import type { AdminProject } from '../../../shared/projects.ts';
import { apiSend } from '../../../platform/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useResource } from '../../../lib/resource.ts';
import { handleSessionLost } from '../../../lib/session.ts';
import { useApiForm } from '../../../lib/use-api-form.ts';
import { toast } from '../../../stores/toasts.ts';
import { Markdown } from '../../../components/forms/Markdown.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Section } from '../admin-kit.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { formatCount, m } from '../../../shared/i18n.ts';
import { withNodes } from '../../../components/forms/rich-text.tsx';

export function AnnouncementsPanel({ project }: { project: AdminProject }) {
  const { load, reload } = useResource<AdminAnnouncementList>(`/api/admin/projects/${project.id}/announcements`);
  const recipients = load.status === 'ready' ? load.data.recipients : null;
  return (
    <Section id="announcements" title={m.projects_announcements_title()} description={m.projects_announcements_description()}>
      {project.status === 'live' ? (
        <AnnouncementForm projectId={project.id} recipients={recipients} onSent={reload} />
      ) : (
        <p className="rounded-lg border border-dashed border-border px-4 py-3 text-sm text-muted-foreground">{m.projects_announcements_not_live()}</p>
      )}
      <div className="flex flex-col gap-3">
        <h3 className="text-base font-semibold">{m.projects_announcements_sent_before()}</h3>
        {load.status === 'loading' && <p className="text-sm text-muted-foreground">{m.projects_announcements_loading()}</p>}
        {(load.status === 'error' || load.status === 'missing') && <Alert variant="destructive">{load.message}</Alert>}
        {load.status === 'ready' &&
          (load.data.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">{m.projects_announcements_none()}</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {load.data.items.map((item) => (
                <li key={item.id}>
                  <PastAnnouncement item={item} />
                </li>
              ))}
            </ul>
          ))}
      </div>
    </Section>
  );
}

function AnnouncementForm({ projectId, recipients, onSent }: { projectId: number; recipients: number | null; onSent: () => void }) {
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  const form = useApiForm<AnnouncementCreateInput>({
    schema: () => import('../../../shared/schemas/announcements.ts').then((schemas) => schemas.announcementCreateSchema),
    defaultValues: { title: '', body: '' },
    submit: async (values, api) => {
      try {
        await apiSend<AdminAnnouncement>('POST', `/api/admin/projects/${projectId}/announcements`, values);
      } catch (error) {
        setConfirming(false);
        if (handleSessionLost(error)) return;
        throw error;
      }
      setConfirming(false);
      api.reset({ title: '', body: '' });
      toast({ title: m.projects_announcements_sent(), description: m.projects_announcements_sent_description() });
      onSent();
    },
  });
  const {
    register,
    control,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const title = watch('title');
  const reach = recipients === null ? m.projects_announcements_the_members() : m.projects_announcements_members({ count: recipients });

  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        // First press: check the fields, then ask once more (it cannot be taken back).
        if (!confirming) void form.trigger().then((valid) => setConfirming(valid));
        else void form.onSubmit(event);
      }}
    >
      {form.alert && <Alert variant="destructive">{form.alert}</Alert>}
      <FormField
        id={`${id}-title`}
        label={m.projects_announcements_field_title()}
        description={m.projects_announcements_title_help({ max: formatCount(ANNOUNCEMENT_LIMITS.titleMax) })}
        error={errors.title?.message}
        className="sm:max-w-xl"
      >
        {(c) => <Input {...c} autoComplete="off" maxLength={ANNOUNCEMENT_LIMITS.titleMax} {...register('title', { onChange: () => setConfirming(false) })} />}
      </FormField>
      <Controller
        control={control}
        name="body"
        render={({ field, fieldState }) => (
          <MarkdownEditor
            id={`${id}-body`}
            label={m.projects_announcements_field_text()}
            description={m.projects_announcements_text_help({ max: formatCount(ANNOUNCEMENT_LIMITS.bodyMax) })}
            value={field.value}
            onChange={(value) => {
              setConfirming(false);
              field.onChange(value);
            }}
            onBlur={field.onBlur}
            textareaRef={field.ref}
            error={fieldState.error?.message}
            rows={6}
            images={false}
          />
        )}
      />
      {confirming ? (
        <div
          role="group"
          aria-label={m.projects_announcements_confirm()}
          className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4 sm:flex-row sm:items-center"
        >
          <p className="text-sm sm:flex-1">{m.projects_announcements_confirm_question({ title: title.trim(), reach })}</p>
          <div className="flex gap-2">
            {/* eslint-disable-next-line jsx-a11y/no-autofocus -- the button just pressed is gone: focus moves to the question's answer */}
            <Button type="submit" loading={isSubmitting} autoFocus>
              {m.projects_announcements_send_now()}
            </Button>
            <Button type="button" variant="ghost" disabled={isSubmitting} onClick={() => setConfirming(false)}>
              {m.projects_cancel()}
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit">{m.projects_announcements_send_to({ reach })}</Button>
          <p className="text-sm text-muted-foreground">{m.projects_announcements_per_day({ max: formatCount(ANNOUNCEMENT_LIMITS.perProjectPerDay) })}</p>
        </div>
      )}
    </form>
  );
}

function PastAnnouncement({ item }: { item: AdminAnnouncement }) {
  const by = item.author ? `${item.author.firstName} ${item.author.lastName}`.trim() : m.projects_announcements_former_staff();
  return (
    <details className="group rounded-lg border border-border bg-background">
      <summary className="flex cursor-pointer list-none flex-col gap-0.5 rounded-lg px-4 py-3 outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        <span className="font-medium break-words">{item.title}</span>
        <span className="text-sm text-muted-foreground">
          {withNodes((marks) => m.projects_announcements_sent_by({ time: marks.time, by }), {
            time: <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>,
          })}
        </span>
      </summary>
      <div className="border-t border-border px-4 pt-3 pb-4">
        <Markdown headingLevel={4}>{item.body}</Markdown>
      </div>
    </details>
  );
}
