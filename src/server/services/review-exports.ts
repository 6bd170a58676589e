/**
 * Review exports (`/admin/tools/export-reviews-unilever`): a project's product-review missions'
 * entries as reviews a retail ratings-and-reviews platform imports. The request is checked
 * against the missions' forms (`planExport`), the entries are read in keyset pages of
 * `EXPORT_PAGE_SIZE` (bounded memory, product by product), each turned into a `ReviewExportRow`
 * with its problems (`reviewRow`), and written as Fieldwork's CSV or XLSX, PowerReviews' import
 * CSV or Bazaarvoice's native content import XML, streamed. Every download is recorded
 * (`review_exports`, audited `review.export`). `docs/decisions/017-review-exports.md`.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { createCB } from 'xmlbuilder2';
import type { Answers, FormDefinition, FormElement } from '../../shared/forms/definition.ts';
import { isAnswerable, isOtherAnswer } from '../../shared/forms/logic.ts';
import {
  defaultMapping,
  INCENTIVE_DISCLOSURE,
  POWERREVIEWS_HEADER,
  POWERREVIEWS_LIMITS,
  REQUIRED_REVIEW_FIELDS,
  REVIEW_EXPORT_HEADER,
  REVIEW_FIELD_LABELS,
  REVIEW_FIELD_TYPES,
  REVIEW_FIELDS,
  REVIEW_PREVIEW_ROWS,
  reviewerNickname,
  SHARED_PHOTO_LINK_DAYS,
  type ReviewExportMission,
  type ReviewExportPreview,
  type ReviewExportProblem,
  type ReviewExportRecord,
  type ReviewExportRow,
  type ReviewExportState,
  type ReviewField,
  type ReviewMapping,
} from '../../shared/review-exports.ts';
import type { ReviewExportRequest } from '../../shared/schemas/review-exports.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { formVersions, missionEntries, missions, projects, reviewExports, users, type Mission, type Project } from '../db/schema/index.ts';
import { ApiError, foundOr404 } from '../errors.ts';
import { audit } from './audit.ts';
import type { Clock } from './clock.ts';
import { csvRows, type CsvCell } from './csv.ts';
import { currentEntryAnswers } from './entry-versions.ts';
import { xmlText } from './export-text.ts';
import { existingMediaIds, mediaLinkKey, signedMediaPath } from './media-links.ts';
import { XLSX_CONTENT_TYPE, xlsxStream as xlsxWorkbook } from './xlsx-writer.ts';

/** Entries read at a time. */
export const EXPORT_PAGE_SIZE = 500;
/** Most problems a preview lists (then one line says how many more there are). */
export const PREVIEW_PROBLEMS_MAX = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------------------------------------
// The missions and their forms

/** The answerable elements of a definition, in form order. */
function answerable(definition: FormDefinition | null): FormElement[] {
  return definition ? definition.pages.flatMap((page) => page.elements).filter((element) => isAnswerable(element)) : [];
}

/** The definitions of these missions' pinned form versions, by mission id. */
export async function missionDefinitions(db: Db, rows: readonly Mission[]): Promise<Map<number, FormDefinition | null>> {
  const out = new Map<number, FormDefinition | null>();
  if (rows.length === 0) return out;
  const versions = await db
    .select({ formId: formVersions.formId, version: formVersions.version, definition: formVersions.definition })
    .from(formVersions)
    .where(inArray(formVersions.formId, [...new Set(rows.map((row) => row.formId))]));
  for (const row of rows) {
    const found = versions.find((version) => version.formId === row.formId && version.version === row.formVersion);
    out.set(row.id, found?.definition ?? null);
  }
  return out;
}

/** The project, or 404. */
async function existingProject(db: Db, id: number): Promise<Project> {
  const [row] = await db.select().from(projects).where(eq(projects.id, id)).limit(1);
  return foundOr404(row, 'No such project');
}

