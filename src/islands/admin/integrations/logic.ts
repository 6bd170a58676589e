/**
 * The integrations screens' pure parts (issue 32; /admin/integrations, /tokens, /docs): the words
 * of events, scopes, statuses and reasons, the forms' values and the API bodies they make, and the
 * API's English field messages that the shared translation table does not hold yet. Unit-testable;
 * no zod here (the forms load it on their first validation: `form-schema.ts`), and nothing but
 * types from `shared/webhooks.ts`, whose zod schemas would otherwise ride along with the page.
 */
import { API_TOKEN_LIMITS, API_TOKEN_SCOPES, type ApiTokenScope, type ApiTokenStatus } from '../../../shared/api-tokens.ts';
import type { WebhookDeliveryStatus, WebhookEndpoint, WebhookEventType, WebhookMessageType } from '../../../shared/webhooks.ts';
import { m } from '../../../shared/i18n.ts';
import { translateValidation } from '../../../shared/validation-words.ts';

// ---------------------------------------------------------------------------------------------
// Words (each a message, called at render: the words are in the page's language)

/** What each event means, in the order of `WEBHOOK_EVENT_TYPES` (the record is complete by its type). */
export const EVENT_TEXT: Readonly<Record<WebhookEventType, () => string>> = {
  'participant.joined': m.integrations_event_participant_joined,
  'survey_response.submitted': m.integrations_event_survey_response_submitted,
  'mission_entry.submitted': m.integrations_event_mission_entry_submitted,
  'mission_entry.decided': m.integrations_event_mission_entry_decided,
  'points.credited': m.integrations_event_points_credited,
  'points.available': m.integrations_event_points_available,
  'redemption.updated': m.integrations_event_redemption_updated,
  'external_survey.returned': m.integrations_event_external_survey_returned,
};

/** The events an endpoint may ask for, in `WEBHOOK_EVENT_TYPES`' order (tests/unit/admin-integrations holds them equal). */
export const EVENT_TYPES = Object.keys(EVENT_TEXT) as WebhookEventType[];

/** What each scope allows (the record is complete by its type). */
export const SCOPE_TEXT: Readonly<Record<ApiTokenScope, () => string>> = {
  'responses:read': m.integrations_scope_responses_read,
  'entries:read': m.integrations_scope_entries_read,
  'participants:read': m.integrations_scope_participants_read,
  'points:read': m.integrations_scope_points_read,
  'points:write': m.integrations_scope_points_write,
  'webhooks:manage': m.integrations_scope_webhooks_manage,
};

export const DELIVERY_STATUS_LABELS: Readonly<Record<WebhookDeliveryStatus, () => string>> = {
  pending: m.integrations_delivery_pending,
  succeeded: m.integrations_delivery_succeeded,
  failed: m.integrations_delivery_failed,
};

export const TOKEN_STATUS_LABELS: Readonly<Record<ApiTokenStatus, () => string>> = {
  active: m.integrations_token_status_active,
  expired: m.integrations_token_status_expired,
  revoked: m.integrations_token_status_revoked,
};

/** An event type as a delivery names it: the test event has its own word. */
export function messageTypeText(type: WebhookMessageType): string {
  return type === 'webhook.test' ? m.integrations_event_test() : (EVENT_TEXT[type]?.() ?? type);
}

/**
 * The API's English messages on these forms that the shared table (`validation-words.ts`) does not
 * translate: shown in the page's language; any other text goes through `translateValidation`.
 */
const FIELD_TEXTS: Readonly<Record<string, () => string>> = {
  'Choose at least one scope': m.integrations_error_choose_scope,
  'Name each scope once': m.integrations_error_choose_scope,
  'Choose at least one event': m.integrations_error_choose_event,
  'Choose the events to send': m.integrations_error_choose_event,
  'No such project': m.integrations_error_no_project,
  'Must be a project id': m.integrations_error_no_project,
  'Choose a project, or null for all': m.integrations_error_no_project,
  'Enter a number of days': m.integrations_error_days,
  'Enter a whole number of days': m.integrations_error_days,
  'At least 1 day': m.integrations_error_days,
  [`At most ${API_TOKEN_LIMITS.expiresInDaysMax} days`]: m.integrations_error_days,
};

/** A field's message in the page's language (undefined stays undefined). */
export function fieldText(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  return FIELD_TEXTS[message]?.() ?? translateValidation(message);
}

