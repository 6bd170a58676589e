import { describe, expect, it } from 'vitest';
import { RECORDING_LOCK, SENDING_LOCK } from '../../src/shared/offline.ts';
import {
  apiCacheName,
  changesWhoIsSignedIn,
  decideRequest,
  isParticipantApi,
  mayActivate,
  offlinePageHtml,
  otherUsersCaches,
  outdatedPrecaches,
  pageCacheKey,
  participantRouteOf,
  precacheName,
  precachePageUrl,
  serviceWorkerUrl,
  signedInUserOf,
  workerLanguage,
  type SwRequest,
} from '../../src/shared/service-worker.ts';

const ORIGIN = 'https://fieldwork.example';
const request = (path: string, init: Partial<Omit<SwRequest, 'url'>> = {}): SwRequest => ({
  method: 'GET',
  url: new URL(path, ORIGIN),
  origin: ORIGIN,
  mode: 'cors',
  accept: '*/*',
  ...init,
});
const navigate = (path: string): SwRequest => request(path, { mode: 'navigate', accept: 'text/html,application/xhtml+xml' });

describe('participant pages', () => {
  it.each(['/', '/surveys/12', '/missions/7', '/mission-groups/3', '/account', '/de/missions/7', '/ar', '/es/surveys/1'])(
    '%s is a participant page',
    (path) => {
      expect(participantRouteOf(path)).not.toBeNull();
    },
  );

  it.each([
    '/admin',
    '/admin/forms/3',
    '/de/admin/users',
    '/login',
    '/register',
    '/terms',
    '/update-email/abcdefghijklmnopqrstuvwx',
    '/missions/abc',
    '/nowhere',
  ])('%s is not', (path) => {
    expect(participantRouteOf(path)).toBeNull();
  });

  it('keys a page by its shell in its language: every mission shares one', () => {
    expect(pageCacheKey('/missions/7')).toBe('/missions/_');
    expect(pageCacheKey('/missions/8/')).toBe('/missions/_');
    expect(pageCacheKey('/de/missions/7')).toBe('/de/missions/_');
    expect(pageCacheKey('/')).toBe('/');
    expect(pageCacheKey('/ar')).toBe('/ar');
    expect(pageCacheKey('/admin')).toBeNull();
  });

  it('precaches a dynamic page from a sample address of the same shell', () => {
    expect(precachePageUrl('/missions/:id', 'en')).toBe('/missions/1');
    expect(precachePageUrl('/account/mission-history/:missionId', 'de')).toBe('/de/account/mission-history/1');
    expect(precachePageUrl('/', 'es')).toBe('/es');
    expect(pageCacheKey(precachePageUrl('/surveys/:id', 'ar'))).toBe('/ar/surveys/_');
  });
});

