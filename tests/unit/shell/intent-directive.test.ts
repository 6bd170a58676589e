// @vitest-environment happy-dom
/**
 * `client:intent` (src/app/directives/intent.ts): a prerendered guest form hydrates when the
 * visitor reaches for it, not with the page; at once for a signed-in visitor or a mailed link when
 * asked; a press made before it was ready is replayed once the island's submit guard is gone
 * (React has committed). `client:idle-once` (the header's controls) hydrates at the first idle
 * moment, or at once when reached for, and replays a press made before.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import idleOnce from '../../../src/app/directives/idle-once.ts';
import intent from '../../../src/app/directives/intent.ts';
import { SIGNED_IN_EVENT, wake } from '../../../src/platform/events.ts';

const flush = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An island holding a form as prerendered (components/ui/button.tsx): a plain button, the hidden
 * disabled submit guard and the submit button as a plain one; `hydrator` makes it the submit button.
 */
function island() {
  const element = document.createElement('astro-island');
  element.innerHTML =
    '<form><input name="email"><button type="button" id="show">Show</button><button type="submit" disabled hidden data-submit-guard></button><button type="button" id="go">Go</button></form>';
  document.body.append(element);
  const submit = element.querySelector<HTMLButtonElement>('#go')!;
  const hydrator = vi.fn(async () => {
    setTimeout(() => {
      element.querySelector('[data-submit-guard]')?.remove();
      submit.type = 'submit';
    }, 30);
  });
  const load = vi.fn(async () => hydrator);
  return { element, load, hydrator, submit, form: element.querySelector('form')!, show: element.querySelector<HTMLButtonElement>('#show')! };
}

afterEach(async () => {
  // A hydration woken in a test ends after it (the island's hydrator enables its submit button after
  // 30 ms, then a frame): let it end while the window is still there.
  await flush(50);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  document.body.innerHTML = '';
  for (const name of [...document.documentElement.getAttributeNames()]) if (name.startsWith('data-')) document.documentElement.removeAttribute(name);
  history.replaceState(null, '', '/');
});

describe('client:intent', () => {
  it('does not load the island with the page, then hydrates once at the first focus inside', async () => {
    const { element, load, hydrator } = island();
    await intent(load, { name: 'intent', value: '' }, element);
    await flush();
    expect(load).not.toHaveBeenCalled();
    element.querySelector('input')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    element.querySelector('input')!.dispatchEvent(new Event('input', { bubbles: true }));
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });

  it('hydrates on a pointer over it, and tries again at the next intent when its code did not load', async () => {
    const { element } = island();
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(async () => {});
    await intent(load, { name: 'intent', value: '' }, element);
    element.dispatchEvent(new Event('pointerover'));
    await flush();
    element.dispatchEvent(new Event('pointerover'));
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('replays a button pressed before it was ready, once the submit button is enabled', async () => {
    const { element, load, show } = island();
    const clicks = vi.fn();
    await intent(load, { name: 'intent', value: '' }, element);
    show.addEventListener('click', (event) => {
      if (!event.defaultPrevented) clicks();
    });
    show.click();
    await flush();
    expect(clicks).not.toHaveBeenCalled();
    await flush(100);
    expect(clicks).toHaveBeenCalledTimes(1);
  });

  it('submits the form after Enter in a field pressed before it was ready, only once React is in place', async () => {
    const { element, load, form, submit } = island();
    const submitted = vi.fn();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submitted(submit.type);
    });
    await intent(load, { name: 'intent', value: '' }, element);
    element.querySelector('input')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    await flush(100);
    expect(submitted).toHaveBeenCalledTimes(1);
    expect(submitted).toHaveBeenCalledWith('submit');
  });

  it('replays a press on the submit button made before it was ready as a submit, once React is in place', async () => {
    const { element, load, form, submit } = island();
    const submitted = vi.fn();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submitted();
    });
    await intent(load, { name: 'intent', value: '' }, element);
    submit.click();
    await flush();
    expect(submitted).not.toHaveBeenCalled();
    await flush(100);
    expect(submitted).toHaveBeenCalledTimes(1);
  });

  it('"signed-in": at once for a signed-in visitor (before or after it listened), hiding its guest-only parts meanwhile', async () => {
    const first = island();
    await intent(first.load, { name: 'intent', value: 'signed-in' }, first.element);
    await flush();
    expect(first.load).not.toHaveBeenCalled();
    wake(SIGNED_IN_EVENT);
    expect(first.element.hasAttribute('data-waking')).toBe(true);
    await flush();
    expect(first.load).toHaveBeenCalledTimes(1);
    const second = island();
    await intent(second.load, { name: 'intent', value: 'signed-in' }, second.element);
    await flush();
    expect(second.load).toHaveBeenCalledTimes(1);
  });

  it('"?token": at once when the address has a token, else on intent', async () => {
    const plain = island();
    await intent(plain.load, { name: 'intent', value: 'signed-in ?token' }, plain.element);
    await flush();
    expect(plain.load).not.toHaveBeenCalled();
    history.replaceState(null, '', '/data-deletion?token=abc');
    const link = island();
    await intent(link.load, { name: 'intent', value: 'signed-in ?token' }, link.element);
    await flush();
    expect(link.load).toHaveBeenCalledTimes(1);
  });
});

describe('client:idle-once', () => {
  /** A header control as prerendered: a stand-in button; its press counts only once React is in place. */
  function control() {
    const element = document.body.appendChild(document.createElement('astro-island'));
    element.innerHTML = '<button type="button">Colour mode</button>';
    const button = element.querySelector('button')!;
    let ready = false;
    const presses = vi.fn();
    button.addEventListener('click', (event) => {
      if (ready && !event.defaultPrevented) presses();
    });
    const hydrator = vi.fn(async () => {
      ready = true;
    });
    return { element, button, presses, hydrator, load: vi.fn(async () => hydrator) };
  }

  it('hydrates once the browser is idle, without a press', async () => {
    const { element, load, hydrator } = control();
    await idleOnce(load, { name: 'idle-once', value: '' }, element);
    expect(load).not.toHaveBeenCalled();
    await flush(250);
    expect(hydrator).toHaveBeenCalledTimes(1);
  });

  it('hydrates at once on a press made before the idle moment, and the press opens what it pressed', async () => {
    const { element, load, button, presses } = control();
    await idleOnce(load, { name: 'idle-once', value: '' }, element);
    button.click();
    await flush();
    expect(load).toHaveBeenCalledTimes(1);
    await flush(20);
    expect(presses).toHaveBeenCalledTimes(1);
    // Moved into the next page (transition:persist), its directive runs again: React answers its presses, nothing is replayed.
    await idleOnce(load, { name: 'idle-once', value: '' }, element);
    button.click();
    await flush(20);
    expect(presses).toHaveBeenCalledTimes(2);
  });
});
