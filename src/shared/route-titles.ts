/**
 * The routes' titles in the page's language (issue 31): `ROUTES` keeps each title in English, the
 * source the tests and payloads use; pages, layouts and breadcrumbs show `routeTitle(pattern)`.
 * A message per title (`shell_route_title_…`); the record is complete by its type.
 */
import { m } from './i18n.ts';
import type { RoutePattern } from './routes.ts';

const TITLES: Readonly<Record<RoutePattern, () => string>> = {
  '/login': m.shell_route_title_sign_in,
  '/register': m.shell_route_title_register,
  '/forgot-password': m.shell_route_title_forgot_password,
  '/onboarding/:token': m.shell_route_title_onboarding,
  '/reset-password/:token': m.shell_route_title_reset_password,
  '/terms': m.shell_route_title_terms,
  '/privacy': m.shell_route_title_privacy,
  '/contact': m.shell_route_title_contact,
  '/data-deletion': m.shell_route_title_data_deletion,
  '/maintenance': m.shell_route_title_maintenance,
  '/': m.shell_route_title_home,
  '/update-email/:token': m.shell_route_title_update_email,
  '/surveys/:id': m.shell_route_title_survey,
  '/missions/:id': m.shell_route_title_mission,
  '/mission-groups/:id': m.shell_route_title_mission_group,
  '/account': m.shell_route_title_account,
  '/account/edit': m.shell_route_title_account_edit,
  '/account/edit/address': m.shell_route_title_address,
  '/account/edit/profile': m.shell_route_title_profile,
  '/account/edit/preferences': m.shell_route_title_preferences,
  '/account/security': m.shell_route_title_security,
  '/account/rewards': m.shell_route_title_rewards,
  '/account/mission-history': m.shell_route_title_mission_history,
  '/account/mission-history/:missionId': m.shell_route_title_mission_history,
  '/admin': m.shell_route_title_dashboard,
  '/admin/gallery': m.shell_route_title_gallery,
  '/admin/forms': m.shell_route_title_forms,
  '/admin/forms/:id': m.shell_route_title_form_builder,
  '/admin/users': m.shell_route_title_users,
  '/admin/users/:userId': m.shell_route_title_user,
  '/admin/tools': m.shell_route_title_tools,
  '/admin/tools/points-bulk-update': m.shell_route_title_points_bulk_update,
  '/admin/tools/alchemer-export-append': m.shell_route_title_alchemer_export_append,
  '/admin/tools/export-reviews-unilever': m.shell_route_title_export_reviews_unilever,
  '/admin/tools/client-errors': m.shell_route_title_client_errors,
  '/admin/audit': m.shell_route_title_audit,
  '/admin/integrations': m.integrations_route_title_integrations,
  '/admin/integrations/tokens': m.integrations_route_title_tokens,
  '/admin/integrations/docs': m.integrations_route_title_reference,
  '/admin/rewards': m.shell_route_title_rewards,
  '/admin/rewards/redemptions': m.shell_route_title_reward_requests,
  '/admin/review': m.shell_route_title_review,
  '/admin/projects': m.shell_route_title_projects,
  '/admin/projects/:projectId': m.shell_route_title_project,
  '/admin/projects/:projectId/surveys/new': m.shell_route_title_new_survey,
  '/admin/projects/:projectId/surveys/:surveyId': m.shell_route_title_survey,
  '/admin/projects/:projectId/surveys/:surveyId/edit': m.shell_route_title_edit_survey,
  '/admin/projects/:projectId/missions/new': m.shell_route_title_new_mission,
  '/admin/projects/:projectId/missions/:missionId': m.shell_route_title_mission,
  '/admin/projects/:projectId/missions/:missionId/edit': m.shell_route_title_edit_mission,
};

/** A route's title in the current language ("Sign in", "Anmelden", …). */
export function routeTitle(pattern: RoutePattern): string {
  return TITLES[pattern]();
}