describe('decideRequest', () => {
  it('a participant page: network first with its cached shell', () => {
    expect(decideRequest(navigate('/missions/7'))).toEqual({ kind: 'participant-page', key: '/missions/_', language: 'en' });
    expect(decideRequest(navigate('/de/'))).toEqual({ kind: 'participant-page', key: '/de', language: 'de' });
    // The client router asks for the next page with fetch (Accept: text/html).
    expect(decideRequest(request('/surveys/3', { accept: 'text/html' }))).toEqual({ kind: 'participant-page', key: '/surveys/_', language: 'en' });
  });

  it('staff, guest and public pages are never cached: the network, or the offline page', () => {
    for (const path of ['/admin', '/admin/review', '/es/admin/forms/4', '/login', '/terms', '/nowhere']) {
      expect(decideRequest(navigate(path)).kind, path).toBe('page');
    }
    expect(decideRequest(navigate('/es/admin/forms/4'))).toEqual({ kind: 'page', language: 'es' });
  });

  it('the participants’ GET calls are kept per person; staff calls never', () => {
    for (const path of [
      '/api/auth',
      '/api/home',
      '/api/surveys/3',
      '/api/missions/7',
      '/api/mission-groups/2',
      '/api/account',
      '/api/account/points?page=1&pageSize=1',
      '/api/account/mission-history/7',
      '/api/feature-flags?feature=maintenance',
    ]) {
      expect(decideRequest(request(path)).kind, path).toBe('participant-api');
    }
    for (const path of [
      '/api/admin/submissions',
      '/api/admin/users/3',
      '/api/v1/projects',
      '/api/media/3/thumbnail',
      '/api/uploads/abc',
      '/api/surveys/3/start',
      '/api/health',
      '/api/missions/x',
    ]) {
      expect(decideRequest(request(path)).kind, path).toBe('pass');
    }
    expect(isParticipantApi('/api/admin/missions/3')).toBe(false);
  });

  it('non-GET calls are never kept (the outbox queues them); sign-in and sign-out clear every copy', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(decideRequest(request('/api/missions/7/entries', { method })).kind).toBe('pass');
    expect(decideRequest(request('/api/auth/login', { method: 'POST' })).kind).toBe('auth-change');
    expect(decideRequest(request('/api/auth/logout', { method: 'POST' })).kind).toBe('auth-change');
    expect(decideRequest(request('/api/account', { method: 'DELETE' })).kind).toBe('auth-change');
    expect(changesWhoIsSignedIn('GET', '/api/auth')).toBe(false);
    expect(changesWhoIsSignedIn('POST', '/api/account/language')).toBe(false);
  });

  it('hashed files and the build meta: the cache first; the worker itself, the build pointer and other origins: untouched', () => {
    expect(decideRequest(request('/_astro/page.abc123.js')).kind).toBe('asset');
    expect(decideRequest(request('/builds/meta/0123abcd.json')).kind).toBe('asset');
    expect(decideRequest(request('/sw.js?lang=de')).kind).toBe('pass');
    expect(decideRequest(request('/builds/latest.json?123')).kind).toBe('pass');
    expect(decideRequest({ ...navigate('/'), url: new URL('https://elsewhere.example/') }).kind).toBe('pass');
    expect(decideRequest(request('/favicon-light.svg')).kind).toBe('pass');
  });
});

describe('whose copies', () => {
  it('GET /api/auth names the owner; 401 removes everyone; an error changes nothing', () => {
    expect(signedInUserOf(200, { id: 12, email: 'a@b.c' })).toBe('12');
    expect(signedInUserOf(200, { id: 'u7' })).toBe('u7');
    expect(signedInUserOf(401, null)).toBeNull();
    expect(signedInUserOf(500, { id: 12 })).toBeUndefined();
    expect(signedInUserOf(200, null)).toBeUndefined();
    expect(signedInUserOf(200, { id: '' })).toBeUndefined();
  });

  it('keeps one person’s copies only: another’s are removed, never served', () => {
    const names = [apiCacheName(12), apiCacheName(13), precacheName('en', 'abc'), 'someone-elses-cache'];
    expect(otherUsersCaches(names, '12')).toEqual([apiCacheName(13)]);
    expect(otherUsersCaches(names, null)).toEqual([apiCacheName(12), apiCacheName(13)]);
    expect(apiCacheName(12)).not.toBe(apiCacheName(13));
  });

  it('removes older precaches only once the new worker is active', () => {
    const names = [precacheName('en', 'old'), precacheName('de', 'old'), precacheName('en', 'new'), apiCacheName(3)];
    expect(outdatedPrecaches(names, precacheName('en', 'new'))).toEqual([precacheName('en', 'old'), precacheName('de', 'old')]);
  });
});

describe('updates and languages', () => {
  it('a new worker waits while the outbox sends or a recording runs', () => {
    expect(mayActivate([])).toBe(true);
    expect(mayActivate(['something-else'])).toBe(true);
    expect(mayActivate([SENDING_LOCK])).toBe(false);
    expect(mayActivate(['x', RECORDING_LOCK])).toBe(false);
  });

  it('registers one worker per language and reads it back', () => {
    expect(serviceWorkerUrl('de')).toBe('/sw.js?lang=de');
    expect(workerLanguage('?lang=ar')).toBe('ar');
    expect(workerLanguage('?lang=xx')).toBe('en');
    expect(workerLanguage('')).toBe('en');
  });

  it('the offline page is in the interface language, escaped, right to left for Arabic', () => {
    const html = offlinePageHtml('ar', { title: 'أنت غير متصل', text: '<b>x</b>', retry: 'حاول مرة أخرى' });
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<script');
    expect(offlinePageHtml('de', { title: 'Offline', text: 't', retry: 'r' })).toContain('<html lang="de">');
  });
});
