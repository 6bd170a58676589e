/**
 * The review export (docs/api.md "Review export"): admins only; the mapping checked against the
 * missions' forms; state and date filters; every format's content (Fieldwork's CSV and XLSX,
 * PowerReviews' CSV with its limits and no BOM, Bazaarvoice's XML); formula-safe cells; text
 * pasted from Word or PowerPoint (characters XML forbids) in a feed and a workbook that still
 * parse; signed photo links that work without a session and stop after expiry or when changed; the
 * record and its audit row; the product id of missions.
 */
import { and, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { SaxesParser } from 'saxes';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { auditLog, missionEntries, missions, users, type Mission, type Project } from '../../src/server/db/schema/index.ts';
import type { FormDefinition } from '../../src/shared/forms/definition.ts';
import type { AdminMission } from '../../src/shared/missions.ts';
import {
  INCENTIVE_DISCLOSURE,
  POWERREVIEWS_HEADER,
  REVIEW_EXPORT_HEADER,
  type ReviewExportMission,
  type ReviewExportPreview,
  type ReviewExportRecord,
} from '../../src/shared/review-exports.ts';
import { describeEachBackend, ORIGIN, type TestContext } from './harness.ts';
import { fieldsOf, type SignedIn } from './helpers.ts';
import { createMission, createProject, insertEntry, okJson, participant, publishedForm, staff } from './programme-fixtures.ts';

const SCHEMA = 'fieldwork.form/1' as const;

function reviewDefinition(): FormDefinition {
  return {
    schema: SCHEMA,
    title: 'Product review',
    pages: [
      {
        id: 'page_1',
        title: '',
        elements: [
          { id: 'stars', type: 'rating', title: 'Stars', max: 5, required: true },
          { id: 'headline', type: 'short_text', title: 'Headline' },
          { id: 'body', type: 'long_text', title: 'Your review' },
          {
            id: 'recommend',
            type: 'single_choice',
            title: 'Would you recommend it?',
            options: [
              { id: 'yes', label: 'Yes' },
              { id: 'no', label: 'No' },
            ],
          },
          { id: 'pics', type: 'photo', title: 'Photos', maxFiles: 3 },
          { id: 'score10', type: 'rating', title: 'Out of ten', max: 10 },
        ],
      },
    ],
  };
}

const MAPPING = { rating: 'stars', title: 'headline', text: 'body', recommend: 'recommend', photos: 'pics' };
const PRODUCT = '8710447123456';
const LONG_TITLE = 'A title that goes on and on well past what PowerReviews will take in one';

describeEachBackend('review export', (ctx) => {
  let admin: SignedIn;
  let moderator: SignedIn;
  let project: Project;
  let mission: Mission;
  let other: Mission;
  let photoId: string;
  const entries: Record<string, number> = {};

  const get = (path: string, who: SignedIn | null) => ctx().request(path, { headers: who?.headers ?? {} });
  const post = (path: string, body: unknown, who: SignedIn | null = admin) => ctx().json('POST', path, body, who?.headers ?? {});
  const body = (overrides: Record<string, unknown> = {}) => ({
    projectId: project.id,
    missionIds: [mission.id],
    format: 'csv',
    mapping: { [mission.id]: MAPPING },
    ...overrides,
  });
  const preview = async (overrides: Record<string, unknown> = {}) =>
    okJson<ReviewExportPreview>(await post('/api/admin/tools/export-reviews?preview=1', body(overrides)));

  async function upload(c: TestContext, who: SignedIn): Promise<string> {
    const png = await sharp({ create: { width: 20, height: 14, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
    const res = await c.request('/api/media', { method: 'POST', headers: { Origin: ORIGIN, ...who.headers }, body: form });
    return (await okJson<{ id: string }>(res, 201)).id;
  }

  async function person(c: TestContext, firstName: string, lastName: string, region?: string): Promise<SignedIn> {
    const who = await participant(c);
    await c.database.db
      .update(users)
      .set({ firstName, lastName, address: region ? { line1: '1 Main St', city: 'Town', region, postalCode: '1000', country: 'NL' } : null })
      .where(eq(users.id, who.id));
    return who;
  }

  beforeAll(async () => {
    const c = ctx();
    admin = await staff(c, 'admin');
    moderator = await staff(c, 'moderator');
    project = await createProject(c, { name: 'Shampoo reviews' });
    const form = await publishedForm(c, reviewDefinition());
    mission = await createMission(c, project.id, { form, title: 'Shampoo test', points: 50, entries: { min: 1, max: 5 } });
    other = await createMission(c, project.id, { form, title: 'Conditioner test', points: 0 });
    const ann = await person(c, 'Ann', 'van Dijk', 'Noord-Holland');
    const bob = await person(c, 'Bob', 'Smith');
    const cat = await person(c, 'Cat', 'Jones', 'A region whose name is much longer than forty characters');
    photoId = await upload(c, ann);
    const at = (day: string) => new Date(`${day}T10:00:00Z`);
    entries.approved = (
      await insertEntry(c, mission, ann.id, {
        status: 'approved',
        submittedAt: at('2026-10-05'),
        answers: { stars: 4, headline: 'Lovely', body: 'Smells great, rinses clean.', recommend: 'yes', pics: [photoId] },
      })
    ).id;
    entries.submitted = (
      await insertEntry(c, mission, bob.id, {
        status: 'submitted',
        submittedAt: at('2026-10-06'),
        answers: { stars: 2, body: 'Too dry for me.', recommend: 'no' },
      })
    ).id;
    entries.rejected = (await insertEntry(c, mission, bob.id, { status: 'rejected', submittedAt: at('2026-10-07'), answers: { stars: 1, body: 'Spam' } })).id;
    entries.old = (await insertEntry(c, mission, cat.id, { status: 'approved', submittedAt: at('2026-09-01'), answers: { stars: 5, body: 'Old one' } })).id;
    entries.risky = (
      await insertEntry(c, mission, cat.id, {
        status: 'approved',
        submittedAt: at('2026-10-10'),
        answers: { stars: 3, headline: LONG_TITLE, body: '=HYPERLINK("http://evil.example","click")', recommend: 'yes' },
      })
    ).id;
    entries.noRating = (await insertEntry(c, other, ann.id, { status: 'approved', submittedAt: at('2026-10-08'), answers: { body: 'No stars given' } })).id;
  });

  describe('the product id of missions', () => {
    it('is saved through PATCH, shown on the mission, checked loosely', async () => {
      const saved = await okJson<AdminMission>(await ctx().json('PATCH', `/api/admin/missions/${mission.id}`, { productId: PRODUCT }, admin.headers));
      expect(saved.productId).toBe(PRODUCT);
      expect((await okJson<AdminMission>(await get(`/api/admin/missions/${mission.id}`, moderator))).productId).toBe(PRODUCT);
      const fields = await fieldsOf(await ctx().json('PATCH', `/api/admin/missions/${mission.id}`, { productId: 'not a sku!' }, admin.headers));
      expect(fields.productId?.[0]).toMatch(/GTIN, EAN or SKU/);
      const long = await fieldsOf(await ctx().json('PATCH', `/api/admin/missions/${mission.id}`, { productId: 'x'.repeat(51) }, admin.headers));
      expect(long.productId).toBeDefined();
      const cleared = await okJson<AdminMission>(await ctx().json('PATCH', `/api/admin/missions/${other.id}`, { productId: '' }, admin.headers));
      expect(cleared.productId).toBeNull();
      const made = await okJson<AdminMission>(
        await ctx().json(
          'POST',
          `/api/admin/projects/${project.id}/missions`,
          { title: 'New one', formId: mission.formId, productId: 'SKU-1.a_b' },
          admin.headers,
        ),
        201,
      );
      expect(made.productId).toBe('SKU-1.a_b');
    });
  });

  describe('who may', () => {
    it('is for admins: moderators 403, participants 403, visitors 401', async () => {
      expect((await post('/api/admin/tools/export-reviews', body(), moderator)).status).toBe(403);
      expect((await post('/api/admin/tools/export-reviews', body(), await participant(ctx()))).status).toBe(403);
      expect((await post('/api/admin/tools/export-reviews', body(), null)).status).toBe(401);
      expect((await get('/api/admin/tools/export-reviews/history', moderator)).status).toBe(403);
      expect((await get(`/api/admin/tools/export-reviews/projects/${project.id}/missions`, moderator)).status).toBe(403);
    });
  });

  describe('the missions and the mapping', () => {
    it('lists the project’s missions with their elements and a first mapping', async () => {
      const { items } = await okJson<{ items: ReviewExportMission[] }>(await get(`/api/admin/tools/export-reviews/projects/${project.id}/missions`, admin));
      const found = items.find((item) => item.id === mission.id);
      expect(found?.productId).toBe(PRODUCT);
      expect(found?.elements.map((element) => element.id)).toEqual(['stars', 'headline', 'body', 'recommend', 'pics', 'score10']);
      expect(found?.defaults).toEqual(MAPPING);
      expect((await get('/api/admin/tools/export-reviews/projects/999999/missions', admin)).status).toBe(404);
    });

    it('refuses element ids the form does not have, types that do not fit, and missing required fields (400 with fields)', async () => {
      const fields = await fieldsOf(
        await post(
          '/api/admin/tools/export-reviews?preview=1',
          body({ mapping: { [mission.id]: { ...MAPPING, rating: 'nope', photos: 'body', text: null } } }),
        ),
      );
      expect(fields[`mapping.${mission.id}.rating`]?.[0]).toMatch(/“nope” is not a question of the form of “Shampoo test”/);
      expect(fields[`mapping.${mission.id}.photos`]?.[0]).toMatch(/cannot hold the photos/);
      expect(fields[`mapping.${mission.id}.text`]?.[0]).toMatch(/review text/);
    });

    it('refuses missions of another project, a mission without a mapping, Bazaarvoice without a campaign id, dates out of order', async () => {
      const elsewhere = await createMission(ctx(), (await createProject(ctx())).id);
      const foreign = await fieldsOf(
        await post(
          '/api/admin/tools/export-reviews',
          body({ missionIds: [mission.id, elsewhere.id], mapping: { [mission.id]: MAPPING, [elsewhere.id]: MAPPING } }),
        ),
      );
      expect(foreign.missionIds?.[0]).toMatch(/Choose missions of this project/);
      const unmapped = await fieldsOf(await post('/api/admin/tools/export-reviews', body({ missionIds: [mission.id, other.id] })));
      expect(unmapped.mapping?.[0]).toMatch(new RegExp(`Map the fields of mission ${other.id}`));
      const bv = await fieldsOf(await post('/api/admin/tools/export-reviews', body({ format: 'bazaarvoice' })));
      expect(bv.campaignId?.[0]).toBe('Enter the campaign id for Bazaarvoice');
      const dates = await fieldsOf(await post('/api/admin/tools/export-reviews', body({ from: '2026-10-10', to: '2026-10-01' })));
      expect(dates.to).toBeDefined();
      const empty = await fieldsOf(await post('/api/admin/tools/export-reviews', {}));
      expect(Object.keys(empty)).toEqual(expect.arrayContaining(['projectId', 'missionIds', 'format', 'mapping']));
      expect((await post('/api/admin/tools/export-reviews', body({ projectId: 999999 }))).status).toBe(404);
    });
  });

  describe('filters and the preview', () => {
    it('takes approved entries by default, submitted ones on request, never rejected ones', async () => {
      const approved = await preview();
      expect(approved.rows.map((row) => row.entryId)).toEqual([entries.approved, entries.old, entries.risky]);
      expect(approved.total).toBe(3);
      const both = await preview({ states: ['approved', 'submitted'] });
      expect(both.rows.map((row) => row.entryId)).toEqual([entries.approved, entries.submitted, entries.old, entries.risky]);
      expect(both.rows.find((row) => row.entryId === entries.submitted)?.status).toBe('submitted');
    });

    it('keeps the UTC days from … to, both included, on the submission time', async () => {
      const october = await preview({ from: '2026-10-05', to: '2026-10-09' });
      expect(october.rows.map((row) => row.entryId)).toEqual([entries.approved]);
      const fromOnly = await preview({ from: '2026-10-06' });
      expect(fromOnly.rows.map((row) => row.entryId)).toEqual([entries.risky]);
      const toOnly = await preview({ to: '2026-09-30' });
      expect(toOnly.rows.map((row) => row.entryId)).toEqual([entries.old]);
    });

    it('builds each review: stars, texts, yes/no, nickname, region, ISO date, disclosure, signed photos', async () => {
      const { rows } = await preview();
      const first = rows[0];
      expect(first).toMatchObject({
        reviewId: `fw-${entries.approved}`,
        productId: PRODUCT,
        rating: 4,
        title: 'Lovely',
        text: 'Smells great, rinses clean.',
        recommend: true,
        nickname: 'Ann V.',
        region: 'Noord-Holland',
        submittedAt: '2026-10-05T10:00:00.000Z',
        status: 'approved',
        incentivized: true,
        disclosure: INCENTIVE_DISCLOSURE,
      });
      expect(first?.photos).toHaveLength(1);
      expect(first?.photos[0]).toMatch(new RegExp(`^${ORIGIN}/api/media/${photoId}/shared\\?variant=display&expires=\\d+&signature=[A-Za-z0-9_-]{43}$`));
    });

    it('brings other scales to five whole stars', async () => {
      const { rows } = await preview({ mapping: { [mission.id]: { ...MAPPING, rating: 'score10' } } });
      // No answers to the ten-point question: every row has a rating problem, none invents one.
      expect(rows.every((row) => row.rating === null)).toBe(true);
    });

    it('lists every problem: a mission without a product id, no rating, PowerReviews’ limits', async () => {
      const result = await preview({ format: 'powerreviews', missionIds: [mission.id, other.id], mapping: { [mission.id]: MAPPING, [other.id]: MAPPING } });
      expect(result.problems).toContainEqual({
        row: 0,
        field: 'productId',
        message: '“Conditioner test” has no product id: set it on the mission’s edit screen',
      });
      const riskyRow = result.rows.findIndex((row) => row.entryId === entries.risky) + 1;
      expect(result.problems).toContainEqual({
        row: riskyRow,
        field: 'Review Title',
        message: `Review Title is ${LONG_TITLE.length} characters; PowerReviews takes at most 60`,
      });
      expect(result.problems).toContainEqual({
        row: riskyRow,
        field: 'Review Location',
        message: 'Review Location is 56 characters; PowerReviews takes at most 40',
      });
      const noRatingRow = result.rows.findIndex((row) => row.entryId === entries.noRating) + 1;
      expect(result.problems).toContainEqual({ row: noRatingRow, field: 'rating', message: 'No rating: the question was not answered' });
      const conditioner = result.rows.find((row) => row.entryId === entries.noRating);
      expect(conditioner).toMatchObject({ incentivized: false, disclosure: '', productId: null });
    });
  });

  describe('the files', () => {
    it('CSV: Fieldwork’s columns, a BOM, formula-safe cells; recorded and audited', async () => {
      const res = await post('/api/admin/tools/export-reviews', body());
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="reviews-project-\d+-\d{4}-\d{2}-\d{2}\.csv"$/);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes);
      const rows = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
      expect(rows[0]).toEqual([...REVIEW_EXPORT_HEADER]);
      expect(rows).toHaveLength(4);
      expect(rows[1]?.slice(0, 8)).toEqual([
        `fw-${entries.approved}`,
        String(entries.approved),
        String(mission.id),
        PRODUCT,
        '4',
        'Lovely',
        'Smells great, rinses clean.',
        'Yes',
      ]);
      expect(rows[1]?.[REVIEW_EXPORT_HEADER.indexOf('Disclosure')]).toBe(INCENTIVE_DISCLOSURE);
      const risky = rows.find((row) => row[0] === `fw-${entries.risky}`);
      expect(risky?.[REVIEW_EXPORT_HEADER.indexOf('Review text')]).toBe(`'=HYPERLINK("http://evil.example","click")`);

      const { items } = await okJson<{ items: ReviewExportRecord[] }>(await get('/api/admin/tools/export-reviews/history', admin));
      expect(items[0]).toMatchObject({ projectId: project.id, projectName: 'Shampoo reviews', format: 'csv', rows: 3, createdBy: { id: admin.id } });
      expect(items[0]?.filters).toMatchObject({ missionIds: [mission.id], states: ['approved'] });
      const [row] = await ctx()
        .database.db.select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'review.export'), eq(auditLog.actorId, admin.id)))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(row?.targetId).toBe(String(project.id));
      expect(row?.after).toMatchObject({ format: 'csv', rows: 3 });
    });

    it('the preview records nothing', async () => {
      const before = (await okJson<{ items: ReviewExportRecord[] }>(await get('/api/admin/tools/export-reviews/history', admin))).items.length;
      await preview();
      const after = (await okJson<{ items: ReviewExportRecord[] }>(await get('/api/admin/tools/export-reviews/history', admin))).items.length;
      expect(after).toBe(before);
    });

    it('XLSX: the same columns in a workbook', async () => {
      const res = await post('/api/admin/tools/export-reviews', body({ format: 'xlsx', states: ['approved', 'submitted'] }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await res.arrayBuffer());
      const sheet = workbook.getWorksheet('Reviews');
      expect(sheet).toBeDefined();
      const values = (n: number) => (sheet?.getRow(n).values as unknown[]).slice(1);
      expect(values(1)).toEqual([...REVIEW_EXPORT_HEADER]);
      expect(sheet?.actualRowCount).toBe(5);
      expect(values(2).slice(0, 8)).toEqual([
        `fw-${entries.approved}`,
        entries.approved,
        mission.id,
        PRODUCT,
        4,
        'Lovely',
        'Smells great, rinses clean.',
        'Yes',
      ]);
      expect(values(3)[REVIEW_EXPORT_HEADER.indexOf('Status')]).toBe('submitted');
    });

    it('PowerReviews: their header, no BOM, the disclosure on each incentivized review', async () => {
      const res = await post('/api/admin/tools/export-reviews', body({ format: 'powerreviews' }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/-powerreviews\.csv"$/);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
      const text = new TextDecoder().decode(bytes);
      const rows = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
      expect(rows[0]).toEqual([...POWERREVIEWS_HEADER]);
      expect(text.split('\r\n')[0]).toBe(
        'Review Id,Page Id,Review Display,Review Title,Review Date,Review Location,Review Text,Rating,Verified Buyer,Review Status',
      );
      expect(rows[1]).toEqual([
        `fw-${entries.approved}`,
        PRODUCT,
        'Ann V.',
        'Lovely',
        '2026-10-05T10:00:00.000Z',
        'Noord-Holland',
        `Smells great, rinses clean.\n\n[${INCENTIVE_DISCLOSURE}]`,
        '4',
        'No',
        'Approved',
      ]);
      expect(rows.slice(1).every((row) => row[6]?.endsWith(`[${INCENTIVE_DISCLOSURE}]`))).toBe(true);
      expect(rows.find((row) => row[0] === `fw-${entries.risky}`)?.[6]?.startsWith(`'=HYPERLINK(`)).toBe(true);
    });

    it('Bazaarvoice: well-formed XML, products with their reviews, each flagged IncentivizedReview with the campaign id', async () => {
      const res = await post(
        '/api/admin/tools/export-reviews',
        body({
          format: 'bazaarvoice',
          campaignId: 'UL-2026-shampoo',
          missionIds: [mission.id, other.id],
          mapping: { [mission.id]: MAPPING, [other.id]: MAPPING },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const text = await res.text();
      expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
      const doc = create(text).end({ format: 'object' }) as Record<string, unknown>;
      expect(doc).toHaveProperty('Feed');
      expect(text).toContain('<Feed xmlns="http://www.bazaarvoice.com/xs/PRR/StandardClientFeed/14.7"');
      expect(text).not.toContain('xmlns=""');
      const products = [...text.matchAll(/<Product id="([^"]*)">/g)].map((match) => match[1]);
      expect(products).toEqual([PRODUCT, '']);
      expect(text).toContain(`<ExternalId>${PRODUCT}</ExternalId>`);
      const reviews = text.split('<Review ').slice(1);
      expect(reviews).toHaveLength(4);
      for (const review of reviews) {
        expect(review).toContain('<CampaignId>UL-2026-shampoo</CampaignId>');
        expect(review).toMatch(/<ContextDataValue id="IncentivizedReview">(True|False)<\/ContextDataValue>/);
      }
      expect(reviews[0]).toContain('<ContextDataValue id="IncentivizedReview">True</ContextDataValue>');
      expect(reviews[0]).toContain('<DisplayName>Ann V.</DisplayName>');
      expect(reviews[0]).toContain('<Rating>4</Rating>');
      expect(reviews[0]).toContain('<Recommended>true</Recommended>');
      expect(reviews[0]).toMatch(/<PhotoUrl>http:\/\/127\.0\.0\.1:4321\/api\/media\/[A-Za-z0-9_-]{22}\/shared\?variant=display&amp;expires=\d+&amp;signature=/);
      expect(reviews[3]).toContain('<ContextDataValue id="IncentivizedReview">False</ContextDataValue>');
      // The formula-looking text is plain, escaped XML text.
      expect(text).toContain('<ReviewText>=HYPERLINK("http://evil.example","click")</ReviewText>');
    });
  });

  describe('text pasted from Word or PowerPoint, and formulas', () => {
    /** The text of every element named `name`, read by a strict XML 1.0 parser (saxes, which throws on what XML forbids). */
    function strictTexts(xml: string, name: string): string[] {
      const parser = new SaxesParser();
      const texts: string[] = [];
      let inside = false;
      parser.on('opentag', (tag) => {
        inside = tag.name === name;
        if (inside) texts.push('');
      });
      parser.on('text', (text) => {
        if (inside) texts[texts.length - 1] += text;
      });
      parser.on('closetag', () => {
        inside = false;
      });
      parser.write(xml).close();
      return texts;
    }

    it('the Bazaarvoice feed is well-formed XML and the XLSX opens, with U+000B, U+000C and U+FFFE in the texts; the CSV guards every formula start', async () => {
      const c = ctx();
      const pasted = await createProject(c, { name: 'Pasted reviews' });
      const form = await publishedForm(c, reviewDefinition());
      const shampoo = await createMission(c, pasted.id, { form, title: 'Pasted test', points: 10 });
      await c.database.db.update(missions).set({ productId: 'PASTE-1' }).where(eq(missions.id, shampoo.id));
      const zoe = await person(c, 'Zo\u000ce', 'Quist', 'Zeeland\ufffe');
      await insertEntry(c, shampoo, zoe.id, {
        status: 'approved',
        submittedAt: new Date('2026-10-12T10:00:00Z'),
        answers: { stars: 5, headline: 'Great\u000bvalue', body: "Lovely;=1+1\n=cmd|' /C calc'!A0\u000bend\ufffe", recommend: 'yes' },
      });
      const request = { projectId: pasted.id, missionIds: [shampoo.id], mapping: { [shampoo.id]: MAPPING } };

      const feed = await post('/api/admin/tools/export-reviews', { ...request, format: 'bazaarvoice', campaignId: 'UL-paste' });
      expect(feed.status).toBe(200);
      const xml = await feed.text();
      // U+000B and U+000C (PowerPoint's line break, a page break) read as line breaks; U+FFFE dropped.
      expect(strictTexts(xml, 'ReviewText')).toEqual(["Lovely;=1+1\n=cmd|' /C calc'!A0\nend"]);
      expect(strictTexts(xml, 'Title')).toEqual(['Great\nvalue']);
      expect(strictTexts(xml, 'DisplayName')).toEqual(['Zo\ne Q.']);
      expect(strictTexts(xml, 'ReviewerLocation')).toEqual(['Zeeland']);

      const xlsx = await post('/api/admin/tools/export-reviews', { ...request, format: 'xlsx' });
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await xlsx.arrayBuffer());
      const cells = (workbook.getWorksheet('Reviews')?.getRow(2).values as unknown[]).slice(1);
      expect(cells[REVIEW_EXPORT_HEADER.indexOf('Title')]).toBe('Great\nvalue');
      expect(cells[REVIEW_EXPORT_HEADER.indexOf('Review text')]).toBe("Lovely;=1+1\n=cmd|' /C calc'!A0\nend");
      expect(cells[REVIEW_EXPORT_HEADER.indexOf('Region')]).toBe('Zeeland');

      // The CSV: no part of a cell starts a formula, however a spreadsheet splits it (`;`, a line break).
      const csv = await post('/api/admin/tools/export-reviews', { ...request, format: 'powerreviews' });
      const rows = Papa.parse<string[]>((await csv.text()).trimEnd(), { newline: '\r\n' }).data;
      expect(rows[1]?.[POWERREVIEWS_HEADER.indexOf('Review Text')]).toBe(`Lovely;'=1+1\n'=cmd|' /C calc'!A0\u000bend\ufffe\n\n[${INCENTIVE_DISCLOSURE}]`);
    });
  });

  describe('paging', () => {
    it('reads every entry across keyset pages of 500, product by product', async () => {
      const c = ctx();
      const form = await publishedForm(c, reviewDefinition());
      const big = await createMission(c, project.id, { form, title: 'Big test', entries: { min: 1, max: 2000 } });
      const small = await createMission(c, project.id, { form, title: 'Small test' });
      await c.database.db.update(missions).set({ productId: 'AAA-1' }).where(eq(missions.id, small.id));
      await c.database.db.update(missions).set({ productId: 'ZZZ-9' }).where(eq(missions.id, big.id));
      const who = await participant(c);
      const now = c.clock.now();
      const row = (missionId: number, n: number) => ({
        missionId,
        userId: who.id,
        formVersion: form.version,
        answers: { stars: (n % 5) + 1, body: `Review ${n}` },
        status: 'approved' as const,
        localDate: '2026-10-20',
        submittedAt: new Date('2026-10-20T08:00:00Z'),
        createdAt: now,
        updatedAt: now,
      });
      await c.database.db.insert(missionEntries).values(Array.from({ length: 1001 }, (_, n) => row(big.id, n)));
      await c.database.db.insert(missionEntries).values([row(small.id, 5000)]);
      const request = { missionIds: [big.id, small.id], mapping: { [big.id]: MAPPING, [small.id]: MAPPING }, from: '2026-10-20', to: '2026-10-20' };
      const result = await preview(request);
      expect(result.total).toBe(1002);
      expect(result.rows).toHaveLength(20);
      // The product sorting first comes first, whatever the order chosen.
      expect(result.rows[0]?.productId).toBe('AAA-1');
      expect(result.rows[1]?.productId).toBe('ZZZ-9');
      const res = await post('/api/admin/tools/export-reviews', body({ ...request, format: 'powerreviews' }));
      const rows = Papa.parse<string[]>((await res.text()).trimEnd(), { newline: '\r\n' }).data;
      expect(rows).toHaveLength(1003);
      expect(new Set(rows.slice(1).map((cells) => cells[0])).size).toBe(1002);
      expect(rows[1]?.[1]).toBe('AAA-1');
      expect(rows[1002]?.[6]).toMatch(/^Review 1000/);
    });
  });

  describe('signed photo links', () => {
    it('work without a session, refuse a changed link (404) and stop after expiry (410)', async () => {
      const { rows } = await preview();
      const link = rows[0]?.photos[0] ?? '';
      const path = link.slice(ORIGIN.length);
      const ok = await ctx().request(path);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^image\//);
      expect(ok.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
      expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(0);

      const url = new URL(link);
      const tampered = (name: string, value: string) => {
        const copy = new URL(url);
        copy.searchParams.set(name, value);
        return copy.pathname + copy.search;
      };
      expect((await ctx().request(tampered('expires', String(Number(url.searchParams.get('expires')) + 1)))).status).toBe(404);
      expect((await ctx().request(tampered('variant', 'thumbnail'))).status).toBe(404);
      const signature = url.searchParams.get('signature') ?? '';
      expect((await ctx().request(tampered('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`))).status).toBe(404);
      expect((await ctx().request(path.replace(photoId, 'BBBBBBBBBBBBBBBBBBBBBB'))).status).toBe(404);
      expect((await ctx().request(`/api/media/${photoId}/shared`)).status).toBe(404);

      ctx().clock.advance(31 * 24 * 60 * 60 * 1000);
      const expired = await ctx().request(path);
      expect(expired.status).toBe(410);
      expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('link_expired');
    });
  });
});
