/**
 * The cookie banner (SPEC.md §3, §4): open until the visitor saves a choice, and not dismissable
 * by an outside click or Escape. With nothing saved its settings panel (four switches, necessary
 * locked on) is open. Deny saves necessary only, Allow Selection the switches, Allow All all four.
 *
 * A non-modal Radix Dialog as a bar along the bottom of the screen: the page stays usable around it, and while
 * it is open the page gets room below its content so nothing stays hidden behind it. It does not
 * take focus when it opens by itself; opened from a "Cookie settings" link it does, and gives it
 * back when closed.
 */
import { useEffect, useRef, useState } from 'react';
import { useClientStore } from '../../lib/use-client-store.ts';
import { Dialog } from 'radix-ui';
import {
  $consent,
  $consentBanner,
  allowAllConsent,
  allowSelectedConsent,
  denyConsent,
  setConsentSettingsOpen,
  type ConsentCategory,
} from '../../stores/consent.ts';
import { toast } from '../../stores/toasts.ts';
import { Button } from '../../components/ui/button.tsx';
import { Switch } from '../../components/ui/switch.tsx';

const CATEGORIES: readonly { key: ConsentCategory; label: string; description: string }[] = [
  { key: 'necessary', label: 'Necessary', description: 'Sign-in and security. Always on.' },
  { key: 'preferences', label: 'Preferences', description: 'Remembers your settings.' },
  { key: 'statistics', label: 'Statistics', description: 'Usage statistics (Google Analytics).' },
  { key: 'marketing', label: 'Marketing', description: 'Measures our invitations.' },
];

const CLOSED = { open: false, settingsOpen: true, requested: false };
const NOTHING_SAVED = { consent: { necessary: true as const, preferences: false, statistics: false, marketing: false }, saved: false };

type Selection = Record<Exclude<ConsentCategory, 'necessary'>, boolean>;

function confirmSaved(): void {
  toast({ title: 'Cookie choices saved', description: 'Change them any time with “Cookie settings” at the bottom of the page.' });
}

export default function CookieBanner() {
  const banner = useClientStore($consentBanner, CLOSED);
  const { consent } = useClientStore($consent, NOTHING_SAVED);
  const [selection, setSelection] = useState<Selection>({ preferences: consent.preferences, statistics: consent.statistics, marketing: consent.marketing });
  const returnFocus = useRef<HTMLElement | null>(null);
  const [element, setElement] = useState<HTMLDivElement | null>(null);

  // Every opening starts from the saved choice.
  useEffect(() => {
    if (!banner.open) return;
    const saved = $consent.get().consent;
    setSelection({ preferences: saved.preferences, statistics: saved.statistics, marketing: saved.marketing });
    if (banner.requested && document.activeElement instanceof HTMLElement) returnFocus.current = document.activeElement;
  }, [banner.open, banner.requested]);

  // Room below the page for the banner, so no content stays behind it.
  useEffect(() => {
    if (!banner.open || !element) {
      document.body.style.removeProperty('padding-bottom');
      return;
    }
    // The page's <body> is replaced by each client-side navigation: set the room again then.
    const apply = (): void => {
      document.body.style.setProperty('padding-bottom', `${element.offsetHeight + 24}px`);
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

  const done = (save: () => void) => () => {
    save();
    confirmSaved();
  };

  return (
    <Dialog.Root open={banner.open} modal={false}>
      <Dialog.Content
        ref={setElement}
        aria-describedby="cookie-banner-description"
        onEscapeKeyDown={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
        onOpenAutoFocus={(event) => {
          if (!$consentBanner.get().requested) event.preventDefault();
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          const target = returnFocus.current;
          returnFocus.current = null;
          if (target?.isConnected) target.focus();
        }}
        data-cookie-banner
        className="fixed inset-x-0 bottom-0 z-[90] max-h-[85dvh] overflow-y-auto border-t border-border bg-card px-4 py-3 text-card-foreground shadow-[0_-8px_30px_rgb(0_0_0/0.12)] sm:px-6"
      >
        <div className="mx-auto flex max-w-6xl flex-col gap-3 lg:flex-row lg:items-start lg:gap-6">
          <div className="min-w-0 lg:flex-1">
            <Dialog.Title className="text-base font-semibold">Cookies on Fieldwork</Dialog.Title>
            <Dialog.Description id="cookie-banner-description" className="mt-1 text-sm text-muted-foreground">
              We use necessary cookies to run Fieldwork. With your consent we also use cookies for preferences, statistics and
              marketing. Read our{' '}
              <a href="/privacy" target="_blank" rel="noopener" className="font-medium text-primary underline underline-offset-4 hover:no-underline">
                privacy policy
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              .
            </Dialog.Description>
            <button
              type="button"
              aria-expanded={banner.settingsOpen}
              aria-controls="cookie-banner-categories"
              onClick={() => setConsentSettingsOpen(!banner.settingsOpen)}
              className="mt-1 text-sm font-medium text-primary underline underline-offset-4 hover:no-underline"
            >
              Customise
            </button>
          </div>

          <div
            id="cookie-banner-categories"
            role="group"
            aria-label="Cookie categories"
            hidden={!banner.settingsOpen}
            className="grid gap-x-5 gap-y-2 sm:grid-cols-2 lg:w-[27rem] lg:shrink-0"
          >
            {CATEGORIES.map(({ key, label, description }) => {
              const id = `cookie-consent-${key}`;
              const checked = key === 'necessary' ? true : selection[key];
              return (
                <div key={key} className="flex items-center justify-between gap-3">
                  <div className="flex min-w-0 flex-col">
                    <label htmlFor={id} className="text-sm font-medium">
                      {label}
                    </label>
                    <span id={`${id}-description`} className="text-xs leading-snug text-muted-foreground">
                      {description}
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
            <Button variant="outline" size="sm" onClick={done(() => denyConsent())}>
              Deny
            </Button>
            <Button variant="secondary" size="sm" onClick={done(() => allowSelectedConsent(selection))}>
              Allow Selection
            </Button>
            <Button size="sm" onClick={done(() => allowAllConsent())}>
              Allow All
            </Button>
          </div>
        </div>
      </Dialog.Content>
    </Dialog.Root>
  );
}
