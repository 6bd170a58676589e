/**
 * Cookie consent (docs/product.md §3, §4, §5): four categories. `necessary` is always true and cannot be
 * turned off; the others are off until the visitor allows them. The choice is kept in local
 * storage under CONSENT_STORAGE_KEY and merged with the defaults on load (unknown or broken
 * values fall back to the defaults). The banner is open until a choice is saved.
 */
import { atom } from 'nanostores';
import { CONSENT_SETTINGS_EVENT, wake } from '../platform/events.ts';
import { local, readItem, writeItem, type StorageLike } from '../platform/storage.ts';
import { toast } from './toasts.ts';

export const CONSENT_STORAGE_KEY = 'fieldwork-cookie-consent';
/** Room below the page beyond the banner's own height (px). */
export const BANNER_ROOM_EXTRA_PX = 16;

export const CONSENT_CATEGORIES = ['necessary', 'preferences', 'statistics', 'marketing'] as const;
export type ConsentCategory = (typeof CONSENT_CATEGORIES)[number];

export interface Consent {
  necessary: true;
  preferences: boolean;
  statistics: boolean;
  marketing: boolean;
}

export const DEFAULT_CONSENT: Readonly<Consent> = Object.freeze({ necessary: true, preferences: false, statistics: false, marketing: false });
export const ALL_CONSENT: Readonly<Consent> = Object.freeze({ necessary: true, preferences: true, statistics: true, marketing: true });

/** Defaults overlaid with the boolean fields of a stored value; `necessary` stays true. */
export function mergeConsent(value: unknown): Consent {
  const merged: Consent = { ...DEFAULT_CONSENT };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return merged;
  const record = value as Record<string, unknown>;
  for (const key of ['preferences', 'statistics', 'marketing'] as const) {
    if (typeof record[key] === 'boolean') merged[key] = record[key];
  }
  return merged;
}

/** The saved choice, or null when nothing (readable) is saved. Corrupt JSON counts as nothing saved. */
export function readStoredConsent(storage: StorageLike | null = local()): Consent | null {
  const raw = readItem(storage, CONSENT_STORAGE_KEY);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return mergeConsent(parsed);
  } catch {
    return null;
  }
}

export interface ConsentState {
  consent: Consent;
  /** True once the visitor has saved a choice (now or on an earlier visit). */
  saved: boolean;
}

export const $consent = atom<ConsentState>({ consent: { ...DEFAULT_CONSENT }, saved: false });

/** Banner: open, and whether its settings panel is expanded; `requested` when the visitor asked for it. */
export interface ConsentBannerState {
  open: boolean;
  settingsOpen: boolean;
  requested: boolean;
}

export const $consentBanner = atom<ConsentBannerState>({ open: false, settingsOpen: true, requested: false });

/** Reads the stored choice into the store; with nothing saved the banner opens on its settings. */
export function loadConsent(storage: StorageLike | null = local()): ConsentState {
  const stored = readStoredConsent(storage);
  const state: ConsentState = stored ? { consent: stored, saved: true } : { consent: { ...DEFAULT_CONSENT }, saved: false };
  $consent.set(state);
  $consentBanner.set({ open: !state.saved, settingsOpen: !state.saved, requested: false });
  return state;
}

/** Saves a choice (necessary forced on) and closes the banner. */
export function saveConsent(choice: Partial<Record<ConsentCategory, boolean>>, storage: StorageLike | null = local()): Consent {
  const consent = mergeConsent(choice);
  writeItem(storage, CONSENT_STORAGE_KEY, JSON.stringify(consent));
  $consent.set({ consent, saved: true });
  $consentBanner.set({ ...$consentBanner.get(), open: false, requested: false });
  return consent;
}

/** Deny: necessary only. */
export const denyConsent = (storage?: StorageLike | null): Consent => saveConsent(DEFAULT_CONSENT, storage);
/** Allow All: all four categories. */
export const allowAllConsent = (storage?: StorageLike | null): Consent => saveConsent(ALL_CONSENT, storage);
/** Allow Selection: the switches as they are. */
export const allowSelectedConsent = (selection: Partial<Record<ConsentCategory, boolean>>, storage?: StorageLike | null): Consent =>
  saveConsent(selection, storage);

/** "Cookie settings": reopens the banner with its settings panel. */
export function openConsentSettings(): void {
  $consentBanner.set({ open: true, settingsOpen: true, requested: true });
  // The banner's island hydrates on this when the visitor had already chosen (client:consent).
  wake(CONSENT_SETTINGS_EVENT);
}