/** `GET /api/admin/tools/export-reviews/projects/{id}/missions`: the project's missions, oldest first, with their form's elements and a first mapping. */
export async function exportMissions(db: Db, projectId: number): Promise<ReviewExportMission[]> {
  await existingProject(db, projectId);
  const rows = await db.select().from(missions).where(eq(missions.projectId, projectId)).orderBy(asc(missions.createdAt), asc(missions.id));
  const definitions = await missionDefinitions(db, rows);
  return rows.map((row) => {
    const elements = answerable(definitions.get(row.id) ?? null).map((element) => ({ id: element.id, type: element.type, title: element.title }));
    return {
      id: row.id,
      title: row.title,
      status: row.status,
      productId: row.productId,
      points: row.points,
      formVersion: row.formVersion,
      elements,
      defaults: defaultMapping(elements),
    };
  });
}

/** One chosen mission, ready to read: its row, the mapped elements and its 1-based order in the export. */
interface MissionPlan {
  mission: Mission;
  elements: Partial<Record<ReviewField, FormElement>>;
}

/** A checked request: the project, the missions grouped by product id, and the filters. */
export interface ExportPlan {
  project: Project;
  request: ReviewExportRequest;
  /** Missions by product (same product id: one group; missions without one: a group each), ordered by product id. */
  groups: { productId: string | null; missions: MissionPlan[] }[];
  byMission: Map<number, MissionPlan>;
}

/**
 * Checks the request against the data: the project exists (404), every mission is one of its
 * missions (400 `missionIds`), every mapping names an element of the mission's form of a fitting
 * type and maps the required fields (400, `mapping.{missionId}.{field}`).
 */
export async function planExport(db: Db, request: ReviewExportRequest): Promise<ExportPlan> {
  const project = await existingProject(db, request.projectId);
  const rows = await db.select().from(missions).where(inArray(missions.id, request.missionIds));
  const fields: Record<string, string[]> = {};
  const add = (key: string, message: string) => (fields[key] ??= []).push(message);
  const foreign = request.missionIds.filter((id) => !rows.some((row) => row.id === id && row.projectId === project.id));
  if (foreign.length > 0) add('missionIds', `Choose missions of this project (not ${foreign.join(', ')})`);
  const definitions = await missionDefinitions(db, rows);
  const byMission = new Map<number, MissionPlan>();
  for (const mission of rows) {
    if (mission.projectId !== project.id) continue;
    const mapping = request.mapping[String(mission.id)];
    if (!mapping) {
      add('mapping', `Map the fields of mission ${mission.id}`);
      continue;
    }
    const elements = answerable(definitions.get(mission.id) ?? null);
    const plan: MissionPlan = { mission, elements: {} };
    for (const field of REVIEW_FIELDS) {
      const id = mapping[field];
      const key = `mapping.${mission.id}.${field}`;
      if (id === null) {
        if (REQUIRED_REVIEW_FIELDS.includes(field))
          add(key, `Choose the question that holds the ${REVIEW_FIELD_LABELS[field].toLowerCase()} (“${mission.title}”)`);
        continue;
      }
      const element = elements.find((candidate) => candidate.id === id);
      if (!element) {
        add(key, `“${id}” is not a question of the form of “${mission.title}”`);
        continue;
      }
      if (!REVIEW_FIELD_TYPES[field].includes(element.type)) {
        add(
          key,
          `“${element.title || element.id}” is a ${element.type.replace('_', ' ')} question: it cannot hold the ${REVIEW_FIELD_LABELS[field].toLowerCase()}`,
        );
        continue;
      }
      plan.elements[field] = element;
    }
    byMission.set(mission.id, plan);
  }
  for (const key of Object.keys(request.mapping)) {
    if (!request.missionIds.includes(Number(key))) add('mapping', `Mission ${key} is mapped but not chosen`);
  }
  if (Object.keys(fields).length > 0) throw new ApiError(400, 'validation_failed', 'Check the highlighted fields', { fields });

  const groups = new Map<string, { productId: string | null; missions: MissionPlan[] }>();
  for (const id of request.missionIds) {
    const plan = byMission.get(id);
    if (!plan) continue;
    const key = plan.mission.productId ?? `\u0000mission-${plan.mission.id}`;
    const group = groups.get(key) ?? { productId: plan.mission.productId, missions: [] };
    group.missions.push(plan);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => (a.productId ?? '\uffff').localeCompare(b.productId ?? '\uffff') || a.missions[0]!.mission.id - b.missions[0]!.mission.id,
  );
  return { project, request, groups: ordered, byMission };
}

