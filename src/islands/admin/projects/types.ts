/**
 * The answer shapes the programme's admin screens read, named for them. They are the shared
 * types of `src/shared/` (projects, surveys, missions, mission groups, mission entries); the
 * lists' wrappers are spelled out here.
 */
import type { AdminMissionGroup } from '../../../shared/mission-groups.ts';
import type { AdminMission } from '../../../shared/missions.ts';
import type { ListPage } from '../../../shared/list.ts';
import type { AdminProjectListItem, ProjectMember } from '../../../shared/projects.ts';
import type { AdminSurvey, AdminSurveyResponse, ElementSummary } from '../../../shared/surveys.ts';

export type { SurveyResults } from '../../../shared/surveys.ts';

export type ProjectList = ListPage<AdminProjectListItem>;
export type MemberList = ListPage<ProjectMember>;
export type ResponseList = ListPage<AdminSurveyResponse>;
/** One question's summary in the results. */
export type ResultElement = ElementSummary;

export interface SurveyList {
  items: AdminSurvey[];
}
export interface MissionList {
  items: AdminMission[];
}
export interface MissionGroupList {
  items: AdminMissionGroup[];
}
