/**
 * The cookie banner (docs/product.md §3, §4): open until the visitor saves a choice, and not dismissable
 * by an outside click or Escape. With nothing saved its settings panel (four switches, necessary
 * locked on) is open. Deny saves necessary only, Allow Selection the switches, Allow All all four.
 *
 * A landmark region (not a dialog) fixed along the bottom of the screen: it sits early in the
 * document, so Tab enters it, goes through its controls and leaves it for the page in document
 * order — no focus trap, no invisible focus stops (WCAG 2.1.2). While it is open the page gets
 * room below its content so nothing stays hidden behind it. It does not take focus when it opens
 * by itself; opened from a "Cookie settings" link it does, and gives it back when closed.
 *
 * On phones it is compact: the four switches wait behind "Customise" until asked for, and
 * "Allow Selection" with them: it is offered only where the choices it saves are shown
 * (docs/decisions/009-cookie-banner-region.md, 018-first-use.md).
 */
import { useEffect, useRef, useState } from 'react';
import { useClientStore } from '../../lib/use-client-store.ts';
import {
  $consent,
  $consentBanner,
  allowAllConsent,
  allowSelectedConsent,
  BANNER_ROOM_EXTRA_PX,
  confirmConsentSaved,
  denyConsent,
  setConsentSettingsOpen,
  type ConsentCategory,
} from '../../stores/consent.ts';
import { Button } from '../../components/ui/button.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { m } from '../../shared/i18n.ts';

/** The categories and their words (messages, called as the banner renders: the page's language). */
const CATEGORIES: readonly { key: ConsentCategory; label: () => string; description: () => string }[] = [
  { key: 'necessary', label: m.shell_cookie_necessary, description: m.shell_cookie_necessary_description },
  { key: 'preferences', label: m.shell_cookie_preferences, description: m.shell_cookie_preferences_description },
  { key: 'statistics', label: m.shell_cookie_statistics, description: m.shell_cookie_statistics_description },
  { key: 'marketing', label: m.shell_cookie_marketing, description: m.shell_cookie_marketing_description },
];

/** What the prerendered page shows: open with its settings, as for a first visit (CSS hides it for visitors who chose). */
const PRERENDERED = { open: true, settingsOpen: true, requested: false };
const NOTHING_SAVED = { consent: { necessary: true as const, preferences: false, statistics: false, marketing: false }, saved: false };
/** Below this width (Tailwind's `sm`) the banner is compact. */
const COMPACT_QUERY = '(max-width: 639.98px)';

type Selection = Record<Exclude<ConsentCategory, 'necessary'>, boolean>;