// ---------------------------------------------------------------------------------------------
// Reading the entries

/** An entry as read: its latest submitted answers and the reviewer's name and region. */
interface EntryRead {
  id: number;
  missionId: number;
  userId: number;
  status: string;
  submittedAt: Date | null;
  answers: Answers;
  firstName: string;
  lastName: string;
  region: string | null;
}

/** The filters of the request, on entries of these missions. */
function entryFilter(request: ReviewExportRequest, missionIds: readonly number[]): SQL | undefined {
  return and(
    inArray(missionEntries.missionId, [...missionIds]),
    inArray(missionEntries.status, request.states),
    request.from ? gte(missionEntries.submittedAt, new Date(`${request.from}T00:00:00Z`)) : undefined,
    request.to ? lt(missionEntries.submittedAt, new Date(Date.parse(`${request.to}T00:00:00Z`) + DAY_MS)) : undefined,
  );
}

/** One keyset page of a group's entries: ids above `afterId`, in id order. */
async function entryPage(db: Db, request: ReviewExportRequest, missionIds: readonly number[], afterId: number, limit: number): Promise<EntryRead[]> {
  return db
    .select({
      id: missionEntries.id,
      missionId: missionEntries.missionId,
      userId: missionEntries.userId,
      status: missionEntries.status,
      submittedAt: missionEntries.submittedAt,
      // The entry's current version (what was reviewed): the one rule of entry-versions.ts, the gallery's too.
      answers: currentEntryAnswers(missionEntries.id, missionEntries.answers),
      firstName: users.firstName,
      lastName: users.lastName,
      region: sql<string | null>`${users.address} ->> 'region'`,
    })
    .from(missionEntries)
    .innerJoin(users, eq(users.id, missionEntries.userId))
    .where(and(entryFilter(request, missionIds), gt(missionEntries.id, afterId)))
    .orderBy(asc(missionEntries.id))
    .limit(limit);
}

/** How many reviews the export holds. */
export async function countReviews(db: Db, plan: ExportPlan): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(missionEntries)
    .where(entryFilter(plan.request, [...plan.byMission.keys()]));
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------
// One review

/** What turning entries into rows needs: the plan, the signing key, the links' expiry and origin. */
export interface RowContext {
  plan: ExportPlan;
  key: Buffer;
  /** Unix seconds. */
  expires: number;
  publicUrl: string;
}

export async function rowContext(db: Db, config: Pick<Config, 'mediaLinkSecret' | 'publicUrl'>, clock: Clock, plan: ExportPlan): Promise<RowContext> {
  const key = await mediaLinkKey(db, config);
  const expires = Math.floor((clock.now().getTime() + SHARED_PHOTO_LINK_DAYS * DAY_MS) / 1000);
  return { plan, key, expires, publicUrl: config.publicUrl };
}

const YES = /^(yes|y|true|oui|ja|si|sí|definitely|probably yes)\b/i;
const NO = /^(no|n|false|non|nein|definitely not|probably not)\b/i;

/** Whole stars 1–5 from a rating (1…max), a scale (min…max) or a number (1–5, or min…max when both are set). */
export function starsOf(element: FormElement, value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  let stars: number;
  if (element.type === 'rating') stars = element.max === 5 ? value : 1 + ((value - 1) * 4) / Math.max(1, element.max - 1);
  else if (element.type === 'scale') stars = element.max === element.min ? Number.NaN : 1 + ((value - element.min) * 4) / (element.max - element.min);
  else if (element.type === 'number' && element.min !== undefined && element.max !== undefined && !(element.min === 1 && element.max === 5))
    stars = element.max === element.min ? Number.NaN : 1 + ((value - element.min) * 4) / (element.max - element.min);
  else stars = value;
  if (!Number.isFinite(stars)) return null;
  const whole = Math.round(stars);
  return whole >= 1 && whole <= 5 ? whole : null;
}

/** Yes / no from a consent or a choice whose option label (or "Other" text) reads yes or no; null otherwise. */
export function recommendOf(element: FormElement, value: unknown): boolean | null {
  if (value === undefined || value === null) return null;
  if (element.type === 'consent') return value === true;
  if (element.type !== 'single_choice' && element.type !== 'dropdown') return null;
  const text = isOtherAnswer(value) ? value.other : typeof value === 'string' ? (element.options.find((option) => option.id === value)?.label ?? value) : '';
  const label = text.trim().replace(/[_-]/g, ' ');
  if (YES.test(label)) return true;
  if (NO.test(label)) return false;
  return null;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value.trim() : isOtherAnswer(value) ? value.other.trim() : '');

