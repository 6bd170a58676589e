/**
 * Mission groups (zod-free: participant screens import it): how a group unlocks its missions, and
 * the admin's and participant's view of it. Payload schemas: `schemas/mission-groups.ts`.
 */

export const GROUP_UNLOCKS = ['all_open', 'in_order'] as const;

export type GroupUnlock = (typeof GROUP_UNLOCKS)[number];

export const GROUP_UNLOCK_ON = ['submitted', 'approved'] as const;

export type GroupUnlockOn = (typeof GROUP_UNLOCK_ON)[number];

/** A mission inside a group, as the participant sees it. */
export const GROUP_MISSION_STATES = ['locked', 'open', 'in_progress', 'submitted', 'approved'] as const;

export type GroupMissionState = (typeof GROUP_MISSION_STATES)[number];

export interface AdminMissionGroup {
  id: number;
  projectId: number;
  title: string;
  description: string;
  missionIds: number[];
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/mission-groups/{id}`. */
export interface ParticipantMissionGroup {
  id: number;
  title: string;
  description: string;
  projectName: string;
  unlock: GroupUnlock;
  unlockOn: GroupUnlockOn;
  /** `pointsPerEntry`: the mission takes more than one entry ("30 points an entry"). */
  missions: {
    id: number;
    title: string;
    points: number;
    pointsPerEntry?: boolean;
    closesAt: string | null;
    state: GroupMissionState;
    lockedReason?: string | null;
  }[];
  /** Missions finished (submitted or approved, by `unlockOn`) out of all. */
  progress: { done: number; total: number };
}