// ---------------------------------------------------------------------------------------------
// Projects

/** "All projects" in a project choice (never the empty string: `SelectItem`). */
export const ALL_PROJECTS = 'all';

export interface ProjectOption {
  id: number;
  name: string;
}

/** A project's name for a list, or "Project 12" for one the list of projects does not hold (archived). */
/** The project select of a dialog: every project, then each one by name. */
export function projectSelectOptions(projects: readonly ProjectOption[]): { value: string; label: string }[] {
  return [{ value: ALL_PROJECTS, label: m.integrations_all_projects() }, ...projects.map((project) => ({ value: String(project.id), label: project.name }))];
}

export function projectName(projects: readonly ProjectOption[], projectId: number | null): string {
  if (projectId === null) return m.integrations_all_projects();
  return projects.find((project) => project.id === projectId)?.name ?? m.integrations_project_number({ id: String(projectId) });
}

/** A project choice's value as the API takes it. */
export function projectIdOf(value: string): number | null {
  const id = Number(value);
  return value === ALL_PROJECTS || !Number.isInteger(id) || id < 1 ? null : id;
}

// ---------------------------------------------------------------------------------------------
// The webhook endpoint form

export interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
  /** `all` or a project's id. */
  project: string;
}

export const WEBHOOK_FORM_FIELDS = ['url', 'description', 'events', 'project'] as const;

export function webhookFormValues(endpoint: WebhookEndpoint | null): WebhookFormValues {
  return {
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: endpoint ? [...endpoint.events] : [],
    project: endpoint?.projectId ? String(endpoint.projectId) : ALL_PROJECTS,
  };
}

/** `POST /api/admin/webhooks`' body. */
export function webhookBody(values: WebhookFormValues): { url: string; description: string; events: WebhookEventType[]; projectId: number | null } {
  return {
    url: values.url.trim(),
    description: values.description.trim(),
    // In the list's order, whatever order they were ticked in.
    events: EVENT_TYPES.filter((type) => values.events.includes(type)),
    projectId: projectIdOf(values.project),
  };
}

/** `PATCH /api/admin/webhooks/{id}`'s body: only what changed (the audit row says what an admin did). */
export function webhookPatch(before: WebhookFormValues, after: WebhookFormValues): Partial<ReturnType<typeof webhookBody>> {
  const was = webhookBody(before);
  const now = webhookBody(after);
  const patch: Partial<ReturnType<typeof webhookBody>> = {};
  if (now.url !== was.url) patch.url = now.url;
  if (now.description !== was.description) patch.description = now.description;
  if (now.events.join(',') !== was.events.join(',')) patch.events = now.events;
  if (now.projectId !== was.projectId) patch.projectId = now.projectId;
  return patch;
}

// ---------------------------------------------------------------------------------------------
// The API token form

export interface TokenFormValues {
  name: string;
  scopes: ApiTokenScope[];
  project: string;
  /** As typed. */
  expiresInDays: string;
}

export const TOKEN_FORM_FIELDS = ['name', 'scopes', 'project', 'expiresInDays'] as const;

export const TOKEN_FORM_DEFAULTS: TokenFormValues = {
  name: '',
  scopes: [],
  project: ALL_PROJECTS,
  expiresInDays: String(API_TOKEN_LIMITS.expiresInDaysDefault),
};

/** `POST /api/admin/tokens`' body; days not typed are the default, days that are no number stay a text the schema refuses. */
export function tokenBody(values: TokenFormValues): { name: string; scopes: ApiTokenScope[]; projectId: number | null; expiresInDays: number | string } {
  const typed = values.expiresInDays.trim();
  const days = typed === '' ? API_TOKEN_LIMITS.expiresInDaysDefault : Number(typed);
  return {
    name: values.name.trim(),
    scopes: API_TOKEN_SCOPES.filter((scope) => values.scopes.includes(scope)),
    projectId: projectIdOf(values.project),
    expiresInDays: Number.isFinite(days) ? days : typed,
  };
}

/** How a token is shown in lists: its first characters and an ellipsis. */
export function tokenPrefixText(prefix: string): string {
  return `${prefix}…`;
}

/** The curl line the token dialog offers to try a new token with. */
export function curlExample(origin: string, token: string): string {
  return `curl -H "Authorization: Bearer ${token}" ${origin}/api/v1/projects`;
}