/**
 * One entry as a review, and its problems: no rating (or not 1–5), no review text, an answer to
 * "would recommend" that reads neither yes nor no. `row` is the review's 1-based place.
 */
export function reviewRow(
  context: RowContext,
  entry: EntryRead,
  existingPhotos: ReadonlySet<string>,
  row: number,
): { review: ReviewExportRow; problems: ReviewExportProblem[] } {
  const plan = context.plan.byMission.get(entry.missionId);
  if (!plan) throw new Error(`entry ${entry.id} of a mission not in the plan`);
  const { mission, elements } = plan;
  const problems: ReviewExportProblem[] = [];
  const answer = (field: ReviewField) => {
    const element = elements[field];
    return element && Object.hasOwn(entry.answers, element.id) ? entry.answers[element.id] : undefined;
  };
  const ratingElement = elements.rating;
  const rawRating = answer('rating');
  const rating = ratingElement ? starsOf(ratingElement, rawRating) : null;
  if (rating === null)
    problems.push({
      row,
      field: 'rating',
      message:
        rawRating === undefined || rawRating === null
          ? 'No rating: the question was not answered'
          : `The rating ${JSON.stringify(rawRating)} is not 1 to 5 stars`,
    });
  const text = textOf(answer('text'));
  if (!text) problems.push({ row, field: 'text', message: 'No review text: the question was not answered' });
  const recommendElement = elements.recommend;
  const rawRecommend = answer('recommend');
  const recommend = recommendElement ? recommendOf(recommendElement, rawRecommend) : null;
  if (recommendElement && rawRecommend !== undefined && rawRecommend !== null && recommend === null)
    problems.push({ row, field: 'recommend', message: 'The answer to “would recommend” reads neither yes nor no: left empty' });
  const photoValue = answer('photos');
  const photos = (Array.isArray(photoValue) ? photoValue : [])
    .filter((id): id is string => typeof id === 'string' && existingPhotos.has(id))
    .map((id) => `${context.publicUrl}${signedMediaPath(context.key, id, 'display', context.expires)}`);
  const incentivized = mission.points > 0;
  return {
    review: {
      reviewId: `fw-${entry.id}`,
      entryId: entry.id,
      missionId: mission.id,
      productId: mission.productId,
      rating,
      title: textOf(answer('title')),
      text,
      recommend,
      photos,
      reviewerId: `fw-user-${entry.userId}`,
      nickname: reviewerNickname(entry.firstName, entry.lastName),
      region: (entry.region ?? '').trim(),
      submittedAt: (entry.submittedAt ?? new Date(0)).toISOString(),
      status: entry.status as ReviewExportState,
      incentivized,
      disclosure: incentivized ? INCENTIVE_DISCLOSURE : '',
    },
    problems,
  };
}

/** PowerReviews' length limits broken by a review, one problem each. */
export function powerReviewsProblems(review: ReviewExportRow, row: number): ReviewExportProblem[] {
  const values: Record<keyof typeof POWERREVIEWS_LIMITS, string> = {
    'Page Id': review.productId ?? '',
    'Review Display': review.nickname,
    'Review Title': review.title,
    'Review Location': review.region,
  };
  return (Object.keys(POWERREVIEWS_LIMITS) as (keyof typeof POWERREVIEWS_LIMITS)[]).flatMap((column) => {
    const length = Array.from(values[column]).length;
    const limit = POWERREVIEWS_LIMITS[column];
    return length > limit ? [{ row, field: column, message: `${column} is ${length} characters; PowerReviews takes at most ${limit}` }] : [];
  });
}

/** Problems of the request as a whole: the chosen missions without a product id (row 0). */
function planProblems(plan: ExportPlan): ReviewExportProblem[] {
  return [...plan.byMission.values()]
    .filter(({ mission }) => !mission.productId)
    .map(({ mission }) => ({ row: 0, field: 'productId', message: `“${mission.title}” has no product id: set it on the mission’s edit screen` }));
}