/** True on phone-sized screens, following changes (rotation, resizing). */
function useCompactScreen(): boolean {
  const [compact, setCompact] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(COMPACT_QUERY);
    const update = (): void => setCompact(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return compact;
}

export default function CookieBanner() {
  const banner = useClientStore($consentBanner, PRERENDERED);
  const [hydrated, setHydrated] = useState(false);
  const { consent } = useClientStore($consent, NOTHING_SAVED);
  const [selection, setSelection] = useState<Selection>({ preferences: consent.preferences, statistics: consent.statistics, marketing: consent.marketing });
  const compact = useCompactScreen();
  /** On phones the switches show once "Customise" is pressed (or the visitor asked for the settings). */
  const [customising, setCustomising] = useState(false);
  const returnFocus = useRef<HTMLElement | null>(null);
  const heading = useRef<HTMLHeadingElement | null>(null);
  const [element, setElement] = useState<HTMLElement | null>(null);

  useEffect(() => setHydrated(true), []);

  // Every opening starts from the saved choice; opened on request, focus moves to the banner.
  useEffect(() => {
    if (!banner.open) return;
    const saved = $consent.get().consent;
    setSelection({ preferences: saved.preferences, statistics: saved.statistics, marketing: saved.marketing });
    setCustomising(banner.requested);
    if (banner.requested) {
      if (document.activeElement instanceof HTMLElement) returnFocus.current = document.activeElement;
      heading.current?.focus();
    }
  }, [banner.open, banner.requested]);

  // Room below the page for the banner, so no content stays behind it.
  useEffect(() => {
    if (!banner.open) {
      document.body.style.removeProperty('padding-bottom');
      return;
    }
    // Not measured yet: the room the page was given at first paint stays (BaseLayout's inline script).
    if (!element) return;
    // The page's <body> is replaced by each client-side navigation: set the room again then.
    const apply = (): void => {
      document.body.style.setProperty('padding-bottom', `${element.offsetHeight + BANNER_ROOM_EXTRA_PX}px`);
    };
    const observer = new ResizeObserver(apply);
    observer.observe(element);
    document.addEventListener('astro:after-swap', apply);
    return () => {
      observer.disconnect();
      document.removeEventListener('astro:after-swap', apply);
      document.body.style.removeProperty('padding-bottom');
    };
  }, [banner.open, element]);

  if (!banner.open) return null;

  // On phones the switches wait behind "Customise" (CSS, so the prerendered page is compact too).
  const showSwitches = banner.settingsOpen && (!compact || customising);

  const done = (save: () => void) => () => {
    const target = returnFocus.current;
    returnFocus.current = null;
    save();
    confirmConsentSaved();
    if (target?.isConnected) target.focus();
  };

  return (
    <section
      ref={setElement}
      aria-labelledby="cookie-banner-title"
      aria-describedby="cookie-banner-description"
      data-cookie-banner
      data-hydrated={hydrated ? '' : undefined}
      className="fixed inset-x-0 bottom-0 z-[90] max-h-[85dvh] overflow-y-auto border-t border-border bg-card px-4 py-3 text-card-foreground shadow-[0_-8px_30px_rgb(0_0_0/0.12)] sm:px-6"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-2 sm:gap-3 lg:flex-row lg:items-start lg:gap-6">
        <div className="min-w-0 lg:flex-1">
          <h2 id="cookie-banner-title" ref={heading} tabIndex={-1} className="text-sm font-semibold outline-none sm:text-base">
            {m.shell_cookie_title()}
          </h2>
          <p id="cookie-banner-description" className="mt-0.5 text-xs text-muted-foreground sm:mt-1 sm:text-sm">
            <span className="max-sm:hidden">{m.shell_cookie_description()} </span>
            <span className="sm:hidden">{m.shell_cookie_description_short()} </span>
            {m.shell_cookie_read_before()}{' '}
            <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
              {m.shell_cookie_privacy_link()}
              <span className="sr-only"> {m.shell_common_new_tab()}</span>
            </a>
            {m.shell_cookie_read_after()}{' '}
            <button
              type="button"
              aria-expanded={showSwitches}
              aria-controls="cookie-banner-categories"
              onClick={() => {
                if (compact) {
                  const next = !showSwitches;
                  setCustomising(next);
                  if (next && !banner.settingsOpen) setConsentSettingsOpen(true);
                } else setConsentSettingsOpen(!banner.settingsOpen);
              }}
              className="inline-flex min-h-6 items-center font-medium text-primary underline underline-offset-4 hover:no-underline"
            >
              {m.shell_cookie_customise()}
            </button>
          </p>
        </div>

        <div
          id="cookie-banner-categories"
          role="group"
          aria-label={m.shell_cookie_categories()}
          hidden={!banner.settingsOpen}
          className={`grid gap-x-5 gap-y-2 sm:grid-cols-2 lg:w-[27rem] lg:shrink-0 ${customising ? '' : 'max-sm:hidden'}`}
        >
          {CATEGORIES.map(({ key, label, description }) => {
            const id = `cookie-consent-${key}`;
            const checked = key === 'necessary' ? true : selection[key];
            return (
              <div key={key} className="flex items-center justify-between gap-3">
                <div className="flex min-w-0 flex-col">
                  <label htmlFor={id} className="text-sm font-medium">
                    {label()}
                  </label>
                  <span id={`${id}-description`} className="text-xs leading-snug text-muted-foreground">
                    {description()}
                  </span>
                </div>
                <Switch
                  id={id}
                  checked={checked}
                  disabled={key === 'necessary'}
                  aria-describedby={`${id}-description`}
                  onCheckedChange={(value) => {
                    if (key !== 'necessary') setSelection((current) => ({ ...current, [key]: value }));
                  }}
                />
              </div>
            );
          })}
        </div>

        <div className="flex flex-wrap gap-2 lg:w-36 lg:shrink-0 lg:flex-col">
          <Button variant="outline" size="sm" data-consent-choice="deny" onClick={done(() => denyConsent())}>
            {m.shell_cookie_deny()}
          </Button>
          {/* Only beside the switches it saves: with the settings open, and on phones once "Customise" shows them (CSS, as the switches). */}
          {banner.settingsOpen && (
            <Button
              variant="secondary"
              size="sm"
              data-consent-choice="selection"
              className={customising ? undefined : 'max-sm:hidden'}
              onClick={done(() => allowSelectedConsent(selection))}
            >
              {m.shell_cookie_allow_selection()}
            </Button>
          )}
          <Button size="sm" data-consent-choice="all" onClick={done(() => allowAllConsent())}>
            {m.shell_cookie_allow_all()}
          </Button>
        </div>
      </div>
    </section>
  );
}
