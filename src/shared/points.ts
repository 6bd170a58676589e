/** The points ledger (zod-free). Payload schemas: `schemas/points.ts`. */

/**
 * `held`: a redemption's points, taken from `available` while it is open (issue 30); posted, it
 * becomes `available` (a negative entry: spent), released, `voided`.
 */
export const POINT_STATES = ['pending', 'available', 'voided', 'held'] as const;
export type PointState = (typeof POINT_STATES)[number];

export const POINT_SOURCES = ['survey', 'mission', 'adjustment', 'bulk', 'external_survey', 'redemption'] as const;
export type PointSource = (typeof POINT_SOURCES)[number];

export const POINTS_LIMITS = {
  /** Largest single adjustment, either way. */
  adjustmentMax: 1_000_000,
  reasonMax: 500,
  referenceMax: 200,
} as const;

/** The references the system credits under: one credit per (user, source, reference). */
export const pointReference = {
  missionEntry: (entryId: number) => `mission-entry:${entryId}`,
  survey: (surveyId: number) => `survey:${surveyId}`,
  externalSurvey: (surveyId: number) => `external-survey:${surveyId}`,
  redemption: (redemptionId: number) => `redemption:${redemptionId}`,
} as const;

export interface PointsEntryView {
  id: number;
  points: number;
  state: PointState;
  reason: string;
  source: PointSource;
  createdAt: string;
}

/**
 * `GET /api/account/points`: `balance` = `available` (what can be spent: held points are taken
 * off already), pending and held beside it.
 */
export interface PointsSummary {
  balance: number;
  available: number;
  pending: number;
  held: number;
  entries: PointsEntryView[];
  /** For the paginated history: how many entries in all. */
  total?: number;
}

/** "1 point", "250 points": how points are written everywhere (browser labels and notifications). */
export function pointsText(points: number): string {
  return `${points.toLocaleString('en')} ${points === 1 ? 'point' : 'points'}`;
}