/** One page of reviews (with their problems) and the product group it belongs to. */
interface ReviewPage {
  group: ExportPlan['groups'][number];
  items: { review: ReviewExportRow; problems: ReviewExportProblem[] }[];
}

/**
 * Every review of the export in order (product by product, then entry id), a page at a time: a
 * page is read only when the one before has been taken (bounded memory).
 */
async function* reviewPages(db: Db, context: RowContext): AsyncGenerator<ReviewPage> {
  let row = 0;
  for (const group of context.plan.groups) {
    const missionIds = group.missions.map((plan) => plan.mission.id);
    let afterId = 0;
    for (;;) {
      const entries = await entryPage(db, context.plan.request, missionIds, afterId, EXPORT_PAGE_SIZE);
      if (entries.length === 0) break;
      afterId = entries[entries.length - 1]?.id ?? afterId;
      const photoIds = new Set<string>();
      for (const entry of entries) {
        const element = context.plan.byMission.get(entry.missionId)?.elements.photos;
        const value = element ? entry.answers[element.id] : undefined;
        if (Array.isArray(value)) for (const id of value) if (typeof id === 'string') photoIds.add(id);
      }
      const existing = await existingMediaIds(db, photoIds);
      yield { group, items: entries.map((entry) => reviewRow(context, entry, existing, ++row)) };
      if (entries.length < EXPORT_PAGE_SIZE) break;
    }
  }
}

/** `?preview=1`: the first rows, every problem (the first `PREVIEW_PROBLEMS_MAX`, then a count) and the total. */
export async function previewExport(db: Db, context: RowContext): Promise<ReviewExportPreview> {
  const rows: ReviewExportRow[] = [];
  const problems: ReviewExportProblem[] = planProblems(context.plan);
  let more = 0;
  let total = 0;
  for await (const page of reviewPages(db, context)) {
    for (const { review, problems: found } of page.items) {
      total += 1;
      if (rows.length < REVIEW_PREVIEW_ROWS) rows.push(review);
      const all = context.plan.request.format === 'powerreviews' ? [...found, ...powerReviewsProblems(review, total)] : found;
      for (const problem of all) {
        if (problems.length < PREVIEW_PROBLEMS_MAX) problems.push(problem);
        else more += 1;
      }
    }
  }
  if (more > 0) problems.push({ row: 0, field: '_', message: `…and ${more} more problems` });
  return { rows, problems, total };
}

// ---------------------------------------------------------------------------------------------
// The files

const yesNo = (value: boolean | null): string => (value === null ? '' : value ? 'Yes' : 'No');

/** Fieldwork's columns of a review (`REVIEW_EXPORT_HEADER`). */
function fieldworkCells(review: ReviewExportRow, photoSeparator: string): CsvCell[] {
  return [
    review.reviewId,
    review.entryId,
    review.missionId,
    review.productId ?? '',
    review.rating,
    review.title,
    review.text,
    yesNo(review.recommend),
    review.photos.join(photoSeparator),
    review.nickname,
    review.region,
    review.submittedAt,
    review.status,
    review.incentivized ? 'Yes' : 'No',
    review.disclosure,
  ];
}

/** The review text PowerReviews shows: the disclosure added to it, on every incentivized review. */
function textWithDisclosure(review: ReviewExportRow): string {
  return review.incentivized ? `${review.text}\n\n[${review.disclosure}]` : review.text;
}

/** PowerReviews' columns of a review (`POWERREVIEWS_HEADER`). */
function powerReviewsCells(review: ReviewExportRow): CsvCell[] {
  return [
    review.reviewId,
    review.productId ?? '',
    review.nickname,
    review.title,
    review.submittedAt,
    review.region,
    textWithDisclosure(review),
    review.rating,
    'No',
    review.status === 'approved' ? 'Approved' : 'Pending',
  ];
}

/** A CSV streamed page by page: `bom` first when asked, the header, the rows. */
function csvStream(
  db: Db,
  context: RowContext,
  header: readonly string[],
  cells: (review: ReviewExportRow) => CsvCell[],
  bom: boolean,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return pagedStream(db, context, {
    start: () => encoder.encode(`${bom ? '\uFEFF' : ''}${csvRows([], header)}`),
    page: (page) => (page.items.length === 0 ? null : encoder.encode(`\r\n${csvRows(page.items.map(({ review }) => cells(review)))}`)),
    end: () => encoder.encode('\r\n'),
  });
}

