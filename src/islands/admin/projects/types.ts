/**
 * The answer shapes the programme's admin screens read, named for them. They are the shared
 * types of `src/shared/programme.ts`; the lists' wrappers are spelled out here.
 */
import type {
  AdminMission,
  AdminMissionGroup,
  AdminPage,
  AdminProjectListItem,
  AdminSurvey,
  AdminSurveyResponse,
  ElementSummary,
  ProjectMember,
} from '../../../shared/programme.ts';

export type { SurveyResults } from '../../../shared/programme.ts';

export type ProjectList = AdminPage<AdminProjectListItem>;
export type MemberList = AdminPage<ProjectMember>;
export type ResponseList = AdminPage<AdminSurveyResponse>;
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
