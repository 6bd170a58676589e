// @vitest-environment happy-dom
/**
 * The on-demand islands' directives (src/app/directives): a toast added, or "Cookie settings"
 * asked for, before the directive registered its listener (another island handled the click
 * first) still wakes the island — once; an island is hydrated once however many calls ask.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import consent from '../../../src/app/directives/consent.ts';
import { hydrateOnce } from '../../../src/app/directives/hydrate-once.ts';
import toast from '../../../src/app/directives/toast.ts';
import { CONSENT_SETTINGS_EVENT, TOAST_EVENT, wake, wasSent } from '../../../src/platform/events.ts';

/** A directive's `load`, counting the hydrations it starts. */
function loader() {
  const hydrator = vi.fn(async () => {});
  const load = vi.fn(async () => hydrator);
  return { load, hydrator };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** An island in the page (the directives hydrate only a connected one). */
function island(): HTMLElement {
  return document.body.appendChild(document.createElement('astro-island'));
}

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
    await toast(load, {} as never, island());
    await flush();
    expect(hydrator).toHaveBeenCalledTimes(1);
    wake(TOAST_EVENT);
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });

  it('waits for the first toast otherwise', async () => {
    const { load } = loader();
    await toast(load, {} as never, island());
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
    await consent(load, {} as never, island());
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    wake(CONSENT_SETTINGS_EVENT);
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('hydrateOnce', () => {
  it('hydrates an island once when a navigation ran its directive twice; the second call waits for the first', async () => {
    const element = island();
    let finish = (): void => {};
    const hydrator = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const load = vi.fn(async () => hydrator);
    let secondDone = false;
    const first = hydrateOnce(element, load);
    const second = hydrateOnce(element, load).then(() => (secondDone = true));
    await flush();
    expect(hydrator).toHaveBeenCalledTimes(1);
    expect(secondDone).toBe(false);
    finish();
    await Promise.all([first, second]);
    expect(secondDone).toBe(true);
    await hydrateOnce(element, load);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });

  it('leaves an island out of the page (mid-swap) to the call that puts it back', async () => {
    const element = document.createElement('astro-island');
    const { load, hydrator } = loader();
    await hydrateOnce(element, load);
    expect(hydrator).not.toHaveBeenCalled();
    document.body.append(element);
    await hydrateOnce(element, load);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });
});
