import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loginRedirect } from '../../shared/route-rules.ts';
import { responseSaveSchema, responseSubmitSchema } from '../../shared/schemas/surveys.ts';
import type { AppEnv } from '../context.ts';
import type { Survey } from '../db/schema/index.ts';
import { ApiError } from '../errors.ts';
import { check, clientIp, enforceRateLimits, jsonBody, noStore, notFound, pathId, perRequest, signedIn, signedInUser } from '../http.ts';
import { checkOutcomeKey, findReference, isExternalOutcome, RETURN_KEY_PARAM, recordOutcome, startExternal } from '../services/external-surveys.ts';
import { findVisibleSurvey, type Visible } from '../services/participation.ts';
import { RATE_LIMITS } from '../services/rate-limit.ts';
import { participantSurvey, saveResponse, submitResponse } from '../services/survey-responses.ts';

// ---------------------------------------------------------------------------------------------
// The small HTML pages of the browser-facing redirects (start, return)

const PAGE_STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#f9fafb}' +
  'main{max-width:32rem;margin:15vh auto 0;padding:0 1.5rem}h1{font-size:1.5rem;margin:0 0 .5rem}a{color:#1d4ed8}' +
  '@media (prefers-color-scheme:dark){body{color:#e5e7eb;background:#111827}a{color:#93c5fd}}';
const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;
/** No scripts, no forms, nothing from elsewhere: only the page's own style (by its hash). */
const PAGE_CSP = `default-src 'none'; style-src ${PAGE_STYLE_HASH}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A self-contained page (no scripts, not indexed) with a title, a sentence and a link home. */
function messagePage(c: Context<AppEnv>, status: ContentfulStatusCode, title: string, text: string, headers: Record<string, string> = {}) {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)} · Fieldwork</title><style>${PAGE_STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">Go to your home page</a></p></main></body></html>`;
  return c.body(html, status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'X-Robots-Tag': 'noindex',
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
}

const INVALID_LINK = ['This link is not valid', 'It may be incomplete or from another site. Your answers on the survey site are not affected.'] as const;

/** The survey of the path, when the signed-in user may see it; 404 otherwise (before any body is read). */
const visibleSurvey = perRequest(async (c): Promise<Visible<Survey>> => {
  const user = signedInUser(c.get('user'));
  const visible = await findVisibleSurvey(c.get('db'), user.id, pathId(c, 'id', 'survey'));
  if (!visible) throw notFound('survey');
  return visible;
});

/**
 * Surveys as participants take them: native (read with the pinned form and their response,
 * autosave, submit once) and external (start with an opaque reference, return from Alchemer).
 * 404 unless the user is a member of the survey's live (or closed) project and the survey is not
 * a draft. Rules: `services/survey-responses.ts`, `services/external-surveys.ts`.
 *
 * `GET /return` needs no session (Alchemer sends the participant's browser) and, like `/start`,
 * answers a browser: redirects, or a small HTML page. Its key `k` must be its outcome's
 * (`docs/alchemer.md`). `POST /:id/webhook` (`survey-webhook.ts`, mounted before this file so no
 * session is asked for) is Alchemer's server-to-server confirmation: the survey's webhook secret.
 */
export const surveyRoutes = new Hono<AppEnv>()
  .get('/return', async (c) => {
    try {
      await enforceRateLimits(c, [[`external-return:ip:${clientIp(c)}`, RATE_LIMITS.externalReturnsPerIp]]);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        return messagePage(c, 429, 'Too many attempts', 'Wait a minute, then reload this page.', error.headers ?? {});
      }
      throw error;
    }
    const status = c.req.query('status') ?? '';
    if (!isExternalOutcome(status)) return messagePage(c, 400, ...INVALID_LINK);
    const pid = c.req.query('pid') ?? '';
    if (pid === '' || pid.length > 200) return messagePage(c, 404, ...INVALID_LINK);
    const found = await findReference(c.get('db'), pid);
    if (!found) return messagePage(c, 404, ...INVALID_LINK);
    const key = c.req.query(RETURN_KEY_PARAM);
    if (!checkOutcomeKey(found.returnKey, status, key)) {
      // Never the pid or the key in the log: either would help someone forge a return.
      c.get('logger').warn(
        { surveyId: found.surveyId, status, reason: key ? 'wrong_key' : 'missing_key' },
        'external return refused: its key is not the key of its status',
      );
      return messagePage(c, 400, ...INVALID_LINK);
    }
    const result = await recordOutcome(c.get('db'), c.get('deps').clock, found.refId, status, 'browser');
    noStore(c);
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(`/surveys/${result.surveyId}?returned=1`, 302);
  })

  .get('/:id/start', async (c) => {
    const notFoundPage = () => messagePage(c, 404, 'This survey could not be found', 'Check the link, or find the survey on your home page.');
    let id: number;
    try {
      id = pathId(c, 'id', 'survey');
    } catch {
      return notFoundPage();
    }
    noStore(c);
    const user = c.get('user');
    if (!user) return c.redirect(loginRedirect(`/surveys/${id}`), 302);
    const visible = await findVisibleSurvey(c.get('db'), user.id, id);
    if (!visible) return notFoundPage();
    const result = await startExternal(c.get('db'), c.get('deps').clock, visible, user.id);
    c.header('Referrer-Policy', 'no-referrer');
    return c.redirect(result.location, 302);
  })

  .use('*', signedIn)

  .get('/:id', async (c) => {
    const visible = await visibleSurvey(c);
    const user = signedInUser(c.get('user'));
    return c.json(await participantSurvey(c.get('db'), c.get('deps').clock, visible, user.id, user.preferences.language), 200);
  })

  .put('/:id/response', check(visibleSurvey), jsonBody(responseSaveSchema), async (c) => {
    const visible = await visibleSurvey(c);
    const input = c.req.valid('json');
    return c.json(await saveResponse(c.get('db'), c.get('deps').clock, visible, signedInUser(c.get('user')).id, input), 200);
  })

  .post('/:id/response/submit', check(visibleSurvey), jsonBody(responseSubmitSchema), async (c) => {
    const visible = await visibleSurvey(c);
    const input = c.req.valid('json');
    return c.json(await submitResponse(c.get('db'), c.get('deps').clock, visible, signedInUser(c.get('user')).id, input), 200);
  });