/**
 * A stream that reads the export a page at a time as the client takes it (`pull`): bounded
 * memory whatever the number of reviews.
 */
function pagedStream(
  db: Db,
  context: RowContext,
  writer: { start: () => Uint8Array; page: (page: ReviewPage) => Uint8Array | null; end: () => Uint8Array },
): ReadableStream<Uint8Array> {
  const pages = reviewPages(db, context);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(writer.start());
    },
    async pull(controller) {
      const next = await pages.next();
      if (next.done) {
        controller.enqueue(writer.end());
        controller.close();
        return;
      }
      const bytes = writer.page(next.value);
      if (bytes && bytes.byteLength > 0) controller.enqueue(bytes);
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** The Bazaarvoice namespace of the feed (their standard client feed schema, which native content import reads). */
export const BAZAARVOICE_NAMESPACE = 'http://www.bazaarvoice.com/xs/PRR/StandardClientFeed/14.7';

/**
 * Bazaarvoice's native content import: `<Feed>` of `<Product>`s (`ExternalId`: the product id),
 * each with its `<Reviews>`; each review flagged `IncentivizedReview` (a context data value, True
 * or False) and carrying the campaign id of the screen. Written with xmlbuilder2's callback
 * builder (escaped), one page at a time. Every text and attribute goes through `xmlText` first
 * (XML 1.0 characters only): the callback builder ignores `invalidCharReplacement`, and one
 * U+000B pasted from PowerPoint would make the whole feed unreadable.
 */
function bazaarvoiceStream(db: Db, context: RowContext, extractDate: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let buffered = '';
  const xml = createCB({ data: (chunk: string) => (buffered += chunk), prettyPrint: true });
  const take = () => {
    const out = encoder.encode(buffered);
    buffered = '';
    return out;
  };
  const campaignId = xmlText(context.plan.request.campaignId ?? '');
  let openGroup: ExportPlan['groups'][number] | null = null;
  const close = () => {
    if (openGroup) xml.up().up(); // </Reviews></Product>
    openGroup = null;
  };
  return pagedStream(db, context, {
    start: () => {
      xml.dec({ version: '1.0', encoding: 'UTF-8' }).ele(BAZAARVOICE_NAMESPACE, 'Feed', { name: 'Fieldwork', incremental: 'true', extractDate });
      return take();
    },
    page: ({ group, items }) => {
      if (openGroup !== group) {
        close();
        const productId = xmlText(group.productId ?? '');
        xml.ele('Product', { id: productId }).ele('ExternalId').txt(productId).up().ele('Reviews');
        openGroup = group;
      }
      for (const { review } of items) {
        xml.ele('Review', { id: xmlText(review.reviewId), removed: 'false' });
        xml
          .ele('UserProfileReference', { id: xmlText(review.reviewerId) })
          .ele('ExternalId')
          .txt(xmlText(review.reviewerId))
          .up()
          .ele('DisplayName')
          .txt(xmlText(review.nickname))
          .up()
          .up();
        xml.ele('Title').txt(xmlText(review.title)).up();
        xml.ele('ReviewText').txt(xmlText(review.text)).up();
        xml
          .ele('Rating')
          .txt(review.rating === null ? '' : String(review.rating))
          .up();
        if (review.recommend !== null) xml.ele('Recommended').txt(String(review.recommend)).up();
        if (review.region) xml.ele('ReviewerLocation').txt(xmlText(review.region)).up();
        xml.ele('SubmissionTime').txt(review.submittedAt).up();
        xml
          .ele('ModerationStatus')
          .txt(review.status === 'approved' ? 'APPROVED' : 'SUBMITTED')
          .up();
        xml.ele('CampaignId').txt(campaignId).up();
        xml
          .ele('ContextDataValues')
          .ele('ContextDataValue', { id: 'IncentivizedReview' })
          .txt(review.incentivized ? 'True' : 'False')
          .up()
          .up();
        if (review.photos.length > 0) {
          xml.ele('Photos');
          for (const url of review.photos) xml.ele('Photo').ele('PhotoUrl').txt(xmlText(url)).up().up();
          xml.up();
        }
        xml.up(); // </Review>
      }
      return take();
    },
    end: () => {
      close();
      xml.up().end(); // </Feed>
      return take();
    },
  });
}

/** Fieldwork's columns as an XLSX workbook (`xlsx-writer.ts`), one sheet "Reviews". */
function xlsxStream(db: Db, context: RowContext): ReadableStream<Uint8Array> {
  async function* pages() {
    for await (const page of reviewPages(db, context)) yield page.items.map(({ review }) => fieldworkCells(review, '\n'));
  }
  return xlsxWorkbook([
    { name: 'Reviews', header: REVIEW_EXPORT_HEADER, width: (header) => (header === 'Review text' || header === 'Photos' ? 60 : 18), pages: pages() },
  ]);
}

/** The file of a format: body, content type and file name. */
export function exportFile(db: Db, context: RowContext, now: Date): { body: ReadableStream<Uint8Array>; contentType: string; fileName: string } {
  const { format } = context.plan.request;
  const stamp = now.toISOString().slice(0, 10);
  const base = `reviews-project-${context.plan.project.id}-${stamp}`;
  switch (format) {
    case 'csv':
      return {
        body: csvStream(db, context, REVIEW_EXPORT_HEADER, (review) => fieldworkCells(review, ' '), true),
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}.csv`,
      };
    case 'powerreviews':
      return {
        body: csvStream(db, context, POWERREVIEWS_HEADER, powerReviewsCells, false),
        contentType: 'text/csv; charset=utf-8',
        fileName: `${base}-powerreviews.csv`,
      };
    case 'xlsx':
      return { body: xlsxStream(db, context), contentType: XLSX_CONTENT_TYPE, fileName: `${base}.xlsx` };
    case 'bazaarvoice':
      return { body: bazaarvoiceStream(db, context, now.toISOString()), contentType: 'application/xml; charset=utf-8', fileName: `${base}-bazaarvoice.xml` };
  }
}

// ---------------------------------------------------------------------------------------------
// The record

/** What the record and the audit row keep of a request (no answers, no links). */
function filtersOf(request: ReviewExportRequest): Record<string, unknown> {
  return {
    missionIds: request.missionIds,
    from: request.from ?? null,
    to: request.to ?? null,
    states: request.states,
    mapping: request.mapping,
    campaignId: request.campaignId ?? null,
  };
}

/** Records a download (who, when, filters, format, rows) with its audit row `review.export`, in one transaction. */
export async function recordExport(db: Db, plan: ExportPlan, rows: number, actor: { id: number; ip: string | null }): Promise<number> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviewExports)
      .values({ projectId: plan.project.id, format: plan.request.format, filters: filtersOf(plan.request), rows, createdBy: actor.id })
      .returning({ id: reviewExports.id });
    if (!row) throw new Error('insert returned no row');
    await audit(tx, {
      actorId: actor.id,
      via: 'api',
      action: 'review.export',
      targetType: 'project',
      targetId: plan.project.id,
      after: { exportId: row.id, format: plan.request.format, rows, ...filtersOf(plan.request) },
      ip: actor.ip,
    });
    return row.id;
  });
}

/** `GET /api/admin/tools/export-reviews/history`: the latest exports first (at most `limit`). */
export async function exportHistory(db: Db, limit: number): Promise<ReviewExportRecord[]> {
  const rows = await db
    .select({
      record: reviewExports,
      projectName: projects.name,
      user: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
    })
    .from(reviewExports)
    .leftJoin(projects, eq(projects.id, reviewExports.projectId))
    .leftJoin(users, eq(users.id, reviewExports.createdBy))
    .orderBy(desc(reviewExports.createdAt), desc(reviewExports.id))
    .limit(limit);
  return rows.map(({ record, projectName, user }) => ({
    id: record.id,
    projectId: record.projectId,
    projectName: projectName ?? null,
    format: record.format,
    rows: record.rows,
    filters: record.filters,
    createdAt: record.createdAt.toISOString(),
    createdBy: user && user.id !== null ? user : null,
  }));
}

export type { ReviewMapping };
