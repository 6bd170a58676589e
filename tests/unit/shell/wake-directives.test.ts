// @vitest-environment happy-dom
/**
 * The on-demand islands' directives (src/app/directives): a toast added, or "Cookie settings"
 * asked for, before the directive registered its listener (another island handled the click
 * first) still wakes the island — once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import consent from '../../../src/app/directives/consent.ts';
import toast from '../../../src/app/directives/toast.ts';
import { CONSENT_SETTINGS_EVENT, TOAST_EVENT, wake, wasSent } from '../../../src/platform/events.ts';

/** A directive's `load`, counting the hydrations it starts. */
function loader() {
  const hydrator = vi.fn(async () => {});
  const load = vi.fn(async () => hydrator);
  return { load, hydrator };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  for (const name of [...document.documentElement.getAttributeNames()]) if (name.startsWith('data-')) document.documentElement.removeAttribute(name);
});

describe('wake', () => {
  it('marks the page, so a later listener knows the event was sent', () => {
    expect(wasSent(TOAST_EVENT)).toBe(false);
    wake(TOAST_EVENT);
    expect(wasSent(TOAST_EVENT)).toBe(true);
    expect(wasSent(CONSENT_SETTINGS_EVENT)).toBe(false);
  });
});

describe('client:toast', () => {
  it('hydrates at once when a toast was added before it listened, and only once', async () => {
    wake(TOAST_EVENT);
    const { load, hydrator } = loader();
    await toast(load, {} as never, document.createElement('div'));
    await flush();
    expect(hydrator).toHaveBeenCalledTimes(1);
    wake(TOAST_EVENT);
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });

  it('waits for the first toast otherwise', async () => {
    const { load } = loader();
    await toast(load, {} as never, document.createElement('div'));
    await flush();
    expect(load).not.toHaveBeenCalled();
    wake(TOAST_EVENT);
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('client:consent', () => {
  it('opens the settings asked for before it listened (consent already saved), once', async () => {
    document.documentElement.setAttribute('data-consent-saved', '');
    wake(CONSENT_SETTINGS_EVENT);
    const { load } = loader();
    await consent(load, {} as never, document.createElement('div'));
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    wake(CONSENT_SETTINGS_EVENT);
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