export function setConsentSettingsOpen(settingsOpen: boolean): void {
  $consentBanner.set({ ...$consentBanner.get(), settingsOpen });
}

/**
 * Runs in <head> before the first paint (BaseLayout): marks <html data-consent-saved> when a choice
 * is stored, so the prerendered banner (shown to first visitors at first paint, before any
 * JavaScript) stays hidden for everyone who already chose. Once hydrated, the store decides.
 */
export const CONSENT_INLINE_SCRIPT = `try{var c=JSON.parse(localStorage.getItem(${JSON.stringify(CONSENT_STORAGE_KEY)})||'null');if(c&&typeof c==='object'&&!Array.isArray(c))document.documentElement.setAttribute('data-consent-saved','')}catch(e){}`;

/**
 * Runs right after the prerendered banner (BaseLayout), before the page below it is parsed. It
 * shows the banner (hidden by global.css until then: a slow device paints a half-parsed document,
 * and a bottom-fixed banner growing line by line moves its top — a layout shift) by marking its
 * island element, which survives client-side navigations (transition:persist) and re-renders.
 * Then it gives <body> room for the banner at first paint, so nothing moves when the island later
 * keeps the room up to date (CookieBanner's effect). A visitor who chose has a hidden banner: no room.
 * The room is added below the screen's height (global.css, <body>'s box-sizing), so a footer painted
 * before the room came does not move either.
 *
 * The banner is measured by a ResizeObserver, once: its callback runs after the browser's own
 * layout and before that frame is painted, so the room is there at first paint without the script
 * forcing a layout of the half-parsed page (reading `offsetHeight` here cost a phone 30–140 ms,
 * Lighthouse's "Unattributable" long task). A browser without ResizeObserver measures at once.
 */
export const BANNER_ROOM_INLINE_SCRIPT = `(function(){var b=document.querySelector('[data-cookie-banner]');if(!b)return;if(b.parentElement)b.parentElement.setAttribute('data-banner-parsed','');function r(){if(b.offsetHeight)document.body.style.paddingBottom=(b.offsetHeight+${BANNER_ROOM_EXTRA_PX})+'px'}if(typeof ResizeObserver!=='function')return r();var o=new ResizeObserver(function(){o.disconnect();if(!b.hasAttribute('data-hydrated'))r()});o.observe(b)})()`;

/** Sent on `document` when a choice was saved before the banner's island had loaded. */
export const EARLY_CONSENT_EVENT = 'fieldwork:consent-saved';
/** The mark on `<html>` of a choice saved before the banner's island loaded and not confirmed yet (the shell may start after it). */
export const EARLY_CONSENT_MARK = 'data-consent-early';

/** The toast that confirms a saved choice, whoever saved it (the banner, or the early script through the shell). */
export function confirmConsentSaved(): void {
  toast({ title: 'Cookie choices saved', description: 'Change them any time with “Cookie settings” at the bottom of the page.' });
}

/**
 * The prerendered banner answers before its JavaScript has loaded (a slow phone, a quick tap):
 * Deny and Allow Selection save necessary only (the switches cannot have moved yet), Allow All all
 * four; the banner hides and the shell, told by EARLY_CONSENT_EVENT (or by EARLY_CONSENT_MARK when
 * it starts later), reads the choice and confirms it with the same toast as the banner. Once the
 * island has hydrated (`data-hydrated`) it handles its buttons itself.
 */
export const EARLY_CONSENT_INLINE_SCRIPT = `document.addEventListener('click',function(e){var t=e.target&&e.target.closest?e.target.closest('[data-consent-choice]'):null;var b=t&&t.closest('[data-cookie-banner]');if(!b||b.hasAttribute('data-hydrated'))return;var a=t.getAttribute('data-consent-choice')==='all';try{localStorage.setItem(${JSON.stringify(CONSENT_STORAGE_KEY)},JSON.stringify({necessary:true,preferences:a,statistics:a,marketing:a}))}catch(x){}document.documentElement.setAttribute('data-consent-saved','');document.documentElement.setAttribute(${JSON.stringify(EARLY_CONSENT_MARK)},'');document.body.style.paddingBottom='';document.dispatchEvent(new Event(${JSON.stringify(EARLY_CONSENT_EVENT)}))})`;
