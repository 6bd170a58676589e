import { beforeEach, describe, expect, it } from 'vitest';
import {
  $consent,
  $consentBanner,
  ALL_CONSENT,
  CONSENT_CATEGORIES,
  CONSENT_STORAGE_KEY,
  DEFAULT_CONSENT,
  allowAllConsent,
  allowSelectedConsent,
  denyConsent,
  loadConsent,
  mergeConsent,
  openConsentSettings,
  readStoredConsent,
} from '../../../src/stores/consent.ts';
import { MemoryStorage } from './fakes.ts';

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
});

describe('cookie consent (docs/product.md §3, §4)', () => {
  it('has four categories; necessary is on and the others off by default', () => {
    expect(CONSENT_CATEGORIES).toEqual(['necessary', 'preferences', 'statistics', 'marketing']);
    expect(DEFAULT_CONSENT).toEqual({ necessary: true, preferences: false, statistics: false, marketing: false });
  });

  it('merges a stored value with the defaults and never turns necessary off', () => {
    expect(mergeConsent({ statistics: true })).toEqual({ ...DEFAULT_CONSENT, statistics: true });
    expect(mergeConsent({ necessary: false, marketing: 'yes', extra: 1 })).toEqual(DEFAULT_CONSENT);
    expect(mergeConsent(null)).toEqual(DEFAULT_CONSENT);
    expect(mergeConsent([true])).toEqual(DEFAULT_CONSENT);
  });

  it('treats corrupt or non-object JSON as nothing saved', () => {
    storage.setItem(CONSENT_STORAGE_KEY, '{not json');
    expect(readStoredConsent(storage)).toBeNull();
    storage.setItem(CONSENT_STORAGE_KEY, '42');
    expect(readStoredConsent(storage)).toBeNull();
    expect(loadConsent(storage)).toEqual({ consent: DEFAULT_CONSENT, saved: false });
  });

  it('opens the banner on its settings when nothing is saved, and keeps it closed once saved', () => {
    loadConsent(storage);
    expect($consentBanner.get()).toMatchObject({ open: true, settingsOpen: true });
    storage.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ preferences: true }));
    expect(loadConsent(storage)).toEqual({ consent: { ...DEFAULT_CONSENT, preferences: true }, saved: true });
    expect($consentBanner.get().open).toBe(false);
  });

  it('Deny saves necessary only', () => {
    loadConsent(storage);
    denyConsent(storage);
    expect(JSON.parse(storage.getItem(CONSENT_STORAGE_KEY) ?? '')).toEqual(DEFAULT_CONSENT);
    expect($consent.get()).toEqual({ consent: DEFAULT_CONSENT, saved: true });
    expect($consentBanner.get().open).toBe(false);
  });

  it('Allow Selection saves the switches as they are', () => {
    allowSelectedConsent({ statistics: true, marketing: false }, storage);
    expect(readStoredConsent(storage)).toEqual({ ...DEFAULT_CONSENT, statistics: true });
  });

  it('Allow All turns all four on', () => {
    allowAllConsent(storage);
    expect(readStoredConsent(storage)).toEqual(ALL_CONSENT);
    expect($consent.get().consent).toEqual({ necessary: true, preferences: true, statistics: true, marketing: true });
  });

  it('"Cookie settings" reopens the banner with its settings', () => {
    allowAllConsent(storage);
    openConsentSettings();
    expect($consentBanner.get()).toEqual({ open: true, settingsOpen: true, requested: true });
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => {},
    };
    expect(loadConsent(broken).saved).toBe(false);
    expect(allowAllConsent(broken)).toEqual(ALL_CONSENT);
  });
});
